"""PostgreSQL live tables: version-guarded writes, each signed by its writer, and loading by
shard."""

from __future__ import annotations

from ..errors import stale_table
from ..models import TableRecord
from .schema import Conn

_COLUMNS = "table_id, guild_id, channel_id, version, state, updated_at"

_INSERT = f"""
INSERT INTO live_tables ({_COLUMNS}, writer) VALUES ($1, $2, $3, $4, $5, $6, $7)
ON CONFLICT (table_id) DO NOTHING
"""

_UPDATE_SEEN = """
UPDATE live_tables SET guild_id = $2, channel_id = $3, version = $4, state = $5, updated_at = $6,
    writer = $7
WHERE table_id = $1 AND version = $8
"""

_UPSERT_NEWER = f"""
INSERT INTO live_tables ({_COLUMNS}, writer) VALUES ($1, $2, $3, $4, $5, $6, $7)
ON CONFLICT (table_id) DO UPDATE SET
    guild_id = excluded.guild_id, channel_id = excluded.channel_id, version = excluded.version,
    state = excluded.state, updated_at = excluded.updated_at, writer = excluded.writer
WHERE excluded.version > live_tables.version
"""


def signature(writer: str, version: int) -> str:
    """What a write leaves in the writer column: the process and the version it wrote. Code
    that predates the column leaves it as it was, so a signature naming another version than
    the row's is nobody's."""
    return f"{writer}@{version}"


async def stored_row(conn: Conn, table_id: str) -> tuple[TableRecord, str | None] | None:
    """The table as stored, with its writer's signature; None if there is none."""
    row = await conn.fetchrow(
        f"SELECT {_COLUMNS}, writer FROM live_tables WHERE table_id = $1", table_id
    )
    if row is None:
        return None
    return TableRecord(*tuple(row)[:6]), row["writer"]


def changed(status: str) -> int:
    """Rows a command changed, from its status tag ("UPDATE 1", "INSERT 0 1")."""
    return int(status.rsplit(" ", 1)[-1])


async def _stored_version(conn: Conn, table_id: str) -> int | None:
    version = await conn.fetchval("SELECT version FROM live_tables WHERE table_id = $1", table_id)
    return None if version is None else int(version)


async def save_table(conn: Conn, record: TableRecord, seen: int | None, writer: str) -> None:
    """One statement, atomic on its own: insert (seen 0), update from seen, or upsert newer."""
    r = record
    sign = signature(writer, r.version)
    params = (r.table_id, r.guild_id, r.channel_id, r.version, r.state, r.updated_at, sign)
    if seen is None:
        status = await conn.execute(_UPSERT_NEWER, *params)
    elif seen == 0:
        status = await conn.execute(_INSERT, *params)
    else:
        status = await conn.execute(_UPDATE_SEEN, *params, seen)
    if changed(status) == 0:
        raise await _refused(conn, r, writer)


async def _refused(conn: Conn, record: TableRecord, writer: str) -> Exception:
    """The error for a refused write, carrying the stored table when this writer wrote it."""
    found = await stored_row(conn, record.table_id)
    if found is None:
        return stale_table(record.table_id, None, record.version)
    stored, sign = found
    mine = stored if sign == signature(writer, stored.version) else None
    return stale_table(record.table_id, stored.version, record.version, mine)


async def touch_table(conn: Conn, record: TableRecord, writer: str) -> bool:
    """Rewrite the state at the same version; StaleTableError if the version moved or is gone."""
    status = await conn.execute(
        "UPDATE live_tables SET state = $1, updated_at = $2, writer = $5 "
        "WHERE table_id = $3 AND version = $4",
        record.state,
        record.updated_at,
        record.table_id,
        record.version,
        signature(writer, record.version),
    )
    if changed(status) == 0:
        raise await _refused(conn, record, writer)
    return True


async def signed_holds(conn: Conn, record: TableRecord, writer: str) -> bool:
    """Whether the stored table is this very record, written by this writer."""
    found = await stored_row(conn, record.table_id)
    if found is None:
        return False
    stored, sign = found
    return (stored.version, stored.state, sign) == (
        record.version,
        record.state,
        signature(writer, record.version),
    )


async def is_gone(conn: Conn, table_id: str) -> bool:
    return await _stored_version(conn, table_id) is None


async def load_tables(conn: Conn, shards: list[int] | None, count: int) -> list[TableRecord]:
    """Every live table, or those whose guild is on one of these shards."""
    if shards is None:
        rows = await conn.fetch(
            f"SELECT {_COLUMNS} FROM live_tables ORDER BY guild_id, channel_id, table_id"
        )
    else:
        rows = await conn.fetch(
            f"SELECT {_COLUMNS} FROM live_tables WHERE ((guild_id >> 22) % $1) = ANY($2::bigint[]) "
            "ORDER BY guild_id, channel_id, table_id",
            count,
            shards,
        )
    return [TableRecord(*row) for row in rows]


async def delete_table(conn: Conn, table_id: str, seen: int | None) -> bool:
    """Delete a table (only at version seen, if given); False if there was none."""
    if seen is None:
        status = await conn.execute("DELETE FROM live_tables WHERE table_id = $1", table_id)
        return changed(status) > 0
    status = await conn.execute(
        "DELETE FROM live_tables WHERE table_id = $1 AND version = $2", table_id, seen
    )
    if changed(status) > 0:
        return True
    stored = await _stored_version(conn, table_id)
    if stored is None:
        return False
    raise stale_table(table_id, stored, seen)


class SignedTables:
    """The live table operations of one process, each write signed with its ``writer``."""

    def __init__(self, writer: str) -> None:
        self.writer = writer

    async def save_table(self, conn: Conn, record: TableRecord, seen: int | None) -> None:
        await save_table(conn, record, seen, self.writer)

    async def touch_table(self, conn: Conn, record: TableRecord) -> bool:
        return await touch_table(conn, record, self.writer)

    async def load_tables(
        self, conn: Conn, shards: list[int] | None, count: int
    ) -> list[TableRecord]:
        return await load_tables(conn, shards, count)

    async def delete_table(self, conn: Conn, table_id: str, seen: int | None) -> bool:
        return await delete_table(conn, table_id, seen)

    async def holds(self, conn: Conn, record: TableRecord) -> bool:
        """Whether the stored table is this record, written by this process."""
        return await signed_holds(conn, record, self.writer)

    async def is_gone(self, conn: Conn, table_id: str) -> bool:
        return await is_gone(conn, table_id)
