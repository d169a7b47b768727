"""The replay stepper's message in every language keeps Discord's limits, whatever the round."""

from __future__ import annotations

import pytest
from discord import ui

from bot.engine import PRESETS, RuleSet
from bot.engine.cards import CODES, Edition
from bot.engine.playout import play_match
from bot.engine.record import RoundRecord
from bot.engine.review import review
from bot.engine.snapshot import public_view, sort_key
from bot.i18n import SUPPORTED, lang
from bot.render.replay import render_replay
from bot.storage.models import MatchDetail, PlayerResult, RoundSummary
from cogs.league.replay import REPLAY_IMAGE, draw_move, replay_layout
from tests.cogs.ui.helpers import check, items

LONG = "W" * 32


def long_round() -> RoundRecord:
    rules = RuleSet(edition=Edition.MARIO, target=None, house=PRESETS["party"])
    match = play_match(rules, ["normal"] * 10, 6)
    return RoundRecord.from_text(match.records[0])


@pytest.mark.parametrize("code", SUPPORTED)
def test_the_replay_fits_in_every_language(code: str) -> None:
    tongue = lang(code)
    record = long_round()
    reviewed = review(record)
    players = [PlayerResult(1 << 60, LONG, s, 0, 1, False, s == 0, None, None) for s in range(10)]
    rounds = [RoundSummary(1, list(record.points or ()), list(record.points or ()), 0)]
    detail = MatchDetail(
        99_999, "uid", 1 << 62, 1, 9, "mario", "standard", None, 0.0, 1.0, players, rounds, []
    )
    names = [LONG] * 10
    for move in (0, reviewed.total // 2, reviewed.total):
        view = replay_layout(detail, 1, reviewed, move, names, tongue)
        check(view, REPLAY_IMAGE, ephemeral=True)
        assert all(
            len(o.label) <= 100 for s in items(view) if isinstance(s, ui.Select) for o in s.options
        )


def test_the_replay_picture_shows_the_table_and_a_strip_per_seat() -> None:
    record = long_round()
    reviewed = review(record)
    png = draw_move(reviewed, reviewed.total // 2, [LONG] * 10, lang("en"))
    assert png.startswith(b"\x89PNG")
    width = int.from_bytes(png[16:20], "big")
    height = int.from_bytes(png[20:24], "big")
    assert (width, height) == (800, 512 + 10 * 64)


def test_the_replay_picture_shows_the_round_it_replays() -> None:
    record = long_round()
    reviewed = review(record)
    names = [f"P{s}" for s in range(10)]
    game = reviewed.game_at(3)
    hands = [[CODES[c] for c in sorted(hand, key=sort_key)] for hand in game.hands]
    third = render_replay(public_view(game, names, round_number=3), hands)
    assert draw_move(reviewed, 3, names, lang("en"), round_number=3) == third
    assert draw_move(reviewed, 3, names, lang("en")) != third  # "Round 1" in its header
