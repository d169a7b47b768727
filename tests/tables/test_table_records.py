"""A match played at a table records each round, and the league stores records that replay."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.engine import RuleSet
from bot.engine.record import RoundRecord
from bot.storage import Storage
from bot.tables.commands import ANY_SEAT, Actor, Join, NextRound, Start
from bot.tables.manager import TableManager
from bot.tables.scheduler import ManualScheduler
from bot.tables.table import Status

ALICE, BOB, CAROL = 11, 22, 33


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    store = await Storage.open(tmp_path / "uno.db")
    try:
        yield store
    finally:
        await store.close()


async def test_every_round_played_at_a_table_is_stored_and_replays(storage: Storage) -> None:
    manager = TableManager(storage, scheduler=ManualScheduler(), rng=random.Random(8))
    users = {ALICE: Actor(ALICE, "Alice"), BOB: Actor(BOB, "Bob"), CAROL: Actor(CAROL, "Carol")}
    await manager.create("t1", 1, 100, users[ALICE], RuleSet(target=150), threads=True)
    await manager.act("t1", users[BOB], Join())
    await manager.act("t1", users[CAROL], Join())
    await manager.act("t1", users[ALICE], Start())
    table = manager.tables["t1"]
    rng = random.Random(1)
    for _ in range(20_000):
        if table.status is Status.FINISHED:
            break
        if table.status is Status.ROUND_OVER:
            await manager.act("t1", users[ALICE], NextRound())
            continue
        assert table.match is not None
        game = table.match.game
        seat = game.current
        action = rng.choice(game.legal_actions(seat))
        user = users[table.seats[seat].user_id]
        await manager.act("t1", user, dataclasses.replace(action, seat=ANY_SEAT))
    assert table.status is Status.FINISHED
    [summary] = await storage.recent_matches(1)
    detail = await storage.match_detail(1, summary.number)
    assert detail is not None and len(detail.rounds) >= 1
    for played in detail.rounds:
        text = await storage.round_record(1, summary.number, played.number)
        assert text is not None
        assert RoundRecord.from_text(text).replayed_points() == played.points


async def test_a_finished_round_is_offered_with_the_scores_as_they_stood_then(
    storage: Storage,
) -> None:
    manager = TableManager(storage, scheduler=ManualScheduler(), rng=random.Random(5))
    users = {ALICE: Actor(ALICE, "Alice"), BOB: Actor(BOB, "Bob")}
    await manager.create("t2", 1, 100, users[ALICE], RuleSet(target=300), threads=True)
    await manager.act("t2", users[BOB], Join())
    await manager.act("t2", users[ALICE], Start())
    table = manager.tables["t2"]
    assert await manager.finished_round("t2", 1) is None  # nothing is over yet
    rng = random.Random(2)
    overs = 0
    while table.status is not Status.FINISHED and overs < 2:
        if table.status is Status.ROUND_OVER:
            overs += 1
            assert table.match is not None
            number = len(table.match.rounds)
            found = await manager.finished_round("t2", number)
            assert found is not None and found.guild_id == 1 and found.names == ("Alice", "Bob")
            assert found.record == table.match.records[-1]
            assert found.scores.totals == tuple(table.match.totals)
            if number > 1:  # the round before, as it stood after it
                earlier = await manager.finished_round("t2", 1)
                assert earlier is not None and earlier.scores.rounds == found.scores.rounds[:1]
                assert earlier.scores.totals == found.scores.rounds[0]
                assert earlier.scores.winners == ()
            assert await manager.finished_round("t2", number + 1) is None
            await manager.act("t2", users[ALICE], NextRound())
            continue
        assert table.match is not None
        game = table.match.game
        action = rng.choice(game.legal_actions(game.current))
        user = users[table.seats[game.current].user_id]
        await manager.act("t2", user, dataclasses.replace(action, seat=ANY_SEAT))
    assert overs == 2
    assert await manager.finished_round("nowhere", 1) is None
