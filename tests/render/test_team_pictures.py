"""Team play in the pictures: every seat's plate rimmed in its team's color with a numbered badge,
each team's score in the table's header and the scoreboard's title, nothing of it without teams."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.engine.cards import Edition, edition_deck
from bot.engine.game import Game
from bot.engine.snapshot import public_view
from bot.render import render_scores, render_table
from bot.render.samples import sample_scores, sample_table, sample_team_table
from bot.render.table import plate_box
from bot.render.teams import CHIP_GAP, CHIP_WIDTH, TEAM_COLORS, chips_width


def decode(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def near(a: tuple[int, ...], b: tuple[int, ...], slack: int = 12) -> bool:
    return all(abs(x - y) <= slack for x, y in zip(a, b, strict=True))


def rim_point(seat: int, players: int) -> tuple[int, int]:
    """A point on the middle of a plate's right rim (clear of badges and tags)."""
    _, y0, x1, y1 = plate_box(seat, players)
    return round(x1 - 1), round((y0 + y1) / 2)


@pytest.mark.parametrize(("players", "teams"), [(4, 2), (6, 3), (8, 4), (10, 5)])
def test_every_plate_wears_its_teams_color(players: int, teams: int) -> None:
    img = decode(render_table(sample_team_table(players, teams)))
    for seat in range(players):
        color = img.getpixel(rim_point(seat, players))
        assert near(color, TEAM_COLORS[seat % teams]), (seat, color)


def test_the_header_shows_each_teams_score_in_its_color() -> None:
    view = sample_team_table(6, 3)
    img = decode(render_table(view))
    left = 400 - chips_width(3) / 2
    for team in range(3):
        x = round(left + team * (CHIP_WIDTH + CHIP_GAP) + 3)
        assert near(img.getpixel((x, 12)), TEAM_COLORS[team])


def test_without_teams_no_plate_or_header_has_a_team_color() -> None:
    img = decode(render_table(sample_table(4)))
    for seat in range(4):
        color = img.getpixel(rim_point(seat, 4))
        assert not any(near(color, team) for team in TEAM_COLORS)
    assert render_table(sample_table(4)) != render_table(sample_team_table(4, 2))


def test_the_scoreboard_marks_seats_and_shows_team_totals() -> None:
    plain = decode(render_scores(sample_scores(6)))
    teams = decode(render_scores(sample_scores(6, teams=3)))
    assert plain.size == teams.size
    right = teams.crop((700, 0, 1000, 64)).getcolors(1 << 16) or []
    for team in TEAM_COLORS[:3]:
        assert any(near(color, team) for _, color in right)
    assert not any(
        near(color, TEAM_COLORS[1])
        for _, color in plain.crop((700, 0, 1000, 64)).getcolors(1 << 16) or []
    )


def test_the_public_view_carries_teams_only_in_a_team_game() -> None:
    deck = edition_deck(Edition.CLASSIC)
    random.Random(3).shuffle(deck)
    game = Game(Edition.CLASSIC, 6, 0, list(deck), random.Random(1), teams=3)
    view = public_view(game, team_scores=[10, 0, 40])
    assert [s.team for s in view.seats] == [0, 1, 2, 0, 1, 2]
    assert view.team_scores == (10, 0, 40)
    solo = public_view(Game(Edition.CLASSIC, 6, 0, list(deck), random.Random(1)), team_scores=[1])
    assert all(s.team is None for s in solo.seats) and solo.team_scores == ()
