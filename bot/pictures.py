"""PictureQueue: pictures drawn on worker threads, a player's pictures before background ones.

Drawing a picture takes milliseconds of CPU, so it happens off the event loop. Before, every
picture went to the default thread pool in arrival order: after a restart, the pictures of the
500 restored tables were queued ahead of the first player's hand, which waited seconds for them.

Here a job has a priority. ``INTERACTIVE`` jobs (a hand, the table someone just changed) always
go before ``BACKGROUND`` ones (restored tables, the renderer's warm-up), in arrival order within
a priority. With two workers or more, one worker only ever takes interactive jobs, so a click's
picture never waits for a background one to finish either.

Background jobs with a key (a table's picture, which an edit follows) start at most once every
``background_interval`` seconds (20 a second by default): the 500 tables restored at a start are
redrawn over half a minute, not in one burst of edits that would fill the bot's 50 requests a
second. Background jobs without a key (the warm-up's small steps) go between them. A background
job's ``key`` (its table) also lets ``promote(key)`` move it up to the players' jobs, when that
table changes meanwhile.

Bounds: at most ``workers`` jobs run at once; at most ``max_background`` background jobs wait
(a background caller past that waits for room before its job is queued); interactive jobs
waiting are at most the clicks being answered at that moment.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable, Hashable
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, TypeVar

from bot import metrics

log = logging.getLogger(__name__)

T = TypeVar("T")


class Priority(IntEnum):
    """Who waits for a picture: a player now, or nobody in particular."""

    INTERACTIVE = 0
    BACKGROUND = 1


@dataclass(slots=True)
class _Job:
    work: Callable[[], Any]
    future: asyncio.Future[Any]
    key: Hashable | None = None
    holds_room: bool = field(default=False)  # a background job keeps a place until taken


class PictureQueue:
    """A bounded, prioritized queue of drawing jobs run on ``workers`` threads."""

    def __init__(
        self,
        workers: int = 2,
        max_background: int = 1024,
        executor: Executor | None = None,
        background_interval: float = 0.05,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if workers < 1 or max_background < 1:
            raise ValueError("a picture queue needs a worker and room for a background job")
        self.workers = workers
        self.max_background = max_background
        self.background_interval = background_interval
        self._clock = clock
        self._next_background = float("-inf")  # when the next background job may start
        self._wake: asyncio.TimerHandle | None = None
        self._admitting: dict[Hashable, int] = {}  # keys of background jobs waiting for room
        self._promoted: set[Hashable] = set()  # ... of which these go to the players' queue
        self._executor = executor or ThreadPoolExecutor(workers, thread_name_prefix="pictures")
        self._owns_executor = executor is None
        self._waiting: dict[Priority, deque[_Job]] = {p: deque() for p in Priority}
        self._changed: asyncio.Condition | None = None  # wakes the workers
        self._room: asyncio.Semaphore | None = None  # places for waiting background jobs
        self._tasks: list[asyncio.Task[None]] = []
        self._pokes: set[asyncio.Task[None]] = set()  # wake-ups under way (kept: owned)
        self._running = 0
        self._closed = False
        metrics.PICTURE_QUEUES.add(self)  # its depth is a metric

    def pending(self, priority: Priority | None = None) -> int:
        """Jobs waiting for a worker (of one priority, or all)."""
        if priority is not None:
            return len(self._waiting[priority])
        return sum(len(jobs) for jobs in self._waiting.values())

    @property
    def running(self) -> int:
        """Jobs being drawn now."""
        return self._running

    async def draw(
        self,
        work: Callable[..., T],
        *args: Any,
        priority: Priority = Priority.INTERACTIVE,
        key: Hashable | None = None,
    ) -> T:
        """``work(*args)`` run on a worker thread once the jobs before it are taken; its result.

        Cancelling the caller drops the job if no worker has taken it yet.
        """
        if self._closed:
            raise RuntimeError("the picture queue is closed")
        changed, room = self._start()
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        job = _Job(lambda: work(*args), future, key)
        if priority is Priority.BACKGROUND:
            if key is not None:
                self._admitting[key] = self._admitting.get(key, 0) + 1
            try:
                await room.acquire()  # one waiter woken per place freed
            finally:
                if key is not None:
                    self._admitting[key] -= 1
                    if not self._admitting[key]:
                        del self._admitting[key]
                        if key in self._promoted:
                            self._promoted.discard(key)
                            priority = Priority.INTERACTIVE
            job.holds_room = True
            if self._closed:
                room.release()
                raise RuntimeError("the picture queue is closed")
            if priority is Priority.INTERACTIVE:
                self._free_room(job)
        self._waiting[priority].append(job)
        async with changed:
            changed.notify_all()
        try:
            return await future
        finally:
            if not future.done():
                future.cancel()  # a worker that takes it skips it

    def promote(self, key: Hashable) -> None:
        """Move the background jobs of ``key`` (a table that changed) up to the players' jobs."""
        if key in self._admitting:
            self._promoted.add(key)
        background = self._waiting[Priority.BACKGROUND]
        moved = [job for job in background if job.key == key]
        for job in moved:
            background.remove(job)
            self._free_room(job)
            self._waiting[Priority.INTERACTIVE].append(job)
        if moved:
            self._poke()

    def _free_room(self, job: _Job) -> None:
        if job.holds_room and self._room is not None:
            job.holds_room = False
            self._room.release()

    def _poke(self) -> None:
        """Wake the workers (from code that does not hold the condition)."""
        self._wake = None
        if self._changed is not None and not self._closed:
            task = asyncio.get_running_loop().create_task(self._notify())
            self._pokes.add(task)
            task.add_done_callback(self._pokes.discard)

    async def _notify(self) -> None:
        assert self._changed is not None
        async with self._changed:
            self._changed.notify_all()

    def _start(self) -> tuple[asyncio.Condition, asyncio.Semaphore]:
        """The workers, started on first use (in the running loop)."""
        if self._changed is None or self._room is None:
            self._changed = asyncio.Condition()
            self._room = asyncio.Semaphore(self.max_background)
            loop = asyncio.get_running_loop()
            for index in range(self.workers):
                # With two workers or more, the last only takes interactive jobs.
                interactive_only = self.workers > 1 and index == self.workers - 1
                self._tasks.append(loop.create_task(self._work(interactive_only)))
        return self._changed, self._room

    def _next(self, interactive_only: bool) -> _Job | None:
        interactive = self._waiting[Priority.INTERACTIVE]
        while interactive:
            job = interactive.popleft()
            self._free_room(job)
            if not job.future.done():  # its caller has not given up
                return job
        if interactive_only:
            return None
        return self._next_background_job()

    def _next_background_job(self) -> _Job | None:
        """The first background job that may start now: a keyed one (a table's picture, then an
        edit) only once its pace allows; one without a key (a warm-up step) at any time."""
        jobs = self._waiting[Priority.BACKGROUND]
        now = self._clock()
        due = now >= self._next_background
        for index, job in enumerate(jobs):
            if job.future.done() or job.key is None or due:
                del jobs[index]
                self._free_room(job)
                if job.future.done():
                    return self._next_background_job()  # dropped: look again
                if job.key is not None:
                    self._next_background = now + self.background_interval
                return job
        if jobs and self._wake is None:
            delay = self._next_background - now
            self._wake = asyncio.get_running_loop().call_later(delay, self._poke)
        return None

    async def _work(self, interactive_only: bool) -> None:
        assert self._changed is not None
        changed = self._changed
        loop = asyncio.get_running_loop()
        while True:
            async with changed:
                while (job := self._next(interactive_only)) is None:
                    await changed.wait()
            self._running += 1
            started = time.perf_counter()
            try:
                result = await loop.run_in_executor(self._executor, job.work)
                metrics.PICTURE_SECONDS.observe(time.perf_counter() - started)
            except asyncio.CancelledError:
                if not job.future.done():
                    job.future.cancel()
                raise
            except Exception as exc:
                if not job.future.done():
                    job.future.set_exception(exc)
            else:
                if not job.future.done():
                    job.future.set_result(result)
            finally:
                self._running -= 1

    async def close(self) -> None:
        """Stop the workers; jobs still waiting are cancelled (at unload)."""
        self._closed = True
        if self._wake is not None:
            self._wake.cancel()
            self._wake = None
        for jobs in self._waiting.values():
            while jobs:
                job = jobs.popleft()
                job.future.cancel()
                self._free_room(job)
        if self._changed is not None:
            async with self._changed:
                self._changed.notify_all()
        for task in [*self._tasks, *self._pokes]:
            task.cancel()
        await asyncio.gather(*self._pokes, return_exceptions=True)
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks.clear()
        if self._owns_executor:
            self._executor.shutdown(wait=False, cancel_futures=True)
