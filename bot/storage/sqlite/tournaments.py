"""SQLite tournaments: each saved whole under a rising version, and the matches played in one."""

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
from .sql import Conn, changed, fetch

_UPSERT_NEWER = tournament_upsert(", ".join("?" * 8))


async def save_tournament(conn: Conn, record: TournamentRecord) -> bool:
    """Insert, or replace an older version; False when the stored one is as new or newer."""
    return await changed(conn, _UPSERT_NEWER, tournament_params(record)) > 0


async def load_tournaments(
    conn: Conn, shards: list[int] | None, count: int
) -> list[TournamentRecord]:
    """The unfinished tournaments (of guilds on these shards), oldest first."""
    where = "finished_at IS NULL"
    params: tuple[int, ...] = ()
    if shards is not None:
        where += f" AND ((guild_id >> 22) % ?) IN ({', '.join('?' * len(shards))})"
        params = (count, *shards)
    rows = await fetch(
        conn,
        f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE {where} ORDER BY opened_at",
        params,
    )
    return [tournament_from(row) for row in rows]


async def finished_tournaments(conn: Conn, guild_id: int, limit: int) -> list[TournamentRecord]:
    """A server's finished tournaments, newest first."""
    rows = await fetch(
        conn,
        f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments "
        "WHERE guild_id = ? AND finished_at IS NOT NULL ORDER BY finished_at DESC LIMIT ?",
        (guild_id, limit),
    )
    return [tournament_from(row) for row in rows]


async def tournament_matches(
    conn: Conn, guild_id: int, tournament_id: str
) -> list[TournamentMatch]:
    """A tournament's recorded matches in number order, each with its players by place."""
    rows = await fetch(
        conn,
        f"SELECT {TOURNAMENT_MATCH_COLUMNS} FROM matches m "
        "JOIN match_players p ON p.match_id = m.match_id "
        "WHERE m.guild_id = ? AND m.tournament_id = ? ORDER BY m.number, p.place, p.seat",
        (guild_id, tournament_id),
    )
    return tournament_matches_from(rows)
