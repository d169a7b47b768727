"""House rules at the table: chosen in the lobby, played through the manager (stacks, jump-ins
and their races, swaps), timeouts and computers on every new prompt, a stalled round, restarts."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.engine import PRESETS, Action, HouseRules, RuleSet
from bot.engine.cards import CARD_INDEX, CODES, COLOR_INDEX, Edition
from bot.engine.game import Phase
from bot.engine.house import Stack
from bot.engine.stalemate import stall_winner, stalled
from bot.storage import Storage
from bot.tables.commands import (
    ANY_SEAT,
    Actor,
    AddComputer,
    CheckHouseRules,
    CheckStart,
    ChoosePreset,
    Join,
    SetHouseOption,
    Start,
)
from bot.tables.house_words import explain, rules_line
from bot.tables.manager import TableManager
from bot.tables.narrate import narrate
from bot.tables.refusals import StaleClick, TableError
from bot.tables.scheduler import ManualScheduler
from bot.tables.snapshot import hand_of
from bot.tables.table import Status, Table
from bot.tables.tablelog import LogEntry
from tests.helpers import give, hand_of_exactly, put_on_top

ALICE, BOB, CAROL = 11, 22, 33
NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol"}


def who(user_id: int) -> Actor:
    return Actor(user_id, NAMES.get(user_id, "Someone"))


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    store = await Storage.open(tmp_path / "uno.db")
    try:
        yield store
    finally:
        await store.close()


def manager_on(storage: Storage, scheduler: ManualScheduler | None = None) -> TableManager:
    return TableManager(storage, scheduler=scheduler or ManualScheduler(), rng=random.Random(5))


async def house_table(
    manager: TableManager,
    house: HouseRules,
    *,
    edition: Edition = Edition.CLASSIC,
    users: tuple[int, ...] = (ALICE, BOB, CAROL),
    turn_seconds: int | None = None,
    table_id: str = "t1",
) -> Table:
    """A started single-round table of ``users`` playing ``house``, awaiting a turn."""
    rules = RuleSet(edition=edition, target=None, house=house)
    await manager.create(
        table_id, 1, 100, who(users[0]), rules, threads=True, turn_seconds=turn_seconds
    )
    for user in users[1:]:
        await manager.act(table_id, who(user), Join())
    await manager.act(table_id, who(users[0]), Start())
    table = manager.tables[table_id]
    game = table.match.game  # type: ignore[union-attr]
    if game.phase is Phase.COLOR:
        game.choose_color(game.current, 0)
    return table


def user_at(table: Table, seat: int) -> Actor:
    return who(table.seats[seat].user_id)


def kinds(table: Table) -> list[str]:
    return [line.kind for line in table.log if isinstance(line, LogEntry)]


def play(code: str, color: str | None = None, target: int | None = None) -> Action:
    named = COLOR_INDEX[color] if color else None
    return Action(ANY_SEAT, "play", CARD_INDEX[code], named, target=target)


# ----- the lobby -----


async def test_the_host_chooses_a_preset_and_options_one_by_one(storage: Storage) -> None:
    manager = manager_on(storage)
    await manager.create("t1", 1, 100, who(ALICE), RuleSet(), threads=True)
    await manager.act("t1", who(BOB), Join())
    with pytest.raises(TableError) as refused:
        await manager.act("t1", who(BOB), ChoosePreset("party"))
    assert refused.value.note.key == "host_only_house_rules"
    with pytest.raises(TableError) as refused:
        await manager.act("t1", who(BOB), CheckHouseRules())
    assert refused.value.note.key == "host_only_house_rules"

    chosen = await manager.act("t1", who(ALICE), ChoosePreset("party"))
    assert chosen.changed and chosen.table.rules.house == PRESETS["party"]
    assert chosen.note is not None and chosen.note.english() == "House rules saved."
    again = await manager.act("t1", who(ALICE), ChoosePreset("party"))
    assert not again.changed and again.version == chosen.version  # nothing new: no save

    for bad in (ChoosePreset("wild"), SetHouseOption("hand_size", 99)):
        with pytest.raises(TableError) as refused:
            await manager.act("t1", who(ALICE), bad)
        assert refused.value.note.key == "bad_house_option"
    with pytest.raises(TableError) as refused:
        await manager.act("t1", who(ALICE), SetHouseOption("jump_in", "yes"))
    assert refused.value.note.key == "bad_house_option"
    with pytest.raises(TableError) as refused:  # Classic has no Wild Customizable
        await manager.act("t1", who(ALICE), SetHouseOption("custom_effect", "play_again"))
    assert refused.value.note.key == "no_custom_card"

    nine = await manager.act("t1", who(ALICE), SetHouseOption("hand_size", 9))
    assert nine.table.rules.house.hand_size == 9
    line = rules_line(nine.table.rules.house)
    assert line == "House rules: stacking (all) · jump-in · 7-0 · 9 cards each"
    assert rules_line(HouseRules()) == "Official rules"
    assert len(explain(nine.table.rules.house)) == 4

    await manager.act("t1", who(ALICE), Start())
    table = manager.tables["t1"]
    assert all(len(hand) == 9 for hand in table.match.game.hands)  # type: ignore[union-attr]
    with pytest.raises(TableError) as refused:
        await manager.act("t1", who(ALICE), SetHouseOption("jump_in", False))
    assert refused.value.note.key == "lobby_closed"


async def test_a_wild_customizable_effect_only_reaches_super_mario_tables(
    storage: Storage,
) -> None:
    manager = manager_on(storage)
    house = HouseRules.parse({"custom_effect": "play_again", "jump_in": True})
    classic = await manager.create("c", 1, 100, who(ALICE), RuleSet(house=house), threads=True)
    assert classic.table.rules.house == HouseRules(jump_in=True)
    mario = RuleSet(edition=Edition.MARIO, house=house)
    created = await manager.create("m", 1, 100, who(BOB), mario, threads=True)
    assert created.table.rules.house == house
    changed = await manager.act("m", who(BOB), SetHouseOption("custom_effect", "swap_hands"))
    assert changed.table.rules.house.custom_effect.value == "swap_hands"


async def test_a_deal_the_deck_cannot_hold_is_refused_before_the_start(storage: Storage) -> None:
    manager = manager_on(storage)
    await manager.create("t1", 1, 100, who(ALICE), RuleSet(), threads=True)
    await manager.act("t1", who(ALICE), SetHouseOption("hand_size", 15))
    for _ in range(7):
        await manager.act("t1", who(ALICE), AddComputer("easy"))
    for command in (CheckStart(), Start()):
        with pytest.raises(TableError) as refused:
            await manager.act("t1", who(ALICE), command)
        assert refused.value.note.key == "deal_too_big"
        assert "15 cards each is too many for 8 players" in refused.value.message
    assert manager.tables["t1"].status is Status.LOBBY


# ----- stacking -----


async def test_a_stacked_penalty_survives_a_restart_unchanged(storage: Storage) -> None:
    manager = manager_on(storage)
    table = await house_table(manager, PRESETS["party"])
    game = table.match.game  # type: ignore[union-attr]
    first = game.current
    second, third = game.next_seat(first), game.next_seat(game.next_seat(first))
    put_on_top(game, "red-5")
    give(game, first, ["red-draw2"])
    give(game, second, ["blue-draw2"])
    await manager.act("t1", user_at(table, first), play("red-draw2"), table.version)
    assert game.phase is Phase.RESPOND and game.penalty == 2 and game.current == second
    stacked = await manager.act("t1", user_at(table, second), play("blue-draw2"), table.version)
    public = stacked.table.public
    assert public is not None and public.penalty == 4 and public.penalty_target == third
    assert stacked.table.answers == ("accept", "stack")  # whatever the target holds
    target_hand = hand_of(table, third)
    assert target_hand is not None and target_hand.view.can_accept
    assert target_hand.view.penalty == 4
    assert "stack" in kinds(table)
    assert "now faces +4" in narrate(table.log[-1], table.names())

    saved = table.to_record()
    fresh = manager_on(storage)
    await fresh.restore()
    restored = fresh.tables["t1"]
    assert restored.to_record() == saved
    assert restored.rules.house == PRESETS["party"]
    cards = len(restored.match.game.hands[third])  # type: ignore[union-attr]
    accept = Action(ANY_SEAT, "accept")
    done = await fresh.act("t1", user_at(restored, third), accept, restored.version)
    after = fresh.tables["t1"].match.game  # type: ignore[union-attr]
    assert len(after.hands[third]) == cards + 4 and after.phase is Phase.TURN
    assert done.table.log[-2] == LogEntry("accept", seat=third, count=4)


# ----- jump-ins and their races -----


async def jump_in_setup(storage: Storage) -> tuple[TableManager, Table, int, int]:
    """A jump-in table where the awaited seat holds a green 3 and the next one the green 5
    that is on top: (manager, table, awaited seat, jumper)."""
    manager = manager_on(storage)
    table = await house_table(manager, HouseRules(jump_in=True))
    game = table.match.game  # type: ignore[union-attr]
    current = game.current
    jumper = game.next_seat(game.next_seat(current))
    put_on_top(game, "green-5")
    give(game, current, ["green-3"])
    give(game, jumper, ["green-5"])
    return manager, table, current, jumper


async def test_a_jump_in_takes_the_turn_and_the_slower_player_is_told_why(
    storage: Storage,
) -> None:
    manager, table, current, jumper = await jump_in_setup(storage)
    version = table.version
    jumper_hand = hand_of(table, jumper)
    assert jumper_hand is not None and any(jumper_hand.view.jump_in)
    await manager.act("t1", user_at(table, jumper), play("green-5"), version)
    game = table.match.game  # type: ignore[union-attr]
    assert "jump_in" in kinds(table) and game.current == game.next_seat(jumper)
    with pytest.raises(StaleClick) as late:
        await manager.act("t1", user_at(table, current), play("green-3"), version)
    name = table.seats[jumper].name
    assert late.value.note.key == "turn_taken" and late.value.note.get("name") == name
    assert f"{name}** jumped in first" in late.value.message
    assert late.value.current is not None and late.value.current.hand is not None


async def test_a_jump_in_after_the_awaited_move_is_too_late(storage: Storage) -> None:
    manager, table, current, jumper = await jump_in_setup(storage)
    version = table.version
    await manager.act("t1", user_at(table, current), play("green-3"), version)
    with pytest.raises(StaleClick) as late:
        await manager.act("t1", user_at(table, jumper), play("green-5"), version)
    assert late.value.note.key == "jump_in_too_late"
    assert late.value.note.get("name") == table.seats[current].name
    # An unrelated stale click still gets the plain note.
    with pytest.raises(StaleClick) as stale:
        await manager.act("t1", user_at(table, jumper), Action(ANY_SEAT, "draw"), version - 1)
    assert stale.value.note.key == "stale_hand"


async def test_simultaneous_clicks_race_under_the_lock_and_one_wins(storage: Storage) -> None:
    manager, table, current, jumper = await jump_in_setup(storage)
    version = table.version
    results = await asyncio.gather(
        manager.act("t1", user_at(table, jumper), play("green-5"), version),
        manager.act("t1", user_at(table, current), play("green-3"), version),
        return_exceptions=True,
    )
    won = [r for r in results if not isinstance(r, BaseException)]
    lost = [r for r in results if isinstance(r, StaleClick)]
    assert len(won) == 1 and len(lost) == 1
    assert lost[0].note.key in ("turn_taken", "jump_in_too_late")
    assert table.version == version + 1


async def test_normal_computers_jump_in_through_the_same_check(storage: Storage) -> None:
    scheduler = ManualScheduler()
    manager = manager_on(storage, scheduler)
    rules = RuleSet(target=None, house=HouseRules(jump_in=True))
    await manager.create("t1", 1, 100, who(ALICE), rules, threads=True)
    await manager.act("t1", who(BOB), Join())
    await manager.act("t1", who(ALICE), AddComputer("normal"))
    await manager.act("t1", who(ALICE), Start())
    table = manager.tables["t1"]
    game = table.match.game  # type: ignore[union-attr]
    while table.seats[game.current].computer is not None or game.phase is not Phase.TURN:
        if table.seats[game.current].computer is None:  # a first wild: name its color
            color = Action(ANY_SEAT, "choose_color", color=0)
            await manager.act("t1", user_at(table, game.current), color, table.version)
        else:
            await scheduler.advance(3)  # the computer moves first
        table = manager.tables["t1"]
        game = table.match.game  # type: ignore[union-attr]
    assert scheduler.pending("t1:jump")
    put_on_top(game, "yellow-8")
    give(game, 2, ["yellow-8"])
    stale_version = table.version - 1
    await manager.computer_jump_in("t1", stale_version)  # the table moved on: nothing happens
    assert "jump_in" not in kinds(table)
    await scheduler.advance(1.2)  # a human-like pause, then the computer jumps in
    assert kinds(table)[-2:] == ["jump_in", "play"] and table.log[-2] == LogEntry("jump_in", 2)


# ----- 7-0 -----


async def test_a_seven_swaps_hands_with_the_player_named_and_tells_no_card(
    storage: Storage,
) -> None:
    manager = manager_on(storage)
    table = await house_table(manager, HouseRules(seven_o=True))
    game = table.match.game  # type: ignore[union-attr]
    seat = game.current
    other = game.next_seat(game.next_seat(seat))
    put_on_top(game, "red-5")
    give(game, seat, ["red-7"])
    hand = hand_of(table, seat)
    assert hand is not None
    seven = hand.view.cards.index("red-7")
    assert hand.view.needs_target[seven] and set(hand.view.targets) == {0, 1, 2} - {seat}
    with pytest.raises(TableError) as refused:
        await manager.act("t1", user_at(table, seat), play("red-7"), table.version)
    assert refused.value.note.get("code") == "bad_action"
    theirs = list(game.hands[other])
    mine = [c for c in game.hands[seat]]
    mine.remove(CARD_INDEX["red-7"])
    await manager.act("t1", user_at(table, seat), play("red-7", target=other), table.version)
    assert game.hands[seat] == theirs and game.hands[other] == mine
    swap = next(line for line in table.log if getattr(line, "kind", "") == "swap")
    assert narrate(swap, table.names()) == (
        f"**{table.seats[seat].name}** swapped hands with **{table.seats[other].name}**"
    )


# ----- timeouts -----


async def test_a_timeout_under_must_play_plays_instead_of_drawing(storage: Storage) -> None:
    scheduler = ManualScheduler()
    manager = manager_on(storage, scheduler)
    table = await house_table(manager, HouseRules(must_play=True), turn_seconds=60)
    game = table.match.game  # type: ignore[union-attr]
    seat = game.current
    put_on_top(game, "blue-4")
    give(game, seat, ["blue-9"])
    cards = len(game.hands[seat])
    await scheduler.advance(61)
    assert kinds(table)[-2:] == ["timed_out", "play"]
    assert len(game.hands[seat]) == cards - 1 and game.current != seat


async def test_a_timeout_accepts_a_stacked_penalty(storage: Storage) -> None:
    scheduler = ManualScheduler()
    manager = manager_on(storage, scheduler)
    table = await house_table(manager, HouseRules(stack=Stack.DRAW2), turn_seconds=60)
    game = table.match.game  # type: ignore[union-attr]
    seat = game.current
    target = game.next_seat(seat)
    put_on_top(game, "red-5")
    give(game, seat, ["red-draw2"])
    give(game, target, ["green-draw2"])
    await manager.act("t1", user_at(table, seat), play("red-draw2"), table.version)
    cards = len(game.hands[target])
    await scheduler.advance(61)  # the target could stack, but a timeout takes the penalty
    assert len(game.hands[target]) == cards + 2 and game.phase is Phase.TURN
    assert LogEntry("accept", seat=target, count=2) in table.log


# ----- a round nobody can finish -----


async def test_a_round_nobody_can_finish_ends_with_the_fewest_points(storage: Storage) -> None:
    manager = manager_on(storage)
    house = HouseRules(wd4_strict=True)
    table = await house_table(manager, house, edition=Edition.SONIC, users=(ALICE, BOB))
    game = table.match.game  # type: ignore[union-attr]
    seat = game.current
    other = game.next_seat(seat)
    put_on_top(game, "red-5")
    # In Sonic, another Wild Draw Four counts as the color in force: none may be played.
    hand_of_exactly(game, seat, ["wild-draw4", "wild-draw4"])
    hand_of_exactly(game, other, ["wild-draw4", "wild-draw4"])
    game.draw_pile[:] = [CARD_INDEX["blue-3"]]  # the last card left to draw, unplayable
    game.discard[:] = game.discard[-1:]
    assert not stalled(game)  # a card is left to draw
    draw = Action(ANY_SEAT, "draw")
    outcome = await manager.act("t1", user_at(table, seat), draw, table.version)
    assert outcome.round_over and outcome.match_over
    assert table.log[-2] == LogEntry("stalled", seat=other, count=103)
    assert narrate(table.log[-2], table.names()).startswith(
        "Nobody can play or draw any more, so the round ends"
    )
    assert table.match.winners == [other]  # type: ignore[union-attr]
    assert len(game.discard) == 3  # the winner's hand was laid down, no card lost
    [recorded] = await storage.recent_matches(1, 10, 0)
    assert recorded.house_rules == {"wd4_strict": True}


async def test_a_stall_needs_every_seat_stuck(storage: Storage) -> None:
    manager = manager_on(storage)
    house = HouseRules(wd4_strict=True)
    table = await house_table(manager, house, edition=Edition.SONIC, users=(ALICE, BOB))
    game = table.match.game  # type: ignore[union-attr]
    seat = game.current
    put_on_top(game, "red-5")
    hand_of_exactly(game, seat, ["wild-draw4", "wild-draw4"])
    hand_of_exactly(game, game.next_seat(seat), ["wild-draw4", "red-9"])  # red 9 fits
    game.draw_pile.clear()
    game.discard[:] = game.discard[-1:]
    assert not stalled(game)
    # A lone Wild Draw Four beside a blue card may be played: still not stuck.
    game.hands[game.next_seat(seat)][1] = CARD_INDEX["blue-9"]
    assert not stalled(game)
    game.hands[game.next_seat(seat)][1] = CARD_INDEX["wild-draw4"]
    assert stalled(game)
    # A tie on points and cards goes to the lower seat.
    assert stall_winner(game) == 0


async def test_a_normal_computer_stacks_and_names_whom_to_swap_with(storage: Storage) -> None:
    scheduler = ManualScheduler()
    manager = manager_on(storage, scheduler)
    rules = RuleSet(target=None, house=PRESETS["party"])
    await manager.create("t1", 1, 100, who(ALICE), rules, threads=True)
    await manager.act("t1", who(ALICE), AddComputer("normal"))
    await manager.act("t1", who(ALICE), Start())
    table = manager.tables["t1"]
    game = table.match.game  # type: ignore[union-attr]
    while game.current != 0 or game.phase is not Phase.TURN:
        if game.current == 0:  # a color to name, a penalty to take or a drawn card to keep
            answer = {
                Phase.COLOR: Action(ANY_SEAT, "choose_color", color=0),
                Phase.RESPOND: Action(ANY_SEAT, "accept"),
            }.get(game.phase, Action(ANY_SEAT, "pass"))
            await manager.act("t1", who(ALICE), answer, table.version)
        else:
            await scheduler.advance(3)
        table = manager.tables["t1"]
        game = table.match.game  # type: ignore[union-attr]
    put_on_top(game, "red-5")
    give(game, 0, ["red-draw2"])
    give(game, 1, ["blue-draw2"])
    await manager.act("t1", who(ALICE), play("red-draw2"), table.version)
    await scheduler.advance(3)  # the computer answers: it stacks rather than draw
    assert LogEntry("stack", seat=1, target=0, count=4) in table.log
    assert game.current == 0 and game.penalty == 4
    await manager.act("t1", who(ALICE), Action(ANY_SEAT, "accept"), table.version)
    assert game.current == 1
    put_on_top(game, "green-4")
    hand_of_exactly(game, 1, ["green-7", "red-1"])
    seven = CARD_INDEX["green-7"]
    keep = [CODES[c] for c in game.hands[0] if c != seven]  # no 7 to jump back in with
    hand_of_exactly(game, 0, keep)
    alices = sorted(game.hands[0])
    await scheduler.advance(3)  # its only card to play is a 7: it names Alice
    assert LogEntry("swap", seat=1, target=0) in table.log
    assert sorted(game.hands[1]) == alices and [CARD_INDEX["red-1"]] == game.hands[0]


async def test_the_table_tells_how_a_wild_draw_four_may_be_answered(storage: Storage) -> None:
    manager = manager_on(storage)
    cases = (
        (HouseRules(), ("accept", "challenge")),
        (HouseRules(stack=Stack.DRAW2), ("accept", "challenge")),  # no Draw Two on a Draw Four
        (HouseRules(stack=Stack.ALL, wd4_strict=True), ("accept", "stack")),
    )
    for number, (house, answers) in enumerate(cases):
        table = await house_table(manager, house, table_id=f"w{number}")
        game = table.match.game  # type: ignore[union-attr]
        seat = game.current
        put_on_top(game, "red-5")
        hand_of_exactly(game, seat, ["wild-draw4", "blue-3", "green-4"])  # no red: allowed
        wd4 = play("wild-draw4", "blue")
        outcome = await manager.act(table.table_id, user_at(table, seat), wd4, table.version)
        assert outcome.table.answers == answers
