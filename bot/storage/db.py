"""The one place with SQL: a Storage class over aiosqlite that returns typed records."""

from __future__ import annotations

import json
import logging
import re
import sqlite3
import time
from collections.abc import Callable
from dataclasses import asdict
from functools import partial
from importlib import resources
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, TypeVar, cast

import aiosqlite
from openskill.models import PlackettLuce

from .errors import StaleTableError, StorageError, StorageWriteError
from .models import (
    ALL_TIME,
    EDITIONS,
    FORMER_PLAYER_ID,
    FORMER_PLAYER_NAME,
    Edition,
    GuildSettings,
    LeaderboardPage,
    LeaderboardRow,
    LeaderboardSort,
    MatchDetail,
    MatchRecord,
    MatchSummary,
    PlayerResult,
    PlayerStats,
    RoundSummary,
    ScoringName,
    Season,
    TableRecord,
)

log = logging.getLogger(__name__)

T = TypeVar("T")
Synchronous = Literal["NORMAL", "FULL"]

_MIGRATION_FILE = re.compile(r"^(\d{4})_[A-Za-z0-9_]+\.sql$")
_RATING_MODEL = PlackettLuce()

# Each sort walks its own index (see 0001_init.sql), so a page never sorts the whole guild.
_LEADERBOARD_ORDER: dict[str, str] = {
    "rating": "s.ordinal DESC, s.user_id",
    "wins": "s.wins DESC, s.ordinal DESC, s.user_id",
    "points": "s.points DESC, s.ordinal DESC, s.user_id",
}

_SAVE_TABLE = """
INSERT INTO live_tables (table_id, guild_id, channel_id, version, state, updated_at)
VALUES (?, ?, ?, ?, ?, ?)
ON CONFLICT (table_id) DO UPDATE SET
    guild_id = excluded.guild_id, channel_id = excluded.channel_id, version = excluded.version,
    state = excluded.state, updated_at = excluded.updated_at
WHERE excluded.version > live_tables.version
"""

_INSERT_MATCH = """
INSERT INTO matches (match_uid, guild_id, season, channel_id, edition, scoring, target,
                     started_at, finished_at, rounds, round_winners, events)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (match_uid) DO NOTHING
"""

_INSERT_MATCH_PLAYER = """
INSERT INTO match_players (match_id, seat, user_id, name, points, place, computer, winner,
                           rating_before, rating_after)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
"""

_UPSERT_NAME = """
INSERT INTO player_names (guild_id, user_id, name) VALUES (?, ?, ?)
ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name
WHERE name IS NOT excluded.name
"""

_UPSERT_STANDING = """
INSERT INTO standings (guild_id, season, user_id, matches, wins, points, rounds_won, best_round,
                       matches_classic, matches_sonic, matches_mario, mu, sigma, ordinal)
VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (guild_id, user_id, season) DO UPDATE SET
    matches = matches + 1,
    wins = wins + excluded.wins,
    points = points + excluded.points,
    rounds_won = rounds_won + excluded.rounds_won,
    best_round = MAX(best_round, excluded.best_round),
    matches_classic = matches_classic + excluded.matches_classic,
    matches_sonic = matches_sonic + excluded.matches_sonic,
    matches_mario = matches_mario + excluded.matches_mario,
    mu = excluded.mu,
    sigma = excluded.sigma,
    ordinal = excluded.ordinal
"""

_SAVE_SETTINGS = """
INSERT INTO guild_settings (guild_id, edition, scoring, target, turn_seconds, timeout_action,
                            timeouts_before_removal, lobby_minutes, computers_allowed,
                            computer_level, computers_rated)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (guild_id) DO UPDATE SET
    edition = excluded.edition, scoring = excluded.scoring, target = excluded.target,
    turn_seconds = excluded.turn_seconds, timeout_action = excluded.timeout_action,
    timeouts_before_removal = excluded.timeouts_before_removal,
    lobby_minutes = excluded.lobby_minutes, computers_allowed = excluded.computers_allowed,
    computer_level = excluded.computer_level, computers_rated = excluded.computers_rated
"""

_SETTINGS_COLUMNS = (
    "edition, scoring, target, turn_seconds, timeout_action, timeouts_before_removal, "
    "lobby_minutes, computers_allowed, computer_level, computers_rated"
)


def load_migrations() -> list[tuple[int, str, str]]:
    """The packaged migrations as (number, file name, SQL), checked to run 1, 2, 3, ..."""
    found: list[tuple[int, str, str]] = []
    for entry in resources.files("bot.storage.migrations").iterdir():
        match = _MIGRATION_FILE.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort()
    numbers = [number for number, _, _ in found]
    if numbers != list(range(1, len(found) + 1)):
        raise RuntimeError(f"storage migrations must be numbered 1..n without gaps: {numbers}")
    return found


def split_statements(script: str) -> list[str]:
    """Split a migration into statements, respecting quotes, comments and triggers."""
    statements: list[str] = []
    start = 0
    for index, char in enumerate(script):
        if char == ";" and sqlite3.complete_statement(script[start : index + 1]):
            statement = script[start : index + 1].strip()
            if statement.strip(";").strip():
                statements.append(statement)
            start = index + 1
    if script[start:].strip() and not _only_comments(script[start:]):
        raise RuntimeError("a migration ends with an unterminated statement")
    return statements


def _only_comments(text: str) -> bool:
    return all(not line.strip() or line.strip().startswith("--") for line in text.splitlines())


def _describe(error: sqlite3.Error) -> str:
    """SQLite's reason in words a server admin can act on."""
    text = str(error)
    lowered = text.lower()
    if "locked" in lowered or "busy" in lowered:
        return "the database is busy (another process holds it)"
    if "full" in lowered:
        return "the disk is full"
    if "disk i/o" in lowered:
        return "the disk reported an I/O error"
    if "malformed" in lowered or "not a database" in lowered:
        return "the database file is damaged"
    if "readonly" in lowered or "read-only" in lowered:
        return "the database file is read-only"
    return text


def _round_winners(record: MatchRecord) -> list[int | None]:
    """Who went out each round: as given, else the sole top scorer (standard) or lowest."""
    if record.round_winners is not None:
        return list(record.round_winners)
    winners: list[int | None] = []
    for points in record.rounds:
        if not points:
            winners.append(None)
            continue
        best = max(points) if record.scoring == "standard" else min(points)
        seats = [seat for seat, value in enumerate(points) if value == best]
        decisive = len(seats) == 1 and (record.scoring != "standard" or best > 0)
        winners.append(seats[0] if decisive else None)
    return winners


def _validate_match(record: MatchRecord) -> None:
    """Reject malformed records before they reach the database (programming errors)."""
    if not record.players:
        raise ValueError("a match needs players")
    if record.edition not in EDITIONS:
        raise ValueError(f"unknown edition {record.edition!r}")
    if record.scoring not in ("standard", "lowest"):
        raise ValueError(f"unknown scoring {record.scoring!r}")
    seats = [p.seat for p in record.players]
    users = [p.user_id for p in record.players]
    if len(set(seats)) != len(seats) or len(set(users)) != len(users):
        raise ValueError("seats and user ids must be unique within a match")
    width = max(seats) + 1
    if any(len(points) < width for points in record.rounds):
        raise ValueError("every round needs points for every seat")
    if not set(record.winners) <= set(users):
        raise ValueError("winners must be players of the match")
    if record.round_winners is not None and len(record.round_winners) != len(record.rounds):
        raise ValueError("round_winners needs one entry per round")


def _season_row(guild_id: int, row: tuple[Any, ...]) -> Season:
    return Season(guild_id, int(row[0]), row[1], row[2], row[3])


def _result(row: tuple[Any, ...]) -> PlayerResult:
    """A match_players row (seat, user_id, name, points, place, computer, winner, before, after)."""
    return PlayerResult(
        user_id=row[1],
        name=row[2],
        seat=row[0],
        points=row[3],
        place=row[4],
        computer=bool(row[5]),
        winner=bool(row[6]),
        rating_before=row[7],
        rating_after=row[8],
    )


_RESULT_COLUMNS = (
    "seat, user_id, name, points, place, computer, winner, rating_before, rating_after"
)


class Storage:
    """The bot's database: live tables, guild settings and the per-server league."""

    def __init__(self, db: aiosqlite.Connection, path: str, clock: Callable[[], float]) -> None:
        self._db: aiosqlite.Connection | None = db
        self.path = path
        self._clock = clock

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        clock: Callable[[], float] = time.time,
        synchronous: Synchronous = "NORMAL",
        busy_timeout_ms: int = 5000,
    ) -> Storage:
        """Open (creating if needed) and migrate the database; StorageError says why not."""
        target = str(path)
        if target != ":memory:":
            try:
                Path(target).parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise StorageError(
                    f"Cannot create the folder for the database {target}: {error.strerror}."
                ) from error
        try:
            # isolation_level=None: we issue BEGIN/COMMIT ourselves, so nothing commits implicitly.
            db = await aiosqlite.connect(target, isolation_level=None)
        except sqlite3.Error as error:
            raise StorageError(f"Cannot open the database {target}: {_describe(error)}.") from error
        storage = cls(db, target, clock)
        try:
            await storage._run(
                partial(_prepare, path=target, synchronous=synchronous, busy_ms=busy_timeout_ms),
                "open the database",
                write=False,
            )
        except BaseException:
            await db.close()
            storage._db = None
            raise
        return storage

    async def close(self) -> None:
        """Close the connection; the Storage cannot be used afterwards."""
        db, self._db = self._db, None
        if db is None:
            return
        try:
            # Lets SQLite refresh planner statistics it found missing while we ran.
            await db.execute("PRAGMA optimize")
        except sqlite3.Error as error:
            log.warning("PRAGMA optimize failed on close: %s", error)
        await db.close()

    async def __aenter__(self) -> Storage:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def _run(
        self,
        work: Callable[[sqlite3.Connection], T],
        action: str,
        *,
        write: bool,
        transaction: bool = False,
    ) -> T:
        """Run work on the connection's thread in one hop; driver errors become StorageError.

        With transaction, work runs inside BEGIN (IMMEDIATE for writes) and is rolled back whole
        on any error; a single statement needs none, as SQLite makes each statement atomic.
        """
        db = self._db
        if db is None:
            raise StorageError("The database is closed.")

        def call() -> T:
            # aiosqlite offers no public "run this on your thread"; one hop per operation
            # instead of one per statement is what keeps a click's save well under a millisecond,
            # and it makes every operation atomic with respect to the others.
            conn: sqlite3.Connection = cast(Any, db)._conn
            if not transaction:
                return work(conn)
            # IMMEDIATE takes the write lock up front, so busy_timeout applies to the wait
            # instead of failing later when a read lock would need upgrading.
            conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                result = work(conn)
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.rollback()
                raise
            return result

        try:
            return cast(T, await cast(Any, db)._execute(call))
        except sqlite3.Error as error:
            log.warning("storage could not %s: %s", action, error)
            if write:
                raise StorageWriteError(
                    f"Could not {action}: {_describe(error)}. Nothing was changed; try again."
                ) from error
            raise StorageError(f"Could not {action}: {_describe(error)}.") from error

    # Live tables

    async def save_table(self, record: TableRecord) -> None:
        """Insert or update a table record; a version not above the stored one is refused."""

        def work(conn: sqlite3.Connection) -> None:
            cursor = conn.execute(
                _SAVE_TABLE,
                (
                    record.table_id,
                    record.guild_id,
                    record.channel_id,
                    record.version,
                    record.state,
                    record.updated_at,
                ),
            )
            if cursor.rowcount == 0:
                stored = conn.execute(
                    "SELECT version FROM live_tables WHERE table_id = ?", (record.table_id,)
                ).fetchone()
                raise StaleTableError(
                    f"Table {record.table_id} is already at version {stored[0]}; "
                    f"version {record.version} was not saved."
                )

        # One statement commits atomically on its own, so no BEGIN/COMMIT round trip is needed.
        await self._run(work, "save the table", write=True)

    async def touch_table(self, record: TableRecord) -> bool:
        """Rewrite a table's state at the same version (message ids, not game changes)."""

        def work(conn: sqlite3.Connection) -> bool:
            cursor = conn.execute(
                "UPDATE live_tables SET state = ?, updated_at = ? "
                "WHERE table_id = ? AND version = ?",
                (record.state, record.updated_at, record.table_id, record.version),
            )
            return cursor.rowcount == 1

        return await self._run(work, "save the table", write=True)

    async def load_tables(self) -> list[TableRecord]:
        """Every live table, to restore after a restart."""

        def work(conn: sqlite3.Connection) -> list[TableRecord]:
            rows = conn.execute(
                "SELECT table_id, guild_id, channel_id, version, state, updated_at "
                "FROM live_tables ORDER BY guild_id, channel_id, table_id"
            ).fetchall()
            return [TableRecord(*row) for row in rows]

        return await self._run(work, "load the tables", write=False)

    async def delete_table(self, table_id: str) -> bool:
        """Forget a live table; False if there was none."""

        def work(conn: sqlite3.Connection) -> bool:
            cursor = conn.execute("DELETE FROM live_tables WHERE table_id = ?", (table_id,))
            return cursor.rowcount > 0

        return await self._run(work, "remove the table", write=True)

    # Guild settings

    async def get_settings(self, guild_id: int) -> GuildSettings:
        """A server's settings, or the defaults if it never changed any."""

        def work(conn: sqlite3.Connection) -> GuildSettings:
            row = conn.execute(
                f"SELECT {_SETTINGS_COLUMNS} FROM guild_settings WHERE guild_id = ?", (guild_id,)
            ).fetchone()
            if row is None:
                return GuildSettings(guild_id)
            return _settings(guild_id, row)

        return await self._run(work, "read the server settings", write=False)

    async def save_settings(self, settings: GuildSettings) -> None:
        """Store a server's settings."""
        s = settings
        params = (
            s.guild_id,
            s.edition,
            s.scoring,
            s.target,
            s.turn_seconds,
            s.timeout_action,
            s.timeouts_before_removal,
            s.lobby_minutes,
            int(s.computers_allowed),
            s.computer_level,
            int(s.computers_rated),
        )

        def work(conn: sqlite3.Connection) -> None:
            conn.execute(_SAVE_SETTINGS, params)

        await self._run(work, "save the server settings", write=True)

    # Seasons

    async def current_season(self, guild_id: int) -> Season:
        """The season new matches count toward."""
        return await self._run(
            partial(_current_season, guild_id=guild_id), "read seasons", write=False
        )

    async def list_seasons(self, guild_id: int) -> list[Season]:
        """Every season of a server, oldest first."""

        def work(conn: sqlite3.Connection) -> list[Season]:
            rows = conn.execute(
                "SELECT season, name, started_at, ended_at FROM seasons "
                "WHERE guild_id = ? ORDER BY season",
                (guild_id,),
            ).fetchall()
            return [_season_row(guild_id, row) for row in rows] or [
                Season(guild_id, 1, None, None, None)
            ]

        return await self._run(work, "read seasons", write=False)

    async def start_season(self, guild_id: int, name: str | None = None) -> Season:
        """End the current season and start the next; old standings stay readable."""
        now = self._clock()

        def work(conn: sqlite3.Connection) -> Season:
            current = _current_season(conn, guild_id)
            if current.started_at is None and current.number == 1:
                # The implicit first season gets its row now, so it can carry an end time.
                conn.execute(
                    "INSERT OR IGNORE INTO seasons (guild_id, season, name, started_at, ended_at) "
                    "VALUES (?, 1, NULL, NULL, NULL)",
                    (guild_id,),
                )
            conn.execute(
                "UPDATE seasons SET ended_at = ? WHERE guild_id = ? AND season = ?",
                (now, guild_id, current.number),
            )
            season = Season(guild_id, current.number + 1, name, now, None)
            conn.execute(
                "INSERT INTO seasons (guild_id, season, name, started_at, ended_at) "
                "VALUES (?, ?, ?, ?, NULL)",
                (guild_id, season.number, name, now),
            )
            return season

        season = await self._run(work, "start a new season", write=True, transaction=True)
        log.info("guild %s started season %s (%s)", guild_id, season.number, name)
        return season

    # Matches and standings

    async def record_match(self, record: MatchRecord, table_id: str | None = None) -> bool:
        """Record a finished match, update standings and ratings and drop its table, atomically.

        Returns False (and changes nothing) when the match_uid was already recorded.
        """
        _validate_match(record)
        recorded = await self._run(
            partial(_record_match, record=record, table_id=table_id),
            "save the match",
            write=True,
            transaction=True,
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
    ) -> LeaderboardPage:
        """A page of a server's standings for a season (None: all time)."""
        order = _LEADERBOARD_ORDER.get(sort)
        if order is None:
            raise ValueError(f"unknown leaderboard sort {sort!r}")
        if offset < 0 or limit < 1:
            raise ValueError("offset must be >= 0 and limit >= 1")
        scope = _scope(season)
        sql = (
            "SELECT s.user_id, COALESCE(n.name, ''), s.matches, s.wins, s.points, s.ordinal "
            "FROM standings s LEFT JOIN player_names n "
            "ON n.guild_id = s.guild_id AND n.user_id = s.user_id "
            f"WHERE s.guild_id = ? AND s.season = ? ORDER BY {order} LIMIT ? OFFSET ?"
        )

        def work(conn: sqlite3.Connection) -> LeaderboardPage:
            rows = conn.execute(sql, (guild_id, scope, limit, offset)).fetchall()
            total = conn.execute(
                "SELECT COUNT(*) FROM standings WHERE guild_id = ? AND season = ?",
                (guild_id, scope),
            ).fetchone()[0]
            return LeaderboardPage(
                guild_id=guild_id,
                season=season,
                sort=sort,
                offset=offset,
                total=total,
                rows=[
                    LeaderboardRow(
                        rank=offset + index + 1,
                        user_id=user_id,
                        name=name,
                        matches=matches,
                        wins=wins,
                        win_rate=wins / matches if matches else 0.0,
                        points=points,
                        rating=ordinal,
                    )
                    for index, (user_id, name, matches, wins, points, ordinal) in enumerate(rows)
                ],
            )

        return await self._run(work, "read the leaderboard", write=False, transaction=True)

    async def player_stats(
        self, guild_id: int, user_id: int, season: int | None = None
    ) -> PlayerStats | None:
        """A member's standing in a season (None: all time), or None if they never played."""
        scope = _scope(season)

        def work(conn: sqlite3.Connection) -> PlayerStats | None:
            row = conn.execute(
                "SELECT s.matches, s.wins, s.points, s.rounds_won, s.best_round, s.mu, s.sigma, "
                "s.ordinal, COALESCE(n.name, ''), s.matches_classic, s.matches_sonic, "
                "s.matches_mario FROM standings s LEFT JOIN player_names n "
                "ON n.guild_id = s.guild_id AND n.user_id = s.user_id "
                "WHERE s.guild_id = ? AND s.season = ? AND s.user_id = ?",
                (guild_id, scope, user_id),
            ).fetchone()
            if row is None:
                return None
            matches, wins, points, rounds_won, best_round, mu, sigma, ordinal, name = row[:9]
            # Two range counts on standings_by_rating; one OR condition would make SQLite (with
            # statistics) merge two index scans into a rowset, ten times slower.
            ahead = conn.execute(
                "SELECT (SELECT COUNT(*) FROM standings WHERE guild_id = ?1 AND season = ?2 "
                "AND ordinal > ?3) + (SELECT COUNT(*) FROM standings WHERE guild_id = ?1 "
                "AND season = ?2 AND ordinal = ?3 AND user_id < ?4)",
                (guild_id, scope, ordinal, user_id),
            ).fetchone()[0]
            return PlayerStats(
                guild_id=guild_id,
                user_id=user_id,
                name=name,
                season=season,
                rank=ahead + 1,
                matches=matches,
                wins=wins,
                win_rate=wins / matches if matches else 0.0,
                points=points,
                rounds_won=rounds_won,
                best_round=best_round,
                rating=ordinal,
                mu=mu,
                sigma=sigma,
                favourite_edition=_favourite(row[9:12]),
            )

        return await self._run(work, "read the player's stats", write=False, transaction=True)

    async def recent_matches(
        self, guild_id: int, limit: int = 10, offset: int = 0
    ) -> list[MatchSummary]:
        """A server's finished matches, newest first."""

        def work(conn: sqlite3.Connection) -> list[MatchSummary]:
            rows = conn.execute(
                "SELECT match_id, season, edition, scoring, started_at, finished_at, "
                "json_array_length(rounds) FROM matches WHERE guild_id = ? "
                "ORDER BY finished_at DESC, match_id DESC LIMIT ? OFFSET ?",
                (guild_id, limit, offset),
            ).fetchall()
            if not rows:
                return []
            ids = [row[0] for row in rows]
            seats: dict[int, list[PlayerResult]] = {match_id: [] for match_id in ids}
            marks = ", ".join("?" * len(ids))
            for player in conn.execute(
                f"SELECT match_id, {_RESULT_COLUMNS} FROM match_players "
                f"WHERE match_id IN ({marks}) ORDER BY match_id, seat",
                ids,
            ):
                seats[player[0]].append(_result(player[1:]))
            return [
                MatchSummary(
                    match_id=match_id,
                    season=season,
                    edition=edition,
                    scoring=scoring,
                    finished_at=finished,
                    duration=finished - started,
                    rounds=rounds,
                    players=len(seats[match_id]),
                    winners=[p for p in seats[match_id] if p.winner],
                )
                for match_id, season, edition, scoring, started, finished, rounds in rows
            ]

        return await self._run(work, "read the match history", write=False, transaction=True)

    async def match_detail(self, guild_id: int, match_id: int) -> MatchDetail | None:
        """One recorded match of a server, or None."""

        def work(conn: sqlite3.Connection) -> MatchDetail | None:
            row = conn.execute(
                "SELECT match_id, match_uid, guild_id, channel_id, season, edition, scoring, "
                "target, started_at, finished_at, rounds, round_winners, events "
                "FROM matches WHERE guild_id = ? AND match_id = ?",
                (guild_id, match_id),
            ).fetchone()
            if row is None:
                return None
            players = conn.execute(
                f"SELECT {_RESULT_COLUMNS} FROM match_players WHERE match_id = ? ORDER BY seat",
                (match_id,),
            ).fetchall()
            return _detail(row, [_result(p) for p in players])

        return await self._run(work, "read the match", write=False, transaction=True)

    async def export_guild(self, guild_id: int) -> dict[str, Any]:
        """Everything stored about one server, as JSON-ready data."""
        now = self._clock()
        return await self._run(
            partial(_export, guild_id=guild_id, now=now),
            "export the server's data",
            write=False,
            transaction=True,
        )

    async def forget_user(self, guild_id: int, user_id: int) -> int:
        """Erase a member's standings and name, anonymising their seats; returns rows changed."""

        def work(conn: sqlite3.Connection) -> int:
            changed = conn.execute(
                "UPDATE match_players SET user_id = ?, name = ? WHERE user_id = ? AND match_id IN "
                "(SELECT match_id FROM matches WHERE guild_id = ?)",
                (FORMER_PLAYER_ID, FORMER_PLAYER_NAME, user_id, guild_id),
            ).rowcount
            for table in ("standings", "player_names"):
                changed += conn.execute(
                    f"DELETE FROM {table} WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
                ).rowcount
            return changed

        if user_id == FORMER_PLAYER_ID:
            return 0
        changed = await self._run(work, "erase the member's records", write=True, transaction=True)
        log.info("forgot user %s in guild %s (%s rows)", user_id, guild_id, changed)
        return changed


def _scope(season: int | None) -> int:
    """The standings season key: the season number, or ALL_TIME for None."""
    if season is None:
        return ALL_TIME
    if season < 1:
        raise ValueError("seasons are numbered from 1; use None for all time")
    return season


def _settings(guild_id: int, row: tuple[Any, ...]) -> GuildSettings:
    return GuildSettings(
        guild_id=guild_id,
        edition=row[0],
        scoring=row[1],
        target=row[2],
        turn_seconds=row[3],
        timeout_action=row[4],
        timeouts_before_removal=row[5],
        lobby_minutes=row[6],
        computers_allowed=bool(row[7]),
        computer_level=row[8],
        computers_rated=bool(row[9]),
    )


def _prepare(
    conn: sqlite3.Connection, *, path: str, synchronous: Synchronous, busy_ms: int
) -> None:
    """Set the PRAGMAs and bring the schema up to date (runs on the connection thread)."""
    conn.execute(f"PRAGMA busy_timeout = {int(busy_ms)}")
    migrations = load_migrations()
    latest = len(migrations)
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.DatabaseError as error:
        raise StorageError(
            f"{path} is not an uno-bot database (SQLite says: {error}). "
            "Point the bot at another file or move this one away."
        ) from error
    if version > latest:
        raise StorageError(
            f"The database {path} was written by a newer uno-bot (schema {version}; this "
            f"version knows up to {latest}). Upgrade the bot or use another database file."
        )
    # WAL lets readers run while a write commits. With synchronous=NORMAL a commit is durable
    # against a crash of the process (kill -9, OOM): the WAL is in the OS cache and survives.
    # Only power loss or an OS crash can drop the last transactions, never corrupt the file;
    # FULL would fsync every click's save (see docs/performance.md, "Storage").
    conn.execute("PRAGMA journal_mode = WAL").fetchone()
    conn.execute(f"PRAGMA synchronous = {synchronous}")
    conn.execute("PRAGMA foreign_keys = ON")
    for number, name, script in migrations[version:]:
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have migrated while we waited for the write lock.
            if conn.execute("PRAGMA user_version").fetchone()[0] >= number:
                conn.execute("COMMIT")
                continue
            for statement in split_statements(script):
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {number}")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.rollback()
            raise
        log.info("applied storage migration %s", name)


def _current_season(conn: sqlite3.Connection, guild_id: int) -> Season:
    row = conn.execute(
        "SELECT season, name, started_at, ended_at FROM seasons WHERE guild_id = ? "
        "ORDER BY season DESC LIMIT 1",
        (guild_id,),
    ).fetchone()
    return _season_row(guild_id, row) if row else Season(guild_id, 1, None, None, None)


def _record_match(conn: sqlite3.Connection, *, record: MatchRecord, table_id: str | None) -> bool:
    """The body of record_match, inside its write transaction on the connection thread."""
    guild = record.guild_id
    season_row = conn.execute(
        "SELECT MAX(season) FROM seasons WHERE guild_id = ?", (guild,)
    ).fetchone()
    season = season_row[0] or 1
    round_winners = _round_winners(record)
    cursor = conn.execute(
        _INSERT_MATCH,
        (
            record.match_uid,
            guild,
            season,
            record.channel_id,
            record.edition,
            record.scoring,
            record.target,
            record.started_at,
            record.finished_at,
            json.dumps(record.rounds, separators=(",", ":")),
            json.dumps(round_winners, separators=(",", ":")),
            json.dumps(record.events, separators=(",", ":")),
        ),
    )
    if cursor.rowcount == 0:
        return False
    match_id = cursor.lastrowid
    settings = conn.execute(
        "SELECT computers_rated FROM guild_settings WHERE guild_id = ?", (guild,)
    ).fetchone()
    computers_rated = bool(settings[0]) if settings else False
    ranked = [p for p in record.players if computers_rated or not p.computer]
    scopes = (season, ALL_TIME)

    # Current ratings of everyone ranked, in the season and all time; newcomers start fresh.
    ratings: dict[tuple[int, int], tuple[float, float]] = {}
    if ranked:
        marks = ", ".join("?" * len(ranked))
        for scope, user_id, mu, sigma in conn.execute(
            "SELECT season, user_id, mu, sigma FROM standings WHERE guild_id = ? "
            f"AND season IN (?, ?) AND user_id IN ({marks})",
            (guild, season, ALL_TIME, *(p.user_id for p in ranked)),
        ):
            ratings[scope, user_id] = (mu, sigma)
    fresh = (_RATING_MODEL.mu, _RATING_MODEL.sigma)
    before = {key: ratings.get(key, fresh) for key in _keys(scopes, ranked)}
    after = dict(before)
    if len(ranked) >= 2:
        ranks = [float(p.place) for p in ranked]
        season_in = [before[season, p.user_id] for p in ranked]
        all_time_in = [before[ALL_TIME, p.user_id] for p in ranked]
        season_out = _rate(season_in, ranks)
        # In a server's first season both ratings are the same numbers; the update is
        # deterministic, so one computation serves both (it is a third of this function's time).
        all_time_out = season_out if all_time_in == season_in else _rate(all_time_in, ranks)
        for player, new_season, new_all_time in zip(ranked, season_out, all_time_out, strict=True):
            after[season, player.user_id] = new_season
            after[ALL_TIME, player.user_id] = new_all_time

    winners = set(record.winners)
    standard = record.scoring == "standard"
    ranked_ids = {p.user_id for p in ranked}
    seat_rows = []
    standing_rows = []
    edition_flags = [int(edition == record.edition) for edition in EDITIONS]
    for p in record.players:
        rated = p.user_id in ranked_ids
        won = p.user_id in winners
        seat_rows.append(
            (
                match_id,
                p.seat,
                p.user_id,
                p.name,
                p.points,
                p.place,
                int(p.computer),
                int(won),
                _ordinal(before[season, p.user_id]) if rated else None,
                _ordinal(after[season, p.user_id]) if rated else None,
            )
        )
        if not rated:
            continue
        rounds_won = sum(1 for seat in round_winners if seat == p.seat)
        best_round = max((points[p.seat] for points in record.rounds), default=0)
        best_round = max(best_round, 0) if standard else 0
        for scope in scopes:
            mu, sigma = after[scope, p.user_id]
            standing_rows.append(
                (
                    guild,
                    scope,
                    p.user_id,
                    int(won),
                    p.points,
                    rounds_won,
                    best_round,
                    *edition_flags,
                    mu,
                    sigma,
                    mu - 3 * sigma,
                )
            )
    conn.executemany(_INSERT_MATCH_PLAYER, seat_rows)
    conn.executemany(_UPSERT_NAME, [(guild, p.user_id, p.name) for p in record.players])
    conn.executemany(_UPSERT_STANDING, standing_rows)
    if table_id is not None:
        conn.execute("DELETE FROM live_tables WHERE table_id = ?", (table_id,))
    return True


def _rate(ratings: list[tuple[float, float]], ranks: list[float]) -> list[tuple[float, float]]:
    """Plackett-Luce update of one player per team from the finishing order (ties allowed)."""
    teams = [[_RATING_MODEL.rating(mu, sigma)] for mu, sigma in ratings]
    return [(team[0].mu, team[0].sigma) for team in _RATING_MODEL.rate(teams, ranks=ranks)]


def _favourite(counts: tuple[int, ...]) -> Edition | None:
    """The edition with the most matches (earlier in EDITIONS on a tie), None if none."""
    best = max(counts, default=0)
    if best <= 0:
        return None
    return EDITIONS[counts.index(best)]


def _keys(scopes: tuple[int, int], ranked: list[Any]) -> list[tuple[int, int]]:
    return [(scope, p.user_id) for scope in scopes for p in ranked]


def _ordinal(rating: tuple[float, float]) -> float:
    """openskill's ordinal: a conservative rating (mu - 3 sigma) for sorting."""
    return rating[0] - 3 * rating[1]


def _detail(row: tuple[Any, ...], players: list[PlayerResult]) -> MatchDetail:
    (match_id, uid, guild, channel, season, edition, scoring, target, started, finished) = row[:10]
    rounds: list[list[int]] = json.loads(row[10])
    round_winners: list[int | None] = json.loads(row[11])
    totals = [0] * max((len(points) for points in rounds), default=0)
    summaries = []
    for number, points in enumerate(rounds, start=1):
        totals = [total + value for total, value in zip(totals, points, strict=False)]
        winner = round_winners[number - 1] if number - 1 < len(round_winners) else None
        summaries.append(RoundSummary(number, list(points), list(totals), winner))
    return MatchDetail(
        match_id=match_id,
        match_uid=uid,
        guild_id=guild,
        channel_id=channel,
        season=season,
        edition=cast(Edition, edition),
        scoring=cast(ScoringName, scoring),
        target=target,
        started_at=started,
        finished_at=finished,
        players=players,
        rounds=summaries,
        events=json.loads(row[12]),
    )


def _export(conn: sqlite3.Connection, *, guild_id: int, now: float) -> dict[str, Any]:
    """Everything of one guild, read in one snapshot on the connection thread."""
    row = conn.execute(
        f"SELECT {_SETTINGS_COLUMNS} FROM guild_settings WHERE guild_id = ?", (guild_id,)
    ).fetchone()
    settings = _settings(guild_id, row) if row else GuildSettings(guild_id)
    seasons = conn.execute(
        "SELECT season, name, started_at, ended_at FROM seasons WHERE guild_id = ? ORDER BY season",
        (guild_id,),
    ).fetchall()
    standings = conn.execute(
        "SELECT s.season, s.user_id, COALESCE(n.name, ''), s.matches, s.wins, s.points, "
        "s.rounds_won, s.best_round, s.matches_classic, s.matches_sonic, s.matches_mario, "
        "s.mu, s.sigma, s.ordinal FROM standings s "
        "LEFT JOIN player_names n ON n.guild_id = s.guild_id AND n.user_id = s.user_id "
        "WHERE s.guild_id = ? ORDER BY s.season, s.ordinal DESC, s.user_id",
        (guild_id,),
    ).fetchall()
    names = conn.execute(
        "SELECT user_id, name FROM player_names WHERE guild_id = ? ORDER BY user_id", (guild_id,)
    ).fetchall()
    seats: dict[int, list[dict[str, Any]]] = {}
    for player in conn.execute(
        f"SELECT p.match_id, {', '.join('p.' + c for c in _RESULT_COLUMNS.split(', '))} "
        "FROM match_players p JOIN matches m ON m.match_id = p.match_id "
        "WHERE m.guild_id = ? ORDER BY p.match_id, p.seat",
        (guild_id,),
    ):
        seats.setdefault(player[0], []).append(asdict(_result(player[1:])))
    matches = []
    for match in conn.execute(
        "SELECT match_id, match_uid, season, channel_id, edition, scoring, target, started_at, "
        "finished_at, rounds, round_winners, events FROM matches WHERE guild_id = ? "
        "ORDER BY finished_at, match_id",
        (guild_id,),
    ):
        matches.append(
            {
                "match_id": match[0],
                "match_uid": match[1],
                "season": match[2],
                "channel_id": match[3],
                "edition": match[4],
                "scoring": match[5],
                "target": match[6],
                "started_at": match[7],
                "finished_at": match[8],
                "rounds": json.loads(match[9]),
                "round_winners": json.loads(match[10]),
                "events": json.loads(match[11]),
                "players": seats.get(match[0], []),
            }
        )
    standing_keys = [
        "season",
        "user_id",
        "name",
        "matches",
        "wins",
        "points",
        "rounds_won",
        "best_round",
        *(f"matches_{edition}" for edition in EDITIONS),
        "mu",
        "sigma",
        "rating",
    ]
    return {
        "guild_id": guild_id,
        "exported_at": now,
        "settings": asdict(settings),
        "seasons": [asdict(_season_row(guild_id, s)) for s in seasons]
        or [asdict(Season(guild_id, 1, None, None, None))],
        "players": [{"user_id": u, "name": n} for u, n in names],
        "standings": [dict(zip(standing_keys, s, strict=True)) for s in standings],
        "matches": matches,
    }
