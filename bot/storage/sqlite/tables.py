"""SQLite live tables: version-guarded writes and loading by shard (run on the worker thread)."""

from __future__ import annotations

import sqlite3

from ..errors import stale_table
from ..models import TableRecord

_COLUMNS = "table_id, guild_id, channel_id, version, state, updated_at"

_INSERT = f"""
INSERT INTO live_tables ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)
ON CONFLICT (table_id) DO NOTHING
"""

_UPDATE_SEEN = """
UPDATE live_tables SET guild_id = ?, channel_id = ?, version = ?, state = ?, updated_at = ?
WHERE table_id = ? AND version = ?
"""

_UPSERT_NEWER = f"""
INSERT INTO live_tables ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)
ON CONFLICT (table_id) DO UPDATE SET
    guild_id = excluded.guild_id, channel_id = excluded.channel_id, version = excluded.version,
    state = excluded.state, updated_at = excluded.updated_at
WHERE excluded.version > live_tables.version
"""


def _stored_version(conn: sqlite3.Connection, table_id: str) -> int | None:
    row = conn.execute("SELECT version FROM live_tables WHERE table_id = ?", (table_id,)).fetchone()
    return None if row is None else int(row[0])


def save_table(conn: sqlite3.Connection, record: TableRecord, seen: int | None) -> None:
    """One statement, atomic on its own: insert (seen 0), update from seen, or upsert newer."""
    r = record
    if seen is None:
        params = (r.table_id, r.guild_id, r.channel_id, r.version, r.state, r.updated_at)
        cursor = conn.execute(_UPSERT_NEWER, params)
    elif seen == 0:
        params = (r.table_id, r.guild_id, r.channel_id, r.version, r.state, r.updated_at)
        cursor = conn.execute(_INSERT, params)
    else:
        params2 = (r.guild_id, r.channel_id, r.version, r.state, r.updated_at, r.table_id, seen)
        cursor = conn.execute(_UPDATE_SEEN, params2)
    if cursor.rowcount == 0:
        raise stale_table(r.table_id, _stored_version(conn, r.table_id), r.version)


def touch_table(conn: sqlite3.Connection, record: TableRecord) -> bool:
    """Rewrite the state at the same version; StaleTableError if the version moved or is gone."""
    cursor = conn.execute(
        "UPDATE live_tables SET state = ?, updated_at = ? WHERE table_id = ? AND version = ?",
        (record.state, record.updated_at, record.table_id, record.version),
    )
    if cursor.rowcount == 0:
        raise stale_table(record.table_id, _stored_version(conn, record.table_id), record.version)
    return True


def load_tables(
    conn: sqlite3.Connection, shards: list[int] | None, count: int
) -> list[TableRecord]:
    """Every live table, or those whose guild is on one of these shards."""
    if shards is None:
        rows = conn.execute(
            f"SELECT {_COLUMNS} FROM live_tables ORDER BY guild_id, channel_id, table_id"
        ).fetchall()
    else:
        marks = ", ".join("?" * len(shards))
        rows = conn.execute(
            f"SELECT {_COLUMNS} FROM live_tables WHERE ((guild_id >> 22) % ?) IN ({marks}) "
            "ORDER BY guild_id, channel_id, table_id",
            (count, *shards),
        ).fetchall()
    return [TableRecord(*row) for row in rows]


def delete_table(conn: sqlite3.Connection, table_id: str, seen: int | None) -> bool:
    """Delete a table (only at version seen, if given); False if there was none."""
    if seen is None:
        cursor = conn.execute("DELETE FROM live_tables WHERE table_id = ?", (table_id,))
        return cursor.rowcount > 0
    cursor = conn.execute(
        "DELETE FROM live_tables WHERE table_id = ? AND version = ?", (table_id, seen)
    )
    if cursor.rowcount > 0:
        return True
    stored = _stored_version(conn, table_id)
    if stored is None:
        return False
    raise stale_table(table_id, stored, seen)
