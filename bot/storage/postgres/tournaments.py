"""PostgreSQL tournaments: each saved whole under a rising version, and the matches played in
one."""

from __future__ import annotations

from ..models import TournamentMatch, TournamentRecord
from ..rows import (
    TOURNAMENT_COLUMNS,
    TOURNAMENT_MATCH_COLUMNS,
    tournament_from,
    tournament_matches_from,
    tournament_params,
    tournament_upsert,
)
from .schema import Conn
from .tables import changed

_UPSERT_NEWER = tournament_upsert(", ".join(f"${n}" for n in range(1, 9)))


async def save_tournament(conn: Conn, record: TournamentRecord) -> bool:
    """Insert, or replace an older version; False when the stored one is as new or newer."""
    return changed(await conn.execute(_UPSERT_NEWER, *tournament_params(record))) > 0


async def load_tournaments(
    conn: Conn, shards: list[int] | None, count: int
) -> list[TournamentRecord]:
    """The unfinished tournaments (of guilds on these shards), oldest first."""
    where = "finished_at IS NULL"
    params: tuple[object, ...] = ()
    if shards is not None:
        where += " AND ((guild_id >> 22) % $1) = ANY($2::bigint[])"
        params = (count, shards)
    rows = await conn.fetch(
        f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE {where} ORDER BY opened_at", *params
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
