"""Builders for finished matches, a settable clock and raw SQL access for the storage tests."""

from __future__ import annotations

import random
import sqlite3
from contextlib import closing
from typing import Any

import asyncpg

from bot.storage import MatchPlayer, MatchRecord


class Clock:
    """A settable clock, so timestamps in tests are exact."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def make_match(
    uid: str,
    results: list[tuple[int, int]],
    *,
    guild_id: int = 1,
    edition: str = "classic",
    scoring: str = "standard",
    rounds: list[list[int]] | None = None,
    computers: frozenset[int] = frozenset(),
    finished_at: float = 1_700_000_100.0,
) -> MatchRecord:
    """A match from (user_id, final points) in seat order; highest points wins, ties share."""
    points = [p for _, p in results]
    order = sorted(set(points), reverse=scoring == "standard")
    players = [
        MatchPlayer(
            user_id=user,
            name=f"player{user}",
            seat=seat,
            points=total,
            place=1 + sum(1 for p in points if (p > total if scoring == "standard" else p < total)),
            computer=user in computers,
        )
        for seat, (user, total) in enumerate(results)
    ]
    best = order[0]
    if rounds is None:
        rounds = [points]
    return MatchRecord(
        match_uid=uid,
        guild_id=guild_id,
        channel_id=10,
        edition=edition,  # type: ignore[arg-type]
        scoring=scoring,  # type: ignore[arg-type]
        target=500,
        started_at=finished_at - 600.0,
        finished_at=finished_at,
        rounds=rounds,
        events=[{"type": "deal", "seat": 0}, {"type": "play", "seat": 0, "card": "red-7"}],
        players=players,
        winners=[p.user_id for p in players if p.points == best],
    )


def random_match(rng: random.Random, uid: str, guild_id: int, users: list[int]) -> MatchRecord:
    """A plausible random standard-scoring match between 2..6 of the given users."""
    chosen = rng.sample(users, rng.randint(2, min(6, len(users))))
    n = len(chosen)
    rounds = []
    for _ in range(rng.randint(1, 4)):
        row = [0] * n
        row[rng.randrange(n)] = rng.randint(1, 200)
        rounds.append(row)
    totals = [sum(r[s] for r in rounds) for s in range(n)]
    return make_match(
        uid,
        list(zip(chosen, totals, strict=True)),
        guild_id=guild_id,
        edition=rng.choice(["classic", "sonic", "mario"]),
        rounds=rounds,
        finished_at=1_700_000_000.0 + rng.random() * 1e6,
    )


class RawDatabase:
    """Plain SQL on a test database of either backend (``?`` marks become ``$n`` for PostgreSQL)."""

    def __init__(self, target: str) -> None:
        self.target = target
        self.postgres = target.startswith("postgresql://")
        self._conn: Any = None

    async def _postgres(self) -> Any:
        if self._conn is None:
            self._conn = await asyncpg.connect(self.target)
        return self._conn

    async def fetch(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        """Every row of a query, as tuples."""
        if self.postgres:
            conn = await self._postgres()
            return [tuple(row) for row in await conn.fetch(_dollars(sql), *args)]
        with closing(sqlite3.connect(self.target)) as conn:
            return conn.execute(sql, args).fetchall()

    async def value(self, sql: str, *args: Any) -> Any:
        """The first column of the first row."""
        return (await self.fetch(sql, *args))[0][0]

    async def execute(self, sql: str, *args: Any) -> None:
        """Run a statement (its own transaction)."""
        if self.postgres:
            conn = await self._postgres()
            await conn.execute(_dollars(sql), *args)
            return
        with closing(sqlite3.connect(self.target, isolation_level=None)) as conn:
            conn.execute(sql, args)

    async def close(self) -> None:
        if self._conn is not None:
            await self._conn.close()
            self._conn = None


def _dollars(sql: str) -> str:
    parts = sql.split("?")
    return "".join(part + (f"${n}" if n < len(parts) else "") for n, part in enumerate(parts, 1))
