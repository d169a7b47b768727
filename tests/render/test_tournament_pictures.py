"""The tournament's pictures: PNGs sized by their lines and rounds."""

from __future__ import annotations

import io

from PIL import Image

from bot.render.leaderboard import INK, MEDALS
from bot.render.teams import TEAM_COLORS
from bot.render.tournament import (
    CELL_ROW,
    HEADER,
    MARGIN,
    ROW,
    render_bracket,
    render_standings,
)


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


def near(pixel: tuple[int, ...], color: tuple[int, int, int], within: int = 40) -> bool:
    return all(abs(a - b) <= within for a, b in zip(pixel, color, strict=False))


def test_a_team_bracket_draws_each_teams_badge_and_medals_only_for_a_played_final() -> None:
    rounds = [[["Ann, Cy", "Bo, Di"], ["Ed, Gus", "Fay, Hal"]], [["Ann, Cy", "Ed, Gus"]]]
    marks = [[[1, 0], [0, 1]], [[0, 1]]]
    teams = Image.open(io.BytesIO(render_bracket("Knockout", rounds, marks, advance=1)))
    plain = Image.open(io.BytesIO(render_bracket("Knockout", rounds)))
    assert teams.width > plain.width  # a team's two names take a wider cell
    rgb = teams.convert("RGB")
    # The first entry's badge (team 2's blue), then the second's (team 1's red).
    badge_x = MARGIN + 26 + 4
    assert near(rgb.getpixel((badge_x, HEADER + 9)), TEAM_COLORS[1])
    assert near(rgb.getpixel((badge_x, HEADER + CELL_ROW + 9)), TEAM_COLORS[0])

    def has_gold(picture: Image.Image) -> bool:
        colors = picture.convert("RGB").getcolors(maxcolors=1 << 24) or []
        return any(near(color, MEDALS[0], within=12) for _, color in colors)

    assert has_gold(teams)
    live = render_bracket("Knockout", rounds, marks, advance=1, podium=False)
    assert not has_gold(Image.open(io.BytesIO(live)))  # the final still playing: no medals


def test_a_table_still_playing_is_drawn_unnumbered() -> None:
    rounds = [[["Ann, Cy", "Bo, Di"], ["Ed, Gus", "Fay, Hal"]]]
    marks = [[[0, 1], [0, 1]]]

    def numbered(playing: int) -> bool:
        drawn = render_bracket("Knockout", rounds, marks, 1, False, playing)
        picture = Image.open(io.BytesIO(drawn)).convert("RGB")
        top = HEADER + 3 * CELL_ROW  # the second table's first entry
        box = picture.crop((MARGIN, top, MARGIN + 24, top + CELL_ROW))
        return any(near(color, INK, within=30) for _, color in box.getcolors(1 << 16) or [])

    assert numbered(0) and not numbered(1)
