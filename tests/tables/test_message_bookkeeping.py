"""The tables' side of the table message: bookkeeping saved at the same version, ended games
kept until shown (and recorded once, whatever crashed), and a table closed when its channel
is gone."""

from __future__ import annotations

import random

import pytest

from bot.engine import RuleSet
from bot.engine.cards import Edition
from bot.storage import Storage
from bot.tables.commands import EndGame, Join, Start
from bot.tables.manager import TableManager
from bot.tables.scheduler import ManualScheduler
from bot.tables.snapshot import TableSnapshot
from bot.tables.table import Status
from tests.tables.helpers import ALICE, BOB, legal, user_at, who


def showing(storage: Storage) -> tuple[TableManager, list[TableSnapshot]]:
    """A manager whose ended tables are kept until shown (as the board asks)."""
    manager = TableManager(storage, scheduler=ManualScheduler(), rng=random.Random(3))
    manager.registry.keep_ended = True
    heard: list[TableSnapshot] = []
    manager.subscribe(heard.append)
    return manager, heard


async def two_players(manager: TableManager) -> None:
    rules = RuleSet(edition=Edition.CLASSIC, target=None)
    await manager.create("t1", 1, 100, who(ALICE), rules, threads=True)
    await manager.act("t1", who(BOB), Join())
    await manager.act("t1", who(ALICE), Start(555))


async def play_to_the_end(manager: TableManager) -> None:
    for _ in range(3000):
        table = manager.tables.get("t1")
        if table is None:
            return
        seat = table.match.game.current  # type: ignore[union-attr]
        await manager.act("t1", who(user_at(table, seat)), legal(table), table.version)
    raise AssertionError("the round never ended")


async def test_message_bookkeeping_is_saved_without_a_new_version(storage: Storage) -> None:
    manager, _ = showing(storage)
    await two_players(manager)
    version = manager.tables["t1"].version
    assert await manager.begin_table_post("t1", "111") == "111"
    assert await manager.begin_table_post("t1", "222") == "111"  # the pending one is kept
    assert await manager.table_posted("t1", 5) == ()
    assert await manager.begin_table_post("t1", "333") == "333"
    assert await manager.table_posted("t1", 6) == (5,)  # the one before is to be deleted
    assert await manager.set_ping_message("t1", 9)
    [record] = await storage.load_tables()
    assert record.version == version == manager.tables["t1"].version
    assert '"old_messages":[5]' in record.state and '"ping_message_id":9' in record.state
    assert await manager.messages_deleted("t1", [5])
    assert manager.tables["t1"].old_messages == [] and manager.tables["t1"].post_nonce is None
    assert await manager.messages_deleted("t1", [9])  # the ping: nothing left to delete
    assert manager.tables["t1"].ping_message_id is None and manager.tables["t1"].old_messages == []
    [record] = await storage.load_tables()
    assert '"ping_message_id":null' in record.state and '"old_messages":[]' in record.state


async def test_a_finished_match_is_kept_until_shown_and_recorded_once(storage: Storage) -> None:
    manager, heard = showing(storage)
    await two_players(manager)
    await play_to_the_end(manager)
    assert heard[-1].status is Status.FINISHED
    [record] = await storage.load_tables()  # still stored: its end is not shown yet
    assert '"status":"finished"' in record.state
    assert len(await storage.recent_matches(1, 10, 0)) == 1
    assert manager.find_for(100, ALICE) is None  # nobody can act on it any more

    # A restart before the end was shown: the end is told again, the match not recorded again.
    again, heard_again = showing(storage)
    [restored] = await again.restore()
    assert restored.status is Status.FINISHED and heard_again == [restored]
    assert not again.tables
    assert await again.forget_ended("t1")
    assert await storage.load_tables() == []
    assert len(await storage.recent_matches(1, 10, 0)) == 1


async def test_a_match_saved_finished_but_not_recorded_is_recorded_at_start(
    storage: Storage,
) -> None:
    manager, _ = showing(storage)
    await two_players(manager)
    real = storage.record_match

    async def crash(*args: object, **kwargs: object) -> bool:
        raise SystemExit  # the process died right after saving the finished table

    storage.record_match = crash  # type: ignore[method-assign]
    with pytest.raises(SystemExit):
        await play_to_the_end(manager)
    storage.record_match = real  # type: ignore[method-assign]
    assert not await storage.recent_matches(1, 10, 0)
    again, _ = showing(storage)
    await again.restore()
    assert len(await storage.recent_matches(1, 10, 0)) == 1
    assert await again.forget_ended("t1")


async def test_an_ended_game_is_kept_until_shown_too(storage: Storage) -> None:
    manager, heard = showing(storage)
    await two_players(manager)
    await manager.act("t1", who(ALICE), EndGame())
    assert heard[-1].status is Status.CANCELLED and not manager.tables
    assert len(await storage.load_tables()) == 1
    assert await manager.forget_ended("t1")
    assert await storage.load_tables() == []
    assert not await storage.recent_matches(1, 10, 0)


async def test_a_table_whose_channel_is_gone_is_closed_unrecorded(storage: Storage) -> None:
    manager, heard = showing(storage)
    await two_players(manager)
    assert manager.tables_in(100) == ["t1"]
    assert await manager.close_lost("t1")
    assert heard[-1].status is Status.CANCELLED
    assert not manager.tables and await storage.load_tables() == []
    assert not await storage.recent_matches(1, 10, 0)
    assert not await manager.close_lost("t1")  # twice is fine
    await two_players(manager)  # the same players start again
