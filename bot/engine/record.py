"""A round's record: the dealt deck, its seed, the options and every action applied.

It is what the league keeps of a round: compact to store (one character a card, a few a move),
exported in the scenario command's format, and replayed by the engine to the same final state
and scores. The seed and the deck also make the round's shuffle checkable: the commitment shown
at the deal is the SHA-256 of both (docs/fairness.md).
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from typing import Any

from . import scenario
from .action import Action, Do
from .cards import CARD_INDEX, CARD_POINTS, CODES, COLORS, Edition
from .errors import RuleError
from .game import MAX_PLAYERS, MIN_PLAYERS, Game
from .house import OFFICIAL, HouseRules
from .rules import Scoring
from .teams import TEAM_COUNTS, fits, round_team_points, sides_left

RECORD_VERSION = 1
COMMITMENT_CHARS = 16  # the hex digits shown at the deal: 64 bits, enough that nobody forges one

# One character per card kind in a stored deck or move (57 kinds, 64 characters).
_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_"
_CARD_OF = {char: index for index, char in enumerate(_ALPHABET[: len(CODES)])}
_DO_LETTER = {
    "play": "p",
    "draw": "d",
    "pass": "s",
    "accept": "a",
    "challenge": "c",
    "choose_color": "k",
    "call_uno": "u",
    "catch": "x",
    "leave": "l",
}
_LETTER_DO = {letter: Do(do) for do, letter in _DO_LETTER.items()}
_COLOR_LETTER = "rygb"  # COLORS' initials, in COLORS' order


class RecordError(ValueError):
    """A stored or imported record that is not a valid round (one line, safe to show)."""


def commitment(seed: int, deck: list[int] | tuple[int, ...]) -> str:
    """The deal's commitment: SHA-256 of ``SEED:card,card,...`` (deck top first), shortened."""
    text = f"{seed}:{','.join(CODES[card] for card in deck)}"
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:COMMITMENT_CHARS]


def revealed(text: str) -> tuple[str, int] | None:
    """A stored record's commitment and the seed it reveals (None for a damaged record)."""
    try:
        record = RoundRecord.from_text(text)
    except RecordError:
        return None
    return record.commitment, record.seed


def round_points(game: Game, scoring: Scoring, forfeit: bool = False) -> list[int]:
    """What a finished round adds to each seat's match total under the match's scoring (in a
    team round, standard: the seat that went out carries the other teams' cards)."""
    if forfeit or len(sides_left(game)) <= 1:
        return [0] * game.n
    if scoring is Scoring.STANDARD and game.teams:
        won = round_team_points(game, lowest=False)[game.winner % game.teams]
        return [won if s == game.winner else 0 for s in range(game.n)]
    if scoring is Scoring.STANDARD:
        assert game.points is not None
        return list(game.points)
    return [sum(CARD_POINTS[c] for c in game.hands[s]) for s in range(game.n)]


def apply_recorded(game: Game, action: Action) -> None:
    """Apply one recorded action exactly as the table did (leaves and stalemates included)."""
    scenario.apply_one(game, action)


def _token(action: Action) -> str:
    """A move in a few characters: seat digit, action letter, then the card's character (a
    play), a color letter, a target (``@`` and a digit; a catch's digit alone), ``!`` for UNO.
    Every move starts with its seat's digit, so moves follow one another without a separator."""
    parts = [str(action.seat), _DO_LETTER[action.do]]
    if action.card is not None:
        parts.append(_ALPHABET[action.card])
    if action.color is not None and 0 <= action.color < len(COLORS):
        parts.append(_COLOR_LETTER[action.color])
    if action.target is not None:
        parts.append(str(action.target) if action.do == "catch" else f"@{action.target}")
    if action.uno:
        parts.append("!")
    return "".join(parts)


def _moves(text: str) -> tuple[Action, ...]:
    """The moves ``_token`` wrote one after another; RecordError for anything else."""
    actions: list[Action] = []
    at, end = 0, len(text)
    while at < end:
        start = at
        if not text[at].isdigit() or at + 1 >= end or text[at + 1] not in _LETTER_DO:
            raise RecordError(f"bad move at {start}: {scenario.short(text[start : start + 6])}")
        seat, do = int(text[at]), _LETTER_DO[text[at + 1]]
        at += 2
        card = color = target = None
        if do == "play":
            if at >= end or text[at] not in _CARD_OF:
                raise RecordError(f"bad move at {start}: a play without its card")
            card = _CARD_OF[text[at]]
            at += 1
        if at < end and text[at] in _COLOR_LETTER:
            color = _COLOR_LETTER.index(text[at])
            at += 1
        if do == "catch" or (at < end and text[at] == "@"):
            at += do != "catch"
            if at >= end or not text[at].isdigit():
                raise RecordError(f"bad move at {start}: a target without its seat")
            target = int(text[at])
            at += 1
        uno = at < end and text[at] == "!"
        at += uno
        actions.append(Action(seat, do, card, color, uno, target))
    return tuple(actions)


def action_json(action: Action) -> dict[str, Any]:
    """An action as the scenario command reads it."""
    out: dict[str, Any] = {"seat": action.seat, "do": str(action.do)}
    if action.card is not None:
        out["card"] = CODES[action.card]
    if action.color is not None and 0 <= action.color < len(COLORS):
        out["color"] = COLORS[action.color]
    if action.uno:
        out["uno"] = True
    if action.target is not None:
        out["target"] = action.target
    return out


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One round from its deal to its last action, and what it added to the match."""

    edition: Edition
    players: int
    dealer: int
    deck: tuple[int, ...]  # index 0 is the top, as dealt
    seed: int  # the round's random generator: reshuffles, a returned first card, leavers' cards
    actions: tuple[Action, ...]
    house: HouseRules = OFFICIAL
    scoring: Scoring = Scoring.STANDARD
    active: tuple[bool, ...] = ()  # empty: every seat in play at the deal
    points: tuple[int, ...] | None = None  # per seat, what the round added; None: unfinished
    forfeit: bool = False  # the match ended in this round with one player (or team) left
    teams: int = 0  # 0: no teams; else seat s is on team s mod teams
    partners_see: bool = False  # partners could look at each other's hands (no rule changes)

    @property
    def commitment(self) -> str:
        """The short SHA-256 shown when this round was dealt."""
        return commitment(self.seed, self.deck)

    def new_game(self) -> Game:
        """The round as dealt, before any action."""
        return Game(
            self.edition,
            self.players,
            self.dealer,
            list(self.deck),
            random.Random(self.seed),
            active=list(self.active) if self.active else None,
            house=self.house,
            teams=self.teams,
        )

    def replay(self, upto: int | None = None) -> Game:
        """The round after its first ``upto`` actions (all of them by default)."""
        game = self.new_game()
        for action in self.actions[:upto]:
            apply_recorded(game, action)
        return game

    def replayed_points(self) -> list[int] | None:
        """What the replayed round adds to the match (None if it does not end)."""
        game = self.replay()
        return round_points(game, self.scoring, self.forfeit) if game.over else None

    # ----- stored form -----

    def to_text(self) -> str:
        """The compact stored form: a small JSON object, the deck and moves as short text."""
        data: dict[str, Any] = {
            "v": RECORD_VERSION,
            "e": self.edition.value,
            "n": self.players,
            "d": self.dealer,
            "s": self.seed,
            "k": "".join(_ALPHABET[card] for card in self.deck),
            "x": "".join(_token(a) for a in self.actions),
        }
        if self.house.to_dict():
            data["h"] = self.house.to_dict()
        if self.scoring is not Scoring.STANDARD:
            data["c"] = self.scoring.value
        if not all(self.active):
            data["a"] = "".join("1" if a else "0" for a in self.active)
        if self.points is not None:
            data["p"] = list(self.points)
        if self.forfeit:
            data["f"] = 1
        if self.teams:
            data["t"] = self.teams
        if self.partners_see:
            data["o"] = 1
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_text(cls, text: str) -> RoundRecord:
        """A record ``to_text`` wrote; RecordError when the text is not one."""
        try:
            data = json.loads(text)
            if not isinstance(data, dict) or data.get("v") != RECORD_VERSION:
                raise RecordError("not a round record of this version")
            deck = tuple(_CARD_OF[char] for char in str(data["k"]))
            actions = _moves(str(data["x"]))
            active = tuple(char == "1" for char in str(data.get("a", "")))
            points = data.get("p")
            players = int(data["n"])
            if not MIN_PLAYERS <= players <= MAX_PLAYERS or len(active) not in (0, players):
                raise RecordError("a round record with a wrong number of seats")
            teams = int(data.get("t", 0))
            if teams not in TEAM_COUNTS or not fits(teams, players):
                raise RecordError("a round record with teams that do not fit its seats")
            return cls(
                edition=Edition(data["e"]),
                players=players,
                dealer=int(data["d"]),
                deck=deck,
                seed=int(data["s"]),
                actions=actions,
                house=HouseRules.parse(data.get("h") or {}),
                scoring=Scoring(data.get("c", "standard")),
                active=active,
                points=tuple(int(p) for p in points) if points is not None else None,
                forfeit=bool(data.get("f", 0)),
                teams=teams,
                partners_see=bool(data.get("o", 0)),
            )
        except RecordError:
            raise
        except (ValueError, KeyError, TypeError) as exc:
            raise RecordError(f"damaged round record ({scenario.short(str(exc))})") from None

    # ----- the scenario command's format -----

    def to_scenario(self, **labels: Any) -> dict[str, Any]:
        """The round as ``python -m bot.engine scenario`` reads it; ``labels`` (names, the
        match's number ...) go under ``record``, which the command ignores."""
        data: dict[str, Any] = {
            "edition": self.edition.value,
            "players": self.players,
            "dealer": self.dealer,
            "deck": [CODES[card] for card in self.deck],
            "seed": self.seed,
        }
        if self.house.to_dict():
            data["house_rules"] = self.house.to_dict()
        if self.teams:
            data["options"] = {
                "teams": self.teams,
                "partners_see": self.partners_see,
                "scoring": self.scoring.value,
            }
        if self.active and not all(self.active):
            data["active"] = list(self.active)
        data["actions"] = [action_json(a) for a in self.actions]
        about: dict[str, Any] = {"commitment": self.commitment, "scoring": self.scoring.value}
        if self.points is not None:
            about["points"] = list(self.points)
        if self.forfeit:
            about["forfeit"] = True
        about.update(labels)
        data["record"] = about
        return data

    @classmethod
    def from_scenario(cls, data: Any) -> RoundRecord:
        """A record read from a scenario file, checked like any input: well-formed, the whole
        deck, every action accepted by the rules; RecordError (one line) otherwise."""
        try:
            return cls._from_scenario(data)
        except scenario.ScenarioError as exc:
            raise RecordError(str(exc)) from None
        except RecursionError:
            raise RecordError("the file is nested too deeply") from None

    @classmethod
    def _from_scenario(cls, data: Any) -> RoundRecord:
        if not isinstance(data, dict):
            raise RecordError("a round file holds one JSON object")
        result = scenario.run_scenario(data)  # validates fields, deck and every action
        if result["error"] is not None:
            error = result["error"]
            raise RecordError(f"action {error['index']} is refused: {error['message']}")
        players = int(data["players"])
        dealer = int(data.get("dealer", 0))
        about = data.get("record")
        about = about if isinstance(about, dict) else {}
        options = scenario.parse_options(data, players)
        given = data.get("options")
        scoring_name = about.get("scoring", "standard")
        if isinstance(given, dict) and "scoring" in given:
            scoring_name = options.scoring.value
        if scoring_name not in {s.value for s in Scoring}:
            raise RecordError(f"unknown scoring {scenario.short(scoring_name)}")
        actions: list[Action] = []
        for index, raw in enumerate(data.get("actions", [])):
            parsed = scenario.parse_action(raw, index, players)
            assert not isinstance(parsed, RuleError)  # run_scenario accepted every action
            actions.append(parsed)
        active = scenario.parse_active(data, players, dealer)
        points = about.get("points")
        if points is not None and (
            not isinstance(points, list)
            or len(points) != players
            or not all(isinstance(p, int) and not isinstance(p, bool) for p in points)
        ):
            raise RecordError("record.points must list one whole number per seat")
        record = cls(
            edition=Edition(data["edition"]),
            players=players,
            dealer=dealer,
            deck=tuple(CARD_INDEX[c] for c in data["deck"]),
            seed=int(data.get("seed", 0)),
            actions=tuple(actions),
            house=scenario.parse_house(data),
            scoring=Scoring(scoring_name),
            active=tuple(active) if active is not None else (),
            points=tuple(points) if points is not None else None,
            forfeit=about.get("forfeit") is True,
            teams=options.teams,
            partners_see=options.partners_see,
        )
        if record.points is not None and record.replayed_points() != list(record.points):
            raise RecordError("record.points are not what the round's actions score")
        return record


class RoundLog:
    """The record of the round being played, kept by the match as actions are applied."""

    __slots__ = ("active", "dealer", "deck", "moves", "seed")

    def __init__(
        self, dealer: int, deck: list[int], seed: int, active: list[bool], moves: str = ""
    ) -> None:
        self.dealer = dealer
        self.deck = "".join(_ALPHABET[card] for card in deck)
        self.seed = seed
        self.active = "".join("1" if a else "0" for a in active)
        self.moves = moves  # the moves' tokens, one after another

    def add(self, action: Action) -> None:
        """One more applied action."""
        self.moves += _token(action)

    @property
    def size(self) -> int:
        """How many actions are recorded so far."""
        return len(_moves(self.moves))

    @property
    def commitment(self) -> str:
        """The deal's commitment (what the table shows while the seed stays secret)."""
        return commitment(self.seed, [_CARD_OF[c] for c in self.deck])

    def finish(
        self,
        edition: Edition,
        house: HouseRules,
        scoring: Scoring,
        points: list[int],
        *,
        forfeit: bool = False,
        teams: int = 0,
        partners_see: bool = False,
    ) -> RoundRecord:
        """The finished round's record."""
        return RoundRecord(
            edition=edition,
            players=len(self.active),
            dealer=self.dealer,
            deck=tuple(_CARD_OF[char] for char in self.deck),
            seed=self.seed,
            actions=_moves(self.moves),
            house=house,
            scoring=scoring,
            active=tuple(char == "1" for char in self.active),
            points=tuple(points),
            forfeit=forfeit,
            teams=teams,
            partners_see=partners_see,
        )

    def to_json(self) -> list[Any]:
        """Saved with the match at every change (a restart goes on recording)."""
        return [self.dealer, self.deck, self.seed, self.active, self.moves]

    @classmethod
    def from_json(cls, data: list[Any]) -> RoundLog:
        """Rebuild a log saved by ``to_json``."""
        dealer, deck, seed, active, moves = data
        log = cls.__new__(cls)
        log.dealer, log.deck, log.seed = int(dealer), str(deck), int(seed)
        log.active, log.moves = str(active), str(moves)
        return log
