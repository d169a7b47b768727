"""Computer players at a table: the engine's AI, translated into the table's own actions."""

from __future__ import annotations

import random

from bot.engine import Match
from bot.engine.ai import decide
from bot.engine.cards import CODES, COLORS


def think(match: Match, seat: int, level: str, rng: random.Random) -> tuple[str, str | None]:
    """The table action (name, argument) a computer at ``seat`` takes now; runs in a thread."""
    action = decide(match.game, seat, level, rng)
    color = COLORS[action.color] if action.color is not None and action.color >= 0 else None
    if action.do == "play" and action.card is not None:
        arg = f"0.{CODES[action.card]}" + (f".{color}" if color else "")
        return ("uno_play" if action.uno else "play", arg)
    if action.do == "choose_color":
        return "color", color
    if action.do == "pass":
        return "keep", None
    return action.do, None
