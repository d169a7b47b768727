"""Tables and their owners: a process restores only its shards' tables, and of two processes
that both believe they own one table, only one can write it."""

from __future__ import annotations

import logging
import random

import pytest

from bot.client import owned_shards
from bot.config import Settings
from bot.engine import RuleSet, Scoring
from bot.engine.cards import Edition
from bot.storage import shard_of
from bot.tables.commands import Cancel, Join
from bot.tables.manager import TableManager
from bot.tables.refusals import TableError
from bot.tables.scheduler import ManualScheduler
from tests.tables.helpers import legal, user_at, who

from .helpers import GUILD_ON_0, GUILD_ON_1, StorageOpener, manager_on, move, started


async def test_a_process_restores_only_the_tables_of_its_shards(
    target: str, open_store: StorageOpener
) -> None:
    assert (shard_of(GUILD_ON_0, 2), shard_of(GUILD_ON_1, 2)) == (0, 1)
    storage = await open_store(target)
    first = manager_on(storage)
    await started(first, "zero", GUILD_ON_0)
    await started(first, "one", GUILD_ON_1)

    on_zero, on_one, unsharded = manager_on(storage), manager_on(storage), manager_on(storage)
    assert [s.table_id for s in await on_zero.restore([0], 2)] == ["zero"]
    assert [s.table_id for s in await on_one.restore([1], 2)] == ["one"]
    assert set(on_one.tables) == {"one"}
    assert sorted(s.table_id for s in await unsharded.restore()) == ["one", "zero"]
    # One shard of one: every guild.
    assert len(await manager_on(storage).restore([0], 1)) == 2


async def test_of_two_owners_of_one_table_the_loser_is_refused_logged_and_let_go(
    target: str, open_store: StorageOpener, caplog: pytest.LogCaptureFixture
) -> None:
    # Two processes, each with its own connection to one database.
    winner = manager_on(await open_store(target))
    await started(winner, "t1", GUILD_ON_0)
    loser_storage = await open_store(target)
    loser = manager_on(loser_storage, seed=4)
    await loser.restore()  # the loser wrongly believes it owns the table too
    stale = loser.tables["t1"]
    assert stale.version == winner.tables["t1"].version

    await move(winner, "t1")
    saved = winner.tables["t1"].to_record()
    version = winner.tables["t1"].version
    seat = stale.match.game.current  # type: ignore[union-attr]
    with (
        caplog.at_level(logging.WARNING, logger="bot.tables.registry"),
        pytest.raises(TableError) as refused,
    ):
        await loser.act("t1", who(user_at(stale, seat)), legal(stale), stale.version)
    assert refused.value.note.key == "gone"
    assert "t1" not in loser.tables  # let go: its timers find nothing to drive
    assert any(
        "t1" in r.getMessage() and "changed elsewhere" in r.getMessage() for r in caplog.records
    )
    [record] = await loser_storage.load_tables()
    assert (record.version, record.state) == (version, saved)

    # A second try from the loser finds no table; the winner plays on undisturbed.
    with pytest.raises(TableError):
        await loser.act("t1", who(user_at(stale, seat)), legal(stale), stale.version)
    await move(winner, "t1")
    [record] = await loser_storage.load_tables()
    assert record.version == version + 1


async def test_a_loser_cannot_cancel_or_rename_messages_of_a_table_it_lost(
    target: str, open_store: StorageOpener
) -> None:
    winner = manager_on(await open_store(target))
    rules = RuleSet(edition=Edition.CLASSIC, scoring=Scoring.STANDARD, target=500)
    await winner.create("t2", GUILD_ON_1, 100, who(11), rules, threads=True)
    loser_storage = await open_store(target)
    loser, late = manager_on(loser_storage), manager_on(loser_storage)
    await loser.restore()
    await late.restore()
    await winner.act("t2", who(22), Join())

    # A stale message id save is refused too, and the table let go.
    assert not await late.set_lobby_message("t2", 777)
    assert "t2" not in late.tables
    # A stale host cancels a lobby that has moved on: refused, the table stays.
    with pytest.raises(TableError):
        await loser.act("t2", who(11), Cancel())
    [record] = await loser_storage.load_tables()
    assert record.version == winner.tables["t2"].version
    assert '"user_id":22' in record.state.replace(" ", "")


async def test_a_losers_timer_lets_the_table_go_quietly(
    target: str, open_store: StorageOpener, caplog: pytest.LogCaptureFixture
) -> None:
    winner = manager_on(await open_store(target))
    rules = RuleSet(edition=Edition.CLASSIC, scoring=Scoring.STANDARD, target=500)
    await winner.create("t3", GUILD_ON_0, 100, who(11), rules, threads=True, lobby_seconds=60)
    loser_storage = await open_store(target)
    scheduler = ManualScheduler()
    loser = TableManager(loser_storage, scheduler=scheduler, rng=random.Random(5))
    await loser.restore()  # its lobby timer is armed here too
    await winner.act("t3", who(22), Join())

    with caplog.at_level(logging.WARNING):
        await scheduler.advance(3600)  # the loser's lobby timer tries to close the lobby
    assert "t3" not in loser.tables
    assert [r.levelname for r in caplog.records if "t3" in r.getMessage()] == ["WARNING"] * 2
    assert not any(r.exc_info for r in caplog.records)  # refused and logged, not a crash
    [record] = await loser_storage.load_tables()
    assert record.version == winner.tables["t3"].version and '"status":"lobby"' in record.state


@pytest.mark.parametrize(
    ("env", "owned"),
    [
        ({}, (None, None)),
        ({"SHARD_COUNT": "4"}, (None, None)),  # every shard in this process
        ({"SHARD_COUNT": "4", "SHARD_IDS": "1,3"}, ((1, 3), 4)),
    ],
)
def test_the_client_restores_the_shards_its_settings_name(
    env: dict[str, str], owned: tuple[object, object]
) -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": "t", **env})
    assert owned_shards(settings) == owned
