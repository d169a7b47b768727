"""Pictures of the game: pure functions from the engine's views to PNG bytes (no Discord here).

Every function takes its words from a :class:`Words` (English by default), and every cache is
bounded: :func:`cache_report` tells what each holds.
"""

from __future__ import annotations

from collections.abc import Iterable

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
]


def warm_up(editions: Iterable[Edition | str] = tuple(Edition)) -> None:
    """Build each edition's palettes and card sprites before the first game.

    About 0.7 s of CPU an edition; safe to run in a thread while pictures are being drawn. The
    hands' palettes and cards come first: a player's first click after a start waits for them.
    """
    chosen = list(map(Edition, editions))
    for edition in chosen:
        hand_palette(edition)
    for edition in chosen:
        for code in (*edition_cards(edition), art.BACK):
            art.card_face(code, edition, art.STORE_WIDTHS[0])  # both widths are kept at once
    for make in (table_palette, scores_palette):
        for edition in chosen:
            make(edition)
    leaderboard_palette()
