"""PostgreSQL tournaments: each saved whole under a rising version, and the matches played in
one."""

from __future__ import annotations

from ..models import TournamentMatch, TournamentRecord
from ..rows import (
    TOURNAMENT_COLUMNS,
    TOURNAMENT_MATCH_COLUMNS,
    tournament_from,
    tournament_matches_from,
)
from .schema import Conn
from .tables import changed

_UPSERT_NEWER = f"""
INSERT INTO tournaments ({TOURNAMENT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
ON CONFLICT (tournament_id) DO UPDATE SET
    channel_id = excluded.channel_id, state = excluded.state, version = excluded.version,
    finished_at = excluded.finished_at
WHERE excluded.version > tournaments.version
"""


async def save_tournament(conn: Conn, record: TournamentRecord) -> bool:
    """Insert, or replace an older version; False when the stored one is as new or newer."""
    r = record
    status = await conn.execute(
        _UPSERT_NEWER,
        *(r.tournament_id, r.guild_id, r.channel_id, r.kind),
        *(r.state, r.version, r.opened_at, r.finished_at),
    )
    return changed(status) > 0


async def load_tournaments(
    conn: Conn, shards: list[int] | None, count: int
) -> list[TournamentRecord]:
    """The unfinished tournaments (of guilds on these shards), oldest first."""
    if shards is None:
        rows = await conn.fetch(
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE finished_at IS NULL "
            "ORDER BY opened_at"
        )
    else:
        rows = await conn.fetch(
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE finished_at IS NULL "
            "AND ((guild_id >> 22) % $1) = ANY($2::bigint[]) ORDER BY opened_at",
            count,
            shards,
        )
    return [tournament_from(row) for row in rows]


async def finished_tournaments(conn: Conn, guild_id: int, limit: int) -> list[TournamentRecord]:
    """A server's finished tournaments, newest first."""
    rows = await conn.fetch(
        f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments "
        "WHERE guild_id = $1 AND finished_at IS NOT NULL ORDER BY finished_at DESC LIMIT $2",
        guild_id,
        limit,
    )
    return [tournament_from(row) for row in rows]


async def tournament_matches(
    conn: Conn, guild_id: int, tournament_id: str
) -> list[TournamentMatch]:
    """A tournament's recorded matches in number order, each with its players by place."""
    rows = await conn.fetch(
        f"SELECT {TOURNAMENT_MATCH_COLUMNS} FROM matches m "
        "JOIN match_players p ON p.match_id = m.match_id "
        "WHERE m.guild_id = $1 AND m.tournament_id = $2 ORDER BY m.number, p.place, p.seat",
        guild_id,
        tournament_id,
    )
    return tournament_matches_from(rows)
