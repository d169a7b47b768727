"""Tournaments at the real table manager: tables opened as started lobbies, their ends counted
(an arena's, and a team knockout's with partners leaving)."""

from __future__ import annotations

import dataclasses
import random

from bot.engine import RuleSet
from bot.tables.commands import ANY_SEAT, Actor, Leave
from bot.tables.manager import TableManager
from bot.tables.scheduler import ManualScheduler
from bot.tables.table import Status
from bot.tournament.bridge import ManagedTables
from bot.tournament.manager import MemoryTournamentStore, TournamentManager
from bot.tournament.model import Entrant, Kind, Tournament


async def test_an_arena_at_the_table_manager_counts_each_finished_table() -> None:
    scheduler = ManualScheduler(start=0.0)
    tables = TableManager(None, scheduler=scheduler, rng=random.Random(2), brain=None)
    opener = ManagedTables(tables, RuleSet(target=None))
    store = MemoryTournamentStore()
    manager = TournamentManager(opener, store, scheduler)
    opener.tournaments = manager
    await manager.open("a1", Kind.ARENA, 1, 100, 7, minutes=30)
    people = [Entrant(200 + i, f"p{i}") for i in range(7)]
    for entrant in people:
        await manager.join("a1", entrant)
    live = manager.tournaments["a1"]
    assert sorted(len(p) for p in live.tables.values()) == [3, 3]  # seated as soon as three wait
    assert list(live.waiting) == [206]
    assert set(live.tables) == set(tables.tables)
    rng = random.Random(1)
    for _ in range(20_000):
        playing = [t for t in tables.tables.values() if t.status is Status.PLAYING]
        if len(live.finishes) >= 4 or not playing:
            break
        table = rng.choice(playing)
        assert table.match is not None
        game = table.match.game
        seat = game.current
        action = rng.choice(game.legal_actions(seat))
        user = table.seats[seat]
        await tables.act(
            table.table_id,
            Actor(user.user_id, user.name),
            dataclasses.replace(action, seat=ANY_SEAT),
        )
        await opener.settle()
    assert len(live.finishes) >= 4
    for done in live.finishes:
        assert len(done.placings) in (3, 4)
    seated = [u for players in live.tables.values() for u in players]
    assert len(seated) == len(set(seated))
    record = Tournament.from_dict(store.records["a1"])
    assert record.standings() == live.standings()
    assert sum(s.points for s in record.standings()) >= 4 * 7


async def test_a_berserk_player_has_half_the_turn_timer_and_the_match_names_its_tournament() -> (
    None
):
    scheduler = ManualScheduler(start=0.0)
    tables = TableManager(None, scheduler=scheduler, rng=random.Random(3), brain=None)
    opener = ManagedTables(tables, RuleSet(target=None))
    manager = TournamentManager(opener, MemoryTournamentStore(), scheduler)
    opener.tournaments = manager
    await manager.open("b1", Kind.ARENA, 1, 100, 7, minutes=30, options={"turn_seconds": 60})
    for user_id in (301, 302):
        await manager.join("b1", Entrant(user_id, f"p{user_id}"))
    await manager.berserk("b1", 302)
    await manager.join("b1", Entrant(303, "p303"))
    [table] = tables.tables.values()
    assert table.tournament_id == "b1" and table.berserk == [302]
    assert table.turn_seconds == 60
    by_user = {seat.user_id: index for index, seat in enumerate(table.seats)}
    assert table.seconds_for(by_user[302]) == 30 and table.seconds_for(by_user[301]) == 60
    assert table.match is not None
    waited = table.deadline
    assert waited is not None
    current = table.seats[table.match.game.current].user_id
    assert waited == scheduler.now + (30 if current == 302 else 60)
    restored = type(table).from_record(table.to_record())
    assert restored.berserk == [302] and restored.tournament_id == "b1"


async def test_a_team_knockout_table_a_team_left_is_lost_by_forfeit_and_a_leaver_goes_on() -> None:
    scheduler = ManualScheduler(start=0.0)
    tables = TableManager(None, scheduler=scheduler, rng=random.Random(4), brain=None)
    opener = ManagedTables(tables, RuleSet(target=None))
    manager = TournamentManager(opener, MemoryTournamentStore(), scheduler)
    opener.tournaments = manager
    rules = RuleSet(target=None, teams=2).to_dict()
    await manager.open("k", Kind.KNOCKOUT, 1, 100, 7, seed=3, options={"teams": 2, "rules": rules})
    names = {400 + i: f"p{i}" for i in range(8)}
    for user_id, name in names.items():
        await manager.join("k", Entrant(user_id, name))
    await manager.start_knockout("k")
    live = manager.tournaments["k"]

    async def leave(table_id: str, user_id: int) -> None:
        await tables.act(table_id, Actor(user_id, names[user_id]), Leave())
        await opener.settle()

    (first, a), (second, b) = live.tables.items()
    for table_id, players in live.tables.items():  # partners opposite, as drawn
        table = tables.tables[table_id]
        assert table.rules.teams == 2 and [s.user_id for s in table.seats] == list(players)
        assert set(live.team_of(players[0])) == {players[0], players[2]}
    # At the first table one partner leaves: the team plays on with the other.
    await leave(first, a[0])
    assert tables.tables[first].status is Status.PLAYING and first in live.tables
    # Then both of the other team leave: the team left wins by forfeit, the leaver with it.
    await leave(first, a[1])
    await leave(first, a[3])
    assert first not in live.tables
    [done] = live.finishes
    assert set(done.placings[:2]) == {a[0], a[2]} and done.places[:2] == (0, 0)
    # At the second table the second seat's team leaves at once.
    await leave(second, b[1])
    await leave(second, b[3])
    [final_id] = live.tables
    final = live.tables[final_id]
    # Both winning teams go on as pairs, the partner who had left included, seated opposite.
    assert {live.team_of(u) for u in final} == {live.team_of(a[0]), live.team_of(b[0])}
    assert a[0] in final and not {a[1], a[3], b[1], b[3]} & set(final)
    # In the final the team with the earlier leaver is left alone by the other: champions.
    others = [u for u in final if live.team_of(u) == live.team_of(b[0])]
    for user_id in others:
        await leave(final_id, user_id)
    assert live.final_played() and not live.tables
    podium = live.podium()
    assert {s.user_id for s in podium if s.rank == 1} == {a[0], a[2]}
    assert {s.user_id for s in podium if s.rank == 2} == {b[0], b[2]}
