"""The league: recording matches exactly once, standings, ratings, seasons, history, privacy."""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter, defaultdict
from dataclasses import replace
from typing import Any

import pytest
from openskill.models import PlackettLuce

from bot.storage import (
    FORMER_PLAYER_NAME,
    GuildSettings,
    MatchRecord,
    Storage,
    StorageWriteError,
    TableRecord,
)

from .helpers import RawDatabase, make_match, random_match


async def test_match_round_trip(storage: Storage) -> None:
    record = make_match("m1", [(11, 120), (12, 0), (13, 40)], rounds=[[100, 0, 0], [20, 0, 40]])
    assert await storage.record_match(record)
    [summary] = await storage.recent_matches(1)
    assert summary.players == 3 and summary.rounds == 2 and summary.duration == 600.0
    assert [w.user_id for w in summary.winners] == [11]
    detail = await storage.match_detail(1, summary.match_id)
    assert detail is not None
    assert detail.match_uid == "m1" and detail.edition == "classic" and detail.season == 1
    assert detail.events == record.events
    assert [(p.user_id, p.name, p.seat, p.points, p.place) for p in detail.players] == [
        (11, "player11", 0, 120, 1),
        (12, "player12", 1, 0, 3),
        (13, "player13", 2, 40, 2),
    ]
    assert [r.totals for r in detail.rounds] == [[100, 0, 0], [120, 0, 40]]
    assert [r.winner_seat for r in detail.rounds] == [0, 2]
    assert [w.user_id for w in detail.winners] == [11]
    assert detail.duration == 600.0
    assert await storage.match_detail(2, summary.match_id) is None  # another server's match
    assert await storage.match_by_uid(1, "m1") == detail  # what a rematch reads
    assert await storage.match_by_uid(2, "m1") is None
    assert await storage.match_by_uid(1, "m2") is None


async def test_recording_the_same_match_twice_records_once(storage: Storage) -> None:
    record = make_match("m1", [(1, 100), (2, 0)])
    await storage.save_table(TableRecord("t1", 1, 10, 1, "{}", 0.0))
    assert await storage.record_match(record, table_id="t1") is True
    assert await storage.load_tables() == []
    await storage.save_table(TableRecord("t1", 1, 10, 2, "{}", 0.0))
    before = await storage.export_guild(1)
    assert await storage.record_match(record, table_id="t1") is False
    assert await storage.export_guild(1) == before
    assert len(await storage.load_tables()) == 1  # a replay changes nothing at all
    stats = await storage.player_stats(1, 1)
    assert stats is not None and stats.matches == 1


async def test_ratings_move_the_right_way(storage: Storage) -> None:
    await storage.record_match(make_match("m1", [(1, 300), (2, 100), (3, 0)]))
    first, second, last = [await storage.player_stats(1, u) for u in (1, 2, 3)]
    assert first and second and last
    fresh = PlackettLuce().rating().ordinal()
    assert first.rating > fresh and first.mu > 25
    assert last.rating < first.rating and last.mu < 25
    assert first.rating > second.rating > last.rating
    assert first.wins == 1 and second.wins == 0
    assert first.rank == 1 and last.rank == 3
    board = await storage.leaderboard(1)
    assert [row.user_id for row in board.rows] == [1, 2, 3]
    assert board.total == 3


async def test_ties_share_a_place_and_rating(storage: Storage) -> None:
    await storage.record_match(make_match("m1", [(1, 100), (2, 100), (3, 0)]))
    a, b = await storage.player_stats(1, 1), await storage.player_stats(1, 2)
    assert a and b and a.wins == b.wins == 1
    assert a.mu == pytest.approx(b.mu)


async def test_computers_are_unrated_unless_the_server_says_so(storage: Storage) -> None:
    await storage.record_match(make_match("m1", [(1, 100), (-1, 0)], computers=frozenset({-1})))
    assert await storage.player_stats(1, -1) is None
    human = await storage.player_stats(1, 1)
    assert human and human.matches == 1 and human.mu == 25.0  # nobody rated to play against
    detail = await storage.match_detail(1, 1)
    assert detail and detail.players[1].computer and detail.players[1].rating_after is None

    await storage.save_settings(GuildSettings(1, computers_rated=True))
    await storage.record_match(make_match("m2", [(1, 100), (-1, 0)], computers=frozenset({-1})))
    bot = await storage.player_stats(1, -1)
    human = await storage.player_stats(1, 1)
    assert bot and bot.matches == 1 and bot.mu < 25
    assert human and human.matches == 2 and human.mu > 25


async def test_seasons_separate_standings_and_all_time_includes_everything(
    storage: Storage, clock: Any
) -> None:
    first = await storage.current_season(1)
    assert (first.number, first.started_at) == (1, None)
    await storage.record_match(make_match("m1", [(1, 100), (2, 0)]))
    clock.now = 1_800_000_000.0
    second = await storage.start_season(1, "Spring")
    assert (second.number, second.name, second.started_at) == (2, "Spring", 1_800_000_000.0)
    assert await storage.current_season(1) == second
    assert (await storage.current_season(2)).number == 1  # other servers are untouched
    await storage.record_match(make_match("m2", [(2, 100), (3, 0)]))

    season1 = await storage.leaderboard(1, season=1)
    season2 = await storage.leaderboard(1, season=2)
    all_time = await storage.leaderboard(1, season=None)
    assert {r.user_id for r in season1.rows} == {1, 2}
    assert {r.user_id for r in season2.rows} == {2, 3}
    assert {r.user_id for r in all_time.rows} == {1, 2, 3}
    by_user = {r.user_id: r for r in all_time.rows}
    assert by_user[2].matches == 2 and by_user[2].wins == 1
    s2 = await storage.player_stats(1, 2, season=2)
    assert s2 and s2.matches == 1 and s2.wins == 1 and s2.mu > 25
    seasons = await storage.list_seasons(1)
    assert [(s.number, s.ended_at) for s in seasons] == [(1, 1_800_000_000.0), (2, None)]
    detail = await storage.match_detail(1, 2)
    assert detail and detail.season == 2


async def test_leaderboard_sorts_and_pages(storage: Storage) -> None:
    await storage.record_match(make_match("m1", [(1, 500), (2, 10), (3, 0)]))
    await storage.record_match(make_match("m2", [(2, 100), (3, 0)]))
    await storage.record_match(make_match("m3", [(2, 90), (3, 0)]))
    by_wins = await storage.leaderboard(1, sort="wins")
    assert [r.user_id for r in by_wins.rows] == [2, 1, 3]
    by_points = await storage.leaderboard(1, sort="points")
    assert [r.user_id for r in by_points.rows] == [1, 2, 3]
    page = await storage.leaderboard(1, sort="points", offset=1, limit=1)
    assert [(r.rank, r.user_id) for r in page.rows] == [(2, 2)] and page.total == 3
    row = by_wins.rows[0]
    assert (row.name, row.matches, row.wins, row.win_rate) == ("player2", 3, 2, 2 / 3)
    with pytest.raises(ValueError):
        await storage.leaderboard(1, sort="luck")  # type: ignore[arg-type]


def recompute(matches: list[MatchRecord]) -> dict[tuple[int, int, int], dict[str, Any]]:
    """Standings from scratch, replaying the recorded matches in order (season 1, no computers)."""
    model = PlackettLuce()
    rows: dict[tuple[int, int, int], dict[str, Any]] = {}
    editions: dict[tuple[int, int, int], Counter[str]] = defaultdict(Counter)
    for m in matches:
        for scope in (1, 0):
            teams = []
            for p in m.players:
                key = (m.guild_id, scope, p.user_id)
                row = rows.setdefault(
                    key,
                    dict(matches=0, wins=0, points=0, rounds_won=0, best_round=0,
                         mu=model.mu, sigma=model.sigma),
                )  # fmt: skip
                row["matches"] += 1
                row["wins"] += p.user_id in m.winners
                row["points"] += p.points
                row["rounds_won"] += sum(1 for r in m.rounds if r[p.seat] == max(r))
                row["best_round"] = max(row["best_round"], *(r[p.seat] for r in m.rounds))
                editions[key][m.edition] += 1
                teams.append([model.rating(mu=row["mu"], sigma=row["sigma"])])
            rated = model.rate(teams, ranks=[p.place for p in m.players])
            for p, team in zip(m.players, rated, strict=True):
                rows[m.guild_id, scope, p.user_id].update(mu=team[0].mu, sigma=team[0].sigma)
    for key, row in rows.items():
        top = max(editions[key].values())
        row["favourite"] = next(e for e in ("classic", "sonic", "mario") if editions[key][e] == top)
    return rows


async def test_standings_equal_a_recomputation_from_the_matches(storage: Storage) -> None:
    rng = random.Random(20240601)
    users = list(range(100, 112))
    matches = [random_match(rng, f"r{i}", rng.choice([1, 2]), users) for i in range(40)]
    for m in matches:
        assert await storage.record_match(m)
    expected = recompute(matches)
    for (guild, scope, user), want in expected.items():
        got = await storage.player_stats(guild, user, season=scope or None)
        assert got is not None, (guild, scope, user)
        assert (got.matches, got.wins, got.points, got.rounds_won, got.best_round) == (
            want["matches"],
            want["wins"],
            want["points"],
            want["rounds_won"],
            want["best_round"],
        )
        assert got.mu == pytest.approx(want["mu"]) and got.sigma == pytest.approx(want["sigma"])
        assert got.favourite_edition == want["favourite"]
    for guild in (1, 2):
        board = await storage.leaderboard(guild, limit=100)
        want_order = sorted(
            (u for g, s, u in expected if g == guild and s == 0),
            key=lambda u: (-(expected[guild, 0, u]["mu"] - 3 * expected[guild, 0, u]["sigma"]), u),
        )
        assert [r.user_id for r in board.rows] == want_order
        assert board.total == len(want_order)


async def test_concurrent_records_and_saves_end_consistent(storage: Storage) -> None:
    rng = random.Random(7)
    users = list(range(1, 9))
    matches = [random_match(rng, f"c{i}", 1, users) for i in range(30)]
    tables = [TableRecord(f"t{i}", 1, i, 1, "{}", 0.0) for i in range(30)]
    await asyncio.gather(*(storage.save_table(t) for t in tables))
    results = await asyncio.gather(
        *(storage.record_match(m, table_id=f"t{i}") for i, m in enumerate(matches)),
        *(storage.record_match(m, table_id=f"t{i}") for i, m in enumerate(matches)),
        *(storage.save_table(TableRecord(f"x{i}", 1, i, 1, "{}", 0.0)) for i in range(30)),
    )
    assert sum(1 for r in results[:60] if r is True) == 30
    assert {t.table_id for t in await storage.load_tables()} == {f"x{i}" for i in range(30)}
    exported = await storage.export_guild(1)
    assert len(exported["matches"]) == 30
    all_time = {s["user_id"]: s for s in exported["standings"] if s["season"] == 0}
    seats = Counter(p.user_id for m in matches for p in m.players)
    assert {u: s["matches"] for u, s in all_time.items()} == dict(seats)


async def test_a_failing_write_raises_and_leaves_everything_unchanged(
    storage: Storage, raw: RawDatabase
) -> None:
    await storage.save_table(TableRecord("t1", 1, 10, 1, "{}", 0.0))
    await storage.record_match(make_match("m1", [(1, 100), (2, 0)]))
    before = await storage.export_guild(1)
    # The disk "fills up" halfway through: after the match row, at the standings.
    if raw.postgres:
        await raw.execute(
            "CREATE FUNCTION full_disk() RETURNS trigger LANGUAGE plpgsql AS "
            "$$ BEGIN RAISE EXCEPTION 'could not extend file' USING ERRCODE = 'disk_full'; END $$"
        )
        await raw.execute(
            "CREATE TRIGGER full_disk BEFORE UPDATE ON standings "
            "FOR EACH ROW EXECUTE FUNCTION full_disk()"
        )
    else:
        await raw.execute(
            "CREATE TRIGGER full_disk BEFORE UPDATE ON standings "
            "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"
        )
    with pytest.raises(StorageWriteError, match=r"the disk is full\. Nothing was changed"):
        await storage.record_match(make_match("m2", [(1, 100), (2, 0)]), table_id="t1")
    assert await storage.export_guild(1) == before
    assert len(await storage.load_tables()) == 1
    await raw.execute("DROP TRIGGER full_disk" + (" ON standings" if raw.postgres else ""))
    assert await storage.record_match(make_match("m2", [(1, 100), (2, 0)]), table_id="t1")
    assert await raw.value("SELECT COUNT(*) FROM matches") == 2
    assert [m.number for m in await storage.recent_matches(1)] == [2, 1]  # no number was lost


async def test_forget_user_anonymises_history_and_drops_standings(storage: Storage) -> None:
    await storage.record_match(make_match("m1", [(1, 100), (2, 0), (3, 5)]))
    await storage.record_match(make_match("m2", [(2, 100), (1, 0)]))
    await storage.record_match(make_match("m3", [(1, 100), (2, 0)], guild_id=9))
    other_before = await storage.player_stats(1, 3)
    changed = await storage.forget_user(1, 2)
    # 2 seats + 2 standings rows (season, all time) + 1 name
    assert changed == 5
    assert await storage.player_stats(1, 2) is None
    assert await storage.player_stats(9, 2) is not None  # other servers keep their records
    assert await storage.player_stats(1, 3) == other_before
    detail = await storage.match_detail(1, 2)
    assert detail is not None
    assert [(p.user_id, p.name, p.winner) for p in detail.players] == [
        (0, FORMER_PLAYER_NAME, True),
        (1, "player1", False),
    ]
    exported = json.dumps(await storage.export_guild(1))
    assert "player2" not in exported
    assert await storage.forget_user(1, 2) == 0


async def test_export_contains_everything_of_one_server(storage: Storage) -> None:
    await storage.save_settings(GuildSettings(1, edition="sonic"))
    await storage.record_match(make_match("m1", [(1, 100), (2, 0)], edition="sonic"))
    await storage.record_match(make_match("m9", [(5, 100), (6, 0)], guild_id=2))
    await storage.start_season(1, "Two")
    data = await storage.export_guild(1)
    assert json.loads(json.dumps(data)) == data  # JSON-ready
    assert data["settings"]["edition"] == "sonic"
    assert [s["number"] for s in data["seasons"]] == [1, 2]
    assert [m["match_uid"] for m in data["matches"]] == ["m1"]
    assert [p["user_id"] for p in data["matches"][0]["players"]] == [1, 2]
    assert {(s["season"], s["user_id"]) for s in data["standings"]} == {
        (0, 1), (0, 2), (1, 1), (1, 2)
    }  # fmt: skip
    assert {p["user_id"] for p in data["players"]} == {1, 2}
    assert data["standings"][0]["matches_sonic"] == 1


async def test_latest_display_name_wins(storage: Storage) -> None:
    await storage.record_match(make_match("m1", [(1, 100), (2, 0)]))
    renamed = make_match("m2", [(1, 100), (2, 0)])
    renamed = replace(
        renamed, players=[replace(renamed.players[0], name="Neo"), renamed.players[1]]
    )
    await storage.record_match(renamed)
    board = await storage.leaderboard(1)
    assert {r.user_id: r.name for r in board.rows}[1] == "Neo"
    first = await storage.match_detail(1, 1)
    assert first and first.players[0].name == "player1"  # history keeps the name of the day


async def test_malformed_matches_are_rejected_before_storage(storage: Storage) -> None:
    with pytest.raises(ValueError):
        await storage.record_match(make_match("bad", [(1, 100), (1, 0)]))
    with pytest.raises(ValueError):
        await storage.record_match(make_match("bad", [(1, 100), (2, 0)], rounds=[[100]]))
    assert await storage.recent_matches(1) == []


async def test_season_and_all_time_ratings_follow_their_own_histories(storage: Storage) -> None:
    model = PlackettLuce()
    await storage.record_match(make_match("m1", [(1, 100), (2, 0)]))
    await storage.start_season(1)
    await storage.record_match(make_match("m2", [(2, 100), (1, 0)]))
    a, b = model.rating(), model.rating()
    [[a], [b]] = model.rate([[a], [b]], ranks=[1, 2])
    [[b_all], [a_all]] = model.rate([[b], [a]], ranks=[1, 2])
    [[b_s2], [a_s2]] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    for user, all_time, season in ((1, a_all, a_s2), (2, b_all, b_s2)):
        got_all = await storage.player_stats(1, user)
        got_season = await storage.player_stats(1, user, season=2)
        assert got_all and got_season
        assert (got_all.mu, got_all.sigma) == pytest.approx((all_time.mu, all_time.sigma))
        assert (got_season.mu, got_season.sigma) == pytest.approx((season.mu, season.sigma))
