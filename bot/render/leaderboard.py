"""render_leaderboard: a page of league standings as a picture (pure; no Discord, no storage)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from PIL import Image, ImageDraw

from bot.engine.cards import Edition

from . import art
from .art import GOLD, RGB, WHITE
from .common import (
    cached_pill,
    encode_png,
    fixed_palette,
    mix,
    paste,
    player_name,
    put_text,
    stack,
    vertical_gradient,
)
from .words import ENGLISH, Words

LEADERBOARD_WIDTH = 900
HEADER = 70
COLUMNS_ROW = 34
ROW = 46
MARGIN = 20
EMPTY_HEIGHT = 120
INK: RGB = (245, 245, 245)
MUTED: RGB = (170, 180, 175)
MEDALS: tuple[RGB, ...] = (GOLD, (205, 210, 220), (205, 127, 50))
# (key, left edge, right edge): the numbers are right-aligned under their heading.
NUMBER_COLUMNS = (
    ("matches", 400, 470),
    ("wins", 480, 560),
    ("win_rate", 570, 660),
    ("points", 670, 770),
    ("rating", 780, LEADERBOARD_WIDTH - MARGIN - 10),
)
NAME_X = MARGIN + 64
NAME_WIDTH = 300


class StandingLine(Protocol):
    """What a line of the picture needs; storage's LeaderboardRow has these fields."""

    @property
    def rank(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def matches(self) -> int: ...
    @property
    def wins(self) -> int: ...
    @property
    def win_rate(self) -> float: ...
    @property
    def points(self) -> int: ...
    @property
    def display_rating(self) -> int: ...
    @property
    def provisional(self) -> bool: ...


def leaderboard_size(rows: int) -> tuple[int, int]:
    """The picture size of a page of ``rows`` lines."""
    body = rows * ROW if rows else EMPTY_HEIGHT
    return LEADERBOARD_WIDTH, HEADER + COLUMNS_ROW + body + MARGIN


def _cell(line: StandingLine, key: str) -> str:
    if key == "win_rate":
        return f"{line.win_rate * 100:.0f}%"
    if key == "rating":
        # The scale people read (1000 to start); ? marks a provisional rating.
        return f"{line.display_rating}{'?' if line.provisional else ''}"
    return str(getattr(line, key))


def _heading(key: str, words: Words) -> str:
    return {
        "matches": words.matches_column,
        "wins": words.wins_column,
        "win_rate": words.win_rate_column,
        "points": words.points_column,
        "rating": words.rating_column,
    }[key]


def leaderboard_image(
    rows: Sequence[StandingLine],
    title: str | None = None,
    sort: str = "rating",
    words: Words = ENGLISH,
) -> Image.Image:
    """The leaderboard picture; the column the page is sorted by is highlighted."""
    th = art.theme(Edition.CLASSIC)
    size = leaderboard_size(len(rows))
    img = vertical_gradient(size, mix(th.felt, WHITE, 0.05), th.felt_edge)
    d = ImageDraw.Draw(img)
    heading = player_name(title, words.leaderboard) if title else words.leaderboard
    put_text(img, (MARGIN, 16, LEADERBOARD_WIDTH - MARGIN, HEADER - 16), heading, 24, WHITE)
    hy0, hy1 = HEADER + 7, HEADER + COLUMNS_ROW - 7
    put_text(img, (MARGIN + 4, hy0, NAME_X - 6, hy1), words.rank_column, 15, MUTED, bold=False)
    put_text(
        img, (NAME_X, hy0, NAME_X + NAME_WIDTH, hy1), words.player_column, 15, MUTED, bold=False
    )
    for key, left, right in NUMBER_COLUMNS:
        chosen = key == sort
        put_text(
            img,
            (left, hy0, right, hy1),
            _heading(key, words),
            15,
            GOLD if chosen else MUTED,
            "right",
            bold=chosen,
        )
    top = HEADER + COLUMNS_ROW
    if not rows:
        put_text(
            img,
            (MARGIN, top + 20, LEADERBOARD_WIDTH - MARGIN, top + EMPTY_HEIGHT - 20),
            words.no_ranked,
            15,
            INK,
            "center",
            bold=False,
        )
        return img
    band = mix(th.felt_edge, (0, 0, 0), 0.25)
    for index, line in enumerate(rows):
        y = top + index * ROW + ROW / 2
        if index % 2 == 0:
            d.rounded_rectangle(
                (MARGIN - 6, y - ROW / 2 + 3, LEADERBOARD_WIDTH - MARGIN + 6, y + ROW / 2 - 3),
                radius=10,
                fill=band,
            )
        rank_box = (MARGIN + 2, y - 13, MARGIN + 46, y + 13)
        if 1 <= line.rank <= len(MEDALS):
            medal = MEDALS[line.rank - 1]
            paste(img, cached_pill((48, 30), medal), MARGIN, y - 15)
            put_text(img, rank_box, str(line.rank), 16, (40, 30, 0), "center")
        else:
            put_text(img, rank_box, str(line.rank), 16, INK, "center")
        label = player_name(line.name, words.player_name(line.rank - 1))
        put_text(img, (NAME_X, y - 14, NAME_X + NAME_WIDTH, y + 14), label, 20, INK)
        for key, left, right in NUMBER_COLUMNS:
            chosen = key == sort
            put_text(
                img,
                (left, y - 13, right, y + 13),
                _cell(line, key),
                18,
                GOLD if chosen else INK,
                "right",
            )
    return img


def _palette_source() -> Image.Image:
    from .samples import sample_standings  # only on the first leaderboard

    return stack([leaderboard_image(sample_standings(10)), leaderboard_image([])])


def render_leaderboard(
    rows: Sequence[StandingLine],
    title: str | None = None,
    sort: str = "rating",
    *,
    words: Words = ENGLISH,
) -> bytes:
    """The leaderboard page as PNG bytes."""
    return encode_png(leaderboard_image(rows, title, sort, words), leaderboard_palette())


def leaderboard_palette() -> Image.Image:
    """The fixed palette of the leaderboard pictures."""
    return fixed_palette(
        ("leaderboard",), _palette_source, (WHITE, (0, 0, 0), GOLD, *MEDALS, INK, MUTED)
    )
