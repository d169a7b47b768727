"""One thread that owns a stdlib sqlite3 connection and runs each whole operation in one hop."""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import threading
from collections.abc import Callable
from typing import Any, TypeVar, cast

from ..errors import Rollback, StorageError

T = TypeVar("T")
Job = tuple[Callable[[Any], Any], "asyncio.Future[Any]"]


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.done():  # the caller was cancelled; the operation itself finished anyway
        return
    if error is None:
        future.set_result(result)
    else:
        future.set_exception(error)


class Worker:
    """A single worker thread and the connection only it touches.

    Each operation is one function run on the thread (one hop, not one per statement): that
    keeps a click's save well under a millisecond and makes every operation atomic with respect
    to the others, since the thread runs them one after another. A plain queue and
    call_soon_threadsafe cost a third less per hop than an executor's futures.
    """

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._conn: sqlite3.Connection | None = None
        self._open = False
        # A daemon: a Storage never closed must not keep the process alive at exit.
        self._thread = threading.Thread(target=self._serve, name="uno-sqlite", daemon=True)

    @classmethod
    async def start(cls, path: str) -> Worker:
        """Start the thread and open the database on it (sqlite3.Error if that fails)."""
        worker = cls()
        worker._thread.start()

        def connect(_: None) -> None:
            # isolation_level=None: we issue BEGIN/COMMIT ourselves, nothing commits implicitly.
            worker._conn = sqlite3.connect(path, isolation_level=None)

        try:
            await worker._submit(connect)
        except BaseException:
            worker._jobs.put(None)
            raise
        worker._open = True
        return worker

    def _serve(self) -> None:
        while (job := self._jobs.get()) is not None:
            work, future = job
            result: Any = None
            error: BaseException | None = None
            try:
                result = work(self._conn)
            except BaseException as raised:
                error = raised
            with contextlib.suppress(RuntimeError):  # the caller's loop has closed
                future.get_loop().call_soon_threadsafe(_settle, future, result, error)

    def _submit(self, work: Callable[[Any], T]) -> asyncio.Future[T]:
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._jobs.put((work, future))
        return future

    async def call(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run work(connection) on the thread and return its result."""
        if not self._open:
            raise StorageError("The database is closed.")
        return await self._submit(work)

    def transaction(
        self, work: Callable[[sqlite3.Connection], T], *, write: bool
    ) -> Callable[[sqlite3.Connection], T]:
        """work wrapped in BEGIN (IMMEDIATE for writes) and COMMIT, rolled back on any error."""

        def run(conn: sqlite3.Connection) -> T:
            # IMMEDIATE takes the write lock up front, so busy_timeout applies to the wait
            # instead of failing later when a read lock would need upgrading; it is also what
            # serialises a server's league writes across processes.
            conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                result = work(conn)
            except Rollback as undo:
                conn.rollback()
                return cast(T, undo.value)
            except BaseException:
                if conn.in_transaction:
                    conn.rollback()
                raise
            conn.execute("COMMIT")
            return result

        return run

    async def stop(self, last: Callable[[sqlite3.Connection], None]) -> None:
        """Run last(connection), close the connection and end the thread."""
        if not self._open:
            return
        self._open = False

        def finish(conn: sqlite3.Connection) -> None:
            try:
                last(conn)
            finally:
                conn.close()

        try:
            await self._submit(finish)
        finally:
            self._jobs.put(None)
