"""render_leaderboard: a page of league standings as a picture (pure; no Discord, no storage)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from PIL import Image, ImageDraw

from bot.engine.cards import Edition

from . import art
from .art import GOLD, WHITE
from .common import encode_png, mix, name_text, pill, text, vertical_gradient

LEADERBOARD_WIDTH = 900
HEADER = 70
COLUMNS_ROW = 34
ROW = 46
MARGIN = 20
EMPTY_HEIGHT = 120
INK = (245, 245, 245)
MUTED = (170, 180, 175)
MEDALS = (GOLD, (205, 210, 220), (205, 127, 50))
# (key, heading, right edge x): the numbers are right-aligned under their heading.
NUMBER_COLUMNS = (
    ("matches", "Matches", 470),
    ("wins", "Wins", 560),
    ("win_rate", "Win %", 660),
    ("points", "Points", 770),
    ("rating", "Rating", LEADERBOARD_WIDTH - MARGIN - 10),
)
NAME_X = MARGIN + 64
NAME_WIDTH = 330


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
    def rating(self) -> float: ...


def leaderboard_size(rows: int) -> tuple[int, int]:
    """The picture size of a page of ``rows`` lines."""
    body = rows * ROW if rows else EMPTY_HEIGHT
    return LEADERBOARD_WIDTH, HEADER + COLUMNS_ROW + body + MARGIN


def _cell(line: StandingLine, key: str) -> str:
    if key == "win_rate":
        return f"{line.win_rate * 100:.0f}%"
    if key == "rating":
        return f"{line.rating:.1f}"
    return str(getattr(line, key))


def leaderboard_image(
    rows: Sequence[StandingLine], title: str = "Leaderboard", sort: str = "rating"
) -> Image.Image:
    """The leaderboard picture; the column the page is sorted by is highlighted."""
    th = art.THEMES[Edition.CLASSIC]
    size = leaderboard_size(len(rows))
    img = vertical_gradient(size, mix(th.felt, WHITE, 0.05), th.felt_edge).copy()
    d = ImageDraw.Draw(img)
    heading = name_text(title, 26, LEADERBOARD_WIDTH - 2 * MARGIN, fallback="Leaderboard")
    text(d, (MARGIN, HEADER / 2), heading, 26, WHITE, anchor="lm")
    hy = HEADER + COLUMNS_ROW / 2
    text(d, (MARGIN + 4, hy), "#", 15, MUTED, anchor="lm", bold=False)
    text(d, (NAME_X, hy), "Player", 15, MUTED, anchor="lm", bold=False)
    for key, label, right in NUMBER_COLUMNS:
        chosen = key == sort
        text(d, (right, hy), label, 15, GOLD if chosen else MUTED, anchor="rm", bold=chosen)
    top = HEADER + COLUMNS_ROW
    if not rows:
        text(
            d,
            (LEADERBOARD_WIDTH / 2, top + EMPTY_HEIGHT / 2),
            "No ranked players yet: finish a match to appear here.",
            20,
            INK,
            anchor="mm",
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
        rank_box = (MARGIN, y - 15, MARGIN + 48, y + 15)
        if 1 <= line.rank <= len(MEDALS):
            pill(d, rank_box, MEDALS[line.rank - 1])
            text(d, (MARGIN + 24, y + 1), str(line.rank), 17, (40, 30, 0), anchor="mm")
        else:
            text(d, (MARGIN + 24, y + 1), str(line.rank), 17, INK, anchor="mm")
        label = name_text(line.name, 20, NAME_WIDTH, fallback=f"Player {line.rank}")
        text(d, (NAME_X, y), label, 20, INK, anchor="lm")
        for key, _label, right in NUMBER_COLUMNS:
            chosen = key == sort
            text(d, (right, y), _cell(line, key), 19, GOLD if chosen else INK, anchor="rm")
    return img


def render_leaderboard(
    rows: Sequence[StandingLine], title: str = "Leaderboard", sort: str = "rating"
) -> bytes:
    """The leaderboard page as PNG bytes."""
    return encode_png(leaderboard_image(rows, title, sort))
