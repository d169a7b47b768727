"""The SQLite backend: one aiosqlite connection to a file in WAL mode, one operation at a time."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import TypeVar, cast

import aiosqlite

from bot import metrics

from ..backend import Backend, Landed, Mode, Synchronous
from ..errors import Rollback, StaleTableError, StorageError, StorageWriteError
from . import league, schema, settings, tables, tournaments
from .sql import Conn

log = logging.getLogger(__name__)

T = TypeVar("T")


class SQLiteBackend(Backend[Conn]):
    """The default backend: a SQLite file, for one process (or one host).

    One connection serves the process. An operation holds it from its first statement to its
    last (an asyncio lock), so the statements of two operations never mix in one transaction;
    a transaction is BEGIN ... COMMIT around the whole operation. Across processes, BEGIN
    IMMEDIATE and busy_timeout do the serialising.
    """

    name = "sqlite"
    tables = tables
    settings = settings
    league = league
    tournaments = tournaments

    def __init__(self, conn: Conn, path: str) -> None:
        self._conn: Conn | None = conn
        self._lock = asyncio.Lock()
        self.target = path

    @classmethod
    async def connect(
        cls,
        path: str | Path,
        *,
        synchronous: Synchronous = "NORMAL",
        busy_timeout_ms: int = 5000,
        upto: int | None = None,
    ) -> SQLiteBackend:
        """Open (creating if needed) and migrate the file; StorageError says why not."""
        target = str(path)
        if target != ":memory:":
            try:
                Path(target).parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise StorageError(
                    f"Cannot create the folder for the database {target}: {error.strerror}."
                ) from error
        try:
            # isolation_level None: we issue BEGIN/COMMIT ourselves, nothing commits implicitly.
            conn = await aiosqlite.connect(target, isolation_level=None)
        except sqlite3.Error as error:
            raise StorageError(
                f"Cannot open the database {target}: {schema.describe(error)}."
            ) from error
        backend = cls(conn, target)
        try:
            prepare = partial(
                schema.prepare,
                path=target,
                synchronous=synchronous,
                busy_ms=busy_timeout_ms,
                upto=upto,
            )
            await backend.run(prepare, "open the database", write=False, mode="statement")
        except BaseException:
            backend._conn = None
            await conn.close()
            raise
        return backend

    async def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is None:
            return
        async with self._lock:  # an operation under way finishes first
            try:
                # Let SQLite refresh planner statistics it found missing while we ran.
                await conn.execute("PRAGMA optimize")
            except sqlite3.Error as error:
                log.warning("PRAGMA optimize failed on close: %s", error)
            finally:
                await conn.close()

    async def schema_version(self) -> int:
        return await self.run(
            schema.schema_version, "read the schema version", write=False, mode="statement"
        )

    async def run(
        self,
        work: Callable[[Conn], Awaitable[T]],
        action: str,
        *,
        write: bool,
        mode: Mode,
        landed: Landed[Conn, T] | None = None,
    ) -> T:
        """work on the connection, alone: inside BEGIN (IMMEDIATE for writes) ... COMMIT for
        "transaction" and "snapshot"; a single statement is atomic on its own, and plain reads
        need no common moment. (``landed`` is not needed: a file in this process never loses
        the answer to a write.)
        """
        try:
            with metrics.storage_operation(action):
                return await self._run(work, action, write=write, mode=mode)
        except sqlite3.Error as error:
            metrics.STORAGE_ERRORS.labels(action).inc()
            log.warning("storage could not %s: %s", action, error)
            reason = schema.describe(error)
            if write:
                raise StorageWriteError(
                    f"Could not {action}: {reason}. Nothing was changed; try again."
                ) from error
            raise StorageError(f"Could not {action}: {reason}.") from error

    async def _run(
        self, work: Callable[[Conn], Awaitable[T]], action: str, *, write: bool, mode: Mode
    ) -> T:
        try:
            async with self._lock:
                conn = self._conn
                if conn is None:
                    raise StorageError("The database is closed.")
                if mode in ("statement", "reads"):
                    return await work(conn)
                return await _transaction(conn, work, write=write)
        except StaleTableError as error:
            log.warning("refused a stale table write: %s", error)
            raise


async def _transaction(conn: Conn, work: Callable[[Conn], Awaitable[T]], *, write: bool) -> T:
    """work between BEGIN and COMMIT, rolled back whole on any error (or a Rollback)."""
    # IMMEDIATE takes the write lock up front, so busy_timeout applies to the wait instead of
    # failing later when a read lock would need upgrading; it is also what serialises a
    # server's league writes across processes.
    await conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
    try:
        result = await work(conn)
    except Rollback as undo:
        await conn.rollback()
        return cast(T, undo.value)
    except BaseException:
        # Also when the caller was cancelled: the statements already sent run first (aiosqlite
        # keeps their order), then this undoes them before the next operation begins.
        await asyncio.shield(conn.rollback())
        raise
    await conn.execute("COMMIT")
    return result
