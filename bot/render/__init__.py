"""Pictures of the game: pure functions from the engine's views to PNG bytes (no Discord here).

Every function takes its words from a :class:`Words` (English by default), and every cache is
bounded: :func:`cache_report` tells what each holds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial

from bot.engine.cards import Edition

from . import art
from .art import card_image, color_rgb, edition_cards
from .cache import CacheStats, cache_report, cache_totals
from .hand import hand_palette, render_hand
from .leaderboard import leaderboard_palette, render_leaderboard
from .scores import render_scores, scores_palette
from .table import render_table, table_palette
from .words import ENGLISH, Words

__all__ = [
    "ENGLISH",
    "CacheStats",
    "Words",
    "cache_report",
    "cache_totals",
    "card_image",
    "color_rgb",
    "edition_cards",
    "render_hand",
    "render_leaderboard",
    "render_scores",
    "render_table",
    "warm_up",
    "warm_up_steps",
]


def warm_up_steps(editions: Iterable[Edition | str] = tuple(Edition)) -> list[Callable[[], object]]:
    """:func:`warm_up` as small steps (a palette, a card), for a queue that runs other pictures
    between them: the hands' palettes and cards first, then the table and score palettes."""
    chosen = list(map(Edition, editions))
    width = art.STORE_WIDTHS[0]  # a card's sprites at every stored width are made at once
    steps: list[Callable[[], object]] = [partial(hand_palette, e) for e in chosen]
    steps += [
        partial(art.card_face, code, e, width)
        for e in chosen
        for code in (*edition_cards(e), art.BACK)
    ]
    steps += [partial(make, e) for make in (table_palette, scores_palette) for e in chosen]
    steps.append(leaderboard_palette)
    return steps


def warm_up(editions: Iterable[Edition | str] = tuple(Edition)) -> None:
    """Build each edition's palettes and card sprites before the first game.

    About 0.5 s of CPU an edition; safe to run in a thread while pictures are being drawn.
    """
    for step in warm_up_steps(editions):
        step()
