"""Pictures of the game: pure functions from the engine's views to PNG bytes (no Discord here)."""

from __future__ import annotations

from collections.abc import Iterable

from bot.engine.cards import Edition

from .art import card_image, color_rgb, edition_cards
from .hand import render_hand
from .scores import render_scores
from .table import render_table

__all__ = [
    "card_image",
    "color_rgb",
    "edition_cards",
    "render_hand",
    "render_scores",
    "render_table",
    "warm_up",
]


def warm_up(editions: Iterable[Edition] = tuple(Edition)) -> None:
    """Draw the sprites and palettes ahead of the first game (about 0.5 s per edition)."""
    from .samples import sample_hand, sample_scores, sample_table

    for edition in editions:
        render_table(sample_table(4, edition))
        render_hand(sample_hand(7, edition))
        render_scores(sample_scores(4, edition))
