"""SQLite connection settings and migrations, tracked by PRAGMA user_version."""

from __future__ import annotations

import logging
import sqlite3

from ..backend import Synchronous
from ..errors import StorageError
from ..migrations import load_migrations, split_statements
from .sql import Conn, one

log = logging.getLogger(__name__)


def describe(error: sqlite3.Error) -> str:
    """SQLite's reason in words a server admin can act on."""
    text = str(error)
    lowered = text.lower()
    if "locked" in lowered or "busy" in lowered:
        return "the database is busy (another process holds it)"
    if "full" in lowered:
        return "the disk is full"
    if "disk i/o" in lowered:
        return "the disk reported an I/O error"
    if "malformed" in lowered or "not a database" in lowered:
        return "the database file is damaged"
    if "readonly" in lowered or "read-only" in lowered:
        return "the database file is read-only"
    return text


async def schema_version(conn: Conn) -> int:
    """The schema version recorded in the file."""
    row = await one(conn, "PRAGMA user_version")
    return int(row[0]) if row else 0


async def prepare(
    conn: Conn,
    *,
    path: str,
    synchronous: Synchronous,
    busy_ms: int,
    upto: int | None = None,
) -> None:
    """Set the PRAGMAs and bring the schema up to date, or to version upto."""
    await conn.execute(f"PRAGMA busy_timeout = {int(busy_ms)}")
    migrations = load_migrations("sqlite")
    latest = len(migrations) if upto is None else upto
    try:
        version = await schema_version(conn)
    except sqlite3.DatabaseError as error:
        raise StorageError(
            f"{path} is not an uno-bot database (SQLite says: {error}). "
            "Point the bot at another file or move this one away."
        ) from error
    if version > len(migrations):
        raise StorageError(
            f"The database {path} was written by a newer uno-bot (schema {version}; this "
            f"version knows up to {len(migrations)}). Upgrade the bot or use another database."
        )
    # WAL lets readers run while a write commits. With synchronous=NORMAL a commit is durable
    # against a crash of the process (kill -9, OOM): the WAL is in the OS cache and survives.
    # Only power loss or an OS crash can drop the last transactions, never corrupt the file;
    # FULL would fsync every click's save (see docs/performance.md, "Storage").
    await one(conn, "PRAGMA journal_mode = WAL")
    await conn.execute(f"PRAGMA synchronous = {synchronous}")
    await conn.execute("PRAGMA foreign_keys = ON")
    for number, name, script in migrations[version:latest]:
        await conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have migrated while we waited for the write lock.
            if await schema_version(conn) >= number:
                await conn.execute("COMMIT")
                continue
            for statement in split_statements(script):
                await conn.execute(statement)
            await conn.execute(f"PRAGMA user_version = {number}")
            await conn.execute("COMMIT")
        except BaseException:
            await conn.rollback()  # a no-op outside a transaction
            raise
        log.info("applied storage migration %s", name)
