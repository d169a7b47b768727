"""The picture queue: players' pictures before background ones, bounded, cancellable."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

import pytest

from bot.pictures import PictureQueue, Priority

BACKGROUND = Priority.BACKGROUND


class Gate:
    """A job that blocks its worker thread until opened (no clock involved)."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.opened = threading.Event()

    def __call__(self, name: str, order: list[str]) -> str:
        self.started.set()
        self.opened.wait()
        order.append(name)
        return name


def job(order: list[str]) -> Callable[[str], str]:
    def run(name: str) -> str:
        order.append(name)
        return name

    return run


async def until(condition: Callable[[], bool]) -> None:
    """Let the loop run until ``condition`` holds (by turns of the loop, not by time)."""
    for _ in range(10_000):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("condition never held")


async def test_a_click_picture_goes_before_every_queued_background_picture() -> None:
    queue = PictureQueue(workers=1, background_interval=0)
    order: list[str] = []
    gate = Gate()
    try:
        first = asyncio.create_task(queue.draw(gate, "restored 0", order, priority=BACKGROUND))
        await asyncio.to_thread(gate.started.wait)
        waiting = [
            asyncio.create_task(queue.draw(job(order), f"restored {i}", priority=BACKGROUND))
            for i in range(1, 4)
        ]
        await until(lambda: queue.pending(BACKGROUND) == 3)
        click = asyncio.create_task(queue.draw(job(order), "hand"))
        await until(lambda: queue.pending() == 4)
        gate.opened.set()
        assert await click == "hand"
        await asyncio.gather(first, *waiting)
        assert order == ["restored 0", "hand", "restored 1", "restored 2", "restored 3"]
    finally:
        gate.opened.set()
        await queue.close()


async def test_with_two_workers_a_click_never_waits_for_a_background_picture() -> None:
    queue = PictureQueue(workers=2, background_interval=0)
    order: list[str] = []
    gate = Gate()
    try:
        slow = asyncio.create_task(queue.draw(gate, "restored 0", order, priority=BACKGROUND))
        await asyncio.to_thread(gate.started.wait)
        later = asyncio.create_task(queue.draw(job(order), "restored 1", priority=BACKGROUND))
        # Drawn while the background picture still holds the other worker.
        assert await queue.draw(job(order), "hand") == "hand"
        assert order == ["hand"] and queue.pending(BACKGROUND) == 1
        gate.opened.set()
        await asyncio.gather(slow, later)
        assert order == ["hand", "restored 0", "restored 1"]
    finally:
        gate.opened.set()
        await queue.close()


async def test_a_table_that_changes_moves_its_background_picture_up() -> None:
    queue = PictureQueue(workers=1, background_interval=0)
    order: list[str] = []
    gate = Gate()
    try:
        first = asyncio.create_task(queue.draw(gate, "busy", order))
        await asyncio.to_thread(gate.started.wait)
        tables = [
            asyncio.create_task(queue.draw(job(order), f"t{i}", priority=BACKGROUND, key=f"t{i}"))
            for i in range(1, 4)
        ]
        await until(lambda: queue.pending(BACKGROUND) == 3)
        queue.promote("t3")
        queue.promote("nobody")  # no picture waiting: nothing to do
        assert queue.pending(BACKGROUND) == 2 and queue.pending(Priority.INTERACTIVE) == 1
        gate.opened.set()
        await asyncio.gather(first, *tables)
        assert order == ["busy", "t3", "t1", "t2"]
    finally:
        gate.opened.set()
        await queue.close()


async def test_background_pictures_are_paced_and_players_pictures_are_not() -> None:
    now = [0.0]
    queue = PictureQueue(workers=1, background_interval=1.0, clock=lambda: now[0])
    order: list[str] = []

    def table(name: str) -> asyncio.Task[str]:
        return asyncio.create_task(queue.draw(job(order), name, priority=BACKGROUND, key=name))

    try:
        one, two = table("t1"), table("t2")
        assert await one == "t1"
        for _ in range(50):
            await asyncio.sleep(0)
        assert not two.done() and queue.pending(BACKGROUND) == 1  # not before its turn
        assert await queue.draw(job(order), "hand") == "hand"  # a player's: at once
        # A step without a key (the warm-up's) goes between paced pictures.
        assert await queue.draw(job(order), "step", priority=BACKGROUND) == "step"
        assert not two.done()
        now[0] = 1.0
        assert await queue.draw(job(order), "hand 2") == "hand 2"
        assert await two == "t2"
        assert order == ["t1", "hand", "step", "hand 2", "t2"]
    finally:
        await queue.close()


async def test_waiting_background_pictures_are_bounded() -> None:
    queue = PictureQueue(workers=1, max_background=2, background_interval=0)
    order: list[str] = []
    gate = Gate()
    try:
        first = asyncio.create_task(queue.draw(gate, "b0", order, priority=BACKGROUND))
        await asyncio.to_thread(gate.started.wait)
        rest = [
            asyncio.create_task(queue.draw(job(order), f"b{i}", priority=BACKGROUND))
            for i in range(1, 6)
        ]
        for _ in range(100):
            await asyncio.sleep(0)
        assert queue.pending(BACKGROUND) == 2  # the other three wait for room
        assert queue.running == 1
        gate.opened.set()
        await asyncio.gather(first, *rest)
        assert order == ["b0", "b1", "b2", "b3", "b4", "b5"]
        assert queue.pending() == 0 and queue.running == 0
    finally:
        gate.opened.set()
        await queue.close()


async def test_a_caller_that_gives_up_drops_its_job_and_errors_reach_the_caller() -> None:
    queue = PictureQueue(workers=1, background_interval=0)
    order: list[str] = []
    gate = Gate()

    def broken() -> None:
        raise ValueError("no picture")

    try:
        first = asyncio.create_task(queue.draw(gate, "first", order))
        await asyncio.to_thread(gate.started.wait)
        dropped = asyncio.create_task(queue.draw(job(order), "dropped"))
        await until(lambda: queue.pending() == 1)
        dropped.cancel()
        gate.opened.set()
        await first
        assert await queue.draw(job(order), "next") == "next"
        assert order == ["first", "next"]
        with pytest.raises(ValueError, match="no picture"):
            await queue.draw(broken)
        assert dropped.cancelled()
    finally:
        gate.opened.set()
        await queue.close()


async def test_closing_cancels_waiting_jobs_and_refuses_new_ones() -> None:
    queue = PictureQueue(workers=1, background_interval=0)
    order: list[str] = []
    gate = Gate()
    first = asyncio.create_task(queue.draw(gate, "first", order))
    await asyncio.to_thread(gate.started.wait)
    waiting = asyncio.create_task(queue.draw(job(order), "never", priority=BACKGROUND))
    await until(lambda: queue.pending() == 1)
    gate.opened.set()
    await queue.close()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    await asyncio.gather(first, return_exceptions=True)
    assert "never" not in order
    with pytest.raises(RuntimeError, match="closed"):
        await queue.draw(job(order), "late")
    with pytest.raises(ValueError):
        PictureQueue(workers=0)
