"""Judging a match against the hard computer: one match at a time, on a worker thread."""

from __future__ import annotations

import asyncio
import threading

import pytest

from bot.engine.record import RoundRecord
from bot.engine.review import Agreement
from cogs.league import review


async def test_matches_are_judged_one_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    lock = threading.Lock()
    running = [0, 0]  # now, most at once
    first_in = threading.Event()
    release = threading.Event()

    def slow_judge(records: list[RoundRecord | None], seat: int) -> list[Agreement | None]:
        with lock:
            running[0] += 1
            running[1] = max(running)
        first_in.set()
        release.wait(timeout=10)
        with lock:
            running[0] -= 1
        return [Agreement(seat, 1, 1, 1)]

    monkeypatch.setattr(review, "judge", slow_judge)
    turn = asyncio.Semaphore(1)
    first = asyncio.create_task(review.judged(turn, [None], 0))
    second = asyncio.create_task(review.judged(turn, [None], 1))
    await asyncio.to_thread(first_in.wait, 10)
    # The first is being judged on its thread; the second waits for its turn on the loop.
    assert turn.locked() and not second.done()
    release.set()
    results = await asyncio.gather(first, second)
    assert [r[0].seat for r in results if r[0] is not None] == [0, 1]
    assert running[1] == 1
