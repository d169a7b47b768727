"""The table manager against a real SQLite file, with hand-driven timers."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.engine import RuleSet, Scoring
from bot.engine.cards import CODES, Edition
from bot.engine.game import Phase
from bot.storage import Storage, StorageWriteError
from bot.tables.computer import think
from bot.tables.manager import StaleClick, TableError, TableManager
from bot.tables.scheduler import ManualScheduler
from bot.tables.table import Status, Table

ALICE, BOB, CAROL, MALLORY = 11, 22, 33, 99


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    store = await Storage.open(tmp_path / "uno.db")
    try:
        yield store
    finally:
        await store.close()


def manager_on(storage: Storage, scheduler: ManualScheduler | None = None) -> TableManager:
    return TableManager(
        storage, scheduler=scheduler or ManualScheduler(), rng=random.Random(3), brain=think
    )


async def started(
    manager: TableManager, edition: Edition = Edition.CLASSIC, target: int | None = 500
) -> Table:
    rules = RuleSet(edition=edition, scoring=Scoring.STANDARD, target=target)
    table = await manager.create("t1", 1, 100, ALICE, "Alice", rules, threads=True)
    await manager.lobby_action("t1", BOB, "Bob", "join")
    await manager.lobby_action("t1", CAROL, "Carol", "join")
    await manager.lobby_action("t1", ALICE, "Alice", "start", "555")
    return table


def user_at(table: Table, seat: int) -> int:
    return table.seats[seat].user_id


def play_arg(table: Table) -> tuple[str, str | None]:
    """A legal action for whoever the game awaits, as a table action."""
    assert table.match is not None
    game = table.match.game
    seat = game.current
    if game.phase is Phase.COLOR:
        return "color", "red"
    if game.phase is Phase.RESPOND:
        return "accept", None
    cards = game.playable(seat)
    if not cards:
        return ("draw", None) if game.phase is Phase.TURN else ("keep", None)
    code = CODES[cards[0]]
    return "play", f"0.{code}" + (".blue" if code.startswith("wild") else "")


async def test_lobby_join_leave_start_and_host_rules(storage: Storage) -> None:
    manager = manager_on(storage)
    rules = RuleSet(edition=Edition.MARIO)
    await manager.create("t1", 1, 100, ALICE, "Alice", rules, threads=True)
    with pytest.raises(TableError, match="already in"):
        await manager.lobby_action("t1", ALICE, "Alice", "join")
    with pytest.raises(TableError, match="At least 2"):
        await manager.lobby_action("t1", ALICE, "Alice", "start")
    await manager.lobby_action("t1", BOB, "Bob", "join")
    with pytest.raises(TableError, match="Only the host"):
        await manager.lobby_action("t1", BOB, "Bob", "start")
    with pytest.raises(TableError, match="at most 200"):
        await manager.lobby_action("t1", ALICE, "Alice", "rule", "x" * 201)
    await manager.lobby_action("t1", ALICE, "Alice", "rule", "Swap hands @everyone")
    assert manager.get("t1").rules.house_rule == "Swap hands @everyone"
    await manager.lobby_action("t1", ALICE, "Alice", "leave")
    assert manager.get("t1").host_id == BOB  # the host's chair passes on
    outcome = await manager.lobby_action("t1", BOB, "Bob", "leave")
    assert outcome.table.status is Status.CANCELLED and "t1" not in manager.tables
    assert await storage.load_tables() == []


async def test_one_table_per_channel_without_threads(storage: Storage) -> None:
    manager = manager_on(storage)
    await manager.create("t1", 1, 100, ALICE, "Alice", RuleSet(), threads=False)
    with pytest.raises(TableError, match="already open"):
        await manager.create("t2", 1, 100, BOB, "Bob", RuleSet(), threads=False)
    await manager.create("t3", 1, 100, BOB, "Bob", RuleSet(), threads=True)  # threads: fine


async def test_stale_and_double_clicks_apply_once(storage: Storage) -> None:
    manager = manager_on(storage)
    table = await started(manager)
    table = manager.get("t1")
    version = table.version
    action, arg = play_arg(table)
    user = user_at(table, table.match.game.current)  # type: ignore[union-attr]
    await manager.act("t1", user, version, action, arg)
    with pytest.raises(StaleClick):
        await manager.act("t1", user, version, action, arg)
    assert manager.get("t1").version == version + 1


async def test_not_seated_and_out_of_turn_are_refused(storage: Storage) -> None:
    manager = manager_on(storage)
    await started(manager)
    table = manager.get("t1")
    with pytest.raises(TableError, match="not playing"):
        await manager.act("t1", MALLORY, table.version, "draw")
    current = table.match.game.current  # type: ignore[union-attr]
    other = next(s for s in range(3) if s != current)
    with pytest.raises(TableError, match="not your turn"):
        await manager.act("t1", user_at(table, other), table.version, "draw")
    assert manager.get("t1").version == table.version


async def test_failed_save_changes_nothing(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    manager = manager_on(storage)
    await started(manager)
    table = manager.get("t1")
    before = table.to_record()

    async def broken(record: object) -> None:
        raise StorageWriteError("database or disk is full")

    monkeypatch.setattr(storage, "save_table", broken)
    action, arg = play_arg(table)
    user = user_at(table, table.match.game.current)  # type: ignore[union-attr]
    with pytest.raises(TableError, match="Could not save"):
        await manager.act("t1", user, table.version, action, arg)
    assert manager.get("t1").to_record() == before
    monkeypatch.undo()
    await manager.act("t1", user, manager.get("t1").version, action, arg)  # a retry works


async def test_restart_restores_every_table_exactly(storage: Storage) -> None:
    manager = manager_on(storage)
    await started(manager)
    for _ in range(5):
        table = manager.get("t1")
        action, arg = play_arg(table)
        user = user_at(table, table.match.game.current)  # type: ignore[union-attr]
        await manager.act("t1", user, table.version, action, arg)
    saved = manager.get("t1").to_record()
    fresh = manager_on(storage)
    restored = await fresh.restore()
    assert [t.table_id for t in restored] == ["t1"]
    assert fresh.get("t1").to_record() == saved


async def test_computers_finish_a_match_and_it_is_recorded_once(storage: Storage) -> None:
    scheduler = ManualScheduler()
    manager = manager_on(storage, scheduler)
    rules = RuleSet(edition=Edition.SONIC, target=None)
    await manager.create("t9", 5, 100, ALICE, "Alice", rules, threads=True)
    for level in ("easy", "normal", "hard"):
        await manager.lobby_action("t9", ALICE, "Alice", "computer", level)
    await manager.lobby_action("t9", ALICE, "Alice", "leave")  # only computers would be left
    assert "t9" not in manager.tables  # a lobby with no human closes

    await manager.create("t10", 5, 100, ALICE, "Alice", rules, threads=True)
    await manager.lobby_action("t10", ALICE, "Alice", "computer", "normal")
    await manager.lobby_action("t10", ALICE, "Alice", "computer", "easy")
    await manager.lobby_action("t10", ALICE, "Alice", "computer", "hard")
    await manager.lobby_action("t10", ALICE, "Alice", "start")
    for _ in range(2000):
        table = manager.tables.get("t10")
        if table is None:
            break
        game = table.match.game  # type: ignore[union-attr]
        if table.seats[game.current].computer is None:
            action, arg = play_arg(table)
            await manager.act("t10", ALICE, table.version, action, arg)
        else:
            assert scheduler.pending("t10:computer")
            await scheduler.advance(5)
    assert "t10" not in manager.tables
    page = await storage.recent_matches(5, 10, 0)
    assert len(page) == 1
    assert await storage.load_tables() == []


async def test_round_over_then_next_round_by_timer(storage: Storage) -> None:
    scheduler = ManualScheduler()
    manager = manager_on(storage, scheduler)
    await started(manager, target=5000)
    for _ in range(3000):
        table = manager.get("t1")
        if table.status is Status.ROUND_OVER:
            break
        action, arg = play_arg(table)
        user = user_at(table, table.match.game.current)  # type: ignore[union-attr]
        await manager.act("t1", user, table.version, action, arg)
    table = manager.get("t1")
    assert table.status is Status.ROUND_OVER
    assert scheduler.pending("t1:next")
    await scheduler.advance(29)
    assert manager.get("t1").status is Status.ROUND_OVER
    await scheduler.advance(2)
    table = manager.get("t1")
    assert table.status is Status.PLAYING and table.match.round_number == 2  # type: ignore[union-attr]


async def timed_table(storage: Storage, scheduler: ManualScheduler, limit: int = 3) -> TableManager:
    manager = manager_on(storage, scheduler)
    rules = RuleSet(edition=Edition.MARIO, target=None)
    await manager.create(
        "t1", 1, 100, ALICE, "Alice", rules, threads=True, turn_seconds=60, timeout_limit=limit
    )
    await manager.lobby_action("t1", BOB, "Bob", "join")
    await manager.lobby_action("t1", CAROL, "Carol", "join")
    await manager.lobby_action("t1", ALICE, "Alice", "start")
    return manager


async def test_turn_timeout_draws_and_passes(storage: Storage) -> None:
    scheduler = ManualScheduler()
    manager = await timed_table(storage, scheduler)
    table = manager.get("t1")
    game = table.match.game  # type: ignore[union-attr]
    if game.phase is Phase.COLOR:
        await manager.act("t1", user_at(table, game.current), table.version, "color", "red")
    seat = game.current
    cards = len(game.hands[seat])
    deadline = manager.get("t1").deadline
    assert deadline == scheduler.now + 60 and scheduler.pending("t1:turn")
    await scheduler.advance(59)
    assert manager.get("t1").match.game.current == seat  # type: ignore[union-attr]
    await scheduler.advance(2)
    table = manager.get("t1")
    game = table.match.game  # type: ignore[union-attr]
    assert len(game.hands[seat]) == cards + 1 and game.current != seat
    assert table.timeouts[seat] == 1 and "ran out of time" in " ".join(table.log)
    assert table.deadline == deadline + 60  # the next player's clock, from the timeout


async def test_prompt_timeouts_accept_and_choose_a_color(storage: Storage) -> None:
    scheduler = ManualScheduler()
    manager = await timed_table(storage, scheduler, limit=99)
    for _ in range(400):
        table = manager.get("t1")
        game = table.match.game  # type: ignore[union-attr]
        if game.phase is Phase.RESPOND:
            seat = game.current
            cards = len(game.hands[seat])
            penalty = 4 if game.pending_card == 53 else 2
            await scheduler.advance(61)
            after = manager.get("t1").match.game  # type: ignore[union-attr]
            assert len(after.hands[seat]) == cards + penalty  # accepted
            assert after.current != seat  # and skipped
            return
        if game.phase is Phase.COLOR:
            await scheduler.advance(61)  # the color timeout names a color
            assert manager.get("t1").match.game.phase is Phase.TURN  # type: ignore[union-attr]
            continue
        action, arg = play_arg(table)
        await manager.act("t1", user_at(table, game.current), table.version, action, arg)
    pytest.fail("no draw2 came up to time out on")


async def test_removed_after_n_timeouts(storage: Storage) -> None:
    scheduler = ManualScheduler()
    manager = await timed_table(storage, scheduler, limit=2)
    for _ in range(12):
        if "t1" not in manager.tables:
            break
        await scheduler.advance(61)
    table = manager.tables.get("t1")
    # Everybody idles: players are removed after two timeouts each until one is left.
    assert table is None
    assert len(await storage.recent_matches(1, 10, 0)) == 1


async def test_deadline_survives_a_restart(storage: Storage) -> None:
    scheduler = ManualScheduler()
    manager = await timed_table(storage, scheduler)
    await scheduler.advance(20)
    deadline = manager.get("t1").deadline
    current = manager.get("t1").match.game.current  # type: ignore[union-attr]
    later = ManualScheduler(start=scheduler.now)
    fresh = manager_on(storage, later)
    await fresh.restore()
    assert fresh.get("t1").deadline == deadline and later.due("t1:turn") == deadline
    await later.advance(41)
    assert fresh.get("t1").match.game.current != current  # type: ignore[union-attr]


async def test_a_normal_computer_catches_a_forgotten_uno(storage: Storage) -> None:
    scheduler = ManualScheduler()
    manager = manager_on(storage, scheduler)
    await manager.create("t1", 1, 100, ALICE, "Alice", RuleSet(target=5000), threads=True)
    await manager.lobby_action("t1", BOB, "Bob", "join")
    await manager.lobby_action("t1", ALICE, "Alice", "computer", "normal")
    await manager.lobby_action("t1", ALICE, "Alice", "start")
    table = manager.get("t1")
    game = table.match.game  # type: ignore[union-attr]
    for _ in range(3000):
        table = manager.get("t1")
        game = table.match.game  # type: ignore[union-attr]
        seat = game.current
        if table.status is Status.ROUND_OVER:
            await scheduler.advance(31)
            continue
        if table.seats[seat].computer is not None:
            await scheduler.advance(1.0)
            continue
        playable = game.playable(seat)
        if len(game.hands[seat]) == 2 and playable and game.phase is Phase.TURN:
            code = CODES[playable[0]]
            arg = f"0.{code}" + (".red" if code.startswith("wild") else "")
            await manager.act("t1", user_at(table, seat), table.version, "play", arg)  # no UNO
            if manager.get("t1").match.game.catchable() == seat:  # type: ignore[union-attr]
                assert scheduler.pending("t1:catch")
                await scheduler.advance(1.2)
                caught = manager.get("t1").match.game  # type: ignore[union-attr]
                assert any(e["type"] == "catch" for e in caught.events)
                assert len(caught.hands[seat]) == 3
                return
            continue
        action, arg = play_arg(table)
        await manager.act("t1", user_at(table, seat), table.version, action, arg)
    pytest.fail("no human went down to one card")
