"""PostgreSQL writes that stay true when the connection fails: a save whose answer was lost is
found in the stored row (kept, or made again), a process adopts its own row rather than let its
table go, and commits wait for the disk."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import asyncpg
import pytest

from bot.storage import StaleTableError, Storage, StorageWriteError, TableRecord
from bot.storage.postgres import PostgresBackend
from bot.storage.postgres import backend as pg_backend
from bot.storage.postgres import tables as pg_tables
from bot.tables.refusals import TableError

from .helpers import GUILD_ON_0, RawDatabase, StorageOpener, manager_on, move, started


@pytest.fixture
def backend() -> str:
    return "postgres"


def table(version: int = 1, state: str = '{"a": 1}') -> TableRecord:
    return TableRecord("t1", guild_id=1, channel_id=2, version=version, state=state,
                       updated_at=1.5)  # fmt: skip


Save = Callable[..., Awaitable[None]]


@pytest.fixture
def lose_answers(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., None]]:
    """Makes the next table saves lose their answer: after the statement ran ("after") or
    before it was sent ("before"), as a connection that the server closed would."""
    original: Save = pg_tables.save_table
    plan: list[str] = []

    async def save(conn: Any, *args: Any, **kwargs: Any) -> None:
        when = plan.pop(0) if plan else None
        if when == "before":
            raise asyncpg.ConnectionDoesNotExistError("connection was closed in the middle")
        await original(conn, *args, **kwargs)
        if when == "after":
            raise asyncpg.ConnectionDoesNotExistError("connection was closed in the middle")

    monkeypatch.setattr(pg_tables, "save_table", save)
    monkeypatch.setattr(pg_backend, "SETTLE_DELAYS", (0.0, 0.0))
    yield lambda *whens: plan.extend(whens)


async def test_a_save_that_committed_before_its_connection_failed_counts_as_saved(
    storage: Storage, lose_answers: Callable[..., None], caplog: pytest.LogCaptureFixture
) -> None:
    await storage.save_table(table(), seen=0)
    lose_answers("after")
    with caplog.at_level(logging.INFO, logger="bot.storage"):
        await storage.save_table(table(2, '{"b": 2}'), seen=1)  # no error: it is in
    assert "was lost, but it was saved" in caplog.text
    [stored] = await storage.load_tables()
    assert (stored.version, stored.state) == (2, '{"b": 2}')


async def test_a_save_lost_before_it_reached_the_server_is_made_again(
    storage: Storage, lose_answers: Callable[..., None]
) -> None:
    await storage.save_table(table(), seen=0)
    lose_answers("before")
    await storage.save_table(table(2, '{"b": 2}'), seen=1)
    [stored] = await storage.load_tables()
    assert (stored.version, stored.state) == (2, '{"b": 2}')


async def test_a_table_whose_save_committed_then_failed_is_kept_by_its_process(
    storage: Storage, lose_answers: Callable[..., None], monkeypatch: pytest.MonkeyPatch
) -> None:
    manager = manager_on(storage)
    await started(manager, "t1", GUILD_ON_0)
    # The answer is lost and the server stays away while the process looks: the move is
    # reported unsaved and the table rolled back in memory, though the database holds it.
    lose_answers("after")

    async def unreachable(self: PostgresBackend, check: object) -> None:
        return None

    monkeypatch.setattr(PostgresBackend, "_settle", unreachable)
    before = manager.tables["t1"].version
    with pytest.raises(TableError) as failed:
        await move(manager, "t1")
    assert failed.value.note.key == "save_failed"
    assert manager.tables["t1"].version == before
    [stored] = await storage.load_tables()
    assert stored.version == before + 1  # the move did commit

    # The next move names the old version: the row shows this process wrote the newer one,
    # so the table is taken as stored, not let go, and play goes on from there.
    with pytest.raises(TableError) as refused:
        await move(manager, "t1")
    assert refused.value.note.key == "save_failed"
    assert manager.tables["t1"].version == before + 1
    await move(manager, "t1")
    [stored] = await storage.load_tables()
    assert stored.version == manager.tables["t1"].version == before + 2


async def test_a_write_by_another_process_is_told_apart_from_ones_own(
    target: str, open_store: StorageOpener
) -> None:
    mine, other = await open_store(target), await open_store(target)
    await mine.save_table(table(), seen=0)
    await mine.save_table(table(2), seen=1)
    with pytest.raises(StaleTableError) as own:
        await mine.save_table(table(3), seen=1)
    assert own.value.mine is not None and own.value.mine.version == 2
    with pytest.raises(StaleTableError) as foreign:
        await other.save_table(table(3), seen=1)
    assert foreign.value.mine is None
    # Code that predates the signature leaves it as it was: then it names another version.
    raw = RawDatabase(target)
    try:
        await raw.execute("UPDATE live_tables SET version = 3")
    finally:
        await raw.close()
    with pytest.raises(StaleTableError) as unsigned:
        await mine.save_table(table(4), seen=2)
    assert unsigned.value.mine is None


async def test_an_unsaved_write_says_so_when_the_server_cannot_be_asked(
    storage: Storage, lose_answers: Callable[..., None], monkeypatch: pytest.MonkeyPatch
) -> None:
    await storage.save_table(table(), seen=0)
    monkeypatch.setattr(pg_backend, "SETTLE_DELAYS", ())
    lose_answers("after")
    with pytest.raises(StorageWriteError, match="Could not save the table"):
        await storage.save_table(table(2), seen=1)


async def test_commits_wait_for_the_disk_and_pgbouncer_mode_keeps_no_statements(
    target: str, open_store: StorageOpener
) -> None:
    for pgbouncer in (False, True):
        store = await open_store(target, pgbouncer=pgbouncer)
        await store.save_table(table(1 + pgbouncer))
        assert [r.version for r in await store.load_tables()] == [1 + pgbouncer]
        backend = store._backend
        assert isinstance(backend, PostgresBackend)
        pool = backend._pool
        assert pool is not None
        async with pool.acquire() as conn:
            assert await conn.fetchval("SHOW synchronous_commit") == "on"
            kept = await conn.fetchval("SELECT count(*) FROM pg_prepared_statements")
        assert (kept == 0) is pgbouncer


async def test_an_older_version_starts_on_a_newer_schema_while_it_may_read_it(
    target: str, open_store: StorageOpener, caplog: pytest.LogCaptureFixture
) -> None:
    await (await open_store(target)).close()
    raw = RawDatabase(target)
    try:
        # A newer version added schema 99 and said any code from schema 2 on may read it.
        await raw.execute("UPDATE schema_version SET version = 99, readable_from = 2")
        with caplog.at_level(logging.INFO, logger="bot.storage"):
            store = await open_store(target)
        assert "starting without migrating" in caplog.text
        await store.save_table(table())
        assert await store.schema_version() == 99
        # One that shuts this version out is refused, saying why.
        await raw.execute("UPDATE schema_version SET readable_from = 99")
        with pytest.raises(Exception, match=r"needs at least 99"):
            await open_store(target)
    finally:
        await raw.close()


def test_a_migration_may_raise_the_oldest_readable_schema() -> None:
    assert pg_tables.signature("abc", 3) == "abc@3"
    from bot.storage.postgres.schema import readable_from

    assert readable_from("ALTER TABLE x ADD COLUMN y TEXT;", 2) == 2
    assert readable_from("-- readable from: 7\nALTER TABLE x DROP COLUMN y;", 2) == 7


async def test_the_servers_connections_cut_mid_game_keep_every_live_table(
    target: str, open_store: StorageOpener, postgres_database: str
) -> None:
    """What a PostgreSQL restart does to the bot: every connection it holds is cut (here by
    pg_terminate_backend, as the shared test server must stay up for other tests)."""
    storage = await open_store(target)
    manager = manager_on(storage)
    ids = [f"t{n}" for n in range(4)]
    for n, table_id in enumerate(ids):
        await started(manager, table_id, GUILD_ON_0 + n)
    admin = await asyncpg.connect(postgres_database)
    try:
        for _ in range(3):
            cut = await admin.fetchval(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            assert cut >= 1
            for table_id in ids:
                await move(manager, table_id)  # saved, through a reconnected pool
    finally:
        await admin.close()
    stored = {r.table_id: r.version for r in await storage.load_tables()}
    assert stored == {t: manager.tables[t].version for t in ids}
