"""Live table records: round trips, version-guarded writes between processes, shards, failures."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from pathlib import Path

import pytest

from bot.storage import StaleTableError, Storage, StorageError, StorageWriteError, TableRecord
from bot.storage.base import shard_of

from .helpers import RawDatabase, StorageOpener


def table(
    table_id: str = "t1", version: int = 1, state: str = '{"a": 1}', guild_id: int = 1
) -> TableRecord:
    return TableRecord(table_id, guild_id=guild_id, channel_id=2, version=version, state=state,
                       updated_at=1.5)  # fmt: skip


async def test_table_round_trip_and_delete(storage: Storage) -> None:
    record = table(state='{"seats": [1, 2], "name": "ünö 🎴"}')
    await storage.save_table(record)
    assert await storage.load_tables() == [record]
    newer = table(version=2, state='{"seats": [1]}')
    await storage.save_table(newer)
    assert await storage.load_tables() == [newer]
    assert await storage.delete_table("t1") is True
    assert await storage.delete_table("t1") is False
    assert await storage.load_tables() == []


async def test_tables_survive_reopening(target: str, open_store: StorageOpener) -> None:
    first = await open_store(target)
    await first.save_table(table())
    await first.close()
    assert await (await open_store(target)).load_tables() == [table()]


async def test_writes_from_the_version_seen(storage: Storage) -> None:
    await storage.save_table(table(version=1), seen=0)
    await storage.save_table(table(version=2, state="{}"), seen=1)
    await storage.save_table(table(version=5, state='{"v": 5}'), seen=2)  # any step up
    [stored] = await storage.load_tables()
    assert (stored.version, stored.state) == (5, '{"v": 5}')
    with pytest.raises(ValueError, match="above the version seen"):
        await storage.save_table(table(version=5), seen=5)


@pytest.mark.parametrize("seen", [0, 1, 3])
async def test_a_write_from_an_old_version_is_refused_and_logged(
    storage: Storage, seen: int, caplog: pytest.LogCaptureFixture
) -> None:
    await storage.save_table(table(version=1), seen=0)
    await storage.save_table(table(version=2, state="{}"), seen=1)
    # Written by this very storage: the refusal says so (PostgreSQL signs its writes).
    stale = r"already at version 2( \(written by this process\))?; version 4 was not saved"
    with (
        caplog.at_level(logging.WARNING, logger="bot.storage"),
        pytest.raises(StaleTableError, match=stale),
    ):
        await storage.save_table(table(version=4, state='{"lost": true}'), seen=seen)
    assert "refused a stale table write: Table t1 is already at version 2" in caplog.text
    [stored] = await storage.load_tables()
    assert (stored.version, stored.state) == (2, "{}")
    assert isinstance(StaleTableError("x"), StorageError)


async def test_a_write_to_a_table_that_is_gone_is_refused(storage: Storage) -> None:
    await storage.save_table(table(version=1), seen=0)
    assert await storage.delete_table("t1", seen=1)
    with pytest.raises(StaleTableError, match="no longer exists"):
        await storage.save_table(table(version=2), seen=1)
    assert await storage.load_tables() == []


@pytest.mark.parametrize("version", [1, 2])
async def test_without_seen_versions_only_go_up(storage: Storage, version: int) -> None:
    await storage.save_table(table(version=2, state="{}"))
    with pytest.raises(StaleTableError, match="already at version 2"):
        await storage.save_table(table(version=version, state='{"old": true}'))
    assert (await storage.load_tables())[0].state == "{}"


async def test_two_processes_that_both_own_a_table_cannot_both_write_it(
    target: str, open_store: StorageOpener, caplog: pytest.LogCaptureFixture
) -> None:
    first, second = await open_store(target), await open_store(target)
    await first.save_table(table(version=5, state='{"turn": 5}'), seen=0)
    # Both processes restored version 5 and both act on it at the same moment.
    mine = first.save_table(table(version=6, state='{"by": "first"}'), seen=5)
    theirs = second.save_table(table(version=6, state='{"by": "second"}'), seen=5)
    with caplog.at_level(logging.WARNING, logger="bot.storage"):
        results = await asyncio.gather(mine, theirs, return_exceptions=True)
    refused = [r for r in results if isinstance(r, StaleTableError)]
    assert len(refused) == 1 and results.count(None) == 1
    [stored] = await second.load_tables()
    winner = "first" if results[0] is None else "second"
    assert stored.version == 6 and stored.state == f'{{"by": "{winner}"}}'
    assert "refused a stale table write" in caplog.text
    # The loser cannot go on from its own idea of the table either.
    loser = second if winner == "first" else first
    with pytest.raises(StaleTableError):
        await loser.save_table(table(version=6, state='{"retry": 1}'), seen=5)
    with pytest.raises(StaleTableError):
        await loser.touch_table(table(version=5, state="{}"))
    with pytest.raises(StaleTableError):
        await loser.delete_table("t1", seen=5)
    assert (await first.load_tables())[0].state == f'{{"by": "{winner}"}}'


async def test_touch_rewrites_the_state_at_the_same_version_only(storage: Storage) -> None:
    await storage.save_table(table(version=3), seen=0)
    assert await storage.touch_table(table(version=3, state='{"message": 9}')) is True
    assert (await storage.load_tables())[0].state == '{"message": 9}'
    with pytest.raises(StaleTableError, match="already at version 3"):
        await storage.touch_table(table(version=2, state="{}"))
    await storage.delete_table("t1")
    with pytest.raises(StaleTableError, match="no longer exists"):
        await storage.touch_table(table(version=3, state="{}"))


async def test_a_new_table_cannot_overwrite_an_existing_one(storage: Storage) -> None:
    await storage.save_table(table(version=2, state="{}"), seen=0)
    with pytest.raises(StaleTableError):
        await storage.save_table(table(version=3, state='{"new": 1}'), seen=0)
    assert (await storage.load_tables())[0].state == "{}"


async def test_delete_at_a_version(storage: Storage) -> None:
    await storage.save_table(table(version=4), seen=0)
    with pytest.raises(StaleTableError, match="already at version 4"):
        await storage.delete_table("t1", seen=3)
    assert len(await storage.load_tables()) == 1
    assert await storage.delete_table("t1", seen=4) is True
    assert await storage.delete_table("t1", seen=4) is False


def guild_on_shard(shard: int, count: int, salt: int) -> int:
    """A plausible guild id (a snowflake) that Discord sends to this shard."""
    guild = ((1_300_000_000_000 + salt * count + shard) << 22) | (salt * 7919 % (1 << 22))
    assert shard_of(guild, count) == shard
    return guild


async def test_each_process_loads_only_the_tables_of_its_shards(storage: Storage) -> None:
    count = 4
    records = [
        table(f"t{shard}-{salt}", guild_id=guild_on_shard(shard, count, salt))
        for shard in range(count)
        for salt in range(3)
    ]
    await asyncio.gather(*(storage.save_table(r, seen=0) for r in records))
    everything = await storage.load_tables()
    assert len(everything) == 12
    for mine in ([0], [1, 3], [0, 1, 2, 3]):
        loaded = await storage.load_tables(shard_ids=mine, shard_count=count)
        assert {r.table_id for r in loaded} == {
            r.table_id for r in records if shard_of(r.guild_id, count) in mine
        }
    assert await storage.load_tables(shard_ids=[], shard_count=count) == []
    one_shard = await storage.load_tables(shard_ids=[0], shard_count=1)
    assert len(one_shard) == 12
    with pytest.raises(ValueError):
        await storage.load_tables(shard_ids=[4], shard_count=count)
    with pytest.raises(ValueError):
        await storage.load_tables(shard_ids=[0])


async def test_concurrent_saves_of_many_tables_end_consistent(storage: Storage) -> None:
    async def play(table_id: str) -> None:
        for version in range(1, 21):
            record = table(table_id, version=version, state=f'{{"v": {version}}}')
            await storage.save_table(record, seen=version - 1)

    await asyncio.gather(*(play(f"t{t}") for t in range(10)))
    tables = await storage.load_tables()
    assert len(tables) == 10
    assert all(t.version == 20 and t.state == '{"v": 20}' for t in tables)


async def test_a_failing_write_raises_and_changes_nothing(
    storage: Storage, raw: RawDatabase
) -> None:
    await storage.save_table(table(version=1), seen=0)
    if raw.postgres:
        await raw.execute(
            "CREATE FUNCTION full_disk() RETURNS trigger LANGUAGE plpgsql AS "
            "$$ BEGIN RAISE EXCEPTION 'could not extend file' USING ERRCODE = 'disk_full'; END $$"
        )
        await raw.execute(
            "CREATE TRIGGER full_disk BEFORE UPDATE ON live_tables "
            "FOR EACH ROW EXECUTE FUNCTION full_disk()"
        )
    else:
        await raw.execute(
            "CREATE TRIGGER full_disk BEFORE UPDATE ON live_tables "
            "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"
        )
    with pytest.raises(StorageWriteError, match=r"the disk is full\. Nothing was changed; try"):
        await storage.save_table(table(version=2, state="{}"), seen=1)
    assert await storage.load_tables() == [table(version=1)]


async def test_a_locked_sqlite_database_fails_the_write(tmp_path: Path) -> None:
    path = tmp_path / "uno.db"
    async with await Storage.open(path, busy_timeout_ms=20) as store:
        await store.save_table(table())
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        try:
            with pytest.raises(StorageWriteError, match=r"busy.*Nothing was changed; try again"):
                await store.save_table(table(version=2, state="{}"))
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert await store.load_tables() == [table()]


@pytest.mark.parametrize("backend", ["postgres"])
async def test_a_dropped_server_connection_is_a_storage_error_then_recovers(
    storage: Storage, raw: RawDatabase
) -> None:
    await storage.save_table(table(version=1), seen=0)
    await raw.execute(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
        "WHERE datname = current_database() AND pid <> pg_backend_pid()"
    )
    # The pool notices a closed connection only once it has read the server's goodbye, so the
    # next call either reconnects at once or fails with a StorageError; never a driver error.
    try:
        first = await storage.load_tables()
    except StorageError as error:
        assert "unreachable" in str(error)
    else:
        assert first == [table(version=1)]
    assert await storage.load_tables() == [table(version=1)]
