"""Builders for finished matches, a settable clock, raw SQL access, databases of their own on
the PostgreSQL test server and table managers on a storage, for the storage tests."""

from __future__ import annotations

import asyncio
import os
import random
import secrets
import sqlite3
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing, contextmanager
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from bot.engine import RuleSet, Scoring
from bot.engine.cards import Edition
from bot.storage import MatchPlayer, MatchRecord, Storage
from bot.tables.commands import Join, Start
from bot.tables.manager import TableManager
from bot.tables.scheduler import ManualScheduler
from tests.tables.helpers import legal, user_at, who

ADMIN_URL = os.environ.get("UNO_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
TargetFactory = Callable[[], Awaitable[str]]
StorageOpener = Callable[..., Awaitable[Storage]]


def with_database(url: str, name: str, query: str = "") -> str:
    """``url`` naming the database ``name`` (and the query, e.g. a schema's search path)."""
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}", query=query))


def admin(sql: str) -> None:
    """Run one statement on the server's admin database, from a thread of its own (the
    fixture may be set up while a test's event loop is running)."""

    async def run() -> None:
        conn = await asyncpg.connect(ADMIN_URL, timeout=5)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    with ThreadPoolExecutor(max_workers=1) as thread:
        thread.submit(asyncio.run, run()).result()


@contextmanager
def server_database(prefix: str) -> Iterator[str]:
    """A database of its own on the PostgreSQL test server, dropped afterwards. Without a
    reachable server the test is skipped (with UNO_REQUIRE_POSTGRES=1 it fails instead)."""
    name = f"{prefix}_{os.getpid()}_{secrets.token_hex(4)}"
    try:
        admin(f'CREATE DATABASE "{name}"')
    except (TimeoutError, OSError, asyncpg.PostgresError) as error:
        reason = f"PostgreSQL tests need a server at {ADMIN_URL}: {error}"
        if os.environ.get("UNO_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"{reason} (UNO_REQUIRE_POSTGRES=1 makes this a failure)")
        pytest.skip(reason)
    try:
        yield with_database(ADMIN_URL, name)
    finally:
        admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


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


# Guilds whose ids put them on shard 0 and on shard 1 of two: (guild_id >> 22) % 2.
GUILD_ON_0, GUILD_ON_1 = 1000 << 22 | 12345, 1001 << 22 | 6789


def manager_on(storage: Storage, seed: int = 3) -> TableManager:
    return TableManager(storage, scheduler=ManualScheduler(), rng=random.Random(seed))


async def started(manager: TableManager, table_id: str, guild_id: int) -> None:
    rules = RuleSet(edition=Edition.CLASSIC, scoring=Scoring.STANDARD, target=500)
    await manager.create(table_id, guild_id, 100, who(11), rules, threads=True)
    await manager.act(table_id, who(22), Join())
    await manager.act(table_id, who(11), Start(555))


async def move(manager: TableManager, table_id: str) -> None:
    table = manager.tables[table_id]
    seat = table.match.game.current  # type: ignore[union-attr]
    await manager.act(table_id, who(user_at(table, seat)), legal(table), table.version)
