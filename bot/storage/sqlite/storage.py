"""SQLiteStorage: the Storage interface over one SQLite file, one worker thread, one hop each."""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable, Collection
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from ..base import Storage, Synchronous, check_seen, check_shards
from ..errors import StaleTableError, StorageError, StorageWriteError
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
from .worker import Worker

log = logging.getLogger(__name__)

T = TypeVar("T")


class SQLiteStorage(Storage):
    """The default backend: a SQLite file in WAL mode, for one process (or one host)."""

    backend = "sqlite"

    def __init__(self, worker: Worker, path: str, clock: Callable[[], float]) -> None:
        self._worker = worker
        self.path = path
        self.target = path
        self._clock = clock

    @classmethod
    async def connect(
        cls,
        path: str | Path,
        *,
        clock: Callable[[], float] = time.time,
        synchronous: Synchronous = "NORMAL",
        busy_timeout_ms: int = 5000,
        upto: int | None = None,
    ) -> SQLiteStorage:
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
            worker = await Worker.start(target)
        except sqlite3.Error as error:
            raise StorageError(
                f"Cannot open the database {target}: {schema.describe(error)}."
            ) from error
        storage = cls(worker, target, clock)
        try:
            prepare = partial(
                schema.prepare,
                path=target,
                synchronous=synchronous,
                busy_ms=busy_timeout_ms,
                upto=upto,
            )
            await storage._run(prepare, "open the database", write=False)
        except BaseException:
            await worker.stop(lambda conn: None)
            raise
        return storage

    async def close(self) -> None:
        await self._worker.stop(_optimize)

    async def _run(
        self,
        work: Callable[[sqlite3.Connection], T],
        action: str,
        *,
        write: bool,
        transaction: bool = False,
    ) -> T:
        """Run work on the worker in one hop; driver errors become StorageError.

        With transaction, work runs inside BEGIN (IMMEDIATE for writes) and is rolled back whole
        on any error; a single statement needs none, as SQLite makes each statement atomic.
        """
        if transaction:
            work = self._worker.transaction(work, write=write)
        try:
            return await self._worker.call(work)
        except StaleTableError as error:
            log.warning("refused a stale table write: %s", error)
            raise
        except sqlite3.Error as error:
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
        # One statement commits atomically on its own, so no BEGIN/COMMIT round trip is needed.
        await self._run(partial(tables.save_table, record=record, seen=seen), "save the table",
                        write=True)  # fmt: skip

    async def touch_table(self, record: TableRecord) -> bool:
        return await self._run(partial(tables.touch_table, record=record), "save the table",
                               write=True)  # fmt: skip

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
        settings_params(settings)  # checks the house rules before the hop
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
        return await self._run(work, "read the leaderboard", write=False, transaction=True)

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
        return await self._run(work, "read the player's stats", write=False, transaction=True)

    async def recent_matches(
        self, guild_id: int, limit: int = 10, offset: int = 0
    ) -> list[MatchSummary]:
        work = partial(league.recent_matches, guild_id=guild_id, limit=limit, offset=offset)
        return await self._run(work, "read the match history", write=False, transaction=True)

    async def match_detail(self, guild_id: int, number: int) -> MatchDetail | None:
        work = partial(league.match_detail, guild_id=guild_id, number=number)
        return await self._run(work, "read the match", write=False, transaction=True)

    async def match_by_uid(self, guild_id: int, match_uid: str) -> MatchDetail | None:
        work = partial(league.match_by_uid, guild_id=guild_id, match_uid=match_uid)
        return await self._run(work, "read the match", write=False, transaction=True)

    async def round_record(self, guild_id: int, number: int, round_number: int) -> str | None:
        work = partial(
            league.round_record, guild_id=guild_id, number=number, round_number=round_number
        )
        return await self._run(work, "read the round", write=False)

    async def export_guild(self, guild_id: int) -> dict[str, Any]:
        work = partial(league.export_guild, guild_id=guild_id, now=self._clock())
        return await self._run(work, "export the server's data", write=False, transaction=True)

    async def forget_user(self, guild_id: int, user_id: int) -> int:
        if user_id == FORMER_PLAYER_ID:
            return 0
        work = partial(league.forget_user, guild_id=guild_id, user_id=user_id)
        changed = await self._run(work, "erase the member's records", write=True, transaction=True)
        log.info("forgot user %s in guild %s (%s rows)", user_id, guild_id, changed)
        return changed


def _optimize(conn: sqlite3.Connection) -> None:
    """Let SQLite refresh planner statistics it found missing while we ran."""
    try:
        conn.execute("PRAGMA optimize")
    except sqlite3.Error as error:
        log.warning("PRAGMA optimize failed on close: %s", error)
