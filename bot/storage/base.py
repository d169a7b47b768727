"""The Storage interface both backends implement, and the one factory that picks a backend."""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal

from .models import (
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

if TYPE_CHECKING:
    from bot.config import Settings

Synchronous = Literal["NORMAL", "FULL"]
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(target: str | Path) -> bool:
    """True when target names a PostgreSQL server rather than a SQLite file."""
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends a guild's events to: (guild_id >> 22) % shard_count."""
    return (guild_id >> 22) % shard_count


def check_shards(shard_ids: Collection[int] | None, shard_count: int | None) -> list[int] | None:
    """The shard ids to filter by (None: every table); ValueError when they make no sense."""
    if shard_ids is None and shard_count is None:
        return None
    if shard_ids is None or shard_count is None:
        raise ValueError("give both shard_ids and shard_count, or neither")
    if shard_count < 1 or any(not 0 <= s < shard_count for s in shard_ids):
        raise ValueError("shard ids must lie in 0..shard_count-1")
    return sorted(set(shard_ids))


def check_seen(record: TableRecord, seen: int | None) -> None:
    """A new version must be above the one it was made from (a programming error otherwise)."""
    if seen is not None and (seen < 0 or record.version <= seen):
        raise ValueError(f"version {record.version} must be above the version seen ({seen})")


class Storage(ABC):
    """The bot's database: live tables, guild settings and the per-server league.

    Two backends implement it, SQLite (a file, the default) and PostgreSQL (a server, for
    several processes); ``Storage.open`` picks one from its target. Driver failures surface as
    StorageError (StorageWriteError for a write, rolled back whole); a refused table write as
    StaleTableError.
    """

    backend: str  # "sqlite" or "postgres"
    target: str  # the file path, or the server URL without its password

    @classmethod
    async def open(
        cls,
        target: str | Path,
        *,
        clock: Callable[[], float] = time.time,
        synchronous: Synchronous = "NORMAL",
        busy_timeout_ms: int = 5000,
        pool_size: int = 10,
    ) -> Storage:
        """Open and migrate the database at target: a postgresql:// URL or a SQLite path.

        synchronous: NORMAL (the default) makes a commit safe against the bot's crash, FULL
        also against power loss, at a disk flush per commit (docs/performance.md). busy_timeout_ms
        applies to SQLite, pool_size to PostgreSQL.
        """
        if is_postgres_url(target):
            from .postgres import PostgresStorage

            return await PostgresStorage.connect(
                str(target), clock=clock, synchronous=synchronous, pool_size=pool_size
            )
        from .sqlite import SQLiteStorage

        return await SQLiteStorage.connect(
            target, clock=clock, synchronous=synchronous, busy_timeout_ms=busy_timeout_ms
        )

    @abstractmethod
    async def close(self) -> None:
        """Release the connections; the Storage is unusable afterwards (twice is fine)."""

    async def __aenter__(self) -> Storage:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    @abstractmethod
    async def schema_version(self) -> int:
        """The schema version the database is at."""

    # ----- live tables -----

    @abstractmethod
    async def save_table(self, record: TableRecord, seen: int | None = None) -> None:
        """Write a table's new state, guarded by the version the writer last saw.

        seen: the stored version this change was made from, 0 for a table never saved. The
        write happens only if the database still holds exactly that version (optimistic
        concurrency: ``UPDATE ... WHERE version = seen``), so of two processes that both
        believe they own a table only one can write it. With seen None the record is accepted
        when its version is above the stored one (or the table is new). A refused write raises
        StaleTableError and is logged; nothing changes.
        """

    @abstractmethod
    async def touch_table(self, record: TableRecord) -> bool:
        """Rewrite a table's state at its stored version (message ids, not game changes).

        True once written; StaleTableError when the stored version differs or the table is gone.
        """

    @abstractmethod
    async def load_tables(
        self, shard_ids: Collection[int] | None = None, shard_count: int | None = None
    ) -> list[TableRecord]:
        """The live tables to restore: all of them, or only those of guilds on these shards."""

    @abstractmethod
    async def delete_table(self, table_id: str, seen: int | None = None) -> bool:
        """Forget a live table; False if there was none.

        With seen, only if it is still at that version (StaleTableError otherwise).
        """

    # ----- guild settings -----

    @abstractmethod
    async def get_settings(self, guild_id: int) -> GuildSettings:
        """A server's settings, or the defaults if it never changed any."""

    @abstractmethod
    async def save_settings(self, settings: GuildSettings) -> None:
        """Store a server's settings."""

    # ----- seasons -----

    @abstractmethod
    async def current_season(self, guild_id: int) -> Season:
        """The season new matches count toward."""

    @abstractmethod
    async def list_seasons(self, guild_id: int) -> list[Season]:
        """Every season of a server, oldest first."""

    @abstractmethod
    async def start_season(self, guild_id: int, name: str | None = None) -> Season:
        """End the current season and start the next; old standings stay readable."""

    # ----- the league -----

    @abstractmethod
    async def record_match(
        self, record: MatchRecord, table_id: str | None = None, *, table_version: int | None = None
    ) -> bool:
        """Record a finished match, update standings and ratings and drop its table, atomically.

        The match gets the server's next number. Matches of one server are recorded one at a
        time, even from several processes, so standings and ratings equal a replay in number
        order. Ratings change for official-rules matches, and for house-ruled ones when the
        server rates them. With table_version, the table is dropped only if it is still at that
        version (StaleTableError and nothing recorded otherwise). Returns False (and changes
        nothing) when the match_uid was already recorded.
        """

    @abstractmethod
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
        """A page of a server's standings for a season (None: all time).

        official_only: counts and ratings from official-rules matches alone.
        """

    @abstractmethod
    async def player_stats(
        self,
        guild_id: int,
        user_id: int,
        season: int | None = None,
        *,
        official_only: bool = False,
    ) -> PlayerStats | None:
        """A member's standing in a season (None: all time), or None if they never played."""

    @abstractmethod
    async def recent_matches(
        self, guild_id: int, limit: int = 10, offset: int = 0
    ) -> list[MatchSummary]:
        """A server's recorded matches, newest first."""

    @abstractmethod
    async def match_detail(self, guild_id: int, number: int) -> MatchDetail | None:
        """Match number ``number`` of a server, or None."""

    @abstractmethod
    async def match_by_uid(self, guild_id: int, match_uid: str) -> MatchDetail | None:
        """A server's match by the uid its table recorded it under (its table id), or None."""

    @abstractmethod
    async def round_record(self, guild_id: int, number: int, round_number: int) -> str | None:
        """The stored record of round ``round_number`` (1, 2, ...) of a server's match number
        ``number`` (bot/engine/record.py reads it), or None when there is none."""

    @abstractmethod
    async def export_guild(self, guild_id: int) -> dict[str, Any]:
        """Everything stored about one server, as JSON-ready data, from one snapshot."""

    @abstractmethod
    async def forget_user(self, guild_id: int, user_id: int) -> int:
        """Erase a member's standings and name, anonymising their seats; returns rows changed."""


async def open_storage(settings: Settings, *, clock: Callable[[], float] = time.time) -> Storage:
    """The storage the settings name: DATABASE_URL (PostgreSQL) if set, else DATABASE_PATH."""
    target: str | Path = settings.database_url or settings.database_path
    return await Storage.open(target, clock=clock)
