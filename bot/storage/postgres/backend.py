"""The PostgreSQL backend: the operations run on an asyncpg connection pool."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Literal, TypeVar, cast

import asyncpg

from ..backend import Backend, Mode, Synchronous
from ..errors import Rollback, StaleTableError, StorageError, StorageWriteError
from . import league, schema, settings, tables
from .schema import Conn

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


class PostgresBackend(Backend[Conn]):
    """The server backend: many processes share one PostgreSQL database safely."""

    name = "postgres"
    tables = tables
    settings = settings
    league = league

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool: asyncpg.Pool | None = pool
        self.target = schema.redact(url)

    @classmethod
    async def connect(
        cls,
        url: str,
        *,
        synchronous: Synchronous = "NORMAL",
        pool_size: int = 10,
        upto: int | None = None,
    ) -> PostgresBackend:
        """Connect a pool and migrate the database; StorageError says why not."""
        where = schema.redact(url)
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=max(1, pool_size),
                server_settings=schema.session_settings(url, synchronous),
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
        self, work: Callable[[Conn], Awaitable[T]], action: str, *, write: bool, mode: Mode
    ) -> T:
        """work on a pooled connection: in a transaction for "transaction" (read committed)
        and "snapshot" (repeatable read, read only); statements and plain reads need none.
        """
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
            log.warning("storage could not %s: %s", action, error)
            reason = schema.describe(error)
            if write:
                raise StorageWriteError(
                    f"Could not {action}: {reason}. Nothing was changed; try again."
                ) from error
            raise StorageError(f"Could not {action}: {reason}.") from error
