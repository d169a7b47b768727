"""House rule `jump_in`: one named test per rule, on arranged hands.

Three players, dealer 0, seat 1 starts on a red 5 unless a test says otherwise.
"""

from __future__ import annotations

import pytest

from bot.engine import Action, hand_view
from bot.engine.cards import parse_card
from bot.engine.events import JumpedIn, Played
from tests.engine.helpers import act, do, draws, give, hand, play, rejects, table3

JUMP = {"jump_in": True}


@pytest.mark.parametrize("edition", ["classic", "sonic", "mario"])
def test_jump_in_identical_card_takes_the_turn_and_play_goes_on_from_the_jumper(
    edition: str,
) -> None:
    game = table3(edition, p2=["red-5"], house=JUMP)
    events = play(game, 2, "red-5")
    assert events == [
        JumpedIn(seat=2, turn_of=1),
        Played(seat=2, card="red-5"),
    ]
    # Seat 1 lost that turn and nothing else.
    assert game.current == 0 and len(hand(game, 1)) == 7 and len(hand(game, 2)) == 6


def test_jump_in_is_off_by_default() -> None:
    game = table3("classic", p2=["red-5"])
    rejects(game, act(2, "play", "red-5"), "not_your_turn")
    assert game.legal_actions(2) == []


@pytest.mark.parametrize("card", ["blue-5", "red-2"])
def test_jump_in_needs_the_same_color_and_the_same_number(card: str) -> None:
    game = table3("classic", p2=[card], house=JUMP)
    rejects(game, act(2, "play", card), "not_your_turn")


def test_jump_in_never_with_a_wild_card() -> None:
    game = table3("classic", ["green-2"], "wild", p2=["wild"], house=JUMP)
    game.apply(act(1, "choose_color", color="green"))
    rejects(game, act(2, "play", "wild", "red"), "not_your_turn")
    assert game.legal_actions(2) == []


def test_jump_in_with_a_card_not_held_is_not_your_turn() -> None:
    game = table3("classic", house=JUMP)
    rejects(game, act(2, "play", "red-5"), "not_your_turn")


def test_jump_in_only_while_the_game_awaits_a_turn() -> None:
    game = table3("classic", ["red-2"], then=("red-9",), p2=["red-5", "red-9"], house=JUMP)
    do(game, 1, "draw")  # red-9: the game awaits "drawn"
    rejects(game, act(2, "play", "red-5"), "not_your_turn")
    assert game.legal_actions(2) == []
    mario = table3("mario", ["red-draw2"], p0=["red-draw2"], house=JUMP)
    play(mario, 1, "red-draw2")  # the game awaits "respond"
    rejects(mario, act(0, "play", "red-draw2"), "not_your_turn")


def test_jump_in_by_the_awaited_player_is_an_ordinary_play() -> None:
    game = table3("classic", ["red-5"], house=JUMP)
    assert play(game, 1, "red-5") == [Played(seat=1, card="red-5")]


def test_jump_in_action_card_takes_effect_from_the_jumper() -> None:
    game = table3("classic", ["red-draw2"], p2=["red-draw2"], house=JUMP)
    play(game, 1, "red-draw2")  # seat 2 draws 2 and is skipped: seat 0's turn
    assert game.current == 0
    events = play(game, 2, "red-draw2")
    assert events[0] == JumpedIn(seat=2, turn_of=0)
    assert draws(events) == [(0, 2, "draw2")] and game.current == 1


def test_jump_in_reverse_turns_play_around_from_the_jumper() -> None:
    game = table3("classic", ["red-reverse"], p2=["red-reverse"], house=JUMP)
    play(game, 1, "red-reverse")  # counter-clockwise: seat 0's turn
    assert game.current == 0 and game.direction == -1
    events = play(game, 2, "red-reverse")
    assert events[0] == JumpedIn(seat=2, turn_of=0)
    assert game.direction == 1 and game.current == 0


def test_jump_in_closes_an_open_uno_window() -> None:
    game = table3("classic", p2=["red-2"], house=JUMP)
    give(game, 1, ["red-2", "red-3"])
    play(game, 1, "red-2")  # no UNO call
    assert game.catchable() == 1
    play(game, 2, "red-2")
    assert game.catchable() == -1
    assert do(game, 0, "catch", target=1) == []


def test_jump_in_with_the_last_card_wins() -> None:
    game = table3("classic", house=JUMP)
    give(game, 2, ["red-5"])
    play(game, 2, "red-5")
    assert game.winner == 2 and game.awaiting == "round_over"


def test_jump_in_no_action_finish_forbids_a_last_action_card() -> None:
    game = table3("classic", ["red-skip"], house={"jump_in": True, "no_action_finish": True})
    play(game, 1, "red-skip")  # seat 2 skipped: seat 0's turn
    give(game, 2, ["red-skip"])
    assert game.legal_actions(2) == []
    rejects(game, act(2, "play", "red-skip"), "cannot_play")


def test_jump_in_with_a_seven_under_seven_o_names_a_seat() -> None:
    game = table3("classic", first="red-7", p2=["red-7"], house={"jump_in": True, "seven_o": True})
    rejects(game, act(2, "play", "red-7"), "bad_action")
    rejects(game, act(2, "play", "red-7", target=2), "bad_action")
    events = game.apply(act(2, "play", "red-7", target=1))
    assert [e.TYPE for e in events] == ["jump_in", "play", "swap"]


def test_jump_in_legal_actions_and_hand_view_for_a_seat_not_awaited() -> None:
    game = table3("classic", p2=["red-5", "red-2"], house=JUMP)
    card = parse_card("red-5")
    assert game.legal_actions(2) == [Action(2, "play", card, None, False)]
    assert game.legal_actions(0) == [] and game.playable(2) == [card]
    view = hand_view(game, 2)
    flags = dict(zip(view.cards, view.jump_in, strict=True))
    assert flags["red-5"] and not flags["red-2"] and view.awaiting is None
    assert view.playable == view.jump_in and not view.can_draw
    assert not any(hand_view(game, 1).jump_in)
