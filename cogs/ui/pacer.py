"""Paces message writes per channel under Discord's limit: at most ``limit`` in any ``per`` s."""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable

from bot.tables.locks import KeyedLocks

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]

LIMIT = 5  # Discord's message writes per channel...
PER = 5.0  # ...in any 5 seconds
MARGIN = 0.1  # seconds added to the window: requests arrive a little apart from when they left


class ChannelPacer:
    """A sliding window of the last writes to each channel; ``wait`` takes a slot, sleeping
    until one is free. Writers of one channel are served in order. Only channels written to
    within the window are remembered, so the memory stays bounded by the active channels."""

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
        self._writes: OrderedDict[int, deque[float]] = OrderedDict()  # oldest use first
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
        while writes and now - writes[0] >= self.per:
            writes.popleft()
        if len(writes) < self.limit:
            return 0.0
        return writes[0] + self.per - now

    async def ready(self, channel_id: int) -> None:
        """Wait until a write to the channel may go out, without taking the slot."""
        while (wait := self.delay(channel_id)) > 0:
            await self.sleep(wait)

    async def wait(self, channel_id: int) -> None:
        """Take a write slot in the channel, waiting as long as its window is full."""
        async with self._turns.hold(channel_id):
            await self.ready(channel_id)
            writes = self._writes.pop(channel_id, None) or deque(maxlen=self.limit)
            writes.append(self.clock())
            self._writes[channel_id] = writes  # now the most recently used

    def _forget_idle(self, now: float) -> None:
        while self._writes:
            channel_id, writes = next(iter(self._writes.items()))
            if writes and now - writes[-1] < self.per:
                return
            del self._writes[channel_id]
