"""PostgreSQL connections and migrations, tracked in the schema_version table."""

from __future__ import annotations

import asyncio
import logging
import re
from typing import TYPE_CHECKING, TypeAlias
from urllib.parse import parse_qs, urlsplit, urlunsplit

import asyncpg

if TYPE_CHECKING:
    from asyncpg.pool import PoolConnectionProxy

from ..errors import StorageError
from ..migrations import load_migrations

log = logging.getLogger(__name__)

# A connection of our own or one borrowed from the pool: both run the same queries. (The
# driver's classes are generic only in its type stubs.)
if TYPE_CHECKING:
    Conn: TypeAlias = asyncpg.Connection[asyncpg.Record] | PoolConnectionProxy[asyncpg.Record]
else:
    Conn = asyncpg.Connection

# pg_advisory_xact_lock key that serialises migrations of one database ("unobot" in ASCII).
MIGRATION_LOCK = 0x756E6F626F74


def session_settings(url: str, *, pgbouncer: bool = False) -> dict[str, str]:
    """Settings for every pooled session; any the URL sets itself (?name=value) win.

    synchronous_commit on: a commit returns once it is on the server's disk, so a move the
    bot acknowledged survives a crash of the server or the machine too (docs/performance.md
    has its cost per save). Behind PgBouncer nothing is sent at connection time (it refuses
    startup parameters it does not know); PostgreSQL's own default is on.
    """
    if pgbouncer:
        return {}
    chosen = {"synchronous_commit": "on"}
    given = parse_qs(urlsplit(url).query)
    return {name: value for name, value in chosen.items() if name not in given}


def redact(url: str) -> str:
    """The URL without its password, fit for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    user = f"{parts.username}:***@" if parts.username else ":***@"
    return urlunsplit(parts._replace(netloc=user + host))


def describe(error: BaseException) -> str:
    """The driver's reason in words a server admin can act on."""
    if isinstance(error, asyncpg.DiskFullError):
        return "the disk is full"
    if isinstance(error, asyncpg.InvalidAuthorizationSpecificationError):
        return "the server refused the user name or password"
    if isinstance(error, asyncpg.InvalidCatalogNameError):
        return "the database does not exist (create it first)"
    if isinstance(error, asyncpg.TooManyConnectionsError):
        return "the server has no free connections"
    if isinstance(
        error,
        OSError
        | asyncio.TimeoutError
        | asyncpg.PostgresConnectionError
        | asyncpg.CannotConnectNowError
        | asyncpg.InterfaceError
        | asyncpg.InternalClientError,
    ):
        return f"the database server is unreachable ({error.__class__.__name__}: {error})"
    if isinstance(error, asyncpg.PostgresError):
        return str(error.args[0]) if error.args else error.__class__.__name__
    return str(error)


async def schema_version(conn: Conn) -> int:
    """The schema version recorded in the database (0 for an empty one)."""
    exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
    if not exists:
        return 0
    version = await conn.fetchval("SELECT version FROM schema_version")
    return int(version or 0)


# The oldest schema whose code may still use a database at this schema: a migration that
# only adds (every one so far) keeps it; one that old code cannot live with says so in a line
# "-- readable from: N" (N, its own number, shuts every older version out).
_READABLE_FROM = re.compile(r"^-- readable from: (\d+)$", re.MULTILINE)


def readable_from(script: str, current: int) -> int:
    """The oldest schema that may read the database once this migration ran."""
    found = _READABLE_FROM.search(script)
    return max(current, int(found.group(1))) if found else current


async def migrate(conn: Conn, *, where: str, upto: int | None = None) -> None:
    """Bring the schema up to date (or to version upto) in one transaction.

    A database already migrated by a newer version is used as it is while that version says
    this one may still read it (rolling upgrades: the newer version migrates first).
    """
    migrations = load_migrations("postgres")
    latest = len(migrations) if upto is None else upto
    async with conn.transaction():
        # Processes starting together wait here; the later ones then find nothing to do.
        await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
        await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        await conn.execute(
            "ALTER TABLE schema_version ADD COLUMN IF NOT EXISTS readable_from INTEGER"
        )
        row = await conn.fetchrow("SELECT version, readable_from FROM schema_version")
        if row is None:
            await conn.execute("INSERT INTO schema_version (version, readable_from) VALUES (0, 1)")
            version, oldest = 0, 1
        else:
            version, oldest = row["version"], row["readable_from"] or 1
        if version > len(migrations):
            if oldest <= len(migrations):
                log.info(
                    "the database %s is at schema %s, newer than this version's %s, which may "
                    "still use it: starting without migrating",
                    where,
                    version,
                    len(migrations),
                )
                return
            raise StorageError(
                f"The database {where} was written by a newer uno-bot (schema {version}; this "
                f"version knows up to {len(migrations)}, and that schema needs at least "
                f"{oldest}). Upgrade the bot or use another database."
            )
        for number, name, script in migrations[version:latest]:
            await conn.execute(script)
            oldest = readable_from(script, oldest)
            await conn.execute(
                "UPDATE schema_version SET version = $1, readable_from = $2", number, oldest
            )
            log.info("applied storage migration %s", name)
