"""The PostgreSQL backend: the operations run on an asyncpg connection pool."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any, Literal, TypeVar, cast

import asyncpg

from bot import metrics

from ..backend import Backend, Landed, Mode, Synchronous
from ..errors import Rollback, StaleTableError, StorageError, StorageWriteError
from . import league, schema, settings, tournaments
from .schema import Conn
from .tables import SignedTables

log = logging.getLogger(__name__)

T = TypeVar("T")
Isolation = Literal["read_committed", "repeatable_read"]

# What a dropped connection or an unreachable server raises, besides the server's errors
# (a connection the server closes mid-query can surface as the driver's InternalClientError).
_DRIVER_ERRORS = (
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    OSError,
    asyncio.TimeoutError,
)
# Errors after which a write may or may not have committed: the connection went away before
# the answer came back. The stored row then tells (``_settle``).
_LOST_ANSWER = (
    asyncpg.PostgresConnectionError,
    asyncpg.OperatorInterventionError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    OSError,
    asyncio.TimeoutError,
)
# Pauses before each look at the stored row after a lost answer (about 2 s in all), while the
# pool reconnects to a server that is restarting.
SETTLE_DELAYS = (0.0, 0.1, 0.3, 0.6, 1.0)


class PostgresBackend(Backend[Conn]):
    """The server backend: many processes share one PostgreSQL database safely."""

    name = "postgres"
    settings = settings
    league = league
    tournaments = tournaments

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool: asyncpg.Pool | None = pool
        self.target = schema.redact(url)
        # Signs this process's table writes, so it knows its own in the stored rows.
        self.writer = secrets.token_hex(8)
        self.tables = SignedTables(self.writer)

    @classmethod
    async def connect(
        cls,
        url: str,
        *,
        synchronous: Synchronous = "NORMAL",
        pool_size: int = 10,
        pgbouncer: bool = False,
        upto: int | None = None,
    ) -> PostgresBackend:
        """Connect a pool and migrate the database; StorageError says why not.

        Commits wait for the server's disk whatever ``synchronous`` says (a PostgreSQL server
        may crash apart from the bot). pgbouncer: the server is reached through PgBouncer in
        transaction mode, where a prepared statement may land on another server connection,
        so none is kept.
        """
        del synchronous  # SQLite's choice; see schema.session_settings
        where = schema.redact(url)
        options: dict[str, Any] = {"statement_cache_size": 0} if pgbouncer else {}
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=max(1, pool_size),
                server_settings=schema.session_settings(url, pgbouncer=pgbouncer),
                **options,
            )
        except (*_DRIVER_ERRORS, ValueError) as error:
            raise StorageError(
                f"Cannot connect to the database {where}: {schema.describe(error)}."
            ) from error
        backend = cls(pool, url)
        try:
            migrate = partial(schema.migrate, where=where, upto=upto)
            await backend.run(migrate, "migrate the database", write=True, mode="statement")
        except BaseException:
            await backend.close()
            raise
        return backend

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()

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
        """work on a pooled connection: in a transaction for "transaction" (read committed)
        and "snapshot" (repeatable read, read only); statements and plain reads need none.

        A write whose answer was lost is settled from the database (``landed``): in, it
        succeeded; not in, it is made once more (its version guard keeps that safe); unknown,
        the server still away, StorageWriteError, and the signed row settles it at the next
        write.
        """
        try:
            return await self._timed(work, action, write=write, mode=mode)
        except StorageWriteError as error:
            if landed is None or not isinstance(error.__cause__, _LOST_ANSWER):
                raise
            settled = await self._settle(landed.check)
            if settled is None:
                raise
            if settled:
                log.info("the answer to %s was lost, but it was saved", action)
                return landed.result
            log.info("the answer to %s was lost before it was saved: saving again", action)
            return await self._timed(work, action, write=write, mode=mode)

    async def _settle(self, check: Callable[[Conn], Awaitable[bool]]) -> bool | None:
        """Whether a write whose answer was lost is in the database; None if it cannot tell."""
        for delay in SETTLE_DELAYS:
            await asyncio.sleep(delay)
            pool = self._pool
            if pool is None:
                return None
            try:
                async with pool.acquire() as conn:
                    return await check(conn)
            except _DRIVER_ERRORS:
                continue
        return None

    async def _timed(
        self, work: Callable[[Conn], Awaitable[T]], action: str, *, write: bool, mode: Mode
    ) -> T:
        with metrics.storage_operation(action):
            return await self._once(work, action, write=write, mode=mode)

    async def _once(
        self, work: Callable[[Conn], Awaitable[T]], action: str, *, write: bool, mode: Mode
    ) -> T:
        pool = self._pool
        if pool is None:
            raise StorageError("The database is closed.")
        try:
            async with pool.acquire() as conn:
                if mode in ("statement", "reads"):
                    return await work(conn)
                isolation: Isolation = "repeatable_read" if mode == "snapshot" else "read_committed"
                try:
                    async with conn.transaction(isolation=isolation, readonly=not write):
                        return await work(conn)
                except Rollback as undo:
                    return cast(T, undo.value)
        except StaleTableError as error:
            log.warning("refused a stale table write: %s", error)
            raise
        except _DRIVER_ERRORS as error:
            metrics.STORAGE_ERRORS.labels(action).inc()
            log.warning("storage could not %s: %s", action, error)
            reason = schema.describe(error)
            if write:
                raise StorageWriteError(
                    f"Could not {action}: {reason}. Nothing was changed; try again."
                ) from error
            raise StorageError(f"Could not {action}: {reason}.") from error
