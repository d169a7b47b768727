"""What the processes of one bot agree on through PostgreSQL: who runs each shard (a session
advisory lock per shard, held for the process's life), the REST budget of the bot token, and
whose turn it is to identify to Discord's gateway.

Everything runs on one connection of its own, outside the pool: a session lock lives as long
as its connection, so the database releases a dead process's leases the moment its connection
drops.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Collection
from typing import TypeVar

import asyncpg

from ..errors import StorageError
from .schema import describe, redact

log = logging.getLogger(__name__)

T = TypeVar("T")

# The first key of the two-key advisory locks ("uno" in ASCII); the second is the shard id.
LEASE_CLASS = 0x756E6F
IDENTIFY_CLASS = LEASE_CLASS + 1  # ...and the shard's max_concurrency bucket

# A slot now, if the budget has one: the cell rate algorithm on the database's clock, which
# serves every process alike. The row is free when its next slot is at most ``burst`` seconds
# ahead (an idle budget lets a short burst go at once); taking it moves the slot one spacing on.
# The condition is in WHERE, so a concurrent take is seen (the row is read again once its lock
# is free). Returns 0 when taken, else the seconds until the next slot; NULL: no row yet.
_TAKE = """
WITH taken AS (
    UPDATE rest_budget
    SET next_at = GREATEST(next_at, extract(epoch FROM clock_timestamp())::double precision) + $2
    WHERE name = $1 AND next_at - $3 <= extract(epoch FROM clock_timestamp())::double precision
    RETURNING 1
)
SELECT CASE WHEN EXISTS (SELECT FROM taken) THEN 0.0 ELSE (
    SELECT GREATEST(next_at - $3 - extract(epoch FROM clock_timestamp())::double precision, 1e-4)
    FROM rest_budget WHERE name = $1
) END
"""

_IDENTIFY = """
INSERT INTO identify_turns AS turn (bucket, last_at)
SELECT $1, extract(epoch FROM clock_timestamp())::double precision
ON CONFLICT (bucket) DO UPDATE
SET last_at = GREATEST(turn.last_at + $2, excluded.last_at)
RETURNING last_at - extract(epoch FROM clock_timestamp())::double precision
"""

# A connection the server cut mid-query can also surface as the driver's InternalClientError.
_DRIVER_ERRORS = (
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    OSError,
    asyncio.TimeoutError,
)


class HeldElsewhere(StorageError):
    """Another live process holds the lease of one of these shards."""

    def __init__(self, shards: Collection[int]) -> None:
        self.shards = sorted(shards)
        which = ", ".join(str(s) for s in self.shards)
        super().__init__(
            f"shard {which} is already run by another live process (its lease is held in the "
            "database): stop that process first, or give this one other SHARD_IDS"
        )


class Coordination:
    """This process's place among the bot's processes, on a connection of its own."""

    def __init__(self, url: str, shard_ids: Collection[int], *, timeout: float = 5.0) -> None:
        self.url = url
        self.target = redact(url)
        self.shard_ids = sorted(set(shard_ids))
        self.timeout = timeout
        self._conn: asyncpg.Connection[asyncpg.Record] | None = None
        self._turn = asyncio.Lock()  # one statement at a time on the connection
        self._held = False

    async def open(self) -> None:
        """Connect and take every shard's lease; HeldElsewhere when one is taken."""
        async with self._turn:
            await self._connect()

    async def _connect(self) -> None:
        try:
            conn = await asyncpg.connect(self.url, timeout=self.timeout, statement_cache_size=0)
        except (*_DRIVER_ERRORS, ValueError) as error:
            raise StorageError(
                f"Cannot connect to the database {self.target}: {describe(error)}."
            ) from error
        try:
            taken = [
                shard
                for shard in self.shard_ids
                if await conn.fetchval("SELECT pg_try_advisory_lock($1, $2)", LEASE_CLASS, shard)
            ]
            if len(taken) < len(self.shard_ids):
                raise HeldElsewhere(set(self.shard_ids) - set(taken))
        except BaseException:
            await conn.close()
            raise
        self._conn, self._held = conn, True
        if self.shard_ids:
            log.info("holding the lease of shards %s", ", ".join(map(str, self.shard_ids)))

    async def keep(self) -> None:
        """Check the leases' connection; after it dropped (the server restarted), connect and
        take them again. HeldElsewhere if another process took one meanwhile."""
        async with self._turn:
            conn = self._conn
            if conn is not None and not conn.is_closed():
                try:
                    await conn.fetchval("SELECT 1", timeout=self.timeout)
                    return
                except _DRIVER_ERRORS:
                    pass
            if conn is not None:
                log.warning("the shard leases' connection dropped: taking them again")
                conn.terminate()
                self._conn = None
            await self._connect()

    async def _on_connection(
        self, work: Callable[[asyncpg.Connection[asyncpg.Record]], Awaitable[T]]
    ) -> T:
        async with self._turn:
            conn = self._conn
            if conn is None or conn.is_closed():
                raise StorageError("The coordination connection is down.")
            try:
                return await work(conn)
            except _DRIVER_ERRORS as error:
                raise StorageError(f"Could not coordinate: {describe(error)}.") from error

    async def try_take(self, name: str, spacing: float, burst: float) -> float:
        """Take a slot of a shared budget now (0), or none: the seconds until one may be free."""

        async def work(conn: asyncpg.Connection[asyncpg.Record]) -> float:
            wait = await conn.fetchval(_TAKE, name, spacing, burst, timeout=self.timeout)
            if wait is None:  # the budget's first use (or the server lost it in a crash)
                await conn.execute(
                    "INSERT INTO rest_budget (name, next_at) VALUES ($1, 0) "
                    "ON CONFLICT (name) DO NOTHING",
                    name,
                )
                wait = await conn.fetchval(_TAKE, name, spacing, burst, timeout=self.timeout)
            return float(wait)

        return await self._on_connection(work)

    async def identify_turn(self, bucket: int, spacing: float) -> float:
        """Take the bucket's next identify turn, ``spacing`` s after the last one, under the
        bucket's advisory lock: seconds to wait before identifying."""

        async def work(conn: asyncpg.Connection[asyncpg.Record]) -> float:
            async with conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock($1, $2)", IDENTIFY_CLASS, bucket)
                wait = await conn.fetchval(_IDENTIFY, bucket, spacing, timeout=self.timeout)
            return float(wait)

        return await self._on_connection(work)

    async def close(self) -> None:
        """Release the leases (closing the connection releases its locks)."""
        async with self._turn:
            conn, self._conn = self._conn, None
            if conn is not None and not conn.is_closed():
                await conn.close()
