"""A seat whose player is not named (forgotten, or gone from the server): "Former player" where a
name stands alone (a picture's seat, a list, an export), "a former player" inside a sentence."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.i18n import ENGLISH_LANG, N_, Lang
from bot.storage.models import FORMER_PLAYER_ID, PlayerResult

FORMER_PLAYER = N_("Former player")
# Translators: an unnamed player inside a sentence ("… then a former player went out").
A_FORMER_PLAYER = N_("a former player")


@dataclass(frozen=True, slots=True)
class SeatNames:
    """Each seat's name two ways: as a label, and as running text tells it."""

    labels: list[str]
    told: list[str]


def seat_names(shown: Sequence[str | None], tongue: Lang = ENGLISH_LANG) -> SeatNames:
    """``shown`` names (None for a seat not to be named) as labels and as told in sentences."""
    label, told = tongue.gettext(FORMER_PLAYER), tongue.gettext(A_FORMER_PLAYER)
    return SeatNames(
        labels=[label if name is None else name for name in shown],
        told=[told if name is None else name for name in shown],
    )


def stored_names(players: Sequence[PlayerResult], tongue: Lang = ENGLISH_LANG) -> SeatNames:
    """``players``' names as stored, in their order, a forgotten member unnamed."""
    return seat_names(
        [None if p.user_id == FORMER_PLAYER_ID and not p.computer else p.name for p in players],
        tongue,
    )


def sentence_start(line: str, told: str) -> str:
    """``line`` with its first letter a capital when it opens with ``told`` (bold or not)."""
    for lead in ("**", ""):
        if told and line.startswith(lead + told):
            at = len(lead)
            return line[:at] + line[at].upper() + line[at + 1 :]
    return line
