"""Paces message writes per channel under Discord's limit: at most ``limit`` in any ``per`` s."""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from bot.tables.locks import KeyedLocks

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]

LIMIT = 5  # Discord's message writes per channel...
PER = 5.0  # ...in any 5 seconds
MARGIN = 0.05  # seconds added to the window, for clocks that tick coarsely


class ChannelPacer:
    """A sliding window of the last writes to each channel; ``slot`` takes one, sleeping until
    one is free. A write counts from when its answer came back (a request reaches Discord
    between its start and its answer), so Discord never sees more than ``limit`` in ``per`` s.
    Writers of one channel are served in order. Only channels written to within the window are
    remembered, so the memory stays bounded by the active channels."""

    def __init__(
        self,
        limit: int = LIMIT,
        per: float = PER,
        *,
        margin: float = MARGIN,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.limit = limit
        self.per = per + margin
        self.clock = clock
        self.sleep = sleep
        self._writes: OrderedDict[int, deque[list[float]]] = OrderedDict()  # oldest use first
        self._turns: KeyedLocks[int] = KeyedLocks()

    def __len__(self) -> int:
        return len(self._writes)

    def delay(self, channel_id: int) -> float:
        """Seconds until a write to the channel may go out (0: now)."""
        now = self.clock()
        self._forget_idle(now)
        writes = self._writes.get(channel_id)
        if writes is None:
            return 0.0
        # A write still under way may reach Discord at any moment: it counts as made now.
        times = [stamp[0] if stamp[1] else now for stamp in writes]
        recent = [t for t in times if now - t < self.per]
        if len(recent) < self.limit:
            return 0.0
        return min(recent) + self.per - now

    async def ready(self, channel_id: int) -> None:
        """Wait until a write to the channel may go out, without taking the slot."""
        while (wait := self.delay(channel_id)) > 0:
            await self.sleep(wait)

    @asynccontextmanager
    async def slot(self, channel_id: int) -> AsyncIterator[None]:
        """Hold a write slot in the channel for the request made inside the block."""
        async with self._turns.hold(channel_id):
            await self.ready(channel_id)
            writes = self._writes.pop(channel_id, None) or deque(maxlen=self.limit)
            stamp = [self.clock(), 0.0]  # when, and whether the answer came back
            writes.append(stamp)
            self._writes[channel_id] = writes  # now the most recently used
        try:
            yield
        finally:
            stamp[0], stamp[1] = max(stamp[0], self.clock()), 1.0  # counted from the answer

    async def wait(self, channel_id: int) -> None:
        """Take a write slot in the channel for a write made now."""
        async with self.slot(channel_id):
            pass

    def _forget_idle(self, now: float) -> None:
        while self._writes:
            channel_id, writes = next(iter(self._writes.items()))
            if any(not stamp[1] or now - stamp[0] < self.per for stamp in writes):
                return
            del self._writes[channel_id]
