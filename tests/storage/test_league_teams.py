"""Team matches in the league: rated as a match between teams with openskill, every partner of
the winning team counted a win, and a team match of the printed rules still official."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from openskill.models import PlackettLuce

from bot.engine import Edition, Match, RuleSet
from bot.storage import MatchRecord, Storage
from bot.storage.migrations import load_migrations
from bot.storage.rating import FRESH, rate_teams
from bot.tables.records import match_record
from bot.tables.table import Seat, Status, Table

from .helpers import RawDatabase, StorageOpener, make_match


def team_match(uid: str = "t1") -> MatchRecord:
    """Seats 0 and 2 (team 0) beat seats 1 and 3 (team 1); users 1..4 in seat order."""
    record = make_match(uid, [(1, 120), (2, 0), (3, 0), (4, 0)])
    places = [1, 2, 1, 2]
    players = [replace(p, place=places[p.seat]) for p in record.players]
    return replace(record, players=players, winners=[1, 3], teams=2)


async def test_a_team_match_is_rated_as_teams(storage: Storage) -> None:
    record = team_match()
    assert await storage.record_match(record)
    stats = [await storage.player_stats(1, u) for u in (1, 2, 3, 4)]
    assert all(stats)
    one, two, three, four = stats
    assert one and two and three and four
    assert one.wins == three.wins == 1 and two.wins == four.wins == 0
    # Partners move together; the openskill team update gives exactly these numbers.
    model = PlackettLuce()
    teams = [[model.rating(), model.rating()], [model.rating(), model.rating()]]
    [[a, c], [b, d]] = model.rate(teams, ranks=[1, 2])
    assert one.mu == pytest.approx(a.mu) and three.mu == pytest.approx(c.mu)
    assert two.mu == pytest.approx(b.mu) and four.mu == pytest.approx(d.mu)
    assert one.mu > 25 > two.mu


def test_rate_teams_groups_players_by_team() -> None:
    after = rate_teams([FRESH] * 4, [0, 1, 0, 1], [1.0, 2.0, 1.0, 2.0])
    assert after[0] == after[2] and after[1] == after[3] and after[0].mu > after[1].mu


def test_a_finished_team_match_gives_team_places_and_winners() -> None:
    rules = RuleSet(Edition.CLASSIC, target=None, teams=2)
    table = Table("t9", 1, 10, 1, rules, seats=[Seat(u, f"p{u}") for u in (1, 2, 3, 4)])
    table.match = Match(rules, 4, random.Random(4))
    table.status = Status.FINISHED
    game = table.match.game
    rng = random.Random(2)
    while not game.over:
        game.apply(rng.choice(game.legal_actions(game.current)))
    table.match.finish_round()
    record = match_record(table, 1_700_000_000.0)
    won = game.winner % 2
    places = {p.seat: p.place for p in record.players}
    assert record.teams == 2 and sorted(record.winners) == sorted((won + 1, won + 3))
    assert places[won] == places[won + 2] == 1 and places[1 - won] == places[3 - won] == 2
    assert record.official


async def test_a_team_match_keeps_its_teams(storage: Storage) -> None:
    assert await storage.record_match(team_match())
    [summary] = await storage.recent_matches(1)
    assert summary.teams == 2
    assert sorted((w.user_id, w.team) for w in summary.winners) == [(1, 0), (3, 0)]
    detail = await storage.match_detail(1, summary.number)
    assert detail is not None and detail.teams == 2
    assert [(p.seat, p.team) for p in detail.players] == [(0, 0), (1, 1), (2, 0), (3, 1)]
    exported = await storage.export_guild(1)
    assert exported["matches"][0]["teams"] == 2
    assert [p["team"] for p in exported["matches"][0]["players"]] == [0, 1, 0, 1]


async def test_stats_count_team_matches_and_team_wins(storage: Storage) -> None:
    assert await storage.record_match(team_match("t1"))
    lost = replace(team_match("t2"), winners=[2, 4], finished_at=1_700_000_200.0)
    lost = replace(lost, players=[replace(p, place=1 + (p.seat % 2 == 0)) for p in lost.players])
    assert await storage.record_match(lost)
    assert await storage.record_match(make_match("solo", [(1, 50), (2, 0)]))
    one = await storage.player_stats(1, 1)
    two = await storage.player_stats(1, 2)
    assert one and two
    assert (one.matches, one.wins, one.team_matches, one.team_wins) == (3, 2, 2, 1)
    assert (two.matches, two.wins, two.team_matches, two.team_wins) == (3, 1, 2, 1)
    season = await storage.player_stats(1, 3, 1)
    assert season and (season.team_matches, season.team_wins) == (2, 1)


async def test_official_only_standings_keep_team_counts(storage: Storage) -> None:
    assert await storage.record_match(team_match("t1"))
    house = replace(team_match("t2"), house_rules={"jump_in": True})
    assert await storage.record_match(house)
    official = await storage.player_stats(1, 1, official_only=True)
    every = await storage.player_stats(1, 1)
    assert official and every
    assert (official.team_matches, official.team_wins) == (1, 1)
    assert (every.team_matches, every.team_wins) == (2, 2)


async def test_a_match_without_teams_has_no_team_marks(storage: Storage) -> None:
    assert await storage.record_match(make_match("solo", [(1, 50), (2, 0)]))
    [summary] = await storage.recent_matches(1)
    detail = await storage.match_detail(1, summary.number)
    assert summary.teams == 0 and detail is not None and detail.teams == 0
    assert all(p.team is None for p in detail.players)
    stats = await storage.player_stats(1, 1)
    assert stats and (stats.team_matches, stats.team_wins) == (0, 0)


async def test_matches_recorded_before_teams_were_kept_read_as_without_teams(
    target: str, open_store: StorageOpener, raw: RawDatabase
) -> None:
    [before] = [n - 1 for n, name, _ in load_migrations("sqlite") if name.endswith("_teams.sql")]
    await (await open_store(target, upto=before)).close()
    await raw.execute(
        "INSERT INTO matches (match_uid, guild_id, number, season, channel_id, edition, scoring, "
        "target, started_at, finished_at, rounds, round_winners, events, house_rules) "
        "VALUES ('old', 1, 1, 1, 5, 'classic', 'standard', 500, 0.0, 60.0, '[[10, 0]]', '[0]', "
        "'[]', '{}')"
    )
    for seat in (0, 1):
        await raw.execute(
            "INSERT INTO match_players (match_id, seat, user_id, name, points, place, computer, "
            "winner, rating_before, rating_after) "
            "SELECT match_id, ?, ?, 'x', 10, ?, ?, ?, NULL, NULL FROM matches "
            "WHERE match_uid = 'old'",
            seat,
            seat + 1,
            seat + 1,
            False,
            seat == 0,
        )
    for season in (0, 1):
        await raw.execute(
            "INSERT INTO standings (guild_id, season, official_only, user_id, matches, wins, "
            "points, rounds_won, best_round, matches_classic, matches_sonic, matches_mario, mu, "
            "sigma, ordinal, rated) "
            "VALUES (1, ?, ?, 1, 1, 1, 10, 1, 10, 1, 0, 0, 26.0, 8.0, 2.0, 0)",
            season,
            False,
        )
    await raw.execute("INSERT INTO league_guilds VALUES (1, 1, 0)")
    store = await open_store(target)
    [summary] = await store.recent_matches(1)
    detail = await store.match_detail(1, summary.number)
    stats = await store.player_stats(1, 1)
    assert summary.teams == 0 and detail is not None and detail.teams == 0
    assert [p.team for p in detail.players] == [None, None]
    assert stats and (stats.matches, stats.team_matches, stats.team_wins) == (1, 0, 0)
    assert await store.record_match(team_match("new"))
    stats = await store.player_stats(1, 1)
    assert stats and (stats.matches, stats.team_matches, stats.team_wins) == (2, 1, 1)
