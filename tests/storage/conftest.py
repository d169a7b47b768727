"""Fixtures: every storage test runs on SQLite and on PostgreSQL, each on a fresh database.

PostgreSQL tests use a database created for the test run (dropped at its end) on the server
named by UNO_TEST_POSTGRES (default postgresql://postgres@127.0.0.1:5432/test), and a schema
of their own inside it. Without a reachable server they are skipped with the reason; with
UNO_REQUIRE_POSTGRES=1 that is a failure instead.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import asyncpg
import pytest

from bot.storage import Storage

from .helpers import (
    ADMIN_URL,
    Clock,
    RawDatabase,
    StorageOpener,
    TargetFactory,
    server_database,
    with_database,
)

BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(scope="session")
def postgres_database() -> Iterator[str]:
    """A database of this test run on the PostgreSQL server, dropped at the end."""
    with server_database("uno_test") as url:
        yield url


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def new_target(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[TargetFactory]:
    """Makes empty databases of the test's backend: SQLite files or PostgreSQL schemas."""
    schemas: list[str] = []
    database = request.getfixturevalue("postgres_database") if backend == "postgres" else ""

    async def make() -> str:
        if backend == "sqlite":
            return str(tmp_path / f"uno{len(schemas) or ''}-{secrets.token_hex(3)}.db")
        schema = f"t_{secrets.token_hex(6)}"
        conn = await asyncpg.connect(database)
        try:
            await conn.execute(f"CREATE SCHEMA {schema}")
        finally:
            await conn.close()
        schemas.append(schema)
        return with_database(database, urlsplit(database).path[1:], f"search_path={schema}")

    yield make
    if schemas:
        conn = await asyncpg.connect(database)
        try:
            for schema in schemas:
                await conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        finally:
            await conn.close()


@pytest.fixture
async def target(new_target: TargetFactory) -> str:
    """An empty database of the test's backend: a file path or a postgresql:// URL."""
    return await new_target()


@pytest.fixture
async def open_store(clock: Clock) -> AsyncIterator[StorageOpener]:
    """Opens Storages (on the same or other targets) and closes them after the test."""
    opened: list[Storage] = []

    async def opener(where: str, **options: Any) -> Storage:
        options.setdefault("clock", clock)
        store = await Storage.open(where, **options)
        opened.append(store)
        return store

    yield opener
    for store in opened:
        await store.close()


@pytest.fixture
async def storage(target: str, open_store: StorageOpener) -> Storage:
    return await open_store(target)


@pytest.fixture
async def raw(target: str) -> AsyncIterator[RawDatabase]:
    """Plain SQL on the test's database, beside the Storage (to inspect or sabotage it)."""
    database = RawDatabase(target)
    yield database
    await database.close()


_SKIPPED: list[str] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.skipped and "PostgreSQL tests need a server" in str(report.longrepr):
        _SKIPPED.append(report.nodeid)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say why PostgreSQL tests were skipped even without -rs (the reason is easy to miss)."""
    if _SKIPPED:
        terminalreporter.write_line(
            f"{len(_SKIPPED)} PostgreSQL storage tests skipped: no server at {ADMIN_URL} "
            "(set UNO_TEST_POSTGRES to another server; UNO_REQUIRE_POSTGRES=1 fails instead)",
            yellow=True,
        )
