"""Choosing the backend: DATABASE_URL (PostgreSQL) or DATABASE_PATH (SQLite, the default)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import ConfigError, Settings
from bot.storage import Storage, is_postgres_url, open_storage


def test_without_database_settings_the_bot_uses_its_sqlite_file() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": "t"})
    assert settings.database_url is None
    assert settings.database_path == Path("data/uno.db")


def test_database_url_is_read_and_never_shown() -> None:
    url = "postgresql://uno:hunter2@db.internal:5432/uno"
    settings = Settings.from_env({"DISCORD_TOKEN": "t", "DATABASE_URL": f"  {url} "})
    assert settings.database_url == url
    assert "hunter2" not in repr(settings) and "hunter2" not in repr(settings.database_url)
    postgres = Settings.from_env({"DISCORD_TOKEN": "t", "DATABASE_URL": "postgres://h/db"})
    assert postgres.database_url == "postgres://h/db"


@pytest.mark.parametrize("url", ["mysql://h/db", "sqlite:///uno.db", "data/uno.db"])
def test_a_database_url_must_be_postgres(url: str) -> None:
    with pytest.raises(ConfigError, match="DATABASE_URL must start with postgresql://"):
        Settings.from_env({"DISCORD_TOKEN": "t", "DATABASE_URL": url})


def test_database_commands_need_no_token() -> None:
    with pytest.raises(ConfigError, match="DISCORD_TOKEN"):
        Settings.from_env({})
    assert Settings.from_env({}, require_token=False).token == ""


def test_postgres_urls_are_told_from_paths() -> None:
    assert is_postgres_url("postgresql://u@h/db") and is_postgres_url("postgres://h/db")
    assert not is_postgres_url("data/uno.db") and not is_postgres_url(Path("postgresql:"))


async def test_open_storage_picks_sqlite_by_default(tmp_path: Path) -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": "t", "DATABASE_PATH": str(tmp_path / "u.db")})
    store = await open_storage(settings)
    try:
        assert isinstance(store, Storage)
        assert store.backend == "sqlite" and (tmp_path / "u.db").exists()
    finally:
        await store.close()


@pytest.mark.parametrize("backend", ["postgres"])
async def test_open_storage_picks_postgres_for_a_database_url(target: str, tmp_path: Path) -> None:
    env = {"DISCORD_TOKEN": "t", "DATABASE_URL": target, "DATABASE_PATH": str(tmp_path / "u.db")}
    store = await open_storage(Settings.from_env(env))
    try:
        assert store.backend == "postgres"
        assert not (tmp_path / "u.db").exists()  # the file setting is then unused
    finally:
        await store.close()
