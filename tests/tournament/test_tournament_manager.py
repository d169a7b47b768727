"""Whole tournaments on a hand-driven clock: an Arena of 12, a knockout, restarts mid-way."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

from bot.storage import Storage
from bot.tables.scheduler import ManualScheduler
from bot.tournament.manager import MemoryTournamentStore, TableFate, TournamentManager
from bot.tournament.model import Entrant, Kind, Tournament

GAME_SECONDS = (120.0, 420.0)


class FakeTables:
    """The table layer: each table plays for a seeded while, then reports its placings."""

    def __init__(self, scheduler: ManualScheduler, rng: random.Random) -> None:
        self.scheduler = scheduler
        self.rng = rng
        self.manager: TournamentManager | None = None
        self.seated: dict[int, str] = {}  # user id -> live table
        self.records: list[tuple[str, tuple[int, ...], frozenset[int]]] = []
        self.opened: list[tuple[float, tuple[int, ...]]] = []
        self.places: dict[str, tuple[int, ...]] = {}  # team tables: each placing's place
        self.count = 0

    async def open_table(
        self,
        tournament: Tournament,
        table_id: str,
        players: Sequence[Entrant],
        berserk: frozenset[int],
    ) -> None:
        self.count += 1
        assert table_id == f"{tournament.tournament_id}t{self.count}"
        assert table_id in tournament.tables, "opened before the tournament saved it"
        for entrant in players:
            assert entrant.user_id not in self.seated, "a player at two tables"
            self.seated[entrant.user_id] = table_id
        users = tuple(e.user_id for e in players)
        self.opened.append((self.scheduler.now, users))
        seconds = self.rng.uniform(*GAME_SECONDS)
        if berserk:
            seconds /= 2
        teams = tournament.teams
        self.scheduler.schedule(
            table_id,
            self.scheduler.now + seconds,
            lambda: self.end(table_id, users, berserk, teams),
        )

    async def end(
        self, table_id: str, users: tuple[int, ...], berserk: frozenset[int], teams: int = 0
    ) -> None:
        order = list(users)
        places: tuple[int, ...] = ()
        if teams:  # a team wins: seats alternate teams, so partners are every other seat
            won = self.rng.randrange(teams)
            order = [*users[won::teams], *users[1 - won :: teams]]
            places = (0, 0, 1, 1)
            self.places[table_id] = places
        else:
            self.rng.shuffle(order)
        for user_id in users:
            del self.seated[user_id]
        self.records.append((table_id, tuple(order), berserk))
        assert self.manager is not None
        await self.manager.table_finished(table_id, order, places)


def recount(records: Sequence[tuple[str, tuple[int, ...], frozenset[int]]]) -> dict[int, int]:
    """Points by hand from the match records: 4/2/1, doubled on fire, +1 a berserk win."""
    points: dict[int, int] = {}
    wins_in_a_row: dict[int, int] = {}
    for _, order, berserk in records:
        for place, user_id in enumerate(order):
            got = [4, 2, 1, 0][min(place, 3)]
            if wins_in_a_row.get(user_id, 0) >= 2:
                got *= 2
            if place == 0 and user_id in berserk:
                got += 1
            points[user_id] = points.get(user_id, 0) + got
            wins_in_a_row[user_id] = wins_in_a_row.get(user_id, 0) + 1 if place == 0 else 0
    return points


def people(count: int) -> list[Entrant]:
    """Computers and persons alternately."""
    return [Entrant(100 + i, f"p{i}", computer="normal" if i % 2 else None) for i in range(count)]


def setup(
    store: MemoryTournamentStore | Storage, tables: FakeTables, writes: list[float]
) -> TournamentManager:
    async def publish(t: Tournament) -> None:
        writes.append(tables.scheduler.now)

    manager = TournamentManager(tables, store, tables.scheduler, publish)
    tables.manager = manager
    return manager


def within_window(writes: list[float], count: int = 5, seconds: float = 5.0) -> bool:
    return all(len([w for w in writes if at <= w < at + seconds]) <= count for at in writes)


async def run_arena(restart_at: float | None) -> None:
    scheduler = ManualScheduler(start=0.0)
    tables = FakeTables(scheduler, random.Random(11))
    store = MemoryTournamentStore()
    writes: list[float] = []
    manager = setup(store, tables, writes)
    await manager.open("a1", Kind.ARENA, 1, 2, 3, minutes=30)
    players = people(12)
    for entrant in players:
        await manager.join("a1", entrant)
    rng = random.Random(5)
    elapsed = 0.0
    while scheduler.now < 30 * 60 + max(GAME_SECONDS):
        await scheduler.advance(15.0)
        elapsed += 15.0
        live = manager.tournaments.get("a1")
        if live is not None and live.waiting and rng.random() < 0.2:
            user_id = rng.choice(sorted(live.waiting))
            await manager.berserk("a1", user_id)
        if restart_at is not None and elapsed == restart_at:
            # A new process: the tables (kept by the table layer) play on; the tournament
            # comes back from its record alone.
            manager = setup(store, tables, writes)
            restored = await manager.restore()
            assert [t.tournament_id for t in restored] == ["a1"]
    record = Tournament.from_dict(store.records["a1"])
    assert store.records["a1"]["finished"]
    assert not tables.seated
    assert {s.user_id: s.points for s in record.standings()} == {
        e.user_id: recount(tables.records).get(e.user_id, 0) for e in players
    }
    assert len(record.finishes) == len(tables.records) >= 12
    assert [s.points for s in record.podium()] == sorted(recount(tables.records).values())[::-1][:3]
    # Nobody waits longer than the longest game: three waiting are seated at once.
    assert tables.opened[0][0] == 0.0
    for f in record.finishes:
        for user_id in f.placings:
            later = [at for at, users in tables.opened if user_id in users and at >= f.finished_at]
            if later and f.finished_at < 30 * 60:
                assert min(later) - f.finished_at <= max(GAME_SECONDS)
    assert writes and within_window(writes)


async def test_a_whole_arena_of_twelve_scores_as_its_match_records_say() -> None:
    await run_arena(restart_at=None)


async def test_an_arena_restarted_mid_way_resumes_from_its_record() -> None:
    await run_arena(restart_at=600.0)


async def run_knockout(restart: bool) -> None:
    scheduler = ManualScheduler(start=0.0)
    tables = FakeTables(scheduler, random.Random(4))
    store = MemoryTournamentStore()
    writes: list[float] = []
    manager = setup(store, tables, writes)
    await manager.open("k1", Kind.KNOCKOUT, 1, 2, 3, seed=9)
    for entrant in people(12):
        await manager.join("k1", entrant)
    assert not tables.opened  # entries open until the host starts it
    await manager.start_knockout("k1")
    assert [len(users) for _, users in tables.opened] == [4, 4, 4]
    for _ in range(200):
        await scheduler.advance(30.0)
        if restart and len(tables.records) == 3:
            manager = setup(store, tables, writes)
            await manager.restore()
            restart = False
        if store.records["k1"]["finished"]:
            break
    record = Tournament.from_dict(store.records["k1"])
    bracket = record.rounds()
    assert [len(r) for r in bracket] == [3, 2, 1]
    assert len(bracket[-1][0].placings) == 4
    assert [s.user_id for s in record.podium()] == list(tables.records[-1][1][:3])
    assert within_window(writes)


async def test_a_knockout_of_twelve_plays_to_its_final_table() -> None:
    await run_knockout(restart=False)


async def test_a_knockout_restarted_between_rounds_plays_on_to_its_final() -> None:
    await run_knockout(restart=True)


async def test_a_team_table_that_ended_while_down_counts_its_teams_places() -> None:
    store = MemoryTournamentStore()
    tables = FakeTables(ManualScheduler(0.0), random.Random(1))
    manager = setup(store, tables, [])
    await manager.open("a", Kind.ARENA, 1, 2, 3, minutes=30, options={"teams": 2})
    for entrant in people(4):
        await manager.join("a", entrant)
    seated = manager.view("a")
    assert seated is not None and list(seated.tables.values()) == [(100, 101, 102, 103)]

    async def ended(t: Tournament, table_id: str) -> TableFate:
        # As the league recorded it: partners 100 and 102 won, sharing their team's place.
        return TableFate(playing=False, placings=(102, 100, 103, 101), places=(0, 0, 1, 1))

    later = FakeTables(ManualScheduler(600.0), random.Random(2))
    later.count = 1  # the table before the restart
    fresh = setup(store, later, [])
    await fresh.restore(ended)
    resumed = fresh.view("a")
    assert resumed is not None
    assert {s.user_id: s.points for s in resumed.standings()} == {100: 4, 102: 4, 101: 2, 103: 2}
    assert list(resumed.tables.values()) == [(100, 101, 102, 103)]  # all four wait, seated again


async def run_team_knockout(opened: list[Storage], path: Path) -> Tournament:
    """Five teams to their final, the process killed mid-round and started again on the same
    database (each storage opened kept in ``opened``); the finished tournament."""
    storage = await Storage.open(path)
    opened.append(storage)
    scheduler = ManualScheduler(start=0.0)
    tables = FakeTables(scheduler, random.Random(6))
    writes: list[float] = []
    manager = setup(storage, tables, writes)
    await manager.open("k1", Kind.KNOCKOUT, 1, 2, 3, seed=4, options={"teams": 2})
    for entrant in people(10):  # five teams
        await manager.join("k1", entrant)
    await manager.start_knockout("k1")
    drawn = manager.view("k1")
    assert drawn is not None and len(drawn.pairs) == 5
    assert [len(users) for _, users in tables.opened] == [4, 4]  # and a bye
    restarted = False
    for _ in range(200):
        await scheduler.advance(30.0)
        if not restarted and len(tables.records) == 1:
            # Killed with one table of the first round counted, one still playing: a new
            # process takes the tournament up from the database alone.
            live = manager.view("k1")
            assert live is not None and len(live.tables) == 1
            await storage.close()
            storage = await Storage.open(path)
            opened.append(storage)
            manager = setup(storage, tables, writes)
            [resumed] = await manager.restore()
            assert resumed.to_dict() == {**live.to_dict(), "version": live.version + 1}
            restarted = True
        if not manager.tournaments:
            break
    assert restarted
    [record] = await storage.finished_tournaments(1)
    final = Tournament.from_dict(record)
    assert final.pairs == drawn.pairs
    assert [f.placings for f in final.finishes] == [order for _, order, _ in tables.records]
    assert all(f.places == (0, 0, 1, 1) for f in final.finishes)
    assert [s.user_id for s in final.podium()] == list(tables.records[-1][1])
    assert not tables.seated and within_window(writes)
    return final


async def test_a_team_knockout_restarted_mid_round_rebuilds_from_storage_to_its_final(
    tmp_path: Path,
) -> None:
    opened: list[Storage] = []
    try:
        final = await run_team_knockout(opened, tmp_path / "uno.db")
    finally:
        for storage in opened:
            await storage.close()
    assert [len(r) for r in final.rounds()] == [2, 1, 1]  # five teams, then three, then two
    [done] = final.rounds()[-1]
    champions = final.team_of(done.placings[0])
    assert {s.user_id for s in final.podium() if s.rank == 1} == set(champions)
    assert {s.user_id for s in final.podium() if s.rank == 2} == set(done.placings) - set(champions)
