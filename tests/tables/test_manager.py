"""The table manager against a real SQLite file, with hand-driven timers."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from bot.engine import Action, Game, RuleSet
from bot.engine.ai import ChallengeRecord, decide
from bot.engine.ai_memory import BLUFF
from bot.engine.cards import CARD_INDEX, Edition
from bot.engine.game import Phase
from bot.storage import Storage, StorageWriteError
from bot.tables.commands import (
    ANY_SEAT,
    AddComputer,
    ArmUno,
    Join,
    Leave,
    Look,
    SetHouseRule,
    ShowHand,
    Start,
)
from bot.tables.manager import TableManager
from bot.tables.refusals import StaleClick, TableError
from bot.tables.scheduler import ManualScheduler
from bot.tables.snapshot import TableSnapshot, snapshot_of
from bot.tables.table import Status, Table
from tests.tables.helpers import (
    ALICE,
    BOB,
    CAROL,
    MALLORY,
    legal,
    manager_on,
    move,
    started,
    user_at,
    who,
)


async def test_lobby_join_leave_start_and_host_rules(storage: Storage) -> None:
    manager = manager_on(storage)
    rules = RuleSet(edition=Edition.MARIO)
    await manager.create("t1", 1, 100, who(ALICE), rules, threads=True)
    with pytest.raises(TableError, match="already in"):
        await manager.act("t1", who(ALICE), Join())
    with pytest.raises(TableError, match="At least 2"):
        await manager.act("t1", who(ALICE), Start())
    await manager.act("t1", who(BOB), Join())
    with pytest.raises(TableError, match="Only the host"):
        await manager.act("t1", who(BOB), Start())
    with pytest.raises(TableError, match="at most 200") as refused:
        await manager.act("t1", who(ALICE), SetHouseRule("x" * 201))
    assert refused.value.note.key == "house_rule_too_long"
    assert refused.value.note.get("limit") == 200
    outcome = await manager.act("t1", who(ALICE), SetHouseRule("Swap hands @everyone"))
    assert outcome.table.house_rule == "Swap hands @everyone"
    assert outcome.note is not None and outcome.note.english() == "House rule saved."
    await manager.act("t1", who(ALICE), Leave())
    assert manager.tables["t1"].host_id == BOB  # the host's chair passes on
    outcome = await manager.act("t1", who(BOB), Leave())
    assert outcome.table.status is Status.CANCELLED and "t1" not in manager.tables
    assert await storage.load_tables() == []
    assert len(manager.registry.locks) == 0  # a closed table's lock is gone too


async def test_one_table_per_channel_without_threads(storage: Storage) -> None:
    manager = manager_on(storage)
    await manager.create("t1", 1, 100, who(ALICE), RuleSet(), threads=False)
    with pytest.raises(TableError, match="already open"):
        await manager.create("t2", 1, 100, who(BOB), RuleSet(), threads=False)
    await manager.create("t3", 1, 100, who(BOB), RuleSet(), threads=True)  # threads: fine


async def test_stale_and_double_clicks_apply_once(storage: Storage) -> None:
    manager = manager_on(storage)
    table = await started(manager)
    version = table.version
    command = legal(table)
    user = who(user_at(table, table.match.game.current))  # type: ignore[union-attr]
    outcome = await manager.act("t1", user, command, version)
    assert outcome.changed and outcome.version == version + 1
    with pytest.raises(StaleClick) as stale:
        await manager.act("t1", user, command, version)
    assert manager.tables["t1"].version == version + 1
    # The refusal carries the table and the clicker's hand as they stand now.
    current = stale.value.current
    assert current is not None and current.version == version + 1 and current.hand is not None


async def test_not_seated_and_out_of_turn_are_refused(storage: Storage) -> None:
    manager = manager_on(storage)
    table = await started(manager)
    draw = Action(ANY_SEAT, "draw")
    with pytest.raises(TableError, match="not playing") as refused:
        await manager.act("t1", who(MALLORY), draw, table.version)
    assert refused.value.current is not None and refused.value.current.hand is None
    current = table.match.game.current  # type: ignore[union-attr]
    other = next(s for s in range(3) if s != current)
    with pytest.raises(TableError, match="not your turn") as refused:
        await manager.act("t1", who(user_at(table, other)), draw, table.version)
    assert refused.value.note.key == "rule" and refused.value.note.get("code") == "not_your_turn"
    assert manager.tables["t1"].version == table.version


async def test_outcome_is_one_consistent_moment(storage: Storage) -> None:
    manager = manager_on(storage)
    table = await started(manager)
    seat = table.match.game.current  # type: ignore[union-attr]
    outcome = await manager.act("t1", who(user_at(table, seat)), legal(table), table.version)
    snap = outcome.table
    assert isinstance(snap, TableSnapshot) and snap.public is not None
    assert outcome.hand is not None and outcome.hand.seat == seat
    live = manager.tables["t1"]
    assert snap.version == live.version and snap.log == tuple(live.log)
    with pytest.raises(dataclasses.FrozenInstanceError):
        snap.version = 0  # type: ignore[misc]
    # Later changes never reach a snapshot already taken.
    await move(manager)
    assert snap.version == outcome.version and manager.tables["t1"].version > snap.version


async def test_listeners_hear_snapshots_never_the_live_table(storage: Storage) -> None:
    manager = manager_on(storage)
    heard: list[object] = []
    manager.subscribe(heard.append)
    table = await started(manager)
    assert heard and all(isinstance(s, TableSnapshot) for s in heard)
    versions = [s.version for s in heard if isinstance(s, TableSnapshot)]
    assert versions == sorted(versions) and versions[-1] == table.version


async def test_doing_nothing_keeps_the_version(storage: Storage) -> None:
    manager = manager_on(storage)
    table = await started(manager)
    heard: list[TableSnapshot] = []
    manager.subscribe(heard.append)
    version = table.version
    seat = table.match.game.current  # type: ignore[union-attr]
    other = next(s for s in range(3) if s != seat)
    nobody = Action(ANY_SEAT, "catch", target=seat)  # nobody is catchable at the start
    for _ in range(5):
        outcome = await manager.act("t1", who(user_at(table, other)), nobody)
        assert not outcome.changed and outcome.note is not None
        assert outcome.note.key == "catch_missed"
    for command in (Look(), ShowHand()):
        assert not (await manager.act("t1", who(user_at(table, seat)), command)).changed
    assert manager.tables["t1"].version == version and heard == []


async def test_log_is_structured_and_old_lines_still_load(storage: Storage) -> None:
    manager = manager_on(storage)
    await started(manager)
    await move(manager)
    saved = json.loads(manager.tables["t1"].to_record())
    assert all(isinstance(line, dict) and "kind" in line for line in saved["log"])
    saved["log"] = ["**Alice** played Red 7", *saved["log"]]
    restored = Table.from_record(json.dumps(saved))
    assert restored.log[0] == "**Alice** played Red 7"
    assert restored.to_record() == json.dumps(saved, separators=(",", ":"))


async def test_failed_save_changes_nothing(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    manager = manager_on(storage)
    table = await started(manager)
    before = table.to_record()

    async def broken(record: object, seen: object = None) -> None:
        raise StorageWriteError("database or disk is full")

    monkeypatch.setattr(storage, "save_table", broken)
    user = who(user_at(table, table.match.game.current))  # type: ignore[union-attr]
    with pytest.raises(TableError, match="Could not save"):
        await manager.act("t1", user, legal(table), table.version)
    assert manager.tables["t1"].to_record() == before
    monkeypatch.undo()
    table = manager.tables["t1"]
    await manager.act("t1", user, legal(table), table.version)  # a retry works


async def test_restart_restores_every_table_exactly(storage: Storage) -> None:
    manager = manager_on(storage)
    await started(manager)
    for _ in range(5):
        await move(manager)
    assert await manager.set_table_message("t1", 4242)
    assert await manager.set_lobby_message("t1", 4343)
    saved = manager.tables["t1"].to_record()
    fresh = manager_on(storage)
    heard: list[TableSnapshot] = []
    fresh.subscribe(heard.append)
    restored = await fresh.restore()
    assert [t.table_id for t in restored] == ["t1"] == [t.table_id for t in heard]
    assert fresh.tables["t1"].to_record() == saved
    assert restored[0].table_message_id == 4242 and restored[0].lobby_message_id == 4343


async def test_computers_hand_over_engine_actions_and_finish_a_match(storage: Storage) -> None:
    scheduler = ManualScheduler()
    decided: list[Action] = []
    records: list[ChallengeRecord] = []

    def brain(
        game: Game,
        seat: int,
        level: str,
        rng: random.Random,
        *,
        record: ChallengeRecord,
        partners_see: bool,
    ) -> Action:
        assert not partners_see  # no teams at this table
        action = decide(game, seat, level, rng, record=record)
        decided.append(action)
        records.append(record)
        return action

    manager = TableManager(storage, scheduler=scheduler, rng=random.Random(3), brain=brain)
    rules = RuleSet(edition=Edition.SONIC, target=None)
    await manager.create("t9", 5, 100, who(ALICE), rules, threads=True)
    for level in ("easy", "normal", "hard"):
        await manager.act("t9", who(ALICE), AddComputer(level))
    await manager.act("t9", who(ALICE), Leave())  # only computers would be left
    assert "t9" not in manager.tables  # a lobby with no human closes

    await manager.create("t10", 5, 100, who(ALICE), rules, threads=True)
    for level in ("normal", "easy", "hard"):
        await manager.act("t10", who(ALICE), AddComputer(level))
    await manager.act("t10", who(ALICE), Start())
    # What the match saw of Wild Draw Fours before reaches its computers, as a private copy.
    match = manager.tables["t10"].match
    assert match is not None
    match.challenges.add({0: [BLUFF, BLUFF]})
    for _ in range(2000):
        table = manager.tables.get("t10")
        if table is None:
            break
        game = table.match.game  # type: ignore[union-attr]
        if table.seats[game.current].computer is None:
            await manager.act("t10", who(ALICE), legal(table), table.version)
        else:
            assert scheduler.pending("t10:computer")
            await scheduler.advance(5)
    assert "t10" not in manager.tables
    assert decided and all(isinstance(a, Action) for a in decided)
    assert records and all(r.of(0) == [BLUFF, BLUFF] for r in records)
    assert all(r is not match.challenges for r in records)
    page = await storage.recent_matches(5, 10, 0)
    assert len(page) == 1
    assert await storage.load_tables() == []


async def test_round_over_then_next_round_by_timer(storage: Storage) -> None:
    scheduler = ManualScheduler()
    manager = manager_on(storage, scheduler)
    await started(manager, target=5000)
    for _ in range(3000):
        if manager.tables["t1"].status is Status.ROUND_OVER:
            break
        await move(manager)
    table = manager.tables["t1"]
    assert table.status is Status.ROUND_OVER
    assert scheduler.pending("t1:next")
    # A click meanwhile is refused with the time the next round starts, as Discord shows it.
    with pytest.raises(TableError) as refused:
        await manager.act("t1", who(user_at(table, 0)), Action(ANY_SEAT, "draw"), table.version)
    assert refused.value.note.key == "round_over_until"
    assert refused.value.note.get("when") == f"<t:{int(table.next_round_at or 0)}:R>"
    assert "starts <t:" in refused.value.message
    await scheduler.advance(29)
    assert manager.tables["t1"].status is Status.ROUND_OVER
    await scheduler.advance(2)
    table = manager.tables["t1"]
    assert table.status is Status.PLAYING and table.match.round_number == 2  # type: ignore[union-attr]


async def timed_table(storage: Storage, scheduler: ManualScheduler, limit: int = 3) -> TableManager:
    manager = manager_on(storage, scheduler)
    rules = RuleSet(edition=Edition.MARIO, target=None)
    await manager.create(
        "t1", 1, 100, who(ALICE), rules, threads=True, turn_seconds=60, timeout_limit=limit
    )
    await manager.act("t1", who(BOB), Join())
    await manager.act("t1", who(CAROL), Join())
    await manager.act("t1", who(ALICE), Start())
    return manager


async def test_turn_timeout_draws_and_passes(storage: Storage) -> None:
    scheduler = ManualScheduler()
    manager = await timed_table(storage, scheduler)
    table = manager.tables["t1"]
    game = table.match.game  # type: ignore[union-attr]
    if game.phase is Phase.COLOR:
        await move(manager)
    seat = game.current
    cards = len(game.hands[seat])
    deadline = manager.tables["t1"].deadline
    assert deadline == scheduler.now + 60 and scheduler.pending("t1:turn")
    await scheduler.advance(59)
    assert manager.tables["t1"].match.game.current == seat  # type: ignore[union-attr]
    await scheduler.advance(2)
    table = manager.tables["t1"]
    game = table.match.game  # type: ignore[union-attr]
    assert len(game.hands[seat]) == cards + 1 and game.current != seat
    kinds = [getattr(line, "kind", None) for line in table.log]
    assert table.timeouts[seat] == 1 and "timed_out" in kinds
    assert table.deadline == deadline + 60  # the next player's clock, from the timeout


async def test_prompt_timeouts_accept_and_choose_a_color(storage: Storage) -> None:
    scheduler = ManualScheduler()
    manager = await timed_table(storage, scheduler, limit=99)
    for _ in range(400):
        game = manager.tables["t1"].match.game  # type: ignore[union-attr]
        if game.phase is Phase.RESPOND:
            seat = game.current
            cards = len(game.hands[seat])
            penalty = 4 if game.pending_card == 53 else 2
            await scheduler.advance(61)
            after = manager.tables["t1"].match.game  # type: ignore[union-attr]
            assert len(after.hands[seat]) == cards + penalty  # accepted
            assert after.current != seat  # and skipped
            return
        if game.phase is Phase.COLOR:
            await scheduler.advance(61)  # the color timeout names a color
            assert manager.tables["t1"].match.game.phase is Phase.TURN  # type: ignore[union-attr]
            continue
        await move(manager)
    pytest.fail("no draw2 came up to time out on")


async def test_removed_after_n_timeouts(storage: Storage) -> None:
    scheduler = ManualScheduler()
    manager = await timed_table(storage, scheduler, limit=2)
    for _ in range(12):
        if "t1" not in manager.tables:
            break
        await scheduler.advance(61)
    # Everybody idles: players are removed after two timeouts each until one is left.
    assert "t1" not in manager.tables
    assert len(await storage.recent_matches(1, 10, 0)) == 1


async def test_deadline_survives_a_restart(storage: Storage) -> None:
    scheduler = ManualScheduler()
    manager = await timed_table(storage, scheduler)
    await scheduler.advance(20)
    deadline = manager.tables["t1"].deadline
    current = manager.tables["t1"].match.game.current  # type: ignore[union-attr]
    later = ManualScheduler(start=scheduler.now)
    fresh = manager_on(storage, later)
    await fresh.restore()
    assert fresh.tables["t1"].deadline == deadline and later.due("t1:turn") == deadline
    await later.advance(41)
    assert fresh.tables["t1"].match.game.current != current  # type: ignore[union-attr]


async def test_lobby_expiry_survives_a_restart(storage: Storage) -> None:
    scheduler = ManualScheduler()
    manager = manager_on(storage, scheduler)
    await manager.create("t1", 1, 100, who(ALICE), RuleSet(), threads=True, lobby_seconds=300)
    assert await manager.set_lobby_message("t1", 777)
    later = ManualScheduler(start=scheduler.now + 10)
    fresh = manager_on(storage, later)
    heard: list[TableSnapshot] = []
    fresh.subscribe(heard.append)
    await fresh.restore()
    await later.advance(300)
    closed = heard[-1]
    assert closed.status is Status.CANCELLED and closed.lobby_message_id == 777
    assert "t1" not in fresh.tables and await storage.load_tables() == []


async def test_uno_is_armed_with_two_cards_and_called_with_one(storage: Storage) -> None:
    manager = manager_on(storage)
    table = await started(manager)
    game = table.match.game  # type: ignore[union-attr]
    if game.phase is Phase.COLOR:
        await move(manager)
    seat = game.current
    # Two cards, the first of the color in force: arming goes with the next play.
    game.hands[seat][:] = [game.color * 13 + 5, game.color * 13 + 6]
    user = who(user_at(table, seat))
    armed = await manager.act("t1", user, ArmUno(), table.version)
    assert armed.changed and armed.hand is not None and armed.hand.uno_armed
    withdrawn = await manager.act("t1", user, ArmUno(), armed.version)
    assert withdrawn.hand is not None and not withdrawn.hand.uno_armed
    await manager.act("t1", user, ArmUno(), withdrawn.version)
    play = Action(ANY_SEAT, "play", game.color * 13 + 5)
    played = await manager.act("t1", user, play, manager.tables["t1"].version)
    assert game.called[seat] and any(e["type"] == "uno" for e in game.events[-3:])
    # Calling again changes nothing and keeps the version.
    again = await manager.act("t1", user, Action(ANY_SEAT, "call_uno"))
    assert not again.changed and again.version == played.version


async def test_a_normal_computer_catches_a_forgotten_uno(storage: Storage) -> None:
    scheduler = ManualScheduler()
    manager = manager_on(storage, scheduler)
    await manager.create("t1", 1, 100, who(ALICE), RuleSet(target=5000), threads=True)
    await manager.act("t1", who(BOB), Join())
    await manager.act("t1", who(ALICE), AddComputer("normal"))
    await manager.act("t1", who(ALICE), Start())
    for _ in range(3000):
        table = manager.tables["t1"]
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
            wild = playable[0] >= CARD_INDEX["wild"]
            play = Action(ANY_SEAT, "play", playable[0], 0 if wild else None)
            await manager.act("t1", who(user_at(table, seat)), play, table.version)  # no UNO
            if manager.tables["t1"].match.game.catchable() == seat:  # type: ignore[union-attr]
                assert scheduler.pending("t1:catch")
                await scheduler.advance(1.2)
                caught = manager.tables["t1"].match.game  # type: ignore[union-attr]
                assert any(e["type"] == "catch" for e in caught.events)
                assert len(caught.hands[seat]) == 3
                return
            continue
        await manager.act("t1", who(user_at(table, seat)), legal(table), table.version)
    pytest.fail("no human went down to one card")


async def test_a_restored_table_is_unchanged_until_its_first_change(storage: Storage) -> None:
    manager = manager_on(storage)
    await started(manager)
    live = manager.tables["t1"]
    # A table of this run was never restored: its pictures are someone's.
    assert not manager.unchanged_since_restore(snapshot_of(live))
    fresh = manager_on(storage)
    [restored] = await fresh.restore()
    assert restored.version == live.version
    assert fresh.unchanged_since_restore(restored)
    heard: list[TableSnapshot] = []
    fresh.subscribe(heard.append)
    await move(fresh)
    assert not fresh.unchanged_since_restore(heard[-1])
    assert not fresh.unchanged_since_restore(restored)  # forgotten, not kept per table
    assert fresh.registry.restored == {}
