"""The tournament's pictures: PNGs sized by their lines and rounds."""

from __future__ import annotations

import io

from PIL import Image

from bot.render.tournament import HEADER, ROW, render_bracket, render_standings


def test_standings_picture_grows_by_line_and_caps_at_its_limit() -> None:
    lines = [(i + 1, f"player {i}", 30 - i, 5, i == 0) for i in range(25)]
    picture = Image.open(io.BytesIO(render_standings("Arena", lines, limit=20)))
    assert picture.format == "PNG"
    assert picture.height == HEADER + 20 * ROW + 20
    empty = Image.open(io.BytesIO(render_standings("Arena", [])))
    assert empty.height == HEADER + ROW + 20


def test_bracket_picture_has_a_column_per_round() -> None:
    rounds = [[["a", "b", "c", "d"], ["e", "f", "g"]], [["a", "b", "f", "e"]]]
    one = Image.open(io.BytesIO(render_bracket("Knockout", rounds[:1])))
    two = Image.open(io.BytesIO(render_bracket("Knockout", rounds)))
    assert two.width > one.width
    assert one.height == two.height
