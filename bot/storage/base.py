"""The Storage facade over either backend, and the one factory that picks a backend."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Collection, Mapping
from functools import partial
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from .backend import Backend, Landed, Synchronous
from .ledger import validate_match
from .models import (
    FORMER_PLAYER_ID,
    GuildSettings,
    LeaderboardPage,
    LeaderboardSort,
    MatchDetail,
    MatchRecord,
    MatchSummary,
    PlayerHistory,
    PlayerStats,
    Season,
    TableRecord,
    TournamentMatch,
    TournamentRecord,
)
from .rows import check_page, scope, settings_params, tournament_state

if TYPE_CHECKING:
    from bot.config import Settings

log = logging.getLogger(__name__)

POSTGRES_SCHEMES = ("postgresql://", "postgres://")

__all__ = ["Storage", "Synchronous", "is_postgres_url", "open_storage", "shard_of"]


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


def tournament_row(record: Mapping[str, Any]) -> TournamentRecord:
    """A tournament layer's record as its row (ValueError when a field is missing or wrong)."""
    try:
        finished_at = record.get("finished_at")
        row = TournamentRecord(
            tournament_id=str(record["tournament_id"]),
            guild_id=int(record["guild_id"]),
            channel_id=int(record["channel_id"]),
            kind=str(record["kind"]),
            state=json.dumps(dict(record), separators=(",", ":")),
            version=int(record["version"]),
            opened_at=float(record["opened_at"]),
            finished_at=None if finished_at is None else float(finished_at),
        )
    except (KeyError, TypeError) as error:
        raise ValueError(f"not a tournament record: {error}") from error
    if row.kind not in ("arena", "knockout") or row.version < 1:
        raise ValueError(f"not a tournament record: kind {row.kind}, version {row.version}")
    return row


class Storage:
    """The bot's database: live tables, guild settings and the per-server league.

    Two backends sit behind it, SQLite (a file, the default) and PostgreSQL (a server, for
    several processes); ``Storage.open`` picks one from its target. Each operation is checked
    here once and run by the backend as one unit. Driver failures surface as StorageError
    (StorageWriteError for a write, rolled back whole); a refused table write as
    StaleTableError.
    """

    def __init__(self, backend: Backend[Any], clock: Callable[[], float] = time.time) -> None:
        self._backend = backend
        self._clock = clock

    @property
    def backend(self) -> str:
        """Which kind of database: "sqlite" or "postgres"."""
        return self._backend.name

    @property
    def target(self) -> str:
        """The file path, or the server URL without its password."""
        return self._backend.target

    @classmethod
    async def open(
        cls,
        target: str | Path,
        *,
        clock: Callable[[], float] = time.time,
        synchronous: Synchronous = "NORMAL",
        busy_timeout_ms: int = 5000,
        pool_size: int = 10,
        pgbouncer: bool = False,
        upto: int | None = None,
    ) -> Storage:
        """Open and migrate the database at target: a postgresql:// URL or a SQLite path.

        synchronous: NORMAL (the default) makes a commit safe against the bot's crash, FULL
        also against power loss, at a disk flush per commit (docs/performance.md). busy_timeout_ms
        applies to SQLite; pool_size and pgbouncer (no prepared statements) to PostgreSQL; upto
        stops the migrations at that version (for tests of the migrations themselves).
        """
        backend: Backend[Any]
        if is_postgres_url(target):
            from .postgres import PostgresBackend  # asyncpg loads only when it is used

            backend = await PostgresBackend.connect(
                str(target),
                synchronous=synchronous,
                pool_size=pool_size,
                pgbouncer=pgbouncer,
                upto=upto,
            )
        else:
            from .sqlite import SQLiteBackend

            backend = await SQLiteBackend.connect(
                target, synchronous=synchronous, busy_timeout_ms=busy_timeout_ms, upto=upto
            )
        return cls(backend, clock)

    async def close(self) -> None:
        """Release the connections; the Storage is unusable afterwards (twice is fine)."""
        await self._backend.close()

    async def __aenter__(self) -> Storage:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def schema_version(self) -> int:
        """The schema version the database is at."""
        return await self._backend.schema_version()

    # ----- live tables -----

    async def save_table(self, record: TableRecord, seen: int | None = None) -> None:
        """Write a table's new state, guarded by the version the writer last saw.

        seen: the stored version this change was made from, 0 for a table never saved. The
        write happens only if the database still holds exactly that version (optimistic
        concurrency: ``UPDATE ... WHERE version = seen``), so of two processes that both
        believe they own a table only one can write it. With seen None the record is accepted
        when its version is above the stored one (or the table is new). A refused write raises
        StaleTableError and is logged; nothing changes.
        """
        check_seen(record, seen)
        tables = self._backend.tables
        work = partial(tables.save_table, record=record, seen=seen)
        landed = Landed(partial(tables.holds, record=record), None)
        await self._backend.run(work, "save the table", write=True, mode="statement", landed=landed)

    async def touch_table(self, record: TableRecord) -> bool:
        """Rewrite a table's state at its stored version (message ids, not game changes).

        True once written; StaleTableError when the stored version differs or the table is gone.
        """
        tables = self._backend.tables
        work = partial(tables.touch_table, record=record)
        landed = Landed(partial(tables.holds, record=record), True)
        return await self._backend.run(
            work, "save the table", write=True, mode="statement", landed=landed
        )

    async def load_tables(
        self, shard_ids: Collection[int] | None = None, shard_count: int | None = None
    ) -> list[TableRecord]:
        """The live tables to restore: all of them, or only those of guilds on these shards."""
        shards = check_shards(shard_ids, shard_count)
        tables = self._backend.tables
        work = partial(tables.load_tables, shards=shards, count=shard_count or 1)
        return await self._backend.run(work, "load the tables", write=False, mode="statement")

    async def delete_table(self, table_id: str, seen: int | None = None) -> bool:
        """Forget a live table; False if there was none.

        With seen, only if it is still at that version (StaleTableError otherwise).
        """
        tables = self._backend.tables
        work = partial(tables.delete_table, table_id=table_id, seen=seen)
        landed = Landed(partial(tables.is_gone, table_id=table_id), True)
        return await self._backend.run(
            work, "remove the table", write=True, mode="statement", landed=landed
        )

    # ----- tournaments -----

    async def save_tournament(self, record: Mapping[str, Any]) -> None:
        """Save a tournament's whole state (the tournament layer's record, with its
        ``tournament_id``, ``kind``, ``guild_id``, ``channel_id``, ``opened_at`` and
        ``version``; ``finished_at`` once it is over). A version not above the stored one is
        refused and logged: an older write never replaces a newer one."""
        row = tournament_row(record)
        work = partial(self._backend.tournaments.save_tournament, record=row)
        saved = await self._backend.run(work, "save the tournament", write=True, mode="statement")
        if not saved:
            log.warning(
                "tournament %s: version %s is not newer than the stored one; ignored",
                row.tournament_id,
                row.version,
            )

    async def load_tournaments(
        self, shard_ids: Collection[int] | None = None, shard_count: int | None = None
    ) -> list[dict[str, Any]]:
        """The unfinished tournaments' records to resume (all, or those of guilds on these
        shards), oldest first."""
        shards = check_shards(shard_ids, shard_count)
        work = partial(
            self._backend.tournaments.load_tournaments, shards=shards, count=shard_count or 1
        )
        rows = await self._backend.run(work, "load the tournaments", write=False, mode="statement")
        return [tournament_state(row) for row in rows]

    async def finished_tournaments(self, guild_id: int, limit: int = 25) -> list[dict[str, Any]]:
        """A server's finished tournaments' records, newest first."""
        work = partial(
            self._backend.tournaments.finished_tournaments, guild_id=guild_id, limit=limit
        )
        rows = await self._backend.run(work, "read the tournaments", write=False, mode="statement")
        return [tournament_state(row) for row in rows]

    async def tournament_matches(self, guild_id: int, tournament_id: str) -> list[TournamentMatch]:
        """The recorded matches of a tournament in the order they were recorded, each with its
        players by place: what its standings are recounted from."""
        work = partial(
            self._backend.tournaments.tournament_matches,
            guild_id=guild_id,
            tournament_id=tournament_id,
        )
        return await self._backend.run(
            work, "read the tournament's matches", write=False, mode="statement"
        )

    # ----- guild settings -----

    async def get_settings(self, guild_id: int) -> GuildSettings:
        """A server's settings, or the defaults if it never changed any."""
        work = partial(self._backend.settings.get_settings, guild_id=guild_id)
        return await self._backend.run(
            work, "read the server settings", write=False, mode="statement"
        )

    async def save_settings(self, settings: GuildSettings) -> None:
        """Store a server's settings."""
        settings_params(settings)  # checks the house rules before touching the database
        work = partial(self._backend.settings.save_settings, settings=settings)
        await self._backend.run(work, "save the server settings", write=True, mode="statement")

    # ----- seasons -----

    async def current_season(self, guild_id: int) -> Season:
        """The season new matches count toward."""
        work = partial(self._backend.league.current_season, guild_id=guild_id)
        return await self._backend.run(work, "read seasons", write=False, mode="statement")

    async def list_seasons(self, guild_id: int) -> list[Season]:
        """Every season of a server, oldest first."""
        work = partial(self._backend.league.list_seasons, guild_id=guild_id)
        return await self._backend.run(work, "read seasons", write=False, mode="statement")

    async def start_season(self, guild_id: int, name: str | None = None) -> Season:
        """End the current season and start the next; old standings stay readable."""
        league = self._backend.league
        work = partial(league.start_season, guild_id=guild_id, name=name, now=self._clock())
        season = await self._backend.run(work, "start a new season", write=True, mode="transaction")
        log.info("guild %s started season %s (%s)", guild_id, season.number, name)
        return season

    # ----- the league -----

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
        validate_match(record)
        work = partial(
            self._backend.league.record_match,
            record=record,
            table_id=table_id,
            table_version=table_version,
        )
        league = self._backend.league
        landed = Landed(
            partial(league.is_recorded, guild_id=record.guild_id, match_uid=record.match_uid), True
        )
        recorded = await self._backend.run(
            work, "save the match", write=True, mode="transaction", landed=landed
        )
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
        """A page of a server's standings for a season (None: all time).

        official_only: counts and ratings from official-rules matches alone.
        """
        work = partial(
            self._backend.league.leaderboard,
            guild_id=guild_id,
            season=season,
            scope=scope(season),
            sort=sort,
            order=check_page(sort, offset, limit),
            offset=offset,
            limit=limit,
            official_only=official_only,
        )
        return await self._backend.run(work, "read the leaderboard", write=False, mode="reads")

    async def player_stats(
        self,
        guild_id: int,
        user_id: int,
        season: int | None = None,
        *,
        official_only: bool = False,
    ) -> PlayerStats | None:
        """A member's standing in a season (None: all time), or None if they never played."""
        work = partial(
            self._backend.league.player_stats,
            guild_id=guild_id,
            user_id=user_id,
            season=season,
            scope=scope(season),
            official_only=official_only,
        )
        return await self._backend.run(work, "read the player's stats", write=False, mode="reads")

    async def recent_matches(
        self, guild_id: int, limit: int = 10, offset: int = 0
    ) -> list[MatchSummary]:
        """A server's recorded matches, newest first."""
        league = self._backend.league
        work = partial(league.recent_matches, guild_id=guild_id, limit=limit, offset=offset)
        return await self._backend.run(work, "read the match history", write=False, mode="reads")

    async def match_detail(self, guild_id: int, number: int) -> MatchDetail | None:
        """Match number ``number`` of a server, or None."""
        work = partial(self._backend.league.match_detail, guild_id=guild_id, number=number)
        return await self._backend.run(work, "read the match", write=False, mode="snapshot")

    async def match_by_uid(self, guild_id: int, match_uid: str) -> MatchDetail | None:
        """A server's match by the uid its table recorded it under (its table id), or None."""
        league = self._backend.league
        work = partial(league.match_by_uid, guild_id=guild_id, match_uid=match_uid)
        return await self._backend.run(work, "read the match", write=False, mode="snapshot")

    async def round_record(self, guild_id: int, number: int, round_number: int) -> str | None:
        """The stored record of round ``round_number`` (1, 2, ...) of a server's match number
        ``number`` (bot/engine/record.py reads it), or None when there is none."""
        work = partial(
            self._backend.league.round_record,
            guild_id=guild_id,
            number=number,
            round_number=round_number,
        )
        return await self._backend.run(work, "read the round", write=False, mode="statement")

    async def player_history(
        self, guild_id: int, user_id: int, rounds: int = 300
    ) -> PlayerHistory | None:
        """A member's recorded results and their newest ``rounds`` round records, or None if
        they never played here."""
        work = partial(
            self._backend.league.player_history, guild_id=guild_id, user_id=user_id, rounds=rounds
        )
        return await self._backend.run(
            work, "read the player's history", write=False, mode="snapshot"
        )

    async def export_guild(self, guild_id: int) -> dict[str, Any]:
        """Everything stored about one server, as JSON-ready data, from one snapshot."""
        league = self._backend.league
        work = partial(league.export_guild, guild_id=guild_id, now=self._clock())
        return await self._backend.run(
            work, "export the server's data", write=False, mode="snapshot"
        )

    async def forget_user(self, guild_id: int, user_id: int) -> int:
        """Erase a member's standings and name, anonymising their seats; returns rows changed."""
        if user_id == FORMER_PLAYER_ID:
            return 0
        work = partial(self._backend.league.forget_user, guild_id=guild_id, user_id=user_id)
        changed = await self._backend.run(
            work, "erase the member's records", write=True, mode="transaction"
        )
        log.info("forgot user %s in guild %s (%s rows)", user_id, guild_id, changed)
        return changed


async def open_storage(settings: Settings, *, clock: Callable[[], float] = time.time) -> Storage:
    """The storage the settings name: DATABASE_URL (PostgreSQL) if set, else DATABASE_PATH."""
    target: str | Path = settings.database_url or settings.database_path
    return await Storage.open(
        target,
        clock=clock,
        pool_size=settings.database_pool_size,
        pgbouncer=settings.database_pgbouncer,
    )
