"""One thread that owns a stdlib sqlite3 connection and runs each whole operation in one hop."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import TypeVar, cast

from ..errors import Rollback, StorageError

T = TypeVar("T")


class Worker:
    """A single worker thread and the connection only it touches.

    Each operation is one function run on the thread (one hop, not one per statement): that
    keeps a click's save well under a millisecond and makes every operation atomic with respect
    to the others, since the thread runs them one after another.
    """

    def __init__(self, executor: ThreadPoolExecutor, conn: sqlite3.Connection) -> None:
        self._executor = executor
        self._conn: sqlite3.Connection | None = conn

    @classmethod
    async def start(cls, path: str) -> Worker:
        """Start the thread and open the database on it (sqlite3.Error if that fails)."""
        executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="uno-sqlite")
        loop = asyncio.get_running_loop()
        # isolation_level=None: we issue BEGIN/COMMIT ourselves, so nothing commits implicitly.
        connect = partial(sqlite3.connect, path, isolation_level=None)
        try:
            conn = await loop.run_in_executor(executor, connect)
        except BaseException:
            executor.shutdown(wait=False)
            raise
        return cls(executor, conn)

    async def call(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run work(connection) on the thread and return its result."""
        conn = self._conn
        if conn is None:
            raise StorageError("The database is closed.")
        return await asyncio.get_running_loop().run_in_executor(self._executor, work, conn)

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
        """Run last(connection), close the connection and let the thread end."""
        conn, self._conn = self._conn, None
        if conn is None:
            return

        def finish(conn: sqlite3.Connection) -> None:
            try:
                last(conn)
            finally:
                conn.close()

        try:
            await asyncio.get_running_loop().run_in_executor(self._executor, finish, conn)
        finally:
            self._executor.shutdown(wait=False)
