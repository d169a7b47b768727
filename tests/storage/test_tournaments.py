"""Tournaments in storage: saved whole under a rising version, resumed, their matches recorded
under their id; the tournament manager on the real store, restarted from it."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from bot.storage import GuildSettings, Storage, StorageWriteError
from bot.storage.models import FORMER_PLAYER_NAME
from bot.tables.scheduler import ManualScheduler
from bot.tournament.manager import TableFate, TournamentManager
from bot.tournament.model import Entrant, Finish, Kind, Tournament, TournamentError, standings

from .helpers import make_match

START = 1_700_000_000.0


def record(tournament_id: str = "t1", version: int = 1, **changes: Any) -> dict[str, Any]:
    t = Tournament(tournament_id, Kind.ARENA, 1, 20, 3, opened_at=START, ends_at=START + 1800)
    t.version = version
    data = t.to_dict()
    data.update(finished=False, finished_at=None)
    data.update(changes)
    return data


async def test_a_tournament_round_trips_and_only_a_newer_version_replaces_it(
    storage: Storage,
) -> None:
    await storage.save_tournament(record(version=1))
    [loaded] = await storage.load_tournaments()
    assert loaded == record(version=1)
    await storage.save_tournament(record(version=3, closed=True))
    await storage.save_tournament(record(version=2))  # late and older: ignored
    [loaded] = await storage.load_tournaments()
    assert loaded["version"] == 3 and loaded["closed"] is True
    assert Tournament.from_dict(loaded).to_dict() == {
        k: v for k, v in loaded.items() if k not in ("finished", "finished_at")
    }


async def test_finished_tournaments_are_not_resumed_but_stay_readable(storage: Storage) -> None:
    await storage.save_tournament(record("a", 1))
    await storage.save_tournament(record("b", 1))
    await storage.save_tournament(record("a", 2, finished=True, finished_at=START + 2000))
    assert [r["tournament_id"] for r in await storage.load_tournaments()] == ["b"]
    [done] = await storage.finished_tournaments(1)
    assert done["tournament_id"] == "a" and done["finished"] and done["finished_at"] == START + 2000
    assert await storage.finished_tournaments(2) == []


async def test_tournaments_load_by_shard_like_tables(storage: Storage) -> None:
    on_shard_1 = 1 << 22
    await storage.save_tournament(record("zero", 1))
    await storage.save_tournament(record("one", 1, guild_id=on_shard_1))
    assert [r["tournament_id"] for r in await storage.load_tournaments([1], 2)] == ["one"]
    assert [r["tournament_id"] for r in await storage.load_tournaments([0], 2)] == ["zero"]


async def test_forget_me_takes_the_member_s_name_out_of_the_server_s_tournaments(
    storage: Storage,
) -> None:
    entrants = [[2, "Bob", None], [3, "Ann", None]]
    await storage.save_tournament(record("live", 1, entrants=entrants))
    await storage.save_tournament(
        record("done", 2, entrants=entrants, finished=True, finished_at=START + 100)
    )
    await storage.save_tournament(record("elsewhere", 1, guild_id=9, entrants=entrants))
    assert await storage.forget_user(1, 2) == 2
    [live] = [r for r in await storage.load_tournaments() if r["tournament_id"] == "live"]
    [done] = await storage.finished_tournaments(1)
    [elsewhere] = [r for r in await storage.load_tournaments() if r["guild_id"] == 9]
    for kept in (live, done):
        assert kept["entrants"] == [[2, FORMER_PLAYER_NAME, None], [3, "Ann", None]]
    assert live["version"] == 1 and done["version"] == 2  # a later save still replaces them
    assert elsewhere["entrants"] == entrants  # another server's tournament keeps the name
    assert await storage.forget_user(1, 2) == 0


@pytest.mark.parametrize("broken", [{"kind": "swiss"}, {"version": 0}, {"guild_id": None}])
async def test_a_malformed_tournament_record_is_refused_before_storage(
    storage: Storage, broken: dict[str, Any]
) -> None:
    with pytest.raises(ValueError, match="tournament record"):
        await storage.save_tournament(record(**broken))
    assert await storage.load_tournaments() == []


async def test_matches_name_their_tournament_and_recount_its_placings(storage: Storage) -> None:
    first = replace(make_match("t1-1", [(11, 0), (12, 90), (13, 40)]), tournament_id="t1")
    second = replace(make_match("t1-2", [(13, 70), (11, 70), (12, 5)]), tournament_id="t1")
    other = make_match("x", [(11, 50), (12, 0)])
    for match in (first, second, other):
        assert await storage.record_match(match)
    played = await storage.tournament_matches(1, "t1")
    assert [(m.number, m.match_uid, m.placings) for m in played] == [
        (1, "t1-1", [12, 13, 11]),
        (2, "t1-2", [13, 11, 12]),  # a shared first place in seat order
    ]
    assert await storage.tournament_matches(1, "t2") == []
    history = await storage.recent_matches(1)
    assert [(m.number, m.tournament_id) for m in history] == [(3, None), (2, "t1"), (1, "t1")]
    found, plain = await storage.match_by_uid(1, "t1-2"), await storage.match_by_uid(1, "x")
    assert found is not None and found.tournament_id == "t1"
    assert plain is not None and plain.tournament_id is None


async def test_the_export_names_each_matchs_tournament_and_holds_the_tournaments(
    storage: Storage,
) -> None:
    played = replace(make_match("a1t1", [(11, 90), (12, 0)]), tournament_id="a1")
    for match in (played, make_match("x", [(11, 50), (12, 0)])):
        assert await storage.record_match(match)
    await storage.save_tournament(record("a1", 2, finished=True, finished_at=START + 2000))
    await storage.save_tournament(record("b2", 1, opened_at=START + 5000))
    await storage.save_tournament(record("other", 1, guild_id=2))
    data = await storage.export_guild(1)
    assert [(m["match_uid"], m["tournament_id"]) for m in data["matches"]] == [
        ("a1t1", "a1"),
        ("x", None),
    ]
    assert [(t["tournament_id"], t["finished"]) for t in data["tournaments"]] == [
        ("a1", True),
        ("b2", False),
    ]
    assert data["tournaments"][0] == record("a1", 2, finished=True, finished_at=START + 2000)


async def test_a_server_may_let_anyone_open_tournaments(storage: Storage) -> None:
    assert (await storage.get_settings(5)).tournaments_open is False
    await storage.save_settings(GuildSettings(5, tournaments_open=True))
    assert (await storage.get_settings(5)).tournaments_open is True


# ----- the manager on the real store -----


class RecordingTables:
    """The table layer: each table plays a seeded while, then records its match (under the
    tournament's id) and reports its placings."""

    def __init__(self, storage: Storage, scheduler: ManualScheduler, rng: random.Random) -> None:
        self.storage = storage
        self.scheduler = scheduler
        self.rng = rng
        self.manager: TournamentManager | None = None
        self.live: dict[str, tuple[int, ...]] = {}
        self.saved_before_open: list[bool] = []
        self.found_ended: list[str] = []  # tables that ended while nobody listened

    async def open_table(
        self,
        tournament: Tournament,
        table_id: str,
        players: Sequence[Entrant],
        berserk: frozenset[int],
    ) -> None:
        [stored] = [
            r
            for r in await self.storage.load_tournaments()
            if r["tournament_id"] == tournament.tournament_id
        ]
        self.saved_before_open.append(table_id in {t for t, _ in stored["tables"]})
        users = tuple(p.user_id for p in players)
        assert not set(users) & {u for seated in self.live.values() for u in seated}
        self.live[table_id] = users
        seconds = self.rng.uniform(120.0, 400.0) / (2 if berserk else 1)
        self.scheduler.schedule(
            table_id, self.scheduler.now + seconds, lambda: self.end(tournament, table_id)
        )

    async def end(self, tournament: Tournament, table_id: str) -> None:
        users = list(self.live.pop(table_id))
        self.rng.shuffle(users)
        points = [(u, 100 - 10 * place) for place, u in enumerate(users)]
        match = make_match(table_id, points, guild_id=tournament.guild_id)
        await self.storage.record_match(replace(match, tournament_id=tournament.tournament_id))
        if self.manager is not None:  # else the bot is down: the restart finds the record
            await self.manager.table_finished(table_id, users)

    async def fate(self, tournament: Tournament, table_id: str) -> TableFate:
        if table_id in self.live:
            return TableFate(playing=True)
        found = await self.storage.match_by_uid(tournament.guild_id, table_id)
        if found is None:
            return TableFate(playing=False)
        self.found_ended.append(table_id)
        by_place = sorted(found.players, key=lambda p: (p.place, p.seat))
        return TableFate(playing=False, placings=tuple(p.user_id for p in by_place))


def manager_on(storage: Storage, tables: RecordingTables) -> TournamentManager:
    manager = TournamentManager(tables, storage, tables.scheduler)
    tables.manager = manager
    return manager


async def test_an_arena_on_the_real_store_resumes_and_recounts_from_its_matches(
    storage: Storage,
) -> None:
    scheduler = ManualScheduler(start=START)
    tables = RecordingTables(storage, scheduler, random.Random(3))
    manager = manager_on(storage, tables)
    await manager.open("a1", Kind.ARENA, 1, 20, 3, minutes=30)
    people = [Entrant(100 + i, f"p{i}", "normal" if i % 3 == 0 else None) for i in range(10)]
    for entrant in people:
        await manager.join("a1", entrant)
    await manager.berserk("a1", 109)
    down_from, down_for = 600.0, 300.0
    while scheduler.now < START + 1800 + 400:
        await scheduler.advance(10.0)
        if scheduler.now == START + down_from:
            # The bot goes down: its tournament manager is gone; tables end unheard.
            tables.manager = None
        if scheduler.now == START + down_from + down_for:
            manager = manager_on(storage, tables)
            [resumed] = await manager.restore(tables.fate)
            assert resumed.tournament_id == "a1"
    assert await storage.load_tournaments() == []
    [done] = await storage.finished_tournaments(1)
    final = Tournament.from_dict(done)
    played = await storage.tournament_matches(1, "a1")
    assert len(played) == len(final.finishes) >= 10
    assert [tuple(m.placings) for m in played] == [f.placings for f in final.finishes]
    berserk = {f.table_id: f.berserk for f in final.finishes}
    recount = standings(
        final.entrants,
        [Finish(m.match_uid, tuple(m.placings), berserk[m.match_uid]) for m in played],
    )
    assert [(s.user_id, s.points) for s in recount] == [
        (s.user_id, s.points) for s in final.standings()
    ]
    assert any(berserk.values())
    assert tables.found_ended  # ended while the bot was down, counted at the restart
    assert tables.saved_before_open and all(tables.saved_before_open)


class FailingStore:
    """The real store, but its tournament saves fail while ``broken``."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.broken = False

    async def save_tournament(self, record: dict[str, Any]) -> None:
        if self.broken:
            raise StorageWriteError("Could not save the tournament: disk full.")
        await self.storage.save_tournament(record)

    async def load_tournaments(self) -> list[dict[str, Any]]:
        return await self.storage.load_tournaments()


async def test_a_failed_save_opens_no_table_and_refuses_the_request(storage: Storage) -> None:
    scheduler = ManualScheduler(start=START)
    tables = RecordingTables(storage, scheduler, random.Random(1))
    store = FailingStore(storage)
    manager = TournamentManager(tables, store, scheduler)
    tables.manager = manager
    await manager.open("a1", Kind.ARENA, 1, 20, 3, minutes=30)
    await manager.join("a1", Entrant(1, "a"))
    await manager.join("a1", Entrant(2, "b"))
    store.broken = True
    with pytest.raises(TournamentError) as refused:
        await manager.join("a1", Entrant(3, "c"))
    assert refused.value.code == "tournament_save_failed"
    assert tables.live == {}
    live = manager.view("a1")
    assert live is not None and sorted(live.waiting) == [1, 2] and live.tables == {}
    [stored] = await storage.load_tournaments()
    assert stored["version"] == live.version
    store.broken = False
    await manager.join("a1", Entrant(3, "c"))
    assert list(tables.live.values()) == [(1, 2, 3)]
    assert tables.saved_before_open == [True]
