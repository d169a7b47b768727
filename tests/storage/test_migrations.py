"""Opening and migrating databases of both backends, and refusing those the bot cannot use."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from urllib.parse import urlsplit

import aiosqlite
import pytest

from bot.storage import Storage, StorageError
from bot.storage.migrations import latest_version, load_migrations, split_statements

from .helpers import RawDatabase, StorageOpener, make_match

TABLES = {
    "live_tables",
    "guild_settings",
    "seasons",
    "player_names",
    "matches",
    "match_players",
    "standings",
    "league_guilds",
    "standings_counts",
}


async def open_at(target: str, version: int) -> Storage:
    """A Storage migrated only up to ``version`` (to build an older database)."""
    return await Storage.open(target, upto=version)


async def table_names(raw: RawDatabase) -> set[str]:
    if raw.postgres:
        rows = await raw.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        )
    else:
        rows = await raw.fetch("SELECT name FROM sqlite_master WHERE type = 'table'")
    return {row[0] for row in rows}


async def columns(raw: RawDatabase) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for table in TABLES:
        if raw.postgres:
            rows = await raw.fetch(
                "SELECT column_name FROM information_schema.columns "
                "WHERE table_schema = current_schema() AND table_name = ?",
                table,
            )
        else:
            rows = [(row[1],) for row in await raw.fetch(f"PRAGMA table_info({table})")]
        found[table] = {row[0] for row in rows}
    return found


# Processes of the previous version keep running on a database the next one migrated (rolling
# upgrades), so from this migration on PostgreSQL's only add: one that takes something away or
# changes it says which schema may still read the database ("-- readable from: N").
ADD_ONLY_FROM = 3
TAKES_AWAY = re.compile(r"\b(DROP|RENAME)\b|\bALTER\s+COLUMN\b[^;]*\bTYPE\b", re.I)


def test_postgres_migrations_only_add_or_say_which_schema_may_still_read() -> None:
    from bot.storage.postgres.schema import readable_from

    for number, name, script in load_migrations("postgres"):
        code = "\n".join(line.split("--")[0] for line in script.splitlines())
        if number >= ADD_ONLY_FROM and TAKES_AWAY.search(code):
            assert readable_from(script, 0) > 0, f"{name} takes away without a readable from"
    assert TAKES_AWAY.search("ALTER TABLE t ALTER COLUMN c TYPE BIGINT")
    assert TAKES_AWAY.search("ALTER TABLE t DROP COLUMN c")
    assert not TAKES_AWAY.search("ALTER TABLE t ADD COLUMN c TEXT NOT NULL DEFAULT ''")


def test_both_backends_have_the_same_migration_numbers() -> None:
    assert latest_version() == len(load_migrations("sqlite")) == len(load_migrations("postgres"))
    assert latest_version() >= 2


async def test_migrates_an_empty_database_to_the_latest_schema(
    storage: Storage, raw: RawDatabase
) -> None:
    assert await storage.schema_version() == latest_version()
    assert await table_names(raw) >= TABLES


async def test_reopening_changes_nothing(target: str, open_store: StorageOpener) -> None:
    first = await open_store(target)
    await first.close()
    raw = RawDatabase(target)
    try:
        before = await columns(raw)
        second = await open_store(target)
        assert await second.schema_version() == latest_version()
        assert await columns(raw) == before
    finally:
        await raw.close()


async def test_a_newer_schema_is_refused_with_a_clear_message(
    target: str, raw: RawDatabase, open_store: StorageOpener
) -> None:
    await (await open_store(target)).close()
    if raw.postgres:
        # A newer schema that older code may not read (one that may is used: test_durable_writes).
        await raw.execute("UPDATE schema_version SET version = 999, readable_from = 999")
    else:
        await raw.execute("PRAGMA user_version = 999")
    with pytest.raises(StorageError, match=r"newer uno-bot \(schema 999"):
        await open_store(target)


async def test_closed_storage_raises_storage_error(target: str) -> None:
    store = await Storage.open(target)
    await store.close()
    await store.close()
    with pytest.raises(StorageError, match="closed"):
        await store.load_tables()


async def test_schema_1_data_is_carried_to_schema_2(target: str, raw: RawDatabase) -> None:
    old = await open_at(target, 1)
    assert await old.schema_version() == 1
    await old.close()
    # Matches 1 and 3 in server 1, match 2 in server 2. Match 3 was a person against an
    # unrated computer: a rating was stored for one seat only, so it changed nothing.
    for match_id, guild, finished in ((1, 1, 100.0), (2, 2, 150.0), (3, 1, 200.0)):
        await raw.execute(
            "INSERT INTO matches (match_id, match_uid, guild_id, season, channel_id, edition, "
            "scoring, target, started_at, finished_at, rounds, round_winners, events) "
            "VALUES (?, ?, ?, 1, 5, 'classic', 'standard', 500, 0.0, ?, '[[10, 0]]', '[0]', '[]')",
            match_id,
            f"uid{match_id}",
            guild,
            finished,
        )
    seats = [
        (1, 0, 10, True, False, 0.0, 2.0),
        (1, 1, 11, False, False, 0.0, -2.0),
        (2, 0, 20, True, False, 0.0, 2.0),
        (2, 1, 21, False, False, 0.0, -2.0),
        (3, 0, 10, True, False, 2.0, 2.0),
        (3, 1, -1, False, True, None, None),
    ]
    for match_id, seat, user, winner, computer, before, after in seats:
        await raw.execute(
            "INSERT INTO match_players (match_id, seat, user_id, name, points, place, computer, "
            "winner, rating_before, rating_after) VALUES (?, ?, ?, 'x', 10, 1, ?, ?, ?, ?)",
            match_id,
            seat,
            user,
            computer,
            winner,
            before,
            after,
        )
    for guild, season, user, matches in (
        (1, 1, 10, 2),
        (1, 0, 10, 2),
        (1, 1, 11, 1),
        (1, 0, 11, 1),
    ):
        await raw.execute(
            "INSERT INTO standings (guild_id, season, user_id, matches, wins, points, rounds_won, "
            "best_round, matches_classic, matches_sonic, matches_mario, mu, sigma, ordinal) "
            "VALUES (?, ?, ?, ?, 1, 10, 1, 10, ?, 0, 0, 26.0, 8.0, 2.0)",
            guild,
            season,
            user,
            matches,
            matches,
        )

    store = await Storage.open(target)
    try:
        assert await store.schema_version() == latest_version()
        numbers = await raw.fetch("SELECT match_id, guild_id, number FROM matches ORDER BY 1")
        assert numbers == [(1, 1, 1), (2, 2, 1), (3, 1, 2)]
        assert await raw.fetch(
            "SELECT guild_id, last_number, house_matches FROM league_guilds ORDER BY 1"
        ) == [(1, 2, 0), (2, 1, 0)]
        rated = await raw.fetch(
            "SELECT season, user_id, rated, official_only FROM standings ORDER BY 1, 2"
        )
        assert [(s, u, r, bool(o)) for s, u, r, o in rated] == [
            (0, 10, 1, False),
            (0, 11, 1, False),
            (1, 10, 1, False),
            (1, 11, 1, False),
        ]
        assert await raw.fetch(
            "SELECT guild_id, season, players FROM standings_counts ORDER BY 1, 2"
        ) == [(1, 0, 2), (1, 1, 2)]
        assert [m.number for m in await store.recent_matches(1)] == [2, 1]
        assert await store.record_match(make_match("new", [(10, 100), (11, 0)]))
        assert [m.number for m in await store.recent_matches(1)] == [3, 2, 1]
        detail = await store.match_detail(1, 3)
        assert detail is not None and detail.match_uid == "new" and detail.house_rules == {}
        stats = await store.player_stats(1, 10)
        assert stats is not None and stats.matches == 3 and stats.rated_matches == 2
    finally:
        await store.close()


async def test_both_backends_have_the_same_tables_and_columns(
    postgres_database: str, tmp_path: Path
) -> None:
    sqlite_target = str(tmp_path / "uno.db")
    schema = f"t_cols_{tmp_path.name[-8:].replace('-', '_').lower()}"
    raw_admin = RawDatabase(postgres_database)
    await raw_admin.execute(f"CREATE SCHEMA {schema}")
    postgres_target = f"{postgres_database}?search_path={schema}"
    try:
        for where in (sqlite_target, postgres_target):
            await (await Storage.open(where)).close()
        lite, pg = RawDatabase(sqlite_target), RawDatabase(postgres_target)
        try:
            assert await columns(lite) == await columns(pg)
            assert all(await columns(lite))
        finally:
            await pg.close()
    finally:
        await raw_admin.execute(f"DROP SCHEMA {schema} CASCADE")
        await raw_admin.close()


# ----- SQLite only -----


async def test_sqlite_file_is_created_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "folder" / "uno.db"
    async with await Storage.open(path):
        pass
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA user_version").fetchone()[0] == latest_version()


@pytest.mark.parametrize("backend", ["sqlite"])
async def test_sqlite_connection_pragmas(storage: Storage) -> None:
    assert storage.backend == "sqlite"

    async def pragmas(conn: aiosqlite.Connection) -> list[int]:
        names = ("foreign_keys", "synchronous", "busy_timeout")
        return [(await conn.execute_fetchall(f"PRAGMA {name}"))[0][0] for name in names]  # type: ignore[index]

    # The settings belong to the bot's own connection: read them through it.
    read = storage._backend.run(pragmas, "read pragmas", write=False, mode="statement")
    assert await read == [1, 1, 5000]  # 1: NORMAL


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


def test_split_statements_keeps_semicolons_in_strings_and_triggers() -> None:
    script = """
    -- a comment; with a semicolon
    CREATE TABLE t (x TEXT DEFAULT 'a;b');
    CREATE TRIGGER tr AFTER INSERT ON t BEGIN UPDATE t SET x = 'c;d'; END;
    """
    statements = split_statements(script)
    assert len(statements) == 2
    assert statements[1].endswith("END;")


# ----- PostgreSQL only -----


async def test_an_unreachable_server_is_reported_without_the_password() -> None:
    with pytest.raises(StorageError) as raised:
        await Storage.open("postgresql://uno:s3cret-pw@127.0.0.1:1/uno")
    message = str(raised.value)
    assert "s3cret-pw" not in message
    assert "unreachable" in message and "uno:***@127.0.0.1:1" in message


async def test_a_missing_database_is_reported(postgres_database: str) -> None:
    missing = postgres_database.replace(urlsplit(postgres_database).path, "/uno_no_such_db")
    with pytest.raises(StorageError, match="does not exist"):
        await Storage.open(missing)
