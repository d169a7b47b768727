"""SQLite live tables: version-guarded writes and loading by shard, one statement each."""

from __future__ import annotations

from ..errors import stale_table
from ..models import TableRecord
from .sql import Conn, changed, fetch, one

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


async def _stored_version(conn: Conn, table_id: str) -> int | None:
    row = await one(conn, "SELECT version FROM live_tables WHERE table_id = ?", (table_id,))
    return None if row is None else int(row[0])


async def save_table(conn: Conn, record: TableRecord, seen: int | None) -> None:
    """One statement, atomic on its own: insert (seen 0), update from seen, or upsert newer."""
    r = record
    if seen is None:
        params = (r.table_id, r.guild_id, r.channel_id, r.version, r.state, r.updated_at)
        count = await changed(conn, _UPSERT_NEWER, params)
    elif seen == 0:
        params = (r.table_id, r.guild_id, r.channel_id, r.version, r.state, r.updated_at)
        count = await changed(conn, _INSERT, params)
    else:
        params2 = (r.guild_id, r.channel_id, r.version, r.state, r.updated_at, r.table_id, seen)
        count = await changed(conn, _UPDATE_SEEN, params2)
    if count == 0:
        raise stale_table(r.table_id, await _stored_version(conn, r.table_id), r.version)


async def touch_table(conn: Conn, record: TableRecord) -> bool:
    """Rewrite the state at the same version; StaleTableError if the version moved or is gone."""
    count = await changed(
        conn,
        "UPDATE live_tables SET state = ?, updated_at = ? WHERE table_id = ? AND version = ?",
        (record.state, record.updated_at, record.table_id, record.version),
    )
    if count == 0:
        stored = await _stored_version(conn, record.table_id)
        raise stale_table(record.table_id, stored, record.version)
    return True


async def load_tables(conn: Conn, shards: list[int] | None, count: int) -> list[TableRecord]:
    """Every live table, or those whose guild is on one of these shards."""
    if shards is None:
        rows = await fetch(
            conn, f"SELECT {_COLUMNS} FROM live_tables ORDER BY guild_id, channel_id, table_id"
        )
    else:
        marks = ", ".join("?" * len(shards))
        rows = await fetch(
            conn,
            f"SELECT {_COLUMNS} FROM live_tables WHERE ((guild_id >> 22) % ?) IN ({marks}) "
            "ORDER BY guild_id, channel_id, table_id",
            (count, *shards),
        )
    return [TableRecord(*row) for row in rows]


async def delete_table(conn: Conn, table_id: str, seen: int | None) -> bool:
    """Delete a table (only at version seen, if given); False if there was none."""
    if seen is None:
        return await changed(conn, "DELETE FROM live_tables WHERE table_id = ?", (table_id,)) > 0
    deleted = await changed(
        conn, "DELETE FROM live_tables WHERE table_id = ? AND version = ?", (table_id, seen)
    )
    if deleted > 0:
        return True
    stored = await _stored_version(conn, table_id)
    if stored is None:
        return False
    raise stale_table(table_id, stored, seen)
