"""The command line: migrate, backup, and running the bot when no command is given."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.cli import main
from bot.storage import Storage
from bot.storage.migrations import latest_version

from .helpers import make_match

ENV = ("DISCORD_TOKEN", "DATABASE_URL", "DATABASE_PATH", "SHARD_COUNT", "SHARD_IDS", "LOG_LEVEL")


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ENV:
        monkeypatch.delenv(name, raising=False)


def run(*argv: str) -> int:
    return main(list(argv), load_env=False)


def one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    return lines[0]


def test_no_command_runs_the_bot_which_needs_a_token(capsys: pytest.CaptureFixture[str]) -> None:
    assert run() == 2
    assert "DISCORD_TOKEN is not set" in one_line(capsys.readouterr().err)


def test_an_unknown_command_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        run("frobnicate")
    assert exited.value.code == 2
    assert "invalid choice: 'frobnicate'" in one_line(capsys.readouterr().err)


def test_migrate_a_sqlite_file_without_a_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "data" / "uno.db"
    monkeypatch.setenv("DATABASE_PATH", str(path))
    assert run("migrate") == 0
    out = one_line(capsys.readouterr().out)
    assert f"sqlite database {path} is at schema {latest_version()}" in out
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == latest_version()


@pytest.mark.parametrize("backend", ["postgres"])
async def test_migrate_a_postgres_database(
    target: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", target)
    assert await asyncio.to_thread(run, "migrate") == 0
    assert f"postgres database {target} is at schema" in one_line(capsys.readouterr().out)
    store = await Storage.open(target)
    try:
        assert await store.schema_version() == latest_version()
    finally:
        await store.close()


def test_a_database_url_that_is_not_postgres_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", "mysql://root@localhost/uno")
    assert run("migrate") == 2
    assert "DATABASE_URL must start with postgresql://" in one_line(capsys.readouterr().err)


def test_an_unreachable_server_is_one_line_without_the_password(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://uno:hunter2@127.0.0.1:1/uno")
    assert run("migrate") == 1
    line = one_line(capsys.readouterr().err)
    assert "unreachable" in line and "hunter2" not in line


async def test_backup_copies_a_database_in_use(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "uno.db"
    monkeypatch.setenv("DATABASE_PATH", str(path))
    store = await Storage.open(path, clock=lambda: 5.0)
    try:
        for index in range(5):
            await store.record_match(make_match(f"m{index}", [(1, 100), (2, index)]))
        # The bot keeps running: the latest matches are still in the write-ahead log.
        copy = tmp_path / "backups" / "uno-copy.db"
        copy.parent.mkdir()
        assert await asyncio.to_thread(run, "backup", str(copy)) == 0
        assert f"backed up {path} to {copy}" in one_line(capsys.readouterr().out)
        await store.record_match(make_match("after", [(1, 100), (2, 0)]))
        original = await store.export_guild(1)
    finally:
        await store.close()
    restored = await Storage.open(copy, clock=lambda: 5.0)
    try:
        exported = await restored.export_guild(1)
    finally:
        await restored.close()
    assert [m["match_uid"] for m in exported["matches"]] == [f"m{i}" for i in range(5)]
    assert exported["matches"] == original["matches"][:5]
    assert not copy.with_name("uno-copy.db.partial").exists()


def test_backup_refuses_to_overwrite_or_to_copy_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "missing.db"))
    assert run("backup", str(tmp_path / "copy.db")) == 1
    assert "There is no SQLite database at" in one_line(capsys.readouterr().err)
    assert not (tmp_path / "missing.db").exists()
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "uno.db"))
    assert run("migrate") == 0
    existing = tmp_path / "keep.db"
    existing.write_text("precious")
    capsys.readouterr()
    assert run("backup", str(existing)) == 1
    assert "already exists" in one_line(capsys.readouterr().err)
    assert existing.read_text() == "precious"


def test_backup_points_postgres_users_to_pg_dump(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://uno@db.example/uno")
    assert run("backup", str(tmp_path / "copy.db")) == 1
    assert "pg_dump" in one_line(capsys.readouterr().err)
    assert not (tmp_path / "copy.db").exists()
