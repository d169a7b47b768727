"""Pings falling due together go out spread over time, bot-wide, and only for turns still
awaited once their moment comes."""

from __future__ import annotations

import asyncio
from itertools import pairwise

from bot.storage import Storage
from bot.tables.snapshot import TableSnapshot
from cogs.ui.board import TableBoard, Turn
from cogs.ui.pacer import ChannelPacer
from tests.tables.helpers import manager_on, started

TURN: Turn = (1, 1, 0, 0, "turn")


class ManualTime:
    """A clock moved by the board's sleeps; ``gate`` holds the sleepers until it is set."""

    def __init__(self) -> None:
        self.now = 0.0
        self.gate = asyncio.Event()
        self.gate.set()

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += max(0.0, seconds)
        await self.gate.wait()


async def pinging(
    store: Storage, keys: list[str]
) -> tuple[TableBoard, ManualTime, TableSnapshot, list[tuple[str, float]]]:
    """A board on manual time whose ``keys`` await TURN; each refresh it is asked for is noted
    (table, time) instead of made."""
    time = ManualTime()
    manager = manager_on(store)
    heard: list[TableSnapshot] = []
    manager.subscribe(heard.append)
    await started(manager)
    board = TableBoard(
        None,  # type: ignore[arg-type]
        manager,
        min_interval=0,
        pacer=ChannelPacer(clock=time.clock, sleep=time.sleep),
        sleep=time.sleep,
        pings_per_second=10.0,
    )
    asked: list[tuple[str, float]] = []
    board.request = lambda table: asked.append((table.table_id, time.now))  # type: ignore[method-assign]
    for key in keys:
        board._latest[key] = heard[-1]
        board._turn[key] = TURN
    return board, time, heard[-1], asked


async def test_pings_falling_due_together_go_out_a_tenth_of_a_second_apart(
    storage: Storage,
) -> None:
    keys = [f"t{i}" for i in range(30)]
    board, _, _, requests = await pinging(storage, keys)
    # The scheduler starts every ping that falls due as a task of its own.
    await asyncio.gather(*(board._ping_now(key, TURN) for key in keys))
    asked = [when for _, when in requests]
    assert len(asked) == 30
    assert all(b - a >= 0.1 - 1e-9 for a, b in pairwise(asked))
    assert asked[-1] - asked[0] < 3.0  # spread out, not held back for long
    assert set(board._ping_due) == set(keys)


async def test_a_ping_whose_turn_ended_while_it_waited_is_not_posted(
    storage: Storage,
) -> None:
    board, time, snapshot, requests = await pinging(storage, ["a", "b"])
    time.gate.clear()
    first = asyncio.create_task(board._ping_now("a", TURN))
    second = asyncio.create_task(board._ping_now("b", TURN))
    await first  # the first goes at once...
    assert [table for table, _ in requests] == [snapshot.table_id]
    board._turn["b"] = (2, 1, 0, 0, "turn")  # ...while b's player moves before b's turn comes
    time.gate.set()
    await second
    assert [table for table, _ in requests] == [snapshot.table_id]
    assert "b" not in board._ping_due
