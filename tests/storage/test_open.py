"""Opening, migrating and refusing databases the bot cannot use."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.storage import Storage, StorageError
from bot.storage.migrations import load_migrations, split_statements


async def test_migrates_an_empty_file_to_the_latest_schema(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "folder" / "uno.db"
    store = await Storage.open(path)
    await store.close()
    with sqlite3.connect(path) as conn:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert version == len(load_migrations("sqlite")) >= 1
    assert mode == "wal"
    assert {"live_tables", "matches", "match_players", "standings", "seasons"} <= tables


async def test_reopening_is_a_no_op(tmp_path: Path) -> None:
    path = tmp_path / "uno.db"
    await (await Storage.open(path)).close()
    with sqlite3.connect(path) as conn:
        schema = conn.execute("SELECT sql FROM sqlite_master ORDER BY name").fetchall()
    store = await Storage.open(path)
    await store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT sql FROM sqlite_master ORDER BY name").fetchall() == schema
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(load_migrations("sqlite"))


async def test_connection_pragmas(storage: Storage) -> None:
    def pragmas(conn: sqlite3.Connection) -> list[int]:
        names = ("foreign_keys", "synchronous", "busy_timeout")
        return [conn.execute(f"PRAGMA {name}").fetchone()[0] for name in names]

    assert await storage._run(pragmas, "read pragmas", write=False) == [1, 1, 5000]  # 1: NORMAL


async def test_newer_schema_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    path = tmp_path / "uno.db"
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA user_version = 999")
    with pytest.raises(StorageError, match=r"newer uno-bot \(schema 999"):
        await Storage.open(path)


async def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("these are not the tables you are looking for\n" * 100)
    with pytest.raises(StorageError, match="is not an uno-bot database"):
        await Storage.open(path)


async def test_a_folder_that_cannot_be_created_is_reported(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StorageError, match="Cannot create the folder"):
        await Storage.open(blocker / "sub" / "uno.db")


async def test_closed_storage_raises_storage_error(tmp_path: Path) -> None:
    store = await Storage.open(tmp_path / "uno.db")
    await store.close()
    await store.close()
    with pytest.raises(StorageError, match="closed"):
        await store.load_tables()


def test_split_statements_keeps_semicolons_in_strings_and_triggers() -> None:
    script = """
    -- a comment; with a semicolon
    CREATE TABLE t (x TEXT DEFAULT 'a;b');
    CREATE TRIGGER tr AFTER INSERT ON t BEGIN UPDATE t SET x = 'c;d'; END;
    """
    statements = split_statements(script)
    assert len(statements) == 2
    assert statements[1].endswith("END;")
