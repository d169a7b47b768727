"""House rule `stack` (Progressive UNO): one named test per rule, on arranged hands.

Three players, dealer 0, seat 1 starts on a red 5 unless a test says otherwise.
"""

from __future__ import annotations

import pytest

from bot.engine import hand_view, public_view
from bot.engine.events import Accepted, Bounced, Stacked, UnoCalled
from tests.engine.helpers import act, color, do, draws, give, hand, make_game, play, rejects, table3

DRAW2 = {"stack": "draw2"}
ALL = {"stack": "all"}
P2_RED = ["red-9", "green-8", "green-9", "yellow-8", "yellow-9", "blue-8", "blue-9"]


@pytest.mark.parametrize("edition", ["classic", "sonic", "mario"])
def test_stack_draw2_of_any_color_adds_two_and_moves_on(edition: str) -> None:
    game = table3(edition, ["red-draw2"], p2=["blue-draw2"], house=DRAW2)
    play(game, 1, "red-draw2")
    assert (game.awaiting, game.current, game.penalty) == ("respond", 2, 2)
    events = play(game, 2, "blue-draw2")
    assert events[-1] == Stacked(seat=2, target=0, total=4)
    assert (game.awaiting, game.current, game.penalty, color(game)) == ("respond", 0, 4, "blue")
    assert draws(events) == []


@pytest.mark.parametrize("edition", ["classic", "sonic"])
def test_stack_target_of_a_draw2_must_answer_in_classic_and_sonic(edition: str) -> None:
    game = table3(edition, ["red-draw2"], house=ALL)
    play(game, 1, "red-draw2")
    assert game.awaiting == "respond" and game.current == 2 and len(hand(game, 2)) == 7
    rejects(game, act(2, "draw"), "not_allowed")
    rejects(game, act(2, "play", "blue-9"), "not_allowed")
    rejects(game, act(2, "challenge"), "not_allowed")
    assert draws(do(game, 2, "accept")) == [(2, 2, "draw2")]
    assert game.current == 0 and game.awaiting == "turn"


def test_stack_accept_draws_the_whole_total_and_play_goes_on_from_the_next() -> None:
    game = table3("classic", ["red-draw2"], p2=["blue-draw2"], house=DRAW2)
    play(game, 1, "red-draw2")
    play(game, 2, "blue-draw2")
    events = do(game, 0, "accept")
    assert events[0] == Accepted(seat=0, count=4)
    assert draws(events) == [(0, 4, "draw2")] and len(hand(game, 0)) == 11
    assert game.current == 1 and game.awaiting == "turn" and game.penalty == 0


def test_stack_draw2_option_does_not_stack_a_wild_draw4() -> None:
    game = table3("classic", ["red-draw2"], p2=["wild-draw4"], house=DRAW2)
    play(game, 1, "red-draw2")
    rejects(game, act(2, "play", "wild-draw4", "green"), "not_allowed")


def test_stack_all_wild_draw4_on_a_draw2_names_a_color() -> None:
    game = table3("classic", ["red-draw2"], p2=["wild-draw4"], house=ALL)
    play(game, 1, "red-draw2")
    rejects(game, act(2, "play", "wild-draw4"), "bad_color")
    events = play(game, 2, "wild-draw4", "green")
    assert events[-1] == Stacked(seat=2, target=0, total=6)
    assert color(game) == "green" and game.pending_card == act(0, "play", "wild-draw4").card


def test_stack_all_wild_draw4_on_a_wild_draw4() -> None:
    game = table3("classic", ["wild-draw4"], p2=["wild-draw4"], house=ALL)
    play(game, 1, "wild-draw4", "blue")
    play(game, 2, "wild-draw4", "yellow")
    assert (game.current, game.penalty, color(game)) == (0, 8, "yellow")


@pytest.mark.parametrize("stack", ["draw2", "all"])
def test_stack_never_a_draw2_on_a_wild_draw4(stack: str) -> None:
    game = table3("classic", ["wild-draw4"], p2=["green-draw2"], house={"stack": stack})
    play(game, 1, "wild-draw4", "green")
    rejects(game, act(2, "play", "green-draw2"), "not_allowed")


def test_stack_with_two_players_the_penalty_goes_back_to_the_other() -> None:
    p0 = ["blue-draw2", "green-1", "green-2", "green-3", "yellow-1", "yellow-2", "blue-1"]
    p1 = ["red-draw2", "yellow-draw2", "blue-2", "blue-3", "green-4", "green-6", "yellow-4"]
    game = make_game("classic", [p0, p1], ["red-5"], house=DRAW2)
    play(game, 1, "red-draw2")
    play(game, 0, "blue-draw2")
    assert (game.current, game.penalty) == (1, 4)
    play(game, 1, "yellow-draw2")
    assert (game.current, game.penalty) == (0, 6)
    assert draws(do(game, 0, "accept")) == [(0, 6, "draw2")] and game.current == 1


def test_stack_follows_the_direction_of_play() -> None:
    # A Reverse turned up first: the dealer (0) starts and play goes counter-clockwise.
    game = table3("classic", ["blue-draw2"], "red-reverse", p0=["red-draw2"], house=DRAW2)
    play(game, 0, "red-draw2")
    assert game.current == 2
    give(game, 2, ["green-draw2", "blue-9"])
    events = play(game, 2, "green-draw2")
    assert events[-1] == Stacked(seat=2, target=1, total=4)


def test_stack_challenge_legal_challenger_draws_the_total_plus_two() -> None:
    game = table3("classic", ["red-draw2"], p2=["wild-draw4"], house=ALL)
    play(game, 1, "red-draw2")
    play(game, 2, "wild-draw4", "green")  # seat 2 holds no red: legal
    events = do(game, 0, "challenge")
    assert events[0].legal is True and events[0].target == 2
    assert draws(events) == [(0, 8, "challenge")] and game.current == 1


def test_stack_challenge_illegal_its_player_draws_the_total_challenger_plays() -> None:
    p2 = ["wild-draw4", *P2_RED[:6]]
    game = table3("classic", ["red-draw2"], p2=p2, house=ALL)
    play(game, 1, "red-draw2")
    play(game, 2, "wild-draw4", "green")  # seat 2 holds red-9: illegal
    events = do(game, 0, "challenge")
    assert events[0].legal is False
    assert draws(events) == [(2, 6, "challenge")]
    assert game.current == 0 and game.awaiting == "turn" and color(game) == "green"


def test_stack_challenge_judges_the_last_card_alone_with_the_color_before_it() -> None:
    # Seat 1 bluffs (it holds red); seat 2 stacks legally on the red it named.
    game = table3("classic", ["wild-draw4", "red-9"], p2=["wild-draw4"], house=ALL)
    play(game, 1, "wild-draw4", "red")
    play(game, 2, "wild-draw4", "green")  # no red in seat 2's hand: legal
    events = do(game, 0, "challenge")
    assert events[0].legal is True and events[0].target == 2
    assert sorted(events[0].hand) == sorted(hand(game, 2))
    assert draws(events) == [(0, 10, "challenge")]


def test_stack_no_challenge_when_the_last_card_is_a_draw2() -> None:
    game = table3("classic", ["red-draw2"], p2=["blue-draw2"], house=ALL)
    play(game, 1, "red-draw2")
    play(game, 2, "blue-draw2")
    rejects(game, act(0, "challenge"), "not_allowed")
    assert all(a.do != "challenge" for a in game.legal_actions())


def test_stack_super_star_bounces_the_whole_total_to_the_last_stacker() -> None:
    game = table3("mario", ["red-draw2"], p2=["blue-draw2"], p0=["wild-super-star"], house=DRAW2)
    play(game, 1, "red-draw2")
    play(game, 2, "blue-draw2")
    events = play(game, 0, "wild-super-star", "yellow")
    assert isinstance(events[0], Bounced) and events[0].target == 2
    assert draws(events) == [(2, 4, "bounce")]
    # It cannot be stacked on or bounced: play goes on from the bouncer.
    assert game.awaiting == "turn" and game.current == 1 and game.penalty == 0
    assert color(game) == "yellow"


def test_stack_last_card_the_target_draws_the_total_and_the_round_ends() -> None:
    game = table3("classic", ["red-draw2"], house=DRAW2)
    give(game, 2, ["blue-draw2"])
    play(game, 1, "red-draw2")
    events = play(game, 2, "blue-draw2")
    assert Stacked(seat=2, target=0, total=4) in events
    assert draws(events) == [(0, 4, "draw2")]
    assert game.winner == 2 and game.awaiting == "round_over" and game.penalty == 0


def test_stack_fresh_draw2_as_the_last_card_is_drawn_at_once() -> None:
    game = table3("classic", [], house=ALL)
    give(game, 1, ["red-draw2"])
    events = play(game, 1, "red-draw2")
    assert draws(events) == [(2, 2, "draw2")] and game.winner == 1


def test_stack_first_draw2_turned_up_is_drawn_at_once() -> None:
    game = table3("classic", ["blue-draw2"], "red-draw2", house=ALL)
    assert len(hand(game, 1)) == 9 and game.current == 2 and game.awaiting == "turn"


def test_stack_wd4_strict_applies_to_a_stacked_wild_draw4() -> None:
    house = {"stack": "all", "wd4_strict": True}
    game = table3("classic", ["red-draw2"], p2=["wild-draw4", *P2_RED[:6]], house=house)
    play(game, 1, "red-draw2")
    rejects(game, act(2, "play", "wild-draw4", "green"), "cannot_play")
    assert [a.do for a in game.legal_actions()] == ["accept"]


def test_stack_a_card_that_cannot_answer_is_not_allowed_before_anything_else() -> None:
    game = table3("classic", ["red-draw2"], p2=["blue-draw2"], house=DRAW2)
    play(game, 1, "red-draw2")
    rejects(game, act(2, "play", "red-3"), "not_allowed")  # not held either
    rejects(game, act(2, "play", "green-draw2"), "not_in_hand")
    rejects(game, act(0, "play", "blue-draw2"), "not_your_turn")


def test_stack_views_show_the_total_its_target_and_the_answers() -> None:
    game = table3("classic", ["red-draw2"], p2=["blue-draw2", "wild-draw4"], house=ALL)
    play(game, 1, "red-draw2")
    play(game, 2, "blue-draw2")
    public = public_view(game)
    assert (public.penalty, public.penalty_target, public.pending) == (4, 0, "blue-draw2")
    assert public.house.stack == "all"
    view = hand_view(game, 0)
    assert view.penalty == 4 and view.can_accept and not view.can_stack
    assert not view.can_draw and not view.can_challenge and not view.can_bounce
    give(game, 0, ["wild-draw4", "green-2"])
    view = hand_view(game, 0)
    flags = dict(zip(view.cards, view.playable, strict=True))
    assert view.can_stack and flags == {"green-2": False, "wild-draw4": True}


def test_stack_the_uno_window_and_calls_work_with_a_stacked_card() -> None:
    game = table3("classic", ["red-draw2"], house=DRAW2)
    give(game, 2, ["blue-draw2", "blue-9"])
    play(game, 1, "red-draw2")
    events = play(game, 2, "blue-draw2", uno=True)
    assert UnoCalled(seat=2) in events and game.uno_flags()[2]
