"""Keyed timers: schedule a coroutine for a moment, replace or cancel it by key.

The clock is injected so tests drive time by hand (``ManualScheduler``) instead of sleeping.
"""

from __future__ import annotations

import asyncio
import heapq
import logging
import time
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[None]]


class Scheduler:
    """Runs each job once its moment comes (per key, the newest schedule wins)."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self._handles: dict[str, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def schedule(self, key: str, when: float, job: Job) -> None:
        """Run ``job`` at clock time ``when``, replacing any job under ``key``."""
        self.cancel(key)
        loop = asyncio.get_running_loop()
        delay = max(0.0, when - self.clock())
        self._handles[key] = loop.call_later(delay, self._start, key, job)

    def cancel(self, key: str) -> None:
        handle = self._handles.pop(key, None)
        if handle is not None:
            handle.cancel()

    def pending(self, key: str) -> bool:
        return key in self._handles

    def _start(self, key: str, job: Job) -> None:
        self._handles.pop(key, None)
        task = asyncio.get_running_loop().create_task(_guarded(key, job))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        """Cancel every timer and running job (at shutdown)."""
        for key in list(self._handles):
            self.cancel(key)
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)


async def _guarded(key: str, job: Job) -> None:
    try:
        await job()
    except asyncio.CancelledError:
        raise
    except Exception:
        # A failing timer must never take the bot down; it is logged and the table stays usable.
        log.exception("timer %s failed", key)


class ManualScheduler(Scheduler):
    """A scheduler on a hand-driven clock, for tests: ``await advance(seconds)`` runs due jobs."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.now = start
        super().__init__(clock=lambda: self.now)
        self._queue: list[tuple[float, int, str]] = []
        self._jobs: dict[str, tuple[float, Job]] = {}
        self._counter = 0

    def schedule(self, key: str, when: float, job: Job) -> None:
        self._jobs[key] = (when, job)
        self._counter += 1
        heapq.heappush(self._queue, (when, self._counter, key))

    def cancel(self, key: str) -> None:
        self._jobs.pop(key, None)

    def pending(self, key: str) -> bool:
        return key in self._jobs

    def due(self, key: str) -> float | None:
        entry = self._jobs.get(key)
        return entry[0] if entry else None

    async def advance(self, seconds: float) -> int:
        """Move the clock forward and run every job that falls due, in order; returns how many."""
        target = self.now + seconds
        ran = 0
        while self._queue and self._queue[0][0] <= target:
            when, _, key = heapq.heappop(self._queue)
            entry = self._jobs.get(key)
            if entry is None or entry[0] != when:
                continue  # cancelled or rescheduled
            del self._jobs[key]
            self.now = max(self.now, when)
            await _guarded(key, entry[1])
            ran += 1
        self.now = target
        return ran

    async def close(self) -> None:
        self._jobs.clear()
        self._queue.clear()
