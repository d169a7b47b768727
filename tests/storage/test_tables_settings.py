"""Live table records and guild settings: round trips, versions, failures."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.storage import (
    GuildSettings,
    StaleTableError,
    Storage,
    StorageError,
    StorageWriteError,
    TableRecord,
)


def table(table_id: str = "t1", version: int = 1, state: str = '{"a": 1}') -> TableRecord:
    return TableRecord(table_id, guild_id=1, channel_id=2, version=version, state=state,
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


async def test_tables_survive_reopening(tmp_path: Path) -> None:
    path = tmp_path / "uno.db"
    async with await Storage.open(path) as store:
        await store.save_table(table())
    async with await Storage.open(path) as store:
        assert await store.load_tables() == [table()]


@pytest.mark.parametrize("version", [1, 2])
async def test_versions_only_go_up(storage: Storage, version: int) -> None:
    await storage.save_table(table(version=2, state="{}"))
    with pytest.raises(StaleTableError, match="already at version 2"):
        await storage.save_table(table(version=version, state='{"old": true}'))
    assert isinstance(StaleTableError("x"), StorageError)
    assert (await storage.load_tables())[0].state == "{}"


async def test_concurrent_saves_of_many_tables_end_consistent(storage: Storage) -> None:
    saves = [
        storage.save_table(table(f"t{t}", version=v, state=f'{{"v": {v}}}'))
        for v in range(1, 21)
        for t in range(10)
    ]
    await asyncio.gather(*saves)
    tables = await storage.load_tables()
    assert len(tables) == 10
    assert all(t.version == 20 and t.state == '{"v": 20}' for t in tables)


async def test_a_locked_database_fails_the_write_and_changes_nothing(tmp_path: Path) -> None:
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


async def test_settings_defaults_and_round_trip(storage: Storage) -> None:
    assert await storage.get_settings(5) == GuildSettings(5)
    custom = GuildSettings(
        5,
        edition="mario",
        scoring="lowest",
        target=None,
        turn_seconds=45,
        timeout_action="remove",
        timeouts_before_removal=2,
        lobby_minutes=5,
        computers_allowed=False,
        computer_level="hard",
        computers_rated=True,
    )
    await storage.save_settings(custom)
    assert await storage.get_settings(5) == custom
    assert await storage.get_settings(6) == GuildSettings(6)
    await storage.save_settings(GuildSettings(5))
    assert await storage.get_settings(5) == GuildSettings(5)
