"""One player action, as the engine's command line spells it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Do(StrEnum):
    """What an action does (a StrEnum: a saved or typed ``"play"`` is ``Do.PLAY``)."""

    PLAY = "play"
    DRAW = "draw"
    PASS = "pass"
    ACCEPT = "accept"
    CHALLENGE = "challenge"
    CHOOSE_COLOR = "choose_color"
    CALL_UNO = "call_uno"
    CATCH = "catch"
    LEAVE = "leave"


@dataclass(frozen=True, slots=True)
class Action:
    """One player action, as the scenario contract spells it."""

    seat: int
    do: Do
    card: int | None = None
    color: int | None = None
    uno: bool = False
    target: int | None = None  # whom to catch, or whom a 7 (seven_o) or swap_hands swaps with
