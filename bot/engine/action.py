"""One player action, as the engine's command line spells it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Action:
    """One player action, as the scenario contract spells it."""

    seat: int
    do: str
    card: int | None = None
    color: int | None = None
    uno: bool = False
    target: int | None = None  # whom to catch, or whom a 7 (seven_o) or swap_hands swaps with
