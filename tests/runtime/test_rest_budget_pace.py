"""The shared REST budget's pace, by the time requests leave: several processes take slots from
one budget across a network whose answers come back late, on a virtual clock."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import random
from collections.abc import Awaitable, Callable
from typing import TypeVar

import pytest

from bot.scale.budget import STALE, LocalBudget, LocalSlots, Pace, SharedBudget

T = TypeVar("T")


class VirtualTime:
    """A clock that moves only when every task waits: to the earliest wake-up asked for."""

    def __init__(self) -> None:
        self.now = 0.0
        self._wakeups: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._wakeups, (self.now + max(seconds, 0.0), next(self._order), woken))
        await woken

    async def run(self, work: Awaitable[T]) -> T:
        task = asyncio.ensure_future(work)
        while not task.done():
            for _ in range(50):  # everything that can run without time passing runs first
                await asyncio.sleep(0)
            if self._wakeups and not task.done():
                at, _, woken = heapq.heappop(self._wakeups)
                self.now = max(self.now, at)
                woken.set_result(None)
        return task.result()


class Distant:
    """The shared slots a network away: a slot is granted when the ask arrives, and the answer
    takes ``back(granted_at)`` seconds to return."""

    def __init__(self, time: VirtualTime, back: Callable[[float], float]) -> None:
        self.time = time
        self.slots = LocalSlots(clock=time.clock)
        self.back = back
        self.granted: list[float] = []

    async def try_take(self, name: str, spacing: float, burst: float) -> float:
        await self.time.sleep(0.001)  # the way there
        wait = self.slots.take_now(name, spacing, burst)
        at = self.time.now
        if wait <= 0:
            self.granted.append(at)
        await self.time.sleep(self.back(at))
        return wait


def worst_second(times: list[float]) -> int:
    return max(sum(1 for t in times if start <= t < start + 1.0) for start in times)


async def spend(
    time: VirtualTime, slots: Distant, limit: float, processes: int, each: int
) -> list[float]:
    """Every process asks for ``each`` slots at once; the times the requests leave."""
    sent: list[float] = []

    async def request(budget: SharedBudget) -> None:
        await budget.take()
        sent.append(time.now)

    budgets = [
        SharedBudget(slots, Pace.under(limit), sleep=time.sleep, clock=time.clock)
        for _ in range(processes)
    ]
    await time.run(asyncio.gather(*(request(b) for b in budgets for _ in range(each))))
    return sent


@pytest.mark.parametrize("limit", [10.0, 50.0])
async def test_slots_answered_late_after_a_pause_never_bunch_past_the_limit(limit: float) -> None:
    time = VirtualTime()
    # The worst a network can do: the burst an idle budget grants at once comes back as late
    # as a grant is still used, while every later answer is back at once. Those late requests
    # leave together with a full second of the slots granted after them.
    slots = Distant(time, lambda granted: 0.99 * STALE if granted < 0.01 else 0.0)
    sent = await spend(time, slots, limit, processes=4, each=int(limit))
    assert len(sent) == 4 * int(limit)
    assert worst_second(sent) <= 0.9 * limit
    # The grants themselves kept to the pace (the slots, not the sends, are what it spaces).
    assert worst_second(slots.granted) <= Pace.under(limit).worst_second(late=0.0)


async def test_slots_answered_at_random_delays_never_bunch_past_the_limit() -> None:
    time = VirtualTime()
    rng = random.Random(7)
    # Answers back at once or late, some too late to use (those slots are given up).
    slots = Distant(time, lambda granted: rng.choice([0.0, 0.002, rng.uniform(0.0, 1.5 * STALE)]))
    sent = await spend(time, slots, 50.0, processes=6, each=40)
    assert len(sent) == 240
    assert len(slots.granted) > 240  # some grants came back too late and were given up
    assert worst_second(sent) <= 45


def test_a_pace_under_a_limit_keeps_its_worst_second_at_nine_tenths() -> None:
    for limit in (10.0, 50.0):
        pace = Pace.under(limit)
        assert pace.worst_second() == pytest.approx(0.9 * limit)
        assert pace.worst_second(late=0.0) < 0.9 * limit


async def test_requests_that_leave_late_after_their_slot_renew_it_and_never_bunch() -> None:
    # A loaded event loop holds every request granted in the first second until t = 1 (a
    # connection to open, a body-writing task to run), when they all leave with the requests
    # granted in the next second. Renewed at the last moment, the late ones take fresh slots.
    async def leave(renew: bool) -> list[float]:
        time = VirtualTime()
        slots = Distant(time, lambda granted: 0.0)
        sent: list[float] = []

        async def request(budget: SharedBudget) -> None:
            slot = await budget.take()
            await time.sleep(max(0.0, 1.0 - time.now))
            if renew:
                slot = await budget.renew(slot)
            sent.append(time.now)

        budgets = [
            SharedBudget(slots, Pace.under(50.0), sleep=time.sleep, clock=time.clock)
            for _ in range(4)
        ]
        await time.run(asyncio.gather(*(request(b) for b in budgets for _ in range(30))))
        assert len(sent) == 120
        return sent

    assert worst_second(await leave(renew=False)) > 50  # what the late loop alone does
    assert worst_second(await leave(renew=True)) <= 45


async def test_a_slot_is_kept_while_fresh_and_renewed_once_stale() -> None:
    time = VirtualTime()
    budget = LocalBudget(Pace(spacing=0.5, burst=0.0), clock=time.clock, sleep=time.sleep)
    slot = await budget.take()
    time.now += STALE / 2
    assert await budget.renew(slot) is slot
    time.now += STALE
    renewed = await time.run(budget.renew(slot))
    # The stale slot is given up: the next one is 0.5 s after it, the wait counted in.
    assert renewed.renewed == 1 and renewed.asked == time.now
    assert renewed.waited == pytest.approx(0.5 - 1.5 * STALE)
