"""Every layout in every language keeps Discord's limits (labels 80, select options 100, a
layout's 4,000 characters, 40 components), checked offline with the fake's validators."""

from __future__ import annotations

import dataclasses
import random

import pytest
from discord import ui

from bot.engine import PRESETS, HouseRules, RuleSet
from bot.engine.cards import CARD_INDEX, Edition
from bot.i18n import SUPPORTED, lang
from bot.storage import GuildSettings
from bot.storage.models import (
    LeaderboardPage,
    LeaderboardRow,
    MatchDetail,
    MatchSummary,
    PlayerResult,
    RoundSummary,
    Season,
)
from bot.tables.commands import Actor, AddComputer, Start
from bot.tables.manager import TableManager
from bot.tables.scheduler import ManualScheduler
from bot.tables.snapshot import hand_of, snapshot_of
from bot.tables.table import Status
from bot.tournament.model import Entrant, Kind, Tournament, TournamentError
from cogs.league.items import LEADERBOARD_IMAGE, forget_layout, history_layout, leaderboard_layout
from cogs.league.presenters import match_text, season_label
from cogs.settings import describe, house_settings_panel, settings_panel
from cogs.tournament.desk import status_text
from cogs.tournament.presenter import REFUSALS, STANDINGS_IMAGE, refusal, standings_layout
from cogs.ui.hand import HAND_IMAGE, hand_layout
from cogs.ui.house import house_panel
from cogs.ui.ids import PickColor, PickTarget
from cogs.ui.lobby import lobby_view
from cogs.ui.rules_text import help_text, rules_view
from cogs.ui.table import SCORES_IMAGE, TABLE_IMAGE, table_view
from fake_discord.discord_py import check_send
from tests.cogs.ui.helpers import EVERYTHING, check, hand_with, items
from tests.helpers import give, put_on_top

LONG = "W" * 32  # Discord's longest display name


async def table_in(code: str, house: HouseRules, edition: Edition = Edition.MARIO) -> TableManager:
    """Ten seats with the longest names, started, its public messages in ``code``."""
    manager = TableManager(None, scheduler=ManualScheduler(), rng=random.Random(2), brain=None)
    host = Actor(1, LONG)
    rules = RuleSet(edition=edition, house=house, house_rule="x" * 200)
    await manager.create("t", 1, 100, host, rules, threads=True, locale=code)
    for _ in range(9):
        await manager.act("t", host, AddComputer("hard"))
    return manager


@pytest.mark.parametrize("code", SUPPORTED)
async def test_the_game_layouts_fit_in_every_language(code: str) -> None:
    tongue = lang(code)
    manager = await table_in(code, EVERYTHING)
    lobby = snapshot_of(manager.tables["t"])
    check(lobby_view(lobby))
    check(house_panel(lobby, tongue), ephemeral=True)
    await manager.act("t", Actor(1, LONG), Start())
    table = manager.tables["t"]
    game = table.match.game  # type: ignore[union-attr]
    check(lobby_view(snapshot_of(table)))
    seat = game.current
    put_on_top(game, "red-5")
    give(game, seat, ["red-draw2", "red-7"])
    game.play(seat, CARD_INDEX["red-draw2"])  # a penalty for the next seat
    target = game.current
    give(game, target, ["blue-draw2", "wild-draw4", "red-7"])
    table.deadline = 2_000_000_000.0
    snapshot = snapshot_of(table)
    check(table_view(snapshot, image=TABLE_IMAGE), TABLE_IMAGE)
    hand = hand_with(table, target, 20)
    names = table.names()
    for page in (0, 1):
        check(hand_layout("t", 1, hand, page=page, names=names, tongue=tongue), HAND_IMAGE)
    wild = list(hand.view.cards).index("wild-draw4")
    picking = PickColor(wild, "wild-draw4")
    check(hand_layout("t", 1, hand, picking=picking, names=names, tongue=tongue), HAND_IMAGE)
    other = next(s for s in range(10) if s not in (seat, target))
    give(game, other, ["red-7"])
    swap = hand_of(table, other)
    assert swap is not None
    aim = PickTarget(0, "red-7")
    check(hand_layout("t", 1, swap, aiming=aim, names=names, tongue=tongue), HAND_IMAGE)
    # How the match ends: the scoreboard, then the winner.
    for status in (Status.ROUND_OVER, Status.FINISHED, Status.CANCELLED):
        table.status = status
        check(table_view(snapshot_of(table), image=SCORES_IMAGE), SCORES_IMAGE)


@pytest.mark.parametrize("code", SUPPORTED)
def test_the_private_texts_fit_in_every_language(code: str) -> None:
    tongue = lang(code)
    assert len(help_text(tongue)) <= 2000  # a plain message
    assert check_send(content=help_text(tongue), ephemeral=True) == []
    for edition in Edition:
        check(rules_view(edition, "x" * 200, EVERYTHING, tongue), ephemeral=True)
        check(rules_view(edition, "", None, tongue), ephemeral=True)
    for house in (HouseRules(), EVERYTHING, PRESETS["party"]):
        settings = GuildSettings(1 << 62, house_rules=house.to_dict(), language=code)
        check(settings_panel(settings, tongue), ephemeral=True)
        check(house_settings_panel(settings, tongue), ephemeral=True)
    check(forget_layout(1 << 62, 1 << 62, tongue), ephemeral=True)


def result(seat: int, winner: bool = False) -> PlayerResult:
    return PlayerResult(1 << 60, LONG, seat, 500, 1 if winner else 2, False, winner, 25.0, 27.5)


@pytest.mark.parametrize("code", SUPPORTED)
def test_the_league_layouts_fit_in_every_language(code: str) -> None:
    tongue = lang(code)
    rows = [
        LeaderboardRow(rank, 1 << 60, LONG, 99_999, 99_999, 1.0, 9_999_999, 99.9)
        for rank in range(991, 1001)
    ]
    page = LeaderboardPage(1 << 62, 99_999, "rating", 990, 1000, rows, official_only=True)
    season = Season(1 << 62, 99_999, "S" * 50, 0.0, None)
    title = season_label(season, tongue)
    check(leaderboard_layout(page, 99_999, title, tongue), LEADERBOARD_IMAGE)
    summaries = [
        MatchSummary(
            n,
            99_999,
            "mario",
            "lowest",
            0.0,
            99_999.0,
            999,
            10,
            [result(0, True)] * 10,
            EVERYTHING.to_dict(),
        )
        for n in range(1, 11)
    ]
    view = history_layout(1 << 62, summaries, tongue)
    check(view)
    assert all(
        len(o.label) <= 100 for s in items(view) if isinstance(s, ui.Select) for o in s.options
    )
    detail = MatchDetail(
        1,
        "uid",
        1,
        1,
        99_999,
        "mario",
        "standard",
        500,
        0.0,
        99_999.0,
        [result(s, s == 0) for s in range(10)],
        [RoundSummary(r, [50] * 10, [50 * r] * 10, r % 10) for r in range(1, 80)],
        [],
        EVERYTHING.to_dict(),
    )
    text = match_text(detail, tongue)
    assert len(text) <= 4000
    assert check_send(content=None, view=_text_view(text), ephemeral=True) == []


def _text_view(text: str) -> ui.LayoutView:
    view = ui.LayoutView(timeout=None)
    view.add_item(ui.Container(ui.TextDisplay(text)))  # type: ignore[var-annotated]
    return view


def test_the_tables_language_is_kept_with_the_table() -> None:
    """A restarted bot still knows the language of each table's public messages."""
    from bot.tables.table import Table

    table = Table("t", 1, 2, 3, RuleSet(), locale="pl")
    assert Table.from_record(table.to_record()).locale == "pl"
    assert dataclasses.replace(table, locale="en").locale == "en"


def test_a_turned_off_timer_reads_in_the_admins_language() -> None:
    settings = GuildSettings(1 << 62, turn_seconds=None)
    assert "**Turn timer:** off" in describe(settings, lang("en-US"))
    assert "aus" in describe(settings, lang("de")) and " off" not in describe(settings, lang("de"))
    payload = str(settings_panel(settings, lang("de")).to_components())
    assert "'label': 'Zugzeit: aus'" in payload and "Zugzeit: off" not in payload


@pytest.mark.parametrize("code", SUPPORTED)
def test_the_tournament_message_fits_in_every_language(code: str) -> None:

    tongue = lang(code)
    t = Tournament("z" * 13, Kind.ARENA, 1 << 62, 1 << 62, 1, opened_at=0.0, ends_at=1e12)
    for user_id in range(1, 41):
        t.join(Entrant(user_id, "W" * 31 + str(user_id % 10)), now=float(user_id))
    for index, group in enumerate(t.pair(1.0)):
        t.seat(f"{'z' * 13}t{index + 1}", group)
    threads = {table_id: 1 << 62 for table_id in t.tables}
    for table_id, players in list(t.tables.items())[:5]:
        t.finish(table_id, players, now=2.0)
    t.go_berserk(1)
    for finished in (False, True):
        check(standings_layout(t, tongue, threads, finished=finished), STANDINGS_IMAGE)
    knockout = Tournament("k", Kind.KNOCKOUT, 1, 1, 1, opened_at=0.0)
    knockout.join(Entrant(1, LONG), now=0.0)
    check(standings_layout(knockout, tongue, {}, finished=False), STANDINGS_IMAGE)
    assert "{" not in status_text(t, 1, tongue)
    # A team knockout of 40 under way: ten tables of two teams of two, one team with a bye.
    teams = Tournament("k", Kind.KNOCKOUT, 1, 1, 1, opened_at=0.0, options={"teams": 2})
    for user_id in range(1, 43):
        teams.join(Entrant(user_id, "W" * 31 + str(user_id % 10)), now=float(user_id))
    teams.close_entries()
    for index, group in enumerate(teams.pair(1.0)):
        teams.seat(f"{'z' * 13}t{index + 1}", group)
    assert teams.byes
    threads = {table_id: 1 << 62 for table_id in teams.tables}
    check(standings_layout(teams, tongue, threads, finished=False), STANDINGS_IMAGE)
    assert "{" not in status_text(teams, 1, tongue)

    for key in REFUSALS:
        assert refusal(TournamentError(key), tongue) != ""
