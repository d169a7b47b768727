"""copy-db: a SQLite league and its live tables moved into PostgreSQL, compared row by row."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.storage import GuildSettings, Storage, TableRecord

from .helpers import Clock, RawDatabase, StorageOpener, make_match

pytestmark = pytest.mark.parametrize("backend", ["postgres"])  # the copy's target

TABLES = (
    "live_tables",
    "guild_settings",
    "seasons",
    "player_names",
    "matches",
    "match_players",
    "standings",
    "league_guilds",
    "standings_counts",
)
GUILDS = (1, 2, 4194304 * 7 + 3)


async def fill(store: Storage, clock: Clock) -> None:
    """A league with a bit of everything: settings, seasons, house rules, forget-me, tables."""
    await store.save_settings(
        GuildSettings(1, edition="mario", rate_house_rules=True, house_rules={"stack": "all"})
    )
    await store.save_settings(GuildSettings(2, computers_rated=True))
    for index in range(12):
        guild = GUILDS[index % 3]
        record = make_match(
            f"m{index}",
            [(10 + index % 4, 100), (20, index), (30 + index % 2, 5)],
            guild_id=guild,
            edition=("classic", "sonic", "mario")[index % 3],
            computers=frozenset({30}) if guild == 2 else frozenset(),
        )
        if index % 4 == 1:
            record = replace(record, house_rules={"stack": "draw2", "hand_size": 9})
        await store.record_match(record)
        if index == 5:
            clock.now += 1000
            await store.start_season(1, "Spring")
    await store.forget_user(1, 20)
    for index, guild in enumerate(GUILDS):
        await store.save_table(TableRecord(f"t{index}", guild, 50 + index, 3, '{"x": 1}', 9.5))


async def rows(raw: RawDatabase, table: str, names: list[str]) -> list[tuple[Any, ...]]:
    found = await raw.fetch(f"SELECT {', '.join(names)} FROM {table}")
    normal = [tuple(int(v) if isinstance(v, bool) else v for v in row) for row in found]
    return sorted(normal, key=repr)


async def same_league(lite: Storage, pg: Storage) -> None:
    """Everything the bot can read is the same in both databases."""
    assert await pg.load_tables() == await lite.load_tables()
    assert await pg.load_tables([1], 2) == await lite.load_tables([1], 2)
    for guild in GUILDS:
        assert await pg.export_guild(guild) == await lite.export_guild(guild)
        assert await pg.get_settings(guild) == await lite.get_settings(guild)
        assert await pg.list_seasons(guild) == await lite.list_seasons(guild)
        assert await pg.recent_matches(guild, 20) == await lite.recent_matches(guild, 20)
        for official_only in (False, True):
            for season in (None, 1, 2):
                for sort in ("rating", "wins", "points"):
                    page = await pg.leaderboard(guild, season, sort, official_only=official_only)
                    assert page == await lite.leaderboard(
                        guild, season, sort, official_only=official_only
                    )
            for user in (10, 11, 12, 13, 20, 30, 31):
                assert await pg.player_stats(
                    guild, user, official_only=official_only
                ) == await lite.player_stats(guild, user, official_only=official_only)


async def test_copy_db_moves_everything_and_both_go_on_alike(
    tmp_path: Path, target: str, open_store: StorageOpener, clock: Clock
) -> None:
    source = tmp_path / "uno.db"
    lite = await open_store(str(source))
    await fill(lite, clock)
    assert await asyncio.to_thread(main, ["copy-db", str(source), target], load_env=False) == 0

    raw_lite, raw_pg = RawDatabase(str(source)), RawDatabase(target)
    try:
        for table in TABLES:
            names = [row[1] for row in await raw_lite.fetch(f"PRAGMA table_info({table})")]
            copied = await rows(raw_pg, table, names)
            assert copied == await rows(raw_lite, table, names), table
            assert copied, f"the test league should fill {table}"
    finally:
        await raw_lite.close()
        await raw_pg.close()

    pg = await open_store(target)
    await same_league(lite, pg)
    # The copy carries on exactly where the file left off: numbers, ratings, ids.
    for index, guild in enumerate(GUILDS):
        record = make_match(f"next{index}", [(10, 100), (11, 50), (40, 0)], guild_id=guild)
        assert await lite.record_match(record, f"t{index}")
        assert await pg.record_match(record, f"t{index}")
    await same_league(lite, pg)


async def test_copy_db_refuses_a_target_that_holds_data(
    tmp_path: Path,
    target: str,
    open_store: StorageOpener,
    clock: Clock,
    capsys: pytest.CaptureFixture[str],
) -> None:
    source = tmp_path / "uno.db"
    lite = await open_store(str(source))
    await lite.record_match(make_match("m1", [(1, 100), (2, 0)]))
    pg = await open_store(target)
    await pg.save_settings(GuildSettings(9))
    before = await pg.export_guild(9)
    assert await asyncio.to_thread(main, ["copy-db", str(source), target], load_env=False) == 1
    error = capsys.readouterr().err.strip()
    assert "already holds uno-bot data (in guild_settings)" in error and "\n" not in error
    assert await pg.export_guild(9) == before
    assert await pg.recent_matches(1) == []


async def test_copy_db_needs_a_sqlite_file_and_a_postgres_url(
    tmp_path: Path, target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = str(tmp_path / "nope.db")
    assert await asyncio.to_thread(main, ["copy-db", missing, target], load_env=False) == 1
    assert "There is no SQLite database at" in capsys.readouterr().err
    assert not Path(missing).exists()
    other = str(tmp_path / "other.db")
    assert await asyncio.to_thread(main, ["copy-db", missing, other], load_env=False) == 2
    assert "is not a postgresql:// URL" in capsys.readouterr().err
