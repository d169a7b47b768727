"""The few aiosqlite calls every SQLite operation is made of.

Each call is one hop to aiosqlite's thread and back (about 0.1 ms on a busy machine). Statements
that do not depend on each other's results are sent together (``together``): aiosqlite runs its
calls in the order they were made, so they still run one after another, but the operation waits
for the thread once instead of once per statement (docs/performance.md, "SQLite through
aiosqlite").
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Iterable
from typing import Any, TypeAlias, cast

import aiosqlite

Conn: TypeAlias = aiosqlite.Connection
Row: TypeAlias = tuple[Any, ...]


async def fetch(conn: Conn, sql: str, params: Iterable[Any] = ()) -> list[Row]:
    """Every row of a query, in one hop."""
    # Rows are plain tuples: the connection keeps sqlite3's default row factory.
    return cast(list[Row], list(await conn.execute_fetchall(sql, params)))


async def one(conn: Conn, sql: str, params: Iterable[Any] = ()) -> Row | None:
    """The first row of a query (or None), in one hop."""
    rows = await fetch(conn, sql, params)
    return rows[0] if rows else None


async def changed(conn: Conn, sql: str, params: Iterable[Any] = ()) -> int:
    """Run a write statement; the number of rows it changed."""
    cursor = await conn.execute(sql, params)
    return int(cursor.rowcount)


async def together(*calls: Awaitable[Any]) -> list[Any]:
    """Send calls to the thread at once, in this order; their results once all are done.

    Only for calls whose order alone matters: a call must not need an earlier one's result.
    """
    return list(await asyncio.gather(*calls))
