"""SQLite league: seasons, recording matches, leaderboards, stats, history, export, forget-me.

The backend runs each function as its mode says (a write transaction begins IMMEDIATE, which
serialises a server's league writes across processes too). Statements that need nothing from
each other go to aiosqlite's thread together, so an operation waits for it two or three times,
not once per statement.
"""

from __future__ import annotations

import json
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
    PlayerHistory,
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
    TOURNAMENT_COLUMNS,
    board_row,
    detail_from,
    export_document,
    result_from,
    season_from,
    stats_from,
    summary_from,
    tournament_forgetting,
)
from .settings import get_settings
from .sql import Conn, Row, changed, fetch, one, together

# Hands out the server's next match number and counts house-ruled matches.
_TAKE_NUMBER = """
INSERT INTO league_guilds (guild_id, last_number, house_matches) VALUES (?, 1, ?)
ON CONFLICT (guild_id) DO UPDATE SET
    last_number = last_number + 1, house_matches = house_matches + excluded.house_matches
RETURNING last_number, house_matches
"""


def _season(guild: str) -> str:
    """The season new matches count toward (the implicit first one when none was started)."""
    return f"COALESCE((SELECT MAX(season) FROM seasons WHERE guild_id = {guild}), 1)"


# Numbered before _TAKE_NUMBER moves the counter, in the same batch; no row for a replay.
_INSERT_MATCH = f"""
INSERT INTO matches (match_uid, guild_id, number, season, channel_id, edition, scoring, target,
                     started_at, finished_at, rounds, round_winners, events, house_rules, teams,
                     tournament_id)
VALUES (?1, ?2,
        COALESCE((SELECT last_number FROM league_guilds WHERE guild_id = ?2), 0) + 1,
        {_season("?2")}, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)
ON CONFLICT (match_uid) DO NOTHING
RETURNING match_id, number, season
"""

_RATING_SETTINGS = "SELECT computers_rated, rate_house_rules FROM guild_settings WHERE guild_id = ?"

_INSERT_SEAT = f"""
INSERT INTO match_players (match_id, {RESULT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
"""

_UPSERT_NAME = """
INSERT INTO player_names (guild_id, user_id, name) VALUES (?, ?, ?)
ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name
WHERE name IS NOT excluded.name
"""

_STANDING_COLUMNS = (
    "guild_id, season, official_only, user_id, matches, wins, points, rounds_won, best_round, "
    "matches_classic, matches_sonic, matches_mario, mu, sigma, ordinal, rated, team_matches, "
    "team_wins"
)

_UPSERT_STANDING = f"""
INSERT INTO standings ({_STANDING_COLUMNS})
VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
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
    rated = rated + excluded.rated,
    team_matches = team_matches + excluded.team_matches,
    team_wins = team_wins + excluded.team_wins
"""

# At a server's first house-ruled match, its standings so far (all official) become the
# official-only standings, which official matches keep up to date from then on.
_SPLIT_OFFICIAL = f"""
INSERT INTO standings ({_STANDING_COLUMNS})
SELECT guild_id, season, 1, user_id, matches, wins, points, rounds_won, best_round,
       matches_classic, matches_sonic, matches_mario, mu, sigma, ordinal, rated, team_matches,
       team_wins
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


async def current_season(conn: Conn, guild_id: int) -> Season:
    """The season new matches count toward."""
    row = await one(
        conn,
        f"SELECT {_SEASON_COLUMNS} FROM seasons WHERE guild_id = ? ORDER BY season DESC LIMIT 1",
        (guild_id,),
    )
    return season_from(guild_id, row)


async def list_seasons(conn: Conn, guild_id: int) -> list[Season]:
    """Every season, oldest first (the implicit season 1 when none was started)."""
    rows = await fetch(
        conn,
        f"SELECT {_SEASON_COLUMNS} FROM seasons WHERE guild_id = ? ORDER BY season",
        (guild_id,),
    )
    return [season_from(guild_id, row) for row in rows] or [season_from(guild_id, None)]


async def start_season(conn: Conn, guild_id: int, name: str | None, now: float) -> Season:
    """End the current season and start the next."""
    current = await current_season(conn, guild_id)
    season = Season(guild_id, current.number + 1, name, now, None)
    calls = []
    if current.started_at is None and current.number == 1:
        # The implicit first season gets its row now, so it can carry an end time.
        calls.append(
            conn.execute(
                "INSERT OR IGNORE INTO seasons (guild_id, season, name, started_at, ended_at) "
                "VALUES (?, 1, NULL, NULL, NULL)",
                (guild_id,),
            )
        )
    await together(
        *calls,
        conn.execute(
            "UPDATE seasons SET ended_at = ? WHERE guild_id = ? AND season = ?",
            (now, guild_id, current.number),
        ),
        conn.execute(
            "INSERT INTO seasons (guild_id, season, name, started_at, ended_at) "
            "VALUES (?, ?, ?, ?, NULL)",
            (guild_id, season.number, name, now),
        ),
    )
    return season


# ----- recording a match -----


async def record_match(
    conn: Conn,
    record: MatchRecord,
    table_id: str | None,
    table_version: int | None,
) -> bool:
    """Record the match in the open write transaction; Rollback(False) for a replay."""
    guild = record.guild_id
    went_out = round_winners(record)
    house = 0 if record.official else 1
    users = [p.user_id for p in record.players]
    marks = ", ".join("?" * len(users))
    match_params = (
        record.match_uid,
        guild,
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
        record.teams,
        record.tournament_id,
    )
    # Nothing here needs another's result: one wait for all of them.
    inserted, taken, rating_settings, ratings, dropped = await together(
        fetch(conn, _INSERT_MATCH, match_params),
        fetch(conn, _TAKE_NUMBER, (guild, house)),
        one(conn, _RATING_SETTINGS, (guild,)),
        # Current ratings of the players in every scope; newcomers start fresh.
        fetch(
            conn,
            "SELECT season, official_only, user_id, mu, sigma, ordinal FROM standings "
            f"WHERE guild_id = ?1 AND season IN ({_season('?1')}, ?2) AND user_id IN ({marks})",
            (guild, ALL_TIME, *users),
        ),
        _drop_table(conn, table_id, table_version),
    )
    if not inserted:
        raise Rollback(False)  # already recorded: undo the number taken and the table dropped
    if not dropped:
        stored = await one(conn, "SELECT version FROM live_tables WHERE table_id = ?", (table_id,))
        assert table_version is not None  # only a version-guarded drop can miss
        raise stale_table(str(table_id), None if stored is None else stored[0], table_version)
    [(match_id, number, season)] = inserted
    [(last_number, house_matches)] = taken
    assert number == last_number  # numbered from the counter before it moved
    computers_rated, rate_house_rules = rating_settings or (None, None)
    context = LeagueContext(
        season=season,
        computers_rated=bool(computers_rated),
        rate_house_rules=bool(rate_house_rules),
        split=house_matches > 0,
    )
    current: dict[StandingKey, Skill] = {
        (scope, bool(official_only), user_id): Skill(mu, sigma, ordinal)
        for scope, official_only, user_id, mu, sigma, ordinal in ratings
    }
    writes = plan_match(record, context, current, went_out)

    calls = []
    if house and house_matches == 1:
        calls += [conn.execute(_SPLIT_OFFICIAL, (guild,)), conn.execute(_SPLIT_COUNTS, (guild,))]
    calls += [
        conn.executemany(_INSERT_SEAT, [(match_id, *seat) for seat in writes.seats]),
        conn.executemany(_UPSERT_NAME, writes.names),
        conn.executemany(_UPSERT_STANDING, writes.standings),
    ]
    if writes.newcomers:
        calls.append(conn.executemany(_COUNT_NEWCOMERS, writes.newcomers))
    calls.append(
        conn.executemany(
            "INSERT INTO match_rounds (match_id, round, record) VALUES (?, ?, ?)",
            [(match_id, n, text) for n, text in enumerate(record.round_records, start=1) if text],
        )
    )
    await together(*calls)
    return True


async def _drop_table(conn: Conn, table_id: str | None, version: int | None) -> bool:
    """The finished table goes with its match (at the version the recorder saw, if given);
    False when that version is no longer the stored one."""
    if table_id is None:
        return True
    if version is None:
        await conn.execute("DELETE FROM live_tables WHERE table_id = ?", (table_id,))
        return True
    sql = "DELETE FROM live_tables WHERE table_id = ? AND version = ?"
    return await changed(conn, sql, (table_id, version)) > 0


# ----- reading the league -----


async def _official_key(conn: Conn, guild_id: int, official_only: bool) -> int:
    """The standings rows to read: official-only rows exist once a house-ruled match did."""
    if not official_only:
        return 0
    row = await one(conn, "SELECT house_matches FROM league_guilds WHERE guild_id = ?", (guild_id,))
    return 1 if row is not None and row[0] > 0 else 0


async def leaderboard(
    conn: Conn,
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
    key = await _official_key(conn, guild_id, official_only)
    # One walk of the sort's index that stops after offset + limit rows, names looked up on
    # the way (cheaper in SQLite than a subquery for the page and a second sort).
    rows, counted = await together(
        fetch(
            conn,
            f"SELECT {BOARD_COLUMNS} FROM standings s LEFT JOIN player_names n "
            "ON n.guild_id = s.guild_id AND n.user_id = s.user_id "
            "WHERE s.guild_id = ? AND s.season = ? AND s.official_only = ? "
            f"ORDER BY {order} LIMIT ? OFFSET ?",
            (guild_id, scope, key, limit, offset),
        ),
        one(
            conn,
            "SELECT players FROM standings_counts "
            "WHERE guild_id = ? AND season = ? AND official_only = ?",
            (guild_id, scope, key),
        ),
    )
    return LeaderboardPage(
        guild_id=guild_id,
        season=season,
        sort=sort,
        offset=offset,
        total=counted[0] if counted else 0,
        rows=[board_row(offset + index + 1, row) for index, row in enumerate(rows)],
        official_only=official_only,
    )


async def player_stats(
    conn: Conn,
    guild_id: int,
    user_id: int,
    season: int | None,
    scope: int,
    official_only: bool,
) -> PlayerStats | None:
    """A member's standing and rank by rating."""
    key = await _official_key(conn, guild_id, official_only)
    # The rank in the same statement: two range counts on standings_by_rating (one OR
    # condition would make SQLite, with statistics, merge two index scans into a rowset, ten
    # times slower), run once for the one row found.
    row = await one(
        conn,
        f"SELECT {STATS_COLUMNS}, (SELECT COUNT(*) FROM standings a WHERE a.guild_id = ?1 "
        "AND a.season = ?2 AND a.official_only = ?3 AND a.ordinal > s.ordinal) + "
        "(SELECT COUNT(*) FROM standings a WHERE a.guild_id = ?1 AND a.season = ?2 "
        "AND a.official_only = ?3 AND a.ordinal = s.ordinal AND a.user_id < ?4) "
        "FROM standings s LEFT JOIN player_names n "
        "ON n.guild_id = s.guild_id AND n.user_id = s.user_id "
        "WHERE s.guild_id = ?1 AND s.season = ?2 AND s.official_only = ?3 AND s.user_id = ?4",
        (guild_id, scope, key, user_id),
    )
    if row is None:
        return None
    return stats_from(guild_id, user_id, season, official_only, row[:-1], row[-1])


def _by_match(rows: list[Row]) -> dict[int, list[PlayerResult]]:
    """Seats (match_id, then RESULT_COLUMNS) grouped by match, in seat order."""
    seats: dict[int, list[PlayerResult]] = {}
    for row in rows:
        seats.setdefault(row[0], []).append(result_from(row[1:]))
    return seats


_SEATS = f"SELECT match_id, {RESULT_COLUMNS} FROM match_players WHERE match_id IN "


async def recent_matches(conn: Conn, guild_id: int, limit: int, offset: int) -> list[MatchSummary]:
    """The server's matches, newest number first."""
    page = "FROM matches WHERE guild_id = ? ORDER BY number DESC LIMIT ? OFFSET ?"
    rows, seats = await together(
        fetch(
            conn,
            "SELECT match_id, number, season, edition, scoring, started_at, finished_at, "
            f"json_array_length(rounds), house_rules, teams, tournament_id {page}",
            (guild_id, limit, offset),
        ),
        fetch(
            conn,
            f"{_SEATS}(SELECT match_id {page}) ORDER BY match_id, seat",
            (guild_id, limit, offset),
        ),
    )
    by_match = _by_match(seats)
    return [summary_from(row[1:], by_match.get(row[0], [])) for row in rows]


async def _detail(conn: Conn, where: str, params: tuple[Any, ...]) -> MatchDetail | None:
    row, seats = await together(
        one(conn, f"SELECT match_id, {DETAIL_COLUMNS} FROM matches WHERE {where}", params),
        fetch(conn, f"{_SEATS}(SELECT match_id FROM matches WHERE {where}) ORDER BY seat", params),
    )
    if row is None:
        return None
    return detail_from(row[1:], [result_from(seat[1:]) for seat in seats])


async def match_detail(conn: Conn, guild_id: int, number: int) -> MatchDetail | None:
    """One match by the server's number."""
    return await _detail(conn, "guild_id = ? AND number = ?", (guild_id, number))


async def match_by_uid(conn: Conn, guild_id: int, match_uid: str) -> MatchDetail | None:
    """One match by the uid it was recorded under."""
    return await _detail(conn, "guild_id = ? AND match_uid = ?", (guild_id, match_uid))


async def round_record(conn: Conn, guild_id: int, number: int, round_number: int) -> str | None:
    """One round's stored record, by the server's match number and the round's."""
    row = await one(
        conn,
        "SELECT r.record FROM matches m JOIN match_rounds r ON r.match_id = m.match_id "
        "WHERE m.guild_id = ? AND m.number = ? AND r.round = ?",
        (guild_id, number, round_number),
    )
    return None if row is None else str(row[0])


async def player_history(
    conn: Conn, guild_id: int, user_id: int, rounds: int
) -> PlayerHistory | None:
    """A member's results in match order and their newest round records."""
    results, played, named = await together(
        fetch(
            conn,
            "SELECT m.edition, p.winner, p.rating_after FROM match_players p "
            "JOIN matches m ON m.match_id = p.match_id "
            "WHERE m.guild_id = ? AND p.user_id = ? ORDER BY m.number",
            (guild_id, user_id),
        ),
        fetch(
            conn,
            "SELECT p.seat, r.record FROM match_players p "
            "JOIN matches m ON m.match_id = p.match_id "
            "JOIN match_rounds r ON r.match_id = p.match_id "
            "WHERE m.guild_id = ? AND p.user_id = ? ORDER BY m.number DESC, r.round DESC LIMIT ?",
            (guild_id, user_id, rounds),
        ),
        one(
            conn,
            "SELECT name FROM player_names WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        ),
    )
    if not results:
        return None
    return PlayerHistory(
        guild_id=guild_id,
        user_id=user_id,
        name=str(named[0]) if named else "",
        results=[(edition, bool(won), after) for edition, won, after in results],
        rounds=[(int(seat), str(text)) for seat, text in played],
    )


async def export_guild(conn: Conn, guild_id: int, now: float) -> dict[str, Any]:
    """Everything of one server, read in one snapshot."""
    result_columns = ", ".join("p." + column for column in RESULT_COLUMNS.split(", "))
    settings, seasons, names, standings, matches, seats, tournaments = await together(
        get_settings(conn, guild_id),
        fetch(
            conn,
            f"SELECT {_SEASON_COLUMNS} FROM seasons WHERE guild_id = ? ORDER BY season",
            (guild_id,),
        ),
        fetch(
            conn,
            "SELECT user_id, name FROM player_names WHERE guild_id = ? ORDER BY user_id",
            (guild_id,),
        ),
        fetch(
            conn,
            f"SELECT {EXPORT_STANDING_COLUMNS} FROM standings s "
            "LEFT JOIN player_names n ON n.guild_id = s.guild_id AND n.user_id = s.user_id "
            "WHERE s.guild_id = ? ORDER BY s.season, s.official_only, s.ordinal DESC, s.user_id",
            (guild_id,),
        ),
        fetch(
            conn,
            f"SELECT {EXPORT_MATCH_COLUMNS} FROM matches WHERE guild_id = ? ORDER BY number",
            (guild_id,),
        ),
        fetch(
            conn,
            f"SELECT p.match_id, {result_columns} FROM match_players p "
            "JOIN matches m ON m.match_id = p.match_id WHERE m.guild_id = ? "
            "ORDER BY p.match_id, p.seat",
            (guild_id,),
        ),
        fetch(
            conn,
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE guild_id = ? "
            "ORDER BY opened_at, tournament_id",
            (guild_id,),
        ),
    )
    return export_document(
        guild_id, now, settings, seasons, names, standings, matches, seats, tournaments
    )


async def forget_user(conn: Conn, guild_id: int, user_id: int) -> int:
    """Anonymise a member's seats and delete their standings and name; rows changed."""
    seats, _, standings, names = await together(
        changed(
            conn,
            "UPDATE match_players SET user_id = ?, name = ? WHERE user_id = ? AND match_id IN "
            "(SELECT match_id FROM matches WHERE guild_id = ?)",
            (FORMER_PLAYER_ID, FORMER_PLAYER_NAME, user_id, guild_id),
        ),
        conn.execute(_UNCOUNT, (guild_id, user_id)),  # before the standings go
        changed(
            conn, "DELETE FROM standings WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        ),
        changed(
            conn,
            "DELETE FROM player_names WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        ),
    )
    return int(seats + standings + names) + await _forget_in_tournaments(conn, guild_id, user_id)


async def _forget_in_tournaments(conn: Conn, guild_id: int, user_id: int) -> int:
    """The member's name taken out of the server's stored tournaments; how many changed."""
    rows = await fetch(
        conn, "SELECT tournament_id, state FROM tournaments WHERE guild_id = ?", (guild_id,)
    )
    total = 0
    for tournament_id, state in rows:
        forgotten = tournament_forgetting(state, user_id)
        if forgotten is not None:
            total += await changed(
                conn,
                "UPDATE tournaments SET state = ? WHERE tournament_id = ?",
                (forgotten, tournament_id),
            )
    return total


async def is_recorded(conn: Conn, guild_id: int, match_uid: str) -> bool:
    """Whether the server's match of this uid is recorded."""
    row = await one(
        conn, "SELECT 1 FROM matches WHERE guild_id = ? AND match_uid = ?", (guild_id, match_uid)
    )
    return row is not None
