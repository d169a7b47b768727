"""PictureQueue: pictures drawn on worker threads, a player's pictures before background ones.

Drawing a picture takes milliseconds of CPU, so it happens off the event loop. Before, every
picture went to the default thread pool in arrival order: after a restart, the pictures of the
500 restored tables were queued ahead of the first player's hand, which waited seconds for them.

Here a job has a priority. ``INTERACTIVE`` jobs (a hand, the table someone just changed) always
go before ``BACKGROUND`` ones (restored tables, the renderer's warm-up), in arrival order within
a priority. With two workers or more, one worker only ever takes interactive jobs, so a click's
picture never waits for a background one to finish either.

Bounds: at most ``workers`` jobs run at once; at most ``max_background`` background jobs wait
(a background caller past that waits for room before its job is queued); interactive jobs
waiting are at most the clicks being answered at that moment.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, TypeVar

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
    holds_room: bool = field(default=False)  # a background job keeps a place until taken


class PictureQueue:
    """A bounded, prioritized queue of drawing jobs run on ``workers`` threads."""

    def __init__(
        self,
        workers: int = 2,
        max_background: int = 64,
        executor: Executor | None = None,
    ) -> None:
        if workers < 1 or max_background < 1:
            raise ValueError("a picture queue needs a worker and room for a background job")
        self.workers = workers
        self.max_background = max_background
        self._executor = executor or ThreadPoolExecutor(workers, thread_name_prefix="pictures")
        self._owns_executor = executor is None
        self._waiting: dict[Priority, deque[_Job]] = {p: deque() for p in Priority}
        self._changed: asyncio.Condition | None = None  # wakes the workers
        self._room: asyncio.Semaphore | None = None  # places for waiting background jobs
        self._tasks: list[asyncio.Task[None]] = []
        self._running = 0
        self._closed = False

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
    ) -> T:
        """``work(*args)`` run on a worker thread once the jobs before it are taken; its result.

        Cancelling the caller drops the job if no worker has taken it yet.
        """
        if self._closed:
            raise RuntimeError("the picture queue is closed")
        changed, room = self._start()
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        job = _Job(lambda: work(*args), future)
        if priority is Priority.BACKGROUND:
            await room.acquire()  # one waiter woken per place freed
            job.holds_room = True
            if self._closed:
                room.release()
                raise RuntimeError("the picture queue is closed")
        self._waiting[priority].append(job)
        async with changed:
            changed.notify_all()
        try:
            return await future
        finally:
            if not future.done():
                future.cancel()  # a worker that takes it skips it

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
        for priority in Priority:
            if interactive_only and priority is not Priority.INTERACTIVE:
                break
            jobs = self._waiting[priority]
            while jobs:
                job = jobs.popleft()
                if job.holds_room and self._room is not None:
                    job.holds_room = False
                    self._room.release()
                if not job.future.done():  # its caller has not given up
                    return job
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
            try:
                result = await loop.run_in_executor(self._executor, job.work)
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
        for jobs in self._waiting.values():
            while jobs:
                job = jobs.popleft()
                job.future.cancel()
                if job.holds_room and self._room is not None:
                    self._room.release()
        if self._changed is not None:
            async with self._changed:
                self._changed.notify_all()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks.clear()
        if self._owns_executor:
            self._executor.shutdown(wait=False, cancel_futures=True)
