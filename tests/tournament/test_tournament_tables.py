"""An arena at the real table manager: tables opened as started lobbies, their ends counted."""

from __future__ import annotations

import dataclasses
import random

from bot.engine import RuleSet
from bot.tables.commands import ANY_SEAT, Actor
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
