"""The leaderboard picture: it decodes, has its size, repeats exactly, and survives odd names."""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image

from bot.render.leaderboard import leaderboard_size, render_leaderboard


@dataclass(frozen=True)
class Line:
    rank: int
    name: str
    matches: int = 5
    wins: int = 2
    win_rate: float = 0.4
    points: int = 321
    display_rating: int = 1012
    provisional: bool = False


def decode(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def test_a_full_page_decodes_with_its_size_and_repeats() -> None:
    rows = [Line(rank=i + 1, name=f"Player number {i + 1}") for i in range(10)]
    data = render_leaderboard(rows, "Season 2 · by wins", "wins")
    assert decode(data).size == leaderboard_size(10)
    assert render_leaderboard(rows, "Season 2 · by wins", "wins") == data


def test_no_rows_draws_an_empty_board() -> None:
    data = render_leaderboard([], "Leaderboard")
    assert decode(data).size == leaderboard_size(0)
    assert leaderboard_size(0)[1] > 0


def test_odd_names_and_numbers_do_not_break_the_picture() -> None:
    rows = [
        Line(rank=1, name="@everyone **bold** `code`"),
        Line(rank=2, name="🎉🎉🎉"),
        Line(rank=3, name="x" * 300),
        Line(rank=4, name=""),
        Line(
            rank=5,
            name="Zoë\u200d\u0000\n名前",
            display_rating=-123456789,
            provisional=True,
            points=10**9,
        ),
        Line(rank=11, name="right-to-left \u202eabc", win_rate=1.0),
    ]
    img = decode(render_leaderboard(rows, "x" * 500, "points"))
    assert img.size == leaderboard_size(len(rows))


def test_the_sorted_column_changes_the_picture() -> None:
    rows = [Line(rank=1, name="Alice")]
    assert render_leaderboard(rows, sort="rating") != render_leaderboard(rows, sort="wins")
