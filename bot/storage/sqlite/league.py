"""SQLite league: seasons, recording matches, leaderboards, stats, history, export, forget-me.

Every function runs on the worker thread inside one transaction opened by SQLiteStorage; writes
use BEGIN IMMEDIATE, which serialises them across processes too.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from ..errors import Rollback, stale_table
from ..ledger import LeagueContext, StandingKey, house_rules_json, plan_match, round_winners
from ..models import (
    ALL_TIME,
    FORMER_PLAYER_ID,
    FORMER_PLAYER_NAME,
    LeaderboardPage,
    LeaderboardSort,
    MatchDetail,
    MatchRecord,
    MatchSummary,
    PlayerResult,
    PlayerStats,
    Season,
)
from ..rating import Skill
from ..rows import (
    BOARD_COLUMNS,
    DETAIL_COLUMNS,
    EXPORT_MATCH_COLUMNS,
    EXPORT_STANDING_COLUMNS,
    RESULT_COLUMNS,
    STATS_COLUMNS,
    board_row,
    detail_from,
    export_document,
    result_from,
    season_from,
    stats_from,
    summary_from,
)
from .settings import get_settings

# Hands out the server's next match number and counts house-ruled matches.
_TAKE_NUMBER = """
INSERT INTO league_guilds (guild_id, last_number, house_matches) VALUES (?, 1, ?)
ON CONFLICT (guild_id) DO UPDATE SET
    last_number = last_number + 1, house_matches = house_matches + excluded.house_matches
RETURNING last_number, house_matches
"""

_CONTEXT = """
SELECT (SELECT MAX(season) FROM seasons WHERE guild_id = ?1),
       (SELECT computers_rated FROM guild_settings WHERE guild_id = ?1),
       (SELECT rate_house_rules FROM guild_settings WHERE guild_id = ?1)
"""

_INSERT_MATCH = """
INSERT INTO matches (match_uid, guild_id, number, season, channel_id, edition, scoring, target,
                     started_at, finished_at, rounds, round_winners, events, house_rules)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (match_uid) DO NOTHING
"""

_INSERT_SEAT = f"""
INSERT INTO match_players (match_id, {RESULT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
"""

_UPSERT_NAME = """
INSERT INTO player_names (guild_id, user_id, name) VALUES (?, ?, ?)
ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name
WHERE name IS NOT excluded.name
"""

_STANDING_COLUMNS = (
    "guild_id, season, official_only, user_id, matches, wins, points, rounds_won, best_round, "
    "matches_classic, matches_sonic, matches_mario, mu, sigma, ordinal, rated"
)

_UPSERT_STANDING = f"""
INSERT INTO standings ({_STANDING_COLUMNS})
VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (guild_id, user_id, season, official_only) DO UPDATE SET
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
    ordinal = excluded.ordinal,
    rated = rated + excluded.rated
"""

# At a server's first house-ruled match, its standings so far (all official) become the
# official-only standings, which official matches keep up to date from then on.
_SPLIT_OFFICIAL = f"""
INSERT INTO standings ({_STANDING_COLUMNS})
SELECT guild_id, season, 1, user_id, matches, wins, points, rounds_won, best_round,
       matches_classic, matches_sonic, matches_mario, mu, sigma, ordinal, rated
FROM standings WHERE guild_id = ? AND official_only = 0
"""

_COUNT_NEWCOMERS = """
INSERT INTO standings_counts (guild_id, season, official_only, players) VALUES (?, ?, ?, ?)
ON CONFLICT (guild_id, season, official_only) DO UPDATE SET players = players + excluded.players
"""

_SPLIT_COUNTS = """
INSERT INTO standings_counts (guild_id, season, official_only, players)
SELECT guild_id, season, 1, players FROM standings_counts WHERE guild_id = ? AND official_only = 0
"""

# Before a member's standings go: one player fewer in each scope they had a row in.
_UNCOUNT = """
UPDATE standings_counts SET players = players - 1
WHERE guild_id = ?1 AND EXISTS (
    SELECT 1 FROM standings s WHERE s.guild_id = ?1 AND s.user_id = ?2
    AND s.season = standings_counts.season AND s.official_only = standings_counts.official_only)
"""

_SEASON_COLUMNS = "season, name, started_at, ended_at"


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


# ----- seasons -----


def current_season(conn: sqlite3.Connection, guild_id: int) -> Season:
    """The season new matches count toward."""
    row = conn.execute(
        f"SELECT {_SEASON_COLUMNS} FROM seasons WHERE guild_id = ? ORDER BY season DESC LIMIT 1",
        (guild_id,),
    ).fetchone()
    return season_from(guild_id, row)


def list_seasons(conn: sqlite3.Connection, guild_id: int) -> list[Season]:
    """Every season, oldest first (the implicit season 1 when none was started)."""
    rows = conn.execute(
        f"SELECT {_SEASON_COLUMNS} FROM seasons WHERE guild_id = ? ORDER BY season", (guild_id,)
    ).fetchall()
    return [season_from(guild_id, row) for row in rows] or [season_from(guild_id, None)]


def start_season(conn: sqlite3.Connection, guild_id: int, name: str | None, now: float) -> Season:
    """End the current season and start the next."""
    current = current_season(conn, guild_id)
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


# ----- recording a match -----


def record_match(
    conn: sqlite3.Connection,
    record: MatchRecord,
    table_id: str | None,
    table_version: int | None,
) -> bool:
    """Record the match in the open write transaction; Rollback(False) for a replay."""
    guild = record.guild_id
    went_out = round_winners(record)
    house = 0 if record.official else 1
    [(number, house_matches)] = conn.execute(_TAKE_NUMBER, (guild, house)).fetchall()
    season, computers_rated, rate_house_rules = conn.execute(_CONTEXT, (guild,)).fetchone()
    context = LeagueContext(
        season=season or 1,
        computers_rated=bool(computers_rated),
        rate_house_rules=bool(rate_house_rules),
        split=house_matches > 0,
    )
    cursor = conn.execute(
        _INSERT_MATCH,
        (
            record.match_uid,
            guild,
            number,
            context.season,
            record.channel_id,
            record.edition,
            record.scoring,
            record.target,
            record.started_at,
            record.finished_at,
            _json(record.rounds),
            _json(went_out),
            _json(record.events),
            house_rules_json(record.house_rules),
        ),
    )
    if cursor.rowcount == 0:
        raise Rollback(False)  # already recorded: undo the number taken above
    match_id = cursor.lastrowid
    if house and house_matches == 1:
        conn.execute(_SPLIT_OFFICIAL, (guild,))
        conn.execute(_SPLIT_COUNTS, (guild,))

    # Current ratings of the players in every scope; newcomers start fresh.
    users = [p.user_id for p in record.players]
    current: dict[StandingKey, Skill] = {}
    marks = ", ".join("?" * len(users))
    for scope, official_only, user_id, mu, sigma, ordinal in conn.execute(
        "SELECT season, official_only, user_id, mu, sigma, ordinal FROM standings "
        f"WHERE guild_id = ? AND season IN (?, ?) AND user_id IN ({marks})",
        (guild, context.season, ALL_TIME, *users),
    ):
        current[scope, bool(official_only), user_id] = Skill(mu, sigma, ordinal)
    writes = plan_match(record, context, current, went_out)

    conn.executemany(_INSERT_SEAT, [(match_id, *seat) for seat in writes.seats])
    conn.executemany(_UPSERT_NAME, writes.names)
    conn.executemany(_UPSERT_STANDING, writes.standings)
    if writes.newcomers:
        conn.executemany(_COUNT_NEWCOMERS, writes.newcomers)
    conn.executemany(
        "INSERT INTO match_rounds (match_id, round, record) VALUES (?, ?, ?)",
        [(match_id, n, text) for n, text in enumerate(record.round_records, start=1) if text],
    )
    if table_id is not None:
        _drop_table(conn, table_id, table_version)
    return True


def _drop_table(conn: sqlite3.Connection, table_id: str, version: int | None) -> None:
    """The finished table goes with its match; at the version the recorder saw, if given."""
    if version is None:
        conn.execute("DELETE FROM live_tables WHERE table_id = ?", (table_id,))
        return
    cursor = conn.execute(
        "DELETE FROM live_tables WHERE table_id = ? AND version = ?", (table_id, version)
    )
    if cursor.rowcount == 0:
        row = conn.execute(
            "SELECT version FROM live_tables WHERE table_id = ?", (table_id,)
        ).fetchone()
        raise stale_table(table_id, None if row is None else row[0], version)


# ----- reading the league -----


def _official_key(conn: sqlite3.Connection, guild_id: int, official_only: bool) -> int:
    """The standings rows to read: official-only rows exist once a house-ruled match did."""
    if not official_only:
        return 0
    row = conn.execute(
        "SELECT house_matches FROM league_guilds WHERE guild_id = ?", (guild_id,)
    ).fetchone()
    return 1 if row is not None and row[0] > 0 else 0


def leaderboard(
    conn: sqlite3.Connection,
    guild_id: int,
    season: int | None,
    scope: int,
    sort: LeaderboardSort,
    order: str,
    offset: int,
    limit: int,
    official_only: bool,
) -> LeaderboardPage:
    """A page of standings and the number of ranked players."""
    key = _official_key(conn, guild_id, official_only)
    # One walk of the sort's index that stops after offset + limit rows, names looked up on
    # the way (cheaper in SQLite than a subquery for the page and a second sort).
    rows = conn.execute(
        f"SELECT {BOARD_COLUMNS} FROM standings s LEFT JOIN player_names n "
        "ON n.guild_id = s.guild_id AND n.user_id = s.user_id "
        "WHERE s.guild_id = ? AND s.season = ? AND s.official_only = ? "
        f"ORDER BY {order} LIMIT ? OFFSET ?",
        (guild_id, scope, key, limit, offset),
    ).fetchall()
    counted = conn.execute(
        "SELECT players FROM standings_counts "
        "WHERE guild_id = ? AND season = ? AND official_only = ?",
        (guild_id, scope, key),
    ).fetchone()
    return LeaderboardPage(
        guild_id=guild_id,
        season=season,
        sort=sort,
        offset=offset,
        total=counted[0] if counted else 0,
        rows=[board_row(offset + index + 1, row) for index, row in enumerate(rows)],
        official_only=official_only,
    )


def player_stats(
    conn: sqlite3.Connection,
    guild_id: int,
    user_id: int,
    season: int | None,
    scope: int,
    official_only: bool,
) -> PlayerStats | None:
    """A member's standing and rank by rating."""
    key = _official_key(conn, guild_id, official_only)
    row = conn.execute(
        f"SELECT {STATS_COLUMNS} FROM standings s LEFT JOIN player_names n "
        "ON n.guild_id = s.guild_id AND n.user_id = s.user_id "
        "WHERE s.guild_id = ? AND s.season = ? AND s.official_only = ? AND s.user_id = ?",
        (guild_id, scope, key, user_id),
    ).fetchone()
    if row is None:
        return None
    # Two range counts on standings_by_rating; one OR condition would make SQLite (with
    # statistics) merge two index scans into a rowset, ten times slower.
    ahead = conn.execute(
        "SELECT (SELECT COUNT(*) FROM standings WHERE guild_id = ?1 AND season = ?2 "
        "AND official_only = ?5 AND ordinal > ?3) + (SELECT COUNT(*) FROM standings "
        "WHERE guild_id = ?1 AND season = ?2 AND official_only = ?5 AND ordinal = ?3 "
        "AND user_id < ?4)",
        (guild_id, scope, row[7], user_id, key),
    ).fetchone()[0]
    return stats_from(guild_id, user_id, season, official_only, row, ahead)


def _seats(conn: sqlite3.Connection, match_ids: list[int]) -> dict[int, list[PlayerResult]]:
    seats: dict[int, list[PlayerResult]] = {match_id: [] for match_id in match_ids}
    marks = ", ".join("?" * len(match_ids))
    for row in conn.execute(
        f"SELECT match_id, {RESULT_COLUMNS} FROM match_players "
        f"WHERE match_id IN ({marks}) ORDER BY match_id, seat",
        match_ids,
    ):
        seats[row[0]].append(result_from(row[1:]))
    return seats


def recent_matches(
    conn: sqlite3.Connection, guild_id: int, limit: int, offset: int
) -> list[MatchSummary]:
    """The server's matches, newest number first."""
    rows = conn.execute(
        "SELECT match_id, number, season, edition, scoring, started_at, finished_at, "
        "json_array_length(rounds), house_rules FROM matches WHERE guild_id = ? "
        "ORDER BY number DESC LIMIT ? OFFSET ?",
        (guild_id, limit, offset),
    ).fetchall()
    if not rows:
        return []
    seats = _seats(conn, [row[0] for row in rows])
    return [summary_from(row[1:], seats[row[0]]) for row in rows]


def match_detail(conn: sqlite3.Connection, guild_id: int, number: int) -> MatchDetail | None:
    """One match by the server's number."""
    row = conn.execute(
        f"SELECT match_id, {DETAIL_COLUMNS} FROM matches WHERE guild_id = ? AND number = ?",
        (guild_id, number),
    ).fetchone()
    if row is None:
        return None
    return detail_from(row[1:], _seats(conn, [row[0]])[row[0]])


def match_by_uid(conn: sqlite3.Connection, guild_id: int, match_uid: str) -> MatchDetail | None:
    """One match by the uid it was recorded under."""
    row = conn.execute(
        f"SELECT match_id, {DETAIL_COLUMNS} FROM matches WHERE guild_id = ? AND match_uid = ?",
        (guild_id, match_uid),
    ).fetchone()
    if row is None:
        return None
    return detail_from(row[1:], _seats(conn, [row[0]])[row[0]])


def round_record(
    conn: sqlite3.Connection, guild_id: int, number: int, round_number: int
) -> str | None:
    """One round's stored record, by the server's match number and the round's."""
    row = conn.execute(
        "SELECT r.record FROM matches m JOIN match_rounds r ON r.match_id = m.match_id "
        "WHERE m.guild_id = ? AND m.number = ? AND r.round = ?",
        (guild_id, number, round_number),
    ).fetchone()
    return None if row is None else str(row[0])


def export_guild(conn: sqlite3.Connection, guild_id: int, now: float) -> dict[str, Any]:
    """Everything of one server, read in one snapshot."""
    settings = get_settings(conn, guild_id)
    seasons = conn.execute(
        f"SELECT {_SEASON_COLUMNS} FROM seasons WHERE guild_id = ? ORDER BY season", (guild_id,)
    ).fetchall()
    names = conn.execute(
        "SELECT user_id, name FROM player_names WHERE guild_id = ? ORDER BY user_id", (guild_id,)
    ).fetchall()
    standings = conn.execute(
        f"SELECT {EXPORT_STANDING_COLUMNS} FROM standings s "
        "LEFT JOIN player_names n ON n.guild_id = s.guild_id AND n.user_id = s.user_id "
        "WHERE s.guild_id = ? ORDER BY s.season, s.official_only, s.ordinal DESC, s.user_id",
        (guild_id,),
    ).fetchall()
    matches = conn.execute(
        f"SELECT {EXPORT_MATCH_COLUMNS} FROM matches WHERE guild_id = ? ORDER BY number",
        (guild_id,),
    ).fetchall()
    result_columns = ", ".join("p." + column for column in RESULT_COLUMNS.split(", "))
    seats = conn.execute(
        f"SELECT p.match_id, {result_columns} FROM match_players p "
        "JOIN matches m ON m.match_id = p.match_id WHERE m.guild_id = ? "
        "ORDER BY p.match_id, p.seat",
        (guild_id,),
    ).fetchall()
    return export_document(guild_id, now, settings, seasons, names, standings, matches, seats)


def forget_user(conn: sqlite3.Connection, guild_id: int, user_id: int) -> int:
    """Anonymise a member's seats and delete their standings and name; rows changed."""
    changed = conn.execute(
        "UPDATE match_players SET user_id = ?, name = ? WHERE user_id = ? AND match_id IN "
        "(SELECT match_id FROM matches WHERE guild_id = ?)",
        (FORMER_PLAYER_ID, FORMER_PLAYER_NAME, user_id, guild_id),
    ).rowcount
    conn.execute(_UNCOUNT, (guild_id, user_id))
    for table in ("standings", "player_names"):
        changed += conn.execute(
            f"DELETE FROM {table} WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        ).rowcount
    return changed
