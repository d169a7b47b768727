"""Table options that shape a match: edition, scoring, target, the written Wild Customizable
rule and the house rules."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .cards import Edition
from .house import OFFICIAL, HouseRules

DEFAULT_TARGET = 500
HOUSE_RULE_MAX = 200


class Scoring(StrEnum):
    """Standard: the round winner scores the others' cards. Lowest: everyone keeps their own."""

    STANDARD = "standard"
    LOWEST = "lowest"


@dataclass(frozen=True, slots=True)
class RuleSet:
    """What a table plays: the edition, how points count, when the match ends, house rules."""

    edition: Edition = Edition.CLASSIC
    scoring: Scoring = Scoring.STANDARD
    target: int | None = DEFAULT_TARGET  # None: a single round decides the match
    house_rule: str = ""
    house: HouseRules = OFFICIAL
    teams: int = 0  # 0: every player for themselves; N: N teams, seat s on team s mod N
    partners_see: bool = False  # partners may look at each other's hands

    def to_dict(self) -> dict[str, object]:
        return {
            "edition": self.edition.value,
            "scoring": self.scoring.value,
            "target": self.target,
            "house_rule": self.house_rule,
            "house": self.house.to_dict(),
            "teams": self.teams,
            "partners_see": self.partners_see,
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> RuleSet:
        """Rebuild saved rules; a record from before house rules (or teams) loads without them."""
        target = data.get("target")
        return cls(
            edition=Edition(str(data["edition"])),
            scoring=Scoring(str(data.get("scoring", "standard"))),
            target=int(target) if isinstance(target, int) else None,
            house_rule=str(data.get("house_rule", "")),
            house=HouseRules.parse(data.get("house") or {}),
            teams=int(str(data.get("teams", 0))),
            partners_see=data.get("partners_see") is True,
        )
