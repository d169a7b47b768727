"""The bot token's REST budget: every request Discord counts against the bot's global limit
takes a slot first, in this process (SQLite) or shared by every process (PostgreSQL).

Slots follow the generic cell rate algorithm: one every ``spacing`` seconds, and after a pause a
short burst at once (up to ``burst`` seconds' worth). In any window of ``w`` seconds at most
``(w + burst) / spacing + 1`` slots are granted. A request leaves at most ``STALE`` seconds after
its slot was granted (a later answer is given up), so the requests that leave in any one second
had their slots granted within ``1 + STALE`` seconds: ``Pace.under`` keeps those at 90 % of the
limit, the rest to spare for the way from the bot to Discord.

A slot is taken at the moment the request leaves, never reserved ahead: a request that finds
none waits and asks again, so a loaded event loop that wakes it late cannot send it together
with the requests whose slots came meanwhile. One request of a process asks at a time (in
order); the others queue behind it. Between its slot and the socket a request still passes
through aiohttp (a connection to open, the body written by a task of its own), so the last
hook before its bytes leave ``renew``s the slot: one asked for over ``STALE`` s before is
given up for a fresh one, and a late event loop bunches no more than a late answer does.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from bot.storage import StorageError

log = logging.getLogger(__name__)

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]
BUDGET = "bot"  # the one budget of the bot token
# A slot whose answer took longer than this to come back may have been granted that long
# before the request leaves: it is given up and another taken. Pace.under counts every request
# as possibly this late.
STALE = 0.1


@dataclass(frozen=True, slots=True)
class Pace:
    """Seconds between slots, and how far an idle budget lets requests run ahead."""

    spacing: float
    burst: float

    @classmethod
    def under(cls, per_second: float, late: float = STALE) -> Pace:
        """A pace under which the requests leaving in any one second stay at 90 % of
        ``per_second``, though each may leave up to ``late`` seconds after its slot."""
        burst = 0.05
        rate = (0.9 * per_second - 1) / (1 + late + burst)  # slots of 1 + late seconds
        return cls(spacing=1.0 / rate, burst=burst)

    def worst_second(self, late: float = STALE) -> float:
        """The most requests that may leave in one second, each up to ``late`` s after its
        slot."""
        return (1.0 + late + self.burst) / self.spacing + 1


@dataclass(frozen=True, slots=True)
class Slot:
    """A granted slot: when it was asked for (on the budget's clock; it was granted no earlier),
    the seconds the budget has held its request so far, and how many slots it gave up for
    leaving too late after them."""

    asked: float
    waited: float
    renewed: int = 0


class Budget(Protocol):
    """Something a request takes a slot from just before it leaves, and renews the slot with
    at the last moment before its bytes go out."""

    async def take(self) -> Slot: ...

    async def renew(self, slot: Slot) -> Slot:
        """``slot`` while its request may still leave on it, else a fresh one."""
        ...


class Slots(Protocol):
    """Where slots are kept: ``try_take`` takes one now and returns 0, or takes none and
    returns the seconds until one may be free."""

    async def try_take(self, name: str, spacing: float, burst: float) -> float: ...


class LocalSlots:
    """The slots of a process alone (the cell rate algorithm on this process's clock)."""

    def __init__(self, *, clock: Clock = time.monotonic) -> None:
        self.clock = clock
        self._next: dict[str, float] = {}

    async def try_take(self, name: str, spacing: float, burst: float) -> float:
        return self.take_now(name, spacing, burst)

    def take_now(self, name: str, spacing: float, burst: float) -> float:
        now = self.clock()
        due = self._next.get(name, float("-inf"))
        if due - burst > now:
            return due - burst - now
        self._next[name] = max(due, now) + spacing
        return 0.0


class _Taker:
    """Takes slots for one process: one at a time, in order; a late answer is given up."""

    def __init__(self, pace: Pace, sleep: Sleep, clock: Clock) -> None:
        self.pace = pace
        self.sleep = sleep
        self.clock = clock
        self._turn = asyncio.Lock()  # FIFO: the requests of this process in order

    async def take_from(self, slots: Slots) -> Slot:
        """Wait for a slot of ``slots``; StorageError (the shared one) passes through."""
        began = self.clock()
        async with self._turn:
            while True:
                asked = self.clock()
                wait = await slots.try_take(BUDGET, self.pace.spacing, self.pace.burst)
                if wait <= 0:
                    if self.clock() - asked <= STALE:
                        return Slot(asked, self.clock() - began)
                    continue  # granted too long ago to count on: take a fresh one
                await self.sleep(wait)

    def fresh(self, slot: Slot) -> bool:
        """Whether a request leaving now on ``slot`` leaves within STALE of its grant."""
        return self.clock() - slot.asked <= STALE


async def _renewed(slot: Slot, fresh: bool, take: Callable[[], Awaitable[Slot]]) -> Slot:
    if fresh:
        return slot
    again = await take()
    return Slot(again.asked, slot.waited + again.waited, slot.renewed + 1)


class LocalBudget:
    """The budget of a process alone."""

    def __init__(self, pace: Pace, *, clock: Clock = time.monotonic, sleep: Sleep = asyncio.sleep):
        self.pace = pace
        self.slots = LocalSlots(clock=clock)
        self._taker = _Taker(pace, sleep, clock)

    async def take(self) -> Slot:
        return await self._taker.take_from(self.slots)

    async def renew(self, slot: Slot) -> Slot:
        return await _renewed(slot, self._taker.fresh(slot), self.take)


class SharedBudget:
    """The budget of every process of the bot, kept in the database. While the database
    cannot be reached, requests draw from this process's own budget instead (so they never
    stall), and the shared one is tried again at the next request."""

    def __init__(
        self,
        shared: Slots,
        pace: Pace,
        *,
        sleep: Sleep = asyncio.sleep,
        clock: Clock = time.monotonic,
    ) -> None:
        self.shared = shared
        self.pace = pace
        self.fallback = LocalSlots(clock=clock)
        self._taker = _Taker(pace, sleep, clock)
        self._failing = False

    async def take(self) -> Slot:
        try:
            slot = await self._taker.take_from(self.shared)
        except StorageError as error:
            if not self._failing:
                log.warning("the shared REST budget is unreachable, pacing alone: %s", error)
                self._failing = True
            return await self._taker.take_from(self.fallback)
        if self._failing:
            log.info("the shared REST budget is reachable again")
            self._failing = False
        return slot

    async def renew(self, slot: Slot) -> Slot:
        return await _renewed(slot, self._taker.fresh(slot), self.take)


class Switch:
    """The budget requests take from, swapped once the shared one is reachable (discord.py
    takes its trace config when the client is built, before the database is open)."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget

    async def take(self) -> Slot:
        return await self.budget.take()

    async def renew(self, slot: Slot) -> Slot:
        return await self.budget.renew(slot)
