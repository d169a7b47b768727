"""A finished match tells each player, privately, the achievements it earned them, once."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.engine import RuleSet
from bot.storage import Storage
from bot.tables.commands import ANY_SEAT, Actor, Join, Start
from bot.tables.manager import TableManager
from bot.tables.scheduler import ManualScheduler
from bot.tables.table import Status
from cogs.league.announce import AchievementAnnouncer

ALICE, BOB = 11, 22


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    store = await Storage.open(tmp_path / "uno.db")
    try:
        yield store
    finally:
        await store.close()


async def play_single_round(manager: TableManager, table_id: str, seed: int) -> int:
    """A single-round match between Alice and Bob; returns the winner's user id."""
    users = {ALICE: Actor(ALICE, "Alice"), BOB: Actor(BOB, "Bob")}
    await manager.create(table_id, 1, 100, users[ALICE], RuleSet(target=None), threads=True)
    await manager.act(table_id, users[BOB], Join())
    await manager.act(table_id, users[ALICE], Start())
    table = manager.tables[table_id]
    rng = random.Random(seed)
    while table.status is Status.PLAYING:
        assert table.match is not None
        game = table.match.game
        action = rng.choice(game.legal_actions(game.current))
        user = users[table.seats[game.current].user_id]
        await manager.act(table_id, user, dataclasses.replace(action, seat=ANY_SEAT))
    assert table.match is not None
    return table.seats[table.match.winners[0]].user_id


async def test_the_winner_of_a_first_match_is_told_of_their_first_win_once(
    storage: Storage,
) -> None:
    manager = TableManager(storage, scheduler=ManualScheduler(), rng=random.Random(4))
    told: list[tuple[int, str]] = []

    async def send(user_id: int, text: str) -> None:
        told.append((user_id, text))

    announcer = AchievementAnnouncer(lambda: storage, send)
    manager.subscribe(announcer.on_change)
    winner = await play_single_round(manager, "t1", 1)
    await announcer.wait()
    assert told == [
        (
            winner,
            "🏅 New achievement in this server's UNO league: **First win**. See `/uno profile`.",
        )
    ]
    told.clear()
    again = await play_single_round(manager, "t2", 2)
    await announcer.wait()
    assert all("First win" not in text for _, text in told)  # earned before, not told again
    assert all(user == again for user, _ in told)
