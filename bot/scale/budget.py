"""The bot token's REST budget: every request Discord counts against the bot's global limit
waits for a slot first, in this process (SQLite) or shared by every process (PostgreSQL).

Slots follow the generic cell rate algorithm: one every ``spacing`` seconds, and after a pause a
short burst at once (up to ``burst`` seconds' worth). In any second at most
``(1 + burst) / spacing + 1`` requests go, which ``Pace.under`` keeps at 90 % of the given
limit, the rest to spare for the time between a slot and the request's arrival.
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


@dataclass(frozen=True, slots=True)
class Pace:
    """Seconds between slots, and how far an idle budget lets requests run ahead."""

    spacing: float
    burst: float

    @classmethod
    def under(cls, per_second: float) -> Pace:
        """A pace whose worst second stays at or below ``per_second`` with room to spare."""
        burst = 0.1
        rate = (0.9 * per_second - 1) / (1 + burst)  # the worst second: 90 % of the limit
        return cls(spacing=1.0 / rate, burst=burst)


class Budget(Protocol):
    """Something a request takes a slot from; returns the seconds it waited."""

    async def take(self) -> float: ...


class LocalBudget:
    """The budget of a process alone."""

    def __init__(self, pace: Pace, *, clock: Clock = time.monotonic, sleep: Sleep = asyncio.sleep):
        self.pace = pace
        self.clock = clock
        self.sleep = sleep
        self._next = float("-inf")

    def reserve(self) -> float:
        """Take the next slot: seconds until it comes (<= 0: now)."""
        now = self.clock()
        slot = max(self._next, now - self.pace.burst)
        self._next = slot + self.pace.spacing
        return slot - now

    async def take(self) -> float:
        wait = self.reserve()
        if wait > 0:
            await self.sleep(wait)
        return max(wait, 0.0)


class Reserver(Protocol):
    async def reserve(self, name: str, spacing: float, burst: float) -> float: ...


class SharedBudget:
    """The budget of every process of the bot, kept in the database. While the database
    cannot be reached, requests draw from this process's own budget instead (so they never
    stall), and the shared one is tried again at the next request."""

    def __init__(self, shared: Reserver, pace: Pace, *, sleep: Sleep = asyncio.sleep) -> None:
        self.shared = shared
        self.pace = pace
        self.sleep = sleep
        self.fallback = LocalBudget(pace, sleep=sleep)
        self._failing = False

    async def take(self) -> float:
        try:
            wait = await self.shared.reserve(BUDGET, self.pace.spacing, self.pace.burst)
        except StorageError as error:
            if not self._failing:
                log.warning("the shared REST budget is unreachable, pacing alone: %s", error)
                self._failing = True
            return await self.fallback.take()
        if self._failing:
            log.info("the shared REST budget is reachable again")
            self._failing = False
        if wait > 0:
            await self.sleep(wait)
        return max(wait, 0.0)


class Switch:
    """The budget requests take from, swapped once the shared one is reachable (discord.py
    takes its trace config when the client is built, before the database is open)."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget

    async def take(self) -> float:
        return await self.budget.take()
