"""PostgresStorage: the Storage interface over an asyncpg connection pool."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Collection
from functools import partial
from typing import Any, Literal, TypeVar, cast

import asyncpg

from ..base import Storage, Synchronous, check_seen, check_shards
from ..errors import Rollback, StaleTableError, StorageError, StorageWriteError
from ..ledger import validate_match
from ..models import (
    FORMER_PLAYER_ID,
    GuildSettings,
    LeaderboardPage,
    LeaderboardSort,
    MatchDetail,
    MatchRecord,
    MatchSummary,
    PlayerStats,
    Season,
    TableRecord,
)
from ..rows import check_page, scope, settings_params
from . import league, schema, tables
from . import settings as guild_settings
from .schema import Conn

log = logging.getLogger(__name__)

T = TypeVar("T")
Work = Callable[[Conn], Awaitable[T]]
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


class PostgresStorage(Storage):
    """The server backend: many processes share one PostgreSQL database safely."""

    backend = "postgres"

    def __init__(self, pool: asyncpg.Pool, url: str, clock: Callable[[], float]) -> None:
        self._pool: asyncpg.Pool | None = pool
        self.target = schema.redact(url)
        self._clock = clock

    @classmethod
    async def connect(
        cls,
        url: str,
        *,
        clock: Callable[[], float] = time.time,
        synchronous: Synchronous = "NORMAL",
        pool_size: int = 10,
        upto: int | None = None,
    ) -> PostgresStorage:
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
        storage = cls(pool, url, clock)
        try:
            await storage._run(
                partial(schema.migrate, where=where, upto=upto), "migrate the database", write=True
            )
        except BaseException:
            await pool.close()
            storage._pool = None
            raise
        return storage

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()

    async def _run(
        self,
        work: Work[T],
        action: str,
        *,
        write: bool,
        transaction: bool = False,
        isolation: Isolation = "read_committed",
    ) -> T:
        """Run work on a pooled connection; driver errors become StorageError.

        With transaction, work runs inside BEGIN ... COMMIT and is rolled back whole on any
        error; a single statement needs none, as each statement is atomic on its own.
        """
        pool = self._pool
        if pool is None:
            raise StorageError("The database is closed.")
        try:
            async with pool.acquire() as conn:
                if not transaction:
                    return await work(conn)
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

    async def schema_version(self) -> int:
        return await self._run(schema.schema_version, "read the schema version", write=False)

    # ----- live tables -----

    async def save_table(self, record: TableRecord, seen: int | None = None) -> None:
        check_seen(record, seen)
        work = partial(tables.save_table, record=record, seen=seen)
        await self._run(work, "save the table", write=True)

    async def touch_table(self, record: TableRecord) -> bool:
        work = partial(tables.touch_table, record=record)
        return await self._run(work, "save the table", write=True)

    async def load_tables(
        self, shard_ids: Collection[int] | None = None, shard_count: int | None = None
    ) -> list[TableRecord]:
        shards = check_shards(shard_ids, shard_count)
        work = partial(tables.load_tables, shards=shards, count=shard_count or 1)
        return await self._run(work, "load the tables", write=False)

    async def delete_table(self, table_id: str, seen: int | None = None) -> bool:
        work = partial(tables.delete_table, table_id=table_id, seen=seen)
        return await self._run(work, "remove the table", write=True)

    # ----- guild settings -----

    async def get_settings(self, guild_id: int) -> GuildSettings:
        work = partial(guild_settings.get_settings, guild_id=guild_id)
        return await self._run(work, "read the server settings", write=False)

    async def save_settings(self, settings: GuildSettings) -> None:
        settings_params(settings)  # checks the house rules before touching the database
        work = partial(guild_settings.save_settings, settings=settings)
        await self._run(work, "save the server settings", write=True)

    # ----- seasons -----

    async def current_season(self, guild_id: int) -> Season:
        work = partial(league.current_season, guild_id=guild_id)
        return await self._run(work, "read seasons", write=False)

    async def list_seasons(self, guild_id: int) -> list[Season]:
        work = partial(league.list_seasons, guild_id=guild_id)
        return await self._run(work, "read seasons", write=False)

    async def start_season(self, guild_id: int, name: str | None = None) -> Season:
        work = partial(league.start_season, guild_id=guild_id, name=name, now=self._clock())
        season = await self._run(work, "start a new season", write=True, transaction=True)
        log.info("guild %s started season %s (%s)", guild_id, season.number, name)
        return season

    # ----- the league -----

    async def record_match(
        self, record: MatchRecord, table_id: str | None = None, *, table_version: int | None = None
    ) -> bool:
        validate_match(record)
        work = partial(
            league.record_match, record=record, table_id=table_id, table_version=table_version
        )
        recorded = await self._run(work, "save the match", write=True, transaction=True)
        if not recorded:
            log.info("match %s was already recorded; ignored", record.match_uid)
        return recorded

    async def leaderboard(
        self,
        guild_id: int,
        season: int | None = None,
        sort: LeaderboardSort = "rating",
        offset: int = 0,
        limit: int = 25,
        *,
        official_only: bool = False,
    ) -> LeaderboardPage:
        work = partial(
            league.leaderboard,
            guild_id=guild_id,
            season=season,
            scope=scope(season),
            sort=sort,
            order=check_page(sort, offset, limit),
            offset=offset,
            limit=limit,
            official_only=official_only,
        )
        return await self._run(work, "read the leaderboard", write=False)

    async def player_stats(
        self,
        guild_id: int,
        user_id: int,
        season: int | None = None,
        *,
        official_only: bool = False,
    ) -> PlayerStats | None:
        work = partial(
            league.player_stats,
            guild_id=guild_id,
            user_id=user_id,
            season=season,
            scope=scope(season),
            official_only=official_only,
        )
        return await self._run(work, "read the player's stats", write=False)

    async def recent_matches(
        self, guild_id: int, limit: int = 10, offset: int = 0
    ) -> list[MatchSummary]:
        work = partial(league.recent_matches, guild_id=guild_id, limit=limit, offset=offset)
        return await self._run(work, "read the match history", write=False)

    async def match_detail(self, guild_id: int, number: int) -> MatchDetail | None:
        work = partial(league.match_detail, guild_id=guild_id, number=number)
        return await self._run(
            work, "read the match", write=False, transaction=True, isolation="repeatable_read"
        )

    async def match_by_uid(self, guild_id: int, match_uid: str) -> MatchDetail | None:
        work = partial(league.match_by_uid, guild_id=guild_id, match_uid=match_uid)
        return await self._run(
            work, "read the match", write=False, transaction=True, isolation="repeatable_read"
        )

    async def round_record(self, guild_id: int, number: int, round_number: int) -> str | None:
        work = partial(
            league.round_record, guild_id=guild_id, number=number, round_number=round_number
        )
        return await self._run(work, "read the round", write=False)

    async def export_guild(self, guild_id: int) -> dict[str, Any]:
        work = partial(league.export_guild, guild_id=guild_id, now=self._clock())
        return await self._run(
            work,
            "export the server's data",
            write=False,
            transaction=True,
            isolation="repeatable_read",
        )

    async def forget_user(self, guild_id: int, user_id: int) -> int:
        if user_id == FORMER_PLAYER_ID:
            return 0
        work = partial(league.forget_user, guild_id=guild_id, user_id=user_id)
        changed = await self._run(work, "erase the member's records", write=True, transaction=True)
        log.info("forgot user %s in guild %s (%s rows)", user_id, guild_id, changed)
        return changed
