"""PostgreSQL connections and migrations, tracked in the schema_version table."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Literal, TypeAlias
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


def session_settings(url: str, synchronous: Literal["NORMAL", "FULL"]) -> dict[str, str]:
    """Settings for every pooled session; any the URL sets itself (?name=value) win.

    synchronous_commit off (NORMAL) is the server's counterpart of SQLite's NORMAL: a commit
    returns once it is in the server's log buffer, so the bot's own crash loses nothing it was
    told was saved, while a crash of the server or the machine can lose the last fraction of
    a second (about 0.6 s at most), never corrupt anything. FULL waits for the disk at every
    commit.
    """
    chosen = {"synchronous_commit": "off" if synchronous == "NORMAL" else "on"}
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


async def migrate(conn: Conn, *, where: str, upto: int | None = None) -> None:
    """Bring the schema up to date (or to version upto) in one transaction."""
    migrations = load_migrations("postgres")
    latest = len(migrations) if upto is None else upto
    async with conn.transaction():
        # Processes starting together wait here; the later ones then find nothing to do.
        await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
        await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        version = await conn.fetchval("SELECT version FROM schema_version")
        if version is None:
            await conn.execute("INSERT INTO schema_version (version) VALUES (0)")
            version = 0
        if version > len(migrations):
            raise StorageError(
                f"The database {where} was written by a newer uno-bot (schema {version}; this "
                f"version knows up to {len(migrations)}). Upgrade the bot or use another database."
            )
        for number, name, script in migrations[version:latest]:
            await conn.execute(script)
            await conn.execute("UPDATE schema_version SET version = $1", number)
            log.info("applied storage migration %s", name)
