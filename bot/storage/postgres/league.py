"""PostgreSQL league: seasons, recording matches, leaderboards, stats, history, export, forget-me.

Writes to a server's league first lock its league_guilds row, so matches recorded at once by
several processes are counted one after another, each reading the ratings the last one wrote.
"""

from __future__ import annotations

import json
from typing import Any

from ..errors import Rollback, stale_table
from ..ledger import LeagueContext, StandingKey, house_rules_json, plan_match, round_winners
from ..models import (
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
from .schema import Conn
from .settings import get_settings
from .tables import changed

# Takes the server's row lock without changing anything (seasons, forget-me).
_LOCK_GUILD = """
INSERT INTO league_guilds (guild_id, last_number, house_matches) VALUES ($1, 0, 0)
ON CONFLICT (guild_id) DO UPDATE SET last_number = league_guilds.last_number
"""

# Takes the server's row lock until commit (so its matches are counted one at a time), hands
# out its next number, counts house-ruled matches and adds the match unless it is a replay.
# The season and settings come from this statement's snapshot: a season started at the very
# moment a match ends may still count it; match and standings always agree on which.
_OPEN_MATCH = """
WITH taken AS (
    INSERT INTO league_guilds (guild_id, last_number, house_matches) VALUES ($2, 1, $13)
    ON CONFLICT (guild_id) DO UPDATE SET
        last_number = league_guilds.last_number + 1,
        house_matches = league_guilds.house_matches + excluded.house_matches
    RETURNING last_number, house_matches
), context AS (
    SELECT COALESCE((SELECT MAX(season) FROM seasons WHERE guild_id = $2), 1) AS season,
           COALESCE((SELECT computers_rated FROM guild_settings WHERE guild_id = $2), FALSE)
               AS computers_rated,
           COALESCE((SELECT rate_house_rules FROM guild_settings WHERE guild_id = $2), FALSE)
               AS rate_house_rules
), added AS (
    INSERT INTO matches (match_uid, guild_id, number, season, channel_id, edition, scoring,
                         target, started_at, finished_at, rounds, round_winners, events,
                         house_rules, teams, tournament_id)
    SELECT $1, $2, taken.last_number, context.season, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12,
           $14, $15
    FROM taken CROSS JOIN context
    ON CONFLICT (match_uid) DO NOTHING
    RETURNING match_id
)
SELECT added.match_id, taken.house_matches, context.season, context.computers_rated,
       context.rate_house_rules
FROM taken CROSS JOIN context LEFT JOIN added ON TRUE
"""

# A separate statement, so it runs after the lock and sees what the last match wrote.
_RATINGS = """
SELECT season, official_only, user_id, mu, sigma, ordinal FROM standings
WHERE guild_id = $1 AND season IN ($2, 0) AND user_id = ANY($3::bigint[])
"""

_STANDING_COLUMNS = (
    "guild_id, season, official_only, user_id, matches, wins, points, rounds_won, best_round, "
    "matches_classic, matches_sonic, matches_mario, mu, sigma, ordinal, rated, team_matches, "
    "team_wins"
)

# Seats, names, standings, their counts and the finished table in one statement: one round
# trip, not five.
_WRITE_MATCH = f"""
WITH seats AS (
    INSERT INTO match_players (match_id, {RESULT_COLUMNS})
    SELECT $1, * FROM unnest($2::bigint[], $3::bigint[], $4::text[], $5::bigint[],
                             $6::bigint[], $7::boolean[], $8::boolean[],
                             $9::double precision[], $10::double precision[], $31::bigint[])
), names AS (
    INSERT INTO player_names (guild_id, user_id, name)
    SELECT $11, * FROM unnest($3::bigint[], $4::text[])
    ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name
    WHERE player_names.name IS DISTINCT FROM excluded.name
), counted AS (
    INSERT INTO standings ({_STANDING_COLUMNS})
    SELECT $11, season, official_only, user_id, 1, wins, points, rounds_won, best_round,
           classic, sonic, mario, mu, sigma, ordinal, rated, team_matches, team_wins
    FROM unnest($12::bigint[], $13::boolean[], $14::bigint[], $15::bigint[], $16::bigint[],
                $17::bigint[], $18::bigint[], $19::bigint[], $20::bigint[], $21::bigint[],
                $22::double precision[], $23::double precision[], $24::double precision[],
                $25::bigint[], $32::bigint[], $33::bigint[])
        AS u(season, official_only, user_id, wins, points, rounds_won, best_round, classic,
             sonic, mario, mu, sigma, ordinal, rated, team_matches, team_wins)
    ON CONFLICT (guild_id, user_id, season, official_only) DO UPDATE SET
        matches = standings.matches + 1,
        wins = standings.wins + excluded.wins,
        points = standings.points + excluded.points,
        rounds_won = standings.rounds_won + excluded.rounds_won,
        best_round = GREATEST(standings.best_round, excluded.best_round),
        matches_classic = standings.matches_classic + excluded.matches_classic,
        matches_sonic = standings.matches_sonic + excluded.matches_sonic,
        matches_mario = standings.matches_mario + excluded.matches_mario,
        mu = excluded.mu,
        sigma = excluded.sigma,
        ordinal = excluded.ordinal,
        rated = standings.rated + excluded.rated,
        team_matches = standings.team_matches + excluded.team_matches,
        team_wins = standings.team_wins + excluded.team_wins
), tally AS (
    INSERT INTO standings_counts (guild_id, season, official_only, players)
    SELECT $11, * FROM unnest($28::bigint[], $29::boolean[], $30::bigint[])
    ON CONFLICT (guild_id, season, official_only) DO UPDATE SET
        players = standings_counts.players + excluded.players
), dropped AS (
    DELETE FROM live_tables
    WHERE table_id = $26 AND ($27::bigint IS NULL OR version = $27)
    RETURNING table_id
)
SELECT COUNT(*) FROM dropped
"""

# At a server's first house-ruled match, its standings so far (all official) become the
# official-only standings, which official matches keep up to date from then on.
_SPLIT_OFFICIAL = f"""
INSERT INTO standings ({_STANDING_COLUMNS})
SELECT guild_id, season, TRUE, user_id, matches, wins, points, rounds_won, best_round,
       matches_classic, matches_sonic, matches_mario, mu, sigma, ordinal, rated, team_matches,
       team_wins
FROM standings WHERE guild_id = $1 AND NOT official_only
"""

_SPLIT_COUNTS = """
INSERT INTO standings_counts (guild_id, season, official_only, players)
SELECT guild_id, season, TRUE, players FROM standings_counts
WHERE guild_id = $1 AND NOT official_only
"""

# Before a member's standings go: one player fewer in each scope they had a row in.
_UNCOUNT = """
UPDATE standings_counts c SET players = c.players - 1
FROM standings s
WHERE c.guild_id = $1 AND s.guild_id = $1 AND s.user_id = $2
    AND s.season = c.season AND s.official_only = c.official_only
"""

# The standings rows to read: official-only rows exist once a house-ruled match did.
_OFFICIAL_KEY = (
    "($3::boolean AND EXISTS (SELECT 1 FROM league_guilds "
    "WHERE guild_id = $1 AND house_matches > 0))"
)

_SEASON_COLUMNS = "season, name, started_at, ended_at"


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def page_query(order: str, where: str, page: str, extra: str = "") -> str:
    """A leaderboard page as board_row reads it (then ``extra``): rows first, names after.

    Picking the page's standings in a subquery means names are looked up for its rows only,
    not for every row skipped to reach the offset.
    """
    return (
        "SELECT p.user_id, COALESCE(n.name, ''), p.matches, p.wins, p.points, p.ordinal, "
        f"p.rated{extra} FROM (SELECT s.guild_id, s.user_id, s.matches, s.wins, s.points, "
        f"s.ordinal, s.rated FROM standings s WHERE {where} ORDER BY {order} {page}) p "
        "LEFT JOIN player_names n ON n.guild_id = p.guild_id AND n.user_id = p.user_id "
        f"ORDER BY {order.replace('s.', 'p.')}"
    )


# ----- seasons -----


async def current_season(conn: Conn, guild_id: int) -> Season:
    """The season new matches count toward."""
    row = await conn.fetchrow(
        f"SELECT {_SEASON_COLUMNS} FROM seasons WHERE guild_id = $1 ORDER BY season DESC LIMIT 1",
        guild_id,
    )
    return season_from(guild_id, row)


async def list_seasons(conn: Conn, guild_id: int) -> list[Season]:
    """Every season, oldest first (the implicit season 1 when none was started)."""
    rows = await conn.fetch(
        f"SELECT {_SEASON_COLUMNS} FROM seasons WHERE guild_id = $1 ORDER BY season", guild_id
    )
    return [season_from(guild_id, row) for row in rows] or [season_from(guild_id, None)]


async def start_season(conn: Conn, guild_id: int, name: str | None, now: float) -> Season:
    """End the current season and start the next (in a transaction)."""
    await conn.execute(_LOCK_GUILD, guild_id)
    current = await current_season(conn, guild_id)
    if current.started_at is None and current.number == 1:
        # The implicit first season gets its row now, so it can carry an end time.
        await conn.execute(
            "INSERT INTO seasons (guild_id, season, name, started_at, ended_at) "
            "VALUES ($1, 1, NULL, NULL, NULL) ON CONFLICT DO NOTHING",
            guild_id,
        )
    await conn.execute(
        "UPDATE seasons SET ended_at = $1 WHERE guild_id = $2 AND season = $3",
        now,
        guild_id,
        current.number,
    )
    season = Season(guild_id, current.number + 1, name, now, None)
    await conn.execute(
        "INSERT INTO seasons (guild_id, season, name, started_at, ended_at) "
        "VALUES ($1, $2, $3, $4, NULL)",
        guild_id,
        season.number,
        name,
        now,
    )
    return season


# ----- recording a match -----


async def record_match(
    conn: Conn,
    record: MatchRecord,
    table_id: str | None,
    table_version: int | None,
) -> bool:
    """Record the match in the open transaction; Rollback(False) for a replay."""
    guild = record.guild_id
    went_out = round_winners(record)
    opened = await conn.fetchrow(
        _OPEN_MATCH,
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
        0 if record.official else 1,
        record.teams,
        record.tournament_id,
    )
    assert opened is not None  # the upsert always returns its row
    match_id, house_matches, season, computers_rated, rate_house_rules = opened
    if match_id is None:
        raise Rollback(False)  # already recorded: undo the number taken above
    if not record.official and house_matches == 1:
        await conn.execute(_SPLIT_OFFICIAL, guild)
        await conn.execute(_SPLIT_COUNTS, guild)
    context = LeagueContext(
        season=season,
        computers_rated=computers_rated,
        rate_house_rules=rate_house_rules,
        split=house_matches > 0,
    )
    users = [p.user_id for p in record.players]
    current: dict[StandingKey, Skill] = {
        (row[0], row[1], row[2]): Skill(row[3], row[4], row[5])
        for row in await conn.fetch(_RATINGS, guild, season, users)
    }
    writes = plan_match(record, context, current, went_out)
    seats = list(zip(*writes.seats, strict=True))
    standings = list(zip(*writes.standings, strict=True)) or [()] * 17
    newcomers = list(zip(*writes.newcomers, strict=True)) or [()] * 4
    dropped = await conn.fetchval(
        _WRITE_MATCH,
        match_id,
        *seats[:9],
        guild,
        *standings[1:15],
        table_id,
        table_version,
        *newcomers[1:],
        seats[9],  # the seats' teams, then the standings' team matches and wins
        *standings[15:],
    )
    if table_id is not None and table_version is not None and dropped == 0:
        stored = await conn.fetchval(
            "SELECT version FROM live_tables WHERE table_id = $1", table_id
        )
        raise stale_table(table_id, stored, table_version)  # rolls the whole match back
    recorded = [(n, text) for n, text in enumerate(record.round_records, start=1) if text]
    if recorded:
        await conn.execute(
            "INSERT INTO match_rounds (match_id, round, record) "
            "SELECT $1, * FROM unnest($2::integer[], $3::text[])",
            match_id,
            [n for n, _ in recorded],
            [text for _, text in recorded],
        )
    return True


# ----- reading the league -----


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
    """A page of standings and the number of ranked players, from one statement."""
    count = (
        "SELECT COALESCE((SELECT players FROM standings_counts WHERE guild_id = $1 "
        f"AND season = $2 AND official_only = {_OFFICIAL_KEY}), 0)"
    )
    where = f"s.guild_id = $1 AND s.season = $2 AND s.official_only = {_OFFICIAL_KEY}"
    rows = await conn.fetch(
        page_query(order, where, "LIMIT $4 OFFSET $5", f", ({count})"),
        guild_id,
        scope,
        official_only,
        limit,
        offset,
    )
    if rows:
        total = rows[0][7]
    else:  # past the last page: the count alone
        total = await conn.fetchval(count, guild_id, scope, official_only)
    return LeaderboardPage(
        guild_id=guild_id,
        season=season,
        sort=sort,
        offset=offset,
        total=total,
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
    """A member's standing and rank by rating, from one statement."""
    row = await conn.fetchrow(
        f"SELECT {STATS_COLUMNS}, "
        "(SELECT COUNT(*) FROM standings t WHERE t.guild_id = s.guild_id "
        "AND t.season = s.season AND t.official_only = s.official_only "
        "AND t.ordinal > s.ordinal) + (SELECT COUNT(*) FROM standings t "
        "WHERE t.guild_id = s.guild_id AND t.season = s.season "
        "AND t.official_only = s.official_only AND t.ordinal = s.ordinal "
        "AND t.user_id < s.user_id) "
        "FROM standings s LEFT JOIN player_names n "
        "ON n.guild_id = s.guild_id AND n.user_id = s.user_id "
        f"WHERE s.guild_id = $1 AND s.season = $2 AND s.official_only = {_OFFICIAL_KEY} "
        "AND s.user_id = $4",
        guild_id,
        scope,
        official_only,
        user_id,
    )
    if row is None:
        return None
    values = tuple(row)
    return stats_from(guild_id, user_id, season, official_only, values[:15], values[15])


async def recent_matches(conn: Conn, guild_id: int, limit: int, offset: int) -> list[MatchSummary]:
    """The server's matches, newest number first, with their seats, from one statement."""
    result_columns = ", ".join("p." + column for column in RESULT_COLUMNS.split(", "))
    rows = await conn.fetch(
        "SELECT m.number, m.season, m.edition, m.scoring, m.started_at, m.finished_at, "
        f"json_array_length(m.rounds::json), m.house_rules, m.teams, m.tournament_id, "
        f"{result_columns} "
        "FROM (SELECT * FROM matches WHERE guild_id = $1 ORDER BY number DESC "
        "LIMIT $2 OFFSET $3) m JOIN match_players p ON p.match_id = m.match_id "
        "ORDER BY m.number DESC, p.seat",
        guild_id,
        limit,
        offset,
    )
    heads: dict[int, tuple[Any, ...]] = {}
    seats: dict[int, list[PlayerResult]] = {}
    for row in rows:
        values = tuple(row)
        heads.setdefault(values[0], values[:10])
        seats.setdefault(values[0], []).append(result_from(values[10:]))
    return [summary_from(head, seats[number]) for number, head in heads.items()]


async def match_detail(conn: Conn, guild_id: int, number: int) -> MatchDetail | None:
    """One match by the server's number (in a repeatable-read transaction)."""
    row = await conn.fetchrow(
        f"SELECT match_id, {DETAIL_COLUMNS} FROM matches WHERE guild_id = $1 AND number = $2",
        guild_id,
        number,
    )
    if row is None:
        return None
    players = await conn.fetch(
        f"SELECT {RESULT_COLUMNS} FROM match_players WHERE match_id = $1 ORDER BY seat", row[0]
    )
    return detail_from(tuple(row)[1:], [result_from(tuple(p)) for p in players])


async def is_recorded(conn: Conn, guild_id: int, match_uid: str) -> bool:
    """Whether the server's match of this uid is recorded."""
    found = await conn.fetchval(
        "SELECT 1 FROM matches WHERE guild_id = $1 AND match_uid = $2", guild_id, match_uid
    )
    return found is not None


async def match_by_uid(conn: Conn, guild_id: int, match_uid: str) -> MatchDetail | None:
    """One match by the uid it was recorded under (in a repeatable-read transaction)."""
    row = await conn.fetchrow(
        f"SELECT match_id, {DETAIL_COLUMNS} FROM matches WHERE guild_id = $1 AND match_uid = $2",
        guild_id,
        match_uid,
    )
    if row is None:
        return None
    players = await conn.fetch(
        f"SELECT {RESULT_COLUMNS} FROM match_players WHERE match_id = $1 ORDER BY seat", row[0]
    )
    return detail_from(tuple(row)[1:], [result_from(tuple(p)) for p in players])


async def round_record(conn: Conn, guild_id: int, number: int, round_number: int) -> str | None:
    """One round's stored record, by the server's match number and the round's."""
    text = await conn.fetchval(
        "SELECT r.record FROM matches m JOIN match_rounds r ON r.match_id = m.match_id "
        "WHERE m.guild_id = $1 AND m.number = $2 AND r.round = $3",
        guild_id,
        number,
        round_number,
    )
    return None if text is None else str(text)


async def player_history(
    conn: Conn, guild_id: int, user_id: int, rounds: int
) -> PlayerHistory | None:
    """A member's results in match order and their newest round records."""
    results = await conn.fetch(
        "SELECT m.edition, p.winner, p.rating_after FROM match_players p "
        "JOIN matches m ON m.match_id = p.match_id "
        "WHERE m.guild_id = $1 AND p.user_id = $2 ORDER BY m.number",
        guild_id,
        user_id,
    )
    if not results:
        return None
    played = await conn.fetch(
        "SELECT p.seat, r.record FROM match_players p "
        "JOIN matches m ON m.match_id = p.match_id "
        "JOIN match_rounds r ON r.match_id = p.match_id "
        "WHERE m.guild_id = $1 AND p.user_id = $2 ORDER BY m.number DESC, r.round DESC LIMIT $3",
        guild_id,
        user_id,
        rounds,
    )
    name = await conn.fetchval(
        "SELECT name FROM player_names WHERE guild_id = $1 AND user_id = $2", guild_id, user_id
    )
    return PlayerHistory(
        guild_id=guild_id,
        user_id=user_id,
        name=str(name or ""),
        results=[(row[0], bool(row[1]), row[2]) for row in results],
        rounds=[(int(row[0]), str(row[1])) for row in played],
    )


async def export_guild(conn: Conn, guild_id: int, now: float) -> dict[str, Any]:
    """Everything of one server (in a repeatable-read transaction: one snapshot)."""
    settings = await get_settings(conn, guild_id)
    seasons = await conn.fetch(
        f"SELECT {_SEASON_COLUMNS} FROM seasons WHERE guild_id = $1 ORDER BY season", guild_id
    )
    names = await conn.fetch(
        "SELECT user_id, name FROM player_names WHERE guild_id = $1 ORDER BY user_id", guild_id
    )
    standings = await conn.fetch(
        f"SELECT {EXPORT_STANDING_COLUMNS} FROM standings s "
        "LEFT JOIN player_names n ON n.guild_id = s.guild_id AND n.user_id = s.user_id "
        "WHERE s.guild_id = $1 ORDER BY s.season, s.official_only, s.ordinal DESC, s.user_id",
        guild_id,
    )
    matches = await conn.fetch(
        f"SELECT {EXPORT_MATCH_COLUMNS} FROM matches WHERE guild_id = $1 ORDER BY number",
        guild_id,
    )
    result_columns = ", ".join("p." + column for column in RESULT_COLUMNS.split(", "))
    seats = await conn.fetch(
        f"SELECT p.match_id, {result_columns} FROM match_players p "
        "JOIN matches m ON m.match_id = p.match_id WHERE m.guild_id = $1 "
        "ORDER BY p.match_id, p.seat",
        guild_id,
    )
    tournaments = await conn.fetch(
        f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE guild_id = $1 "
        "ORDER BY opened_at, tournament_id",
        guild_id,
    )
    return export_document(
        guild_id,
        now,
        settings,
        [tuple(r) for r in seasons],
        [tuple(r) for r in names],
        [tuple(r) for r in standings],
        [tuple(r) for r in matches],
        [tuple(r) for r in seats],
        [tuple(r) for r in tournaments],
    )


async def forget_user(conn: Conn, guild_id: int, user_id: int) -> int:
    """Anonymise a member's seats and delete their standings and name (in a transaction)."""
    await conn.execute(_LOCK_GUILD, guild_id)
    await conn.execute(_UNCOUNT, guild_id, user_id)
    total = changed(
        await conn.execute(
            "UPDATE match_players SET user_id = $1, name = $2 WHERE user_id = $3 AND match_id IN "
            "(SELECT match_id FROM matches WHERE guild_id = $4)",
            FORMER_PLAYER_ID,
            FORMER_PLAYER_NAME,
            user_id,
            guild_id,
        )
    )
    for table in ("standings", "player_names"):
        total += changed(
            await conn.execute(
                f"DELETE FROM {table} WHERE guild_id = $1 AND user_id = $2", guild_id, user_id
            )
        )
    rows = await conn.fetch(
        "SELECT tournament_id, state FROM tournaments WHERE guild_id = $1", guild_id
    )
    for row in rows:
        forgotten = tournament_forgetting(row["state"], user_id)
        if forgotten is not None:
            total += changed(
                await conn.execute(
                    "UPDATE tournaments SET state = $1 WHERE tournament_id = $2",
                    forgotten,
                    row["tournament_id"],
                )
            )
    return total
