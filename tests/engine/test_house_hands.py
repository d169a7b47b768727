"""House rules `seven_o` and `custom_effect`: hands swapped or passed along, and the Wild
Customizable's enforced effects. One named test per rule, on arranged hands.

Three players, dealer 0, seat 1 starts on a red 5 unless a test says otherwise.
"""

from __future__ import annotations

import pytest

from bot.engine import hand_view
from bot.engine.events import CustomEffectDone, PlayAgain, Played, Rotated, Skipped, Swapped
from tests.engine.helpers import (
    BASE0,
    BASE1,
    BASE2,
    act,
    color,
    do,
    draws,
    give,
    hand,
    make_game,
    play,
    rejects,
    table3,
)

SEVEN_O = {"seven_o": True}


def effect(name: str) -> dict[str, str]:
    return {"custom_effect": name}


# ----- seven_o -----


@pytest.mark.parametrize("edition", ["classic", "sonic", "mario"])
def test_seven_swaps_hands_with_the_named_seat(edition: str) -> None:
    game = table3(edition, ["red-7"], house=SEVEN_O)
    rest = hand(game, 1)[1:]
    events = game.apply(act(1, "play", "red-7", target=0))
    assert events[-1] == Swapped(seat=1, target=0)
    assert hand(game, 1) == BASE0 and hand(game, 0) == rest and hand(game, 2) == BASE2
    assert game.current == 2 and game.awaiting == "turn"


def test_zero_passes_every_hand_to_the_next_player() -> None:
    game = table3("classic", ["red-0"], house=SEVEN_O)
    rest = hand(game, 1)[1:]
    events = play(game, 1, "red-0")
    assert events[-1] == Rotated(direction=1)
    assert hand(game, 2) == rest and hand(game, 0) == BASE2 and hand(game, 1) == BASE0
    assert game.current == 2


def test_zero_passes_hands_counter_clockwise_when_play_goes_that_way() -> None:
    game = table3("classic", first="red-reverse", p0=["red-0"], house=SEVEN_O)
    rest = hand(game, 0)[1:]
    play(game, 0, "red-0")
    assert hand(game, 2) == rest and hand(game, 1) == BASE2 and hand(game, 0) == BASE1


def test_zero_passes_over_a_seat_that_left() -> None:
    p3 = ["green-7", "yellow-7", "blue-7", "green-5", "yellow-5", "blue-5", "blue-4"]
    game = make_game("classic", [BASE0, ["red-0", *BASE1[1:]], BASE2, p3], ["red-5"], house=SEVEN_O)
    game.leave(2)
    rest = hand(game, 1)[1:]
    play(game, 1, "red-0")
    assert hand(game, 2) == [] and hand(game, 3) == rest and hand(game, 0) == p3
    assert hand(game, 1) == BASE0


@pytest.mark.parametrize("target", [None, 1, 3, -1])
def test_seven_without_a_valid_target_is_bad_action(target: int | None) -> None:
    game = table3("classic", ["red-7"], house=SEVEN_O)
    rejects(game, act(1, "play", "red-7", target=target), "bad_action")


def test_seven_naming_a_seat_that_left_is_bad_action() -> None:
    game = table3("classic", ["red-7"], house=SEVEN_O)
    game.leave(0)
    rejects(game, act(1, "play", "red-7", target=0), "bad_action")


@pytest.mark.parametrize("card", ["red-7", "red-0"])
def test_seven_or_zero_as_the_last_card_wins_without_an_exchange(card: str) -> None:
    game = table3("classic", house=SEVEN_O)
    give(game, 1, [card])
    events = play(game, 1, card)  # no target needed
    assert [e.TYPE for e in events] == ["play", "round_over"]
    assert game.winner == 1 and hand(game, 0) == BASE0 and hand(game, 2) == BASE2


def test_after_an_exchange_one_card_counts_as_called_and_other_calls_clear() -> None:
    game = table3("classic", ["red-7"], house=SEVEN_O)
    give(game, 1, ["red-7", "red-3", "red-4"])
    give(game, 0, ["green-1"])
    give(game, 2, ["blue-9", "blue-8"])
    do(game, 0, "call_uno")
    game.apply(act(1, "play", "red-7", target=0))
    # Seat 1 now holds seat 0's one card: it counts as called; seat 0 holds two.
    assert game.uno_flags() == [False, True, False] and game.called == [False, True, False]
    assert game.catchable() == -1


def test_after_a_pass_every_one_card_hand_counts_as_called() -> None:
    game = table3("classic", ["red-0"], house=SEVEN_O)
    give(game, 1, ["red-0", "red-3"])
    play(game, 1, "red-0")  # seat 1 goes down to one card without calling...
    assert hand(game, 2) == ["red-3"]
    assert game.uno_flags() == [False, False, True] and game.catchable() == -1


def test_first_seven_or_zero_swaps_nothing() -> None:
    for first in ("red-7", "red-0"):
        game = table3("classic", first=first, house=SEVEN_O)
        assert hand(game, 0) == BASE0 and hand(game, 1) == BASE1 and game.current == 1


def test_a_target_on_any_other_play_is_ignored() -> None:
    game = table3("classic", ["red-2"], house=SEVEN_O)
    events = game.apply(act(1, "play", "red-2", target=0))
    assert [e.TYPE for e in events] == ["play"] and hand(game, 0) == BASE0
    plain = table3("classic", ["red-7"])  # seven_o off: a 7 is a plain number
    events = plain.apply(act(1, "play", "red-7", target=0))
    assert [e.TYPE for e in events] == ["play"] and hand(plain, 0) == BASE0


def test_seven_rule_errors_come_before_the_target() -> None:
    game = table3("classic", ["green-7"], house=SEVEN_O)
    rejects(game, act(1, "play", "green-7"), "cannot_play")
    rejects(game, act(1, "play", "red-7"), "not_in_hand")


def test_hand_view_says_which_plays_name_a_seat() -> None:
    game = table3("classic", ["red-7", "red-2"], house=SEVEN_O)
    view = hand_view(game, 1)
    needs = dict(zip(view.cards, view.needs_target, strict=True))
    assert needs["red-7"] and not needs["red-2"] and view.targets == (0, 2)
    actions = [a for a in game.legal_actions() if a.card == act(1, "play", "red-7").card]
    assert sorted(a.target for a in actions if a.target is not None) == [0, 2]


# ----- custom_effect (mario) -----


def test_custom_none_announces_the_written_rule() -> None:
    game = table3("mario", ["wild-custom"], house_rule="Sing")
    assert play(game, 1, "wild-custom", "green")[0].house_rule == "Sing"


def test_custom_everyone_draws_1_in_turn_order_nobody_skipped() -> None:
    game = table3("mario", ["wild-custom"], house=effect("everyone_draws_1"))
    events = play(game, 1, "wild-custom", "green")
    assert events[1] == CustomEffectDone(seat=1, effect="everyone_draws_1")
    assert draws(events) == [(2, 1, "custom"), (0, 1, "custom")]
    assert game.current == 2 and color(game) == "green"


def test_custom_next_draws_2_and_is_skipped_without_an_answer() -> None:
    house = {"custom_effect": "next_draws_2", "stack": "all"}
    game = table3("mario", ["wild-custom"], p2=["wild-super-star", "red-draw2"], house=house)
    events = play(game, 1, "wild-custom", "blue")
    assert draws(events) == [(2, 2, "custom")] and Skipped(seat=2) in events
    assert game.current == 0 and game.awaiting == "turn"


def test_custom_swap_hands_with_a_named_seat() -> None:
    game = table3("mario", ["wild-custom"], house=effect("swap_hands"))
    rest = hand(game, 1)[1:]
    rejects(game, act(1, "play", "wild-custom", "green"), "bad_action")
    rejects(game, act(1, "play", "wild-custom", target=2), "bad_color")  # color comes first
    events = game.apply(act(1, "play", "wild-custom", "green", target=2))
    assert [e.TYPE for e in events] == ["play", "custom_effect", "swap"]
    assert hand(game, 2) == rest and hand(game, 1) == BASE2 and game.current == 2


def test_custom_rotate_hands_passes_every_hand_along() -> None:
    game = table3("mario", ["wild-custom"], house=effect("rotate_hands"))
    rest = hand(game, 1)[1:]
    events = play(game, 1, "wild-custom", "yellow")
    assert events[-1] == Rotated(direction=1)
    assert hand(game, 2) == rest and hand(game, 0) == BASE2 and hand(game, 1) == BASE0


def test_custom_play_again_the_same_player_goes_again() -> None:
    game = table3("mario", ["wild-custom", "green-6"], house=effect("play_again"))
    events = play(game, 1, "wild-custom", "green")
    assert events[-1] == PlayAgain(seat=1)
    assert game.current == 1 and game.awaiting == "turn"
    play(game, 1, "green-6")
    assert game.current == 2


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("everyone_draws_1", [(2, 1, "custom"), (0, 1, "custom")]),
        ("next_draws_2", [(2, 2, "custom")]),
    ],
)
def test_custom_last_card_draws_still_happen(name: str, expected: list[object]) -> None:
    game = table3("mario", house=effect(name))
    give(game, 1, ["wild-custom"])
    events = play(game, 1, "wild-custom")
    assert draws(events) == expected and game.winner == 1
    assert game.points == [0, sum(game.points or []), 0]


@pytest.mark.parametrize("name", ["swap_hands", "rotate_hands", "play_again"])
def test_custom_last_card_swaps_rotations_and_play_again_do_nothing(name: str) -> None:
    game = table3("mario", house=effect(name))
    give(game, 1, ["wild-custom"])
    events = play(game, 1, "wild-custom")  # no target and no color needed
    assert [e.TYPE for e in events] == ["play", "round_over"] and game.winner == 1


def test_custom_first_card_is_only_a_wild_card() -> None:
    game = table3("mario", ["green-6"], "wild-custom", house=effect("next_draws_2"))
    assert game.awaiting == "color" and len(hand(game, 1)) == 7
    game.apply(act(1, "choose_color", color="green"))
    assert game.current == 1 and [len(h) for h in game.hands] == [7, 7, 7]


def test_custom_effect_is_ignored_outside_mario() -> None:
    game = table3("classic", ["wild"], house=effect("play_again"))
    play(game, 1, "wild", "blue")
    assert game.current == 2


def test_custom_written_rule_is_not_announced_when_an_effect_is_enforced() -> None:
    game = table3("mario", ["wild-custom"], house=effect("play_again"), house_rule="Sing")
    assert play(game, 1, "wild-custom", "green")[0] == Played(1, "wild-custom", "green")


@pytest.mark.parametrize("name", ["swap_hands", "rotate_hands"])
def test_custom_exchanges_recount_uno_calls_like_a_seven(name: str) -> None:
    game = table3("mario", house=effect(name))
    give(game, 1, ["wild-custom", "red-3"])
    give(game, 2, ["blue-9"])
    do(game, 2, "call_uno")
    game.apply(act(1, "play", "wild-custom", "green", target=2))
    # Seat 1 went down to one card without calling; after the exchange whoever holds one card
    # counts as having called, and nobody can be caught.
    assert game.called == [len(h) == 1 for h in game.hands] and game.catchable() == -1
    assert sum(game.uno_flags()) == sum(len(h) == 1 for h in game.hands) >= 1
