"""copy-db: a SQLite database's league and live tables, moved into an empty PostgreSQL one."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg

from .base import Storage
from .errors import StorageError
from .postgres.schema import describe, redact

# Parents before children (match_players refers to matches).
TABLES = (
    "guild_settings",
    "seasons",
    "player_names",
    "league_guilds",
    "matches",
    "match_players",
    "match_rounds",
    "standings",
    "standings_counts",
    "live_tables",
    "tournaments",
)
_BATCH = 5000


def _converter(data_type: str) -> Callable[[Any], Any]:
    """SQLite keeps booleans as 0/1; PostgreSQL wants them as booleans."""
    if data_type == "boolean":
        return lambda value: None if value is None else bool(value)
    return lambda value: value


async def _rows(
    cursor: aiosqlite.Cursor, converters: list[Callable[[Any], Any]]
) -> AsyncIterator[tuple[Any, ...]]:
    async for row in cursor:  # fetched _BATCH rows a hop (the connection's chunk size)
        yield tuple(convert(value) for convert, value in zip(converters, row, strict=True))


async def copy_database(sqlite_path: str | Path, url: str) -> dict[str, int]:
    """Copy every table from the SQLite file into the PostgreSQL database; rows per table.

    Both are first brought to the latest schema, as the bot would at start. The target must
    hold no uno-bot data yet; the copy is one transaction, so it is all there or not at all.
    """
    path = Path(sqlite_path)
    if not path.is_file():
        raise StorageError(f"There is no SQLite database at {path}.")
    await (await Storage.open(path)).close()
    await (await Storage.open(url)).close()
    where = redact(url)
    try:
        target = await asyncpg.connect(url)
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        raise StorageError(f"Cannot connect to the database {where}: {describe(error)}.") from error
    copied: dict[str, int] = {}
    try:
        async with aiosqlite.connect(path, isolation_level=None, iter_chunk_size=_BATCH) as source:
            await source.execute("BEGIN")  # one snapshot of the file for the whole copy
            async with target.transaction():
                for table in TABLES:
                    if await target.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})"):
                        raise StorageError(
                            f"The database {where} already holds uno-bot data (in {table}); "
                            "copy-db only fills an empty database."
                        )
                for table in TABLES:
                    columns = await target.fetch(
                        "SELECT column_name, data_type FROM information_schema.columns "
                        "WHERE table_schema = current_schema() AND table_name = $1 "
                        "ORDER BY ordinal_position",
                        table,
                    )
                    names = [c["column_name"] for c in columns]
                    cursor = await source.execute(f"SELECT {', '.join(names)} FROM {table}")
                    converters = [_converter(c["data_type"]) for c in columns]
                    status = await target.copy_records_to_table(
                        table, records=_rows(cursor, converters), columns=names
                    )
                    copied[table] = int(status.rsplit(" ", 1)[-1])
                await target.execute(
                    "SELECT setval(pg_get_serial_sequence('matches', 'match_id'), "
                    "COALESCE(MAX(match_id), 0) + 1, false) FROM matches"
                )
    except sqlite3.Error as error:
        raise StorageError(f"Could not read {path}: {error}. Nothing was copied.") from error
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        raise StorageError(
            f"Could not write to {where}: {describe(error)}. Nothing was copied."
        ) from error
    finally:
        await target.close()
    return copied
