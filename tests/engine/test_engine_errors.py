"""Every error code of the contract; a rejected action leaves the round exactly as it was."""

from __future__ import annotations

import pytest

from bot.engine import Action, Game
from tests.engine.helpers import act, do, give, make_game, play, rejects

P0 = ["green-1", "green-2", "green-3", "yellow-1", "yellow-2", "yellow-3", "blue-1"]
P1 = ["red-2", "wild", "blue-3", "green-4", "green-6", "yellow-4", "yellow-6"]
P2 = ["wild-super-star", "green-8", "yellow-7", "yellow-8", "blue-7", "blue-8", "blue-9"]


def game(edition: str = "mario", then: tuple[str, ...] = ("red-9",)) -> Game:
    return make_game(edition, [P0, P1, P2], ["red-5", *then])


def test_not_your_turn() -> None:
    g = game()
    rejects(g, act(2, "play", "blue-9"), "not_your_turn")
    rejects(g, act(0, "draw"), "not_your_turn")
    rejects(g, act(2, "pass"), "not_your_turn")
    rejects(g, act(0, "accept"), "not_your_turn")
    rejects(g, act(0, "challenge"), "not_your_turn")


def test_not_your_turn_for_a_bounce_by_someone_else() -> None:
    g = game()
    play(g, 1, "red-2")
    give(g, 2, ["red-draw2", *P2[1:]])
    give(g, 0, ["wild-super-star", *P0[1:]])
    play(g, 2, "red-draw2")
    rejects(g, act(1, "play", "wild-super-star", "red"), "not_your_turn")


def test_not_in_hand() -> None:
    rejects(game(), act(1, "play", "red-7"), "not_in_hand")


def test_cannot_play() -> None:
    rejects(game(), act(1, "play", "blue-3"), "cannot_play")


def test_wrong_card() -> None:
    g = game()
    do(g, 1, "draw")
    rejects(g, act(1, "play", "red-2"), "wrong_card")


@pytest.mark.parametrize("color", [None, 9, -1])
def test_bad_color_for_a_wild_without_a_valid_color(color: int | None) -> None:
    g = game()
    rejects(g, Action(1, "play", act(1, "play", "wild").card, color), "bad_color")


def test_no_bad_color_for_a_wild_as_the_last_card() -> None:
    g = game()
    give(g, 1, ["wild"])
    play(g, 1, "wild")
    assert g.winner == 1


def test_bad_color_when_choosing_no_color() -> None:
    g = make_game("mario", [P0, P1, P2], ["wild"])
    rejects(g, Action(1, "choose_color", color=7), "bad_color")
    rejects(g, Action(1, "choose_color"), "bad_color")
    rejects(g, Action(2, "choose_color", color=1), "not_your_turn")


def test_color_on_a_card_that_is_not_wild_is_ignored() -> None:
    g = game()
    play(g, 1, "red-2", "blue")
    assert g.color == 0


def test_not_allowed_pass_without_a_drawn_card() -> None:
    rejects(game(), act(1, "pass"), "not_allowed")


def test_not_allowed_challenge_against_a_draw2() -> None:
    g = game()
    give(g, 1, ["red-draw2", *P1[1:]])
    play(g, 1, "red-draw2")
    rejects(g, act(2, "challenge"), "not_allowed")
    rejects(g, act(2, "draw"), "not_allowed")  # draw while responding
    rejects(g, act(2, "play", "green-8"), "not_allowed")  # any card but the Super Star
    rejects(g, act(2, "play", "wild", "red"), "not_allowed")
    rejects(g, act(2, "pass"), "not_allowed")


def test_not_allowed_call_uno_without_exactly_one_card() -> None:
    g = game()
    rejects(g, act(1, "call_uno"), "not_allowed")
    rejects(g, act(0, "call_uno"), "not_allowed")


def test_not_allowed_catch_of_oneself() -> None:
    rejects(game(), act(0, "catch", target=0), "not_allowed")


def test_not_allowed_out_of_phase() -> None:
    g = game()
    rejects(g, act(1, "accept"), "not_allowed")
    rejects(g, act(1, "challenge"), "not_allowed")
    rejects(g, act(1, "choose_color", color="red"), "not_allowed")
    do(g, 1, "draw")  # red-9: playable
    rejects(g, act(1, "draw"), "not_allowed")
    first_wild = make_game("mario", [P0, P1, P2], ["wild"])
    rejects(first_wild, act(1, "play", "red-2"), "not_allowed")
    rejects(first_wild, act(1, "draw"), "not_allowed")
    rejects(first_wild, act(1, "pass"), "not_allowed")


def test_bad_action() -> None:
    g = game()
    rejects(g, Action(1, "dance"), "bad_action")
    rejects(g, Action(1, "play"), "bad_action")
    rejects(g, Action(0, "catch"), "bad_action")
    rejects(g, Action(7, "draw"), "bad_action")
    rejects(g, Action(0, "catch", target=5), "bad_action")


def test_round_over_rejects_every_action_with_not_allowed() -> None:
    g = game()
    give(g, 1, ["red-2"])
    play(g, 1, "red-2")
    assert g.awaiting == "round_over"
    for action in [
        act(2, "play", "wild-super-star", "red"),
        act(2, "draw"),
        act(2, "pass"),
        act(2, "accept"),
        act(2, "challenge"),
        act(2, "choose_color", color="red"),
        act(1, "call_uno"),
        act(0, "catch", target=2),
        Action(2, "dance"),
        Action(2, "play"),
    ]:
        rejects(g, action, "not_allowed")
    assert g.legal_actions() == []


def test_left_seat_is_not_allowed_to_act() -> None:
    g = make_game("mario", [P0, P1, P2, []], ["red-5"])
    g.leave(3)
    rejects(g, act(3, "draw"), "not_allowed")
    rejects(g, act(3, "catch", target=1), "not_allowed")
