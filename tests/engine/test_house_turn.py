"""House rules that shape a turn: draw_until_playable, must_play, wd4_strict, hand_size,
uno_penalty and no_action_finish, plus the order of errors. One named test per rule.

Three players, dealer 0, seat 1 starts on a red 5 unless a test says otherwise.
"""

from __future__ import annotations

import random

import pytest

from bot.engine import Edition, Game, HouseRules, hand_view
from bot.engine.cards import CODES, edition_deck, parse_card
from bot.engine.events import Caught, Dealt, Passed
from bot.engine.simulate import play_round, random_policy
from tests.engine.helpers import (
    act,
    all_cards,
    do,
    draws,
    edition_codes,
    give,
    hand,
    make_game,
    play,
    rejects,
    table3,
)

UNTIL = {"draw_until_playable": True}
MUST = {"must_play": True}
STRICT = {"wd4_strict": True}
FINISH = {"no_action_finish": True}


def top_code(game: Game) -> str:
    return CODES[game.discard[-1]]


# ----- draw_until_playable -----


def test_draw_until_playable_draws_until_a_playable_card_comes() -> None:
    game = table3("classic", then=("green-7", "yellow-7", "red-9", "blue-7"), house=UNTIL)
    events = do(game, 1, "draw")
    assert draws(events) == [(1, 3, "until_playable")]
    assert hand(game, 1)[-3:] == ["green-7", "yellow-7", "red-9"]
    assert game.awaiting == "drawn" and game.current == 1
    assert do(game, 1, "pass") == [Passed(seat=1)] and game.current == 2


def test_draw_until_playable_stops_when_nothing_is_left_to_draw() -> None:
    game = table3("classic", then=("green-7", "yellow-7"), house=UNTIL)
    game.hands[0] += game.draw_pile[:-2]  # only green-7 and yellow-7 are left
    del game.draw_pile[:-2]
    before = all_cards(game)
    events = do(game, 1, "draw")
    assert draws(events) == [(1, 2, "until_playable")]
    assert game.current == 2 and game.awaiting == "turn" and all_cards(game) == before


def test_draw_until_playable_penalties_and_catches_draw_exactly_their_count() -> None:
    game = table3("classic", ["red-draw2"], then=("green-7", "yellow-7", "blue-7"), house=UNTIL)
    assert draws(play(game, 1, "red-draw2")) == [(2, 2, "draw2")]
    give(game, 0, ["green-1", "red-2"])
    play(game, 0, "red-2")
    assert draws(do(game, 1, "catch", target=0)) == [(0, 2, "catch")]


def test_draw_until_playable_passes_over_a_wild_draw4_that_may_not_be_played() -> None:
    house = {"draw_until_playable": True, "wd4_strict": True}
    game = table3("classic", ["red-2"], then=("wild-draw4", "green-7", "blue-5"), house=house)
    events = do(game, 1, "draw")
    assert draws(events) == [(1, 3, "until_playable")] and game.drawn == parse_card("blue-5")


def test_draw_until_playable_with_must_play_the_drawn_card_must_be_played() -> None:
    house = {"draw_until_playable": True, "must_play": True}
    game = table3("classic", then=("green-7", "red-9"), house=house)
    do(game, 1, "draw")
    rejects(game, act(1, "pass"), "not_allowed")
    assert [a.do for a in game.legal_actions()] == ["play"]
    play(game, 1, "red-9")


# ----- must_play -----


def test_must_play_no_draw_while_holding_a_playable_card() -> None:
    game = table3("classic", ["red-2"], house=MUST)
    rejects(game, act(1, "draw"), "not_allowed")
    assert all(a.do == "play" for a in game.legal_actions())
    assert not hand_view(game, 1).can_draw


def test_must_play_draw_when_nothing_can_be_played() -> None:
    game = table3("classic", then=("green-7",), house=MUST)
    assert [a.do for a in game.legal_actions()] == ["draw"]
    do(game, 1, "draw")
    assert game.current == 2


def test_must_play_a_playable_drawn_card_must_be_played() -> None:
    game = table3("classic", then=("red-9",), house=MUST)
    do(game, 1, "draw")
    rejects(game, act(1, "pass"), "not_allowed")
    view = hand_view(game, 1)
    assert view.drawn == "red-9" and not view.can_pass
    play(game, 1, "red-9")


def test_must_play_a_last_action_card_does_not_count_as_playable() -> None:
    game = table3("classic", house={"must_play": True, "no_action_finish": True})
    give(game, 1, ["wild"])
    assert [a.do for a in game.legal_actions()] == ["draw"]
    do(game, 1, "draw")


def test_must_play_counts_a_wild_draw4_only_when_it_may_be_played() -> None:
    house = {"must_play": True, "wd4_strict": True, "no_action_finish": True}
    game = table3("sonic", house=house)
    give(game, 1, ["wild-draw4", "wild-victory-lap"])  # the other wild counts as red in sonic
    assert game.playable(1) == [parse_card("wild-victory-lap")]


# ----- wd4_strict -----


def test_wd4_strict_rejects_a_wild_draw4_while_holding_the_color_in_force() -> None:
    game = table3("classic", ["wild-draw4", "red-2"], house=STRICT)
    rejects(game, act(1, "play", "wild-draw4", "green"), "cannot_play")
    assert parse_card("wild-draw4") not in game.playable(1)


@pytest.mark.parametrize("edition", ["classic", "mario"])
def test_wd4_strict_allows_it_without_the_color_wilds_and_numbers_aside(edition: str) -> None:
    game = table3(edition, ["wild-draw4", "wild", "blue-5"], house=STRICT)
    play(game, 1, "wild-draw4", "green")
    assert game.awaiting == "respond"


def test_wd4_strict_in_sonic_another_wild_counts_as_the_color() -> None:
    game = table3("sonic", ["wild-draw4", "wild"], house=STRICT)
    rejects(game, act(1, "play", "wild-draw4", "green"), "cannot_play")


def test_wd4_strict_challenge_is_not_allowed() -> None:
    game = table3("classic", ["wild-draw4"], house=STRICT)
    play(game, 1, "wild-draw4", "green")
    rejects(game, act(2, "challenge"), "not_allowed")
    assert [a.do for a in game.legal_actions()] == ["accept"]
    assert not hand_view(game, 2).can_challenge


def test_wd4_strict_a_drawn_wild_draw4_that_may_not_be_played_ends_the_turn() -> None:
    game = table3("classic", ["red-2"], then=("wild-draw4",), house=STRICT)
    do(game, 1, "draw")
    assert game.current == 2 and game.awaiting == "turn"


# ----- hand_size, uno_penalty -----


@pytest.mark.parametrize("size", [3, 15])
def test_hand_size_deals_that_many_cards(size: int) -> None:
    deck = edition_deck(Edition.CLASSIC)
    game = Game(Edition.CLASSIC, 4, 0, deck, random.Random(1), house=HouseRules(hand_size=size))
    assert [len(h) for h in game.hands] == [size] * 4
    assert game.events[0] == Dealt(dealer=0, cards=size)


def test_hand_size_the_deck_must_hold_the_deal() -> None:
    deck = edition_deck(Edition.CLASSIC)
    house = HouseRules(hand_size=15)
    with pytest.raises(ValueError, match="too small"):
        Game(Edition.CLASSIC, 8, 0, deck, random.Random(1), house=house)
    assert len(Game(Edition.CLASSIC, 7, 0, deck, random.Random(1), house=house).draw_pile) == 2


def test_hand_size_a_first_wild_draw4_stays_when_nothing_else_is_left() -> None:
    # The unshuffled deck ends with three Wild Draw Fours: 7 x 15 cards leave only those.
    deck = edition_deck(Edition.CLASSIC)
    house = HouseRules(hand_size=15)
    game = Game(Edition.CLASSIC, 7, 0, deck, random.Random(1), house=house)
    assert game.awaiting == "color" and game.current == 1 and top_code(game) == "wild-draw4"
    game.apply(act(1, "choose_color", color="blue"))
    assert [len(h) for h in game.hands] == [15] * 7 and game.awaiting == "turn"


def test_hand_size_sonic_a_first_action_card_stays_when_no_number_is_left() -> None:
    pile = [
        "red-skip",
        "blue-draw2",
        "wild",
        "green-reverse",
        "yellow-skip",
        "red-draw2",
        "blue-skip",
    ]
    game = make_game("sonic", [[]] * 7, pile, house={"hand_size": 15})
    assert top_code(game) == "red-skip" and game.current == 1 and game.awaiting == "turn"
    assert [len(h) for h in game.hands] == [15] * 7 and len(game.discard) == 1


def test_uno_penalty_a_catch_draws_that_many() -> None:
    game = table3("classic", house={"uno_penalty": 5})
    give(game, 1, ["red-2", "red-3"])
    play(game, 1, "red-2")
    assert draws(do(game, 0, "catch", target=1)) == [(1, 5, "catch")]


def test_uno_penalty_zero_the_catch_counts_but_draws_nothing() -> None:
    game = table3("classic", house={"uno_penalty": 0})
    give(game, 1, ["red-2", "red-3"])
    play(game, 1, "red-2")
    assert do(game, 0, "catch", target=1) == [Caught(seat=0, target=1)]
    assert game.catchable() == -1 and hand(game, 1) == ["red-3"]
    assert do(game, 2, "catch", target=1) == []


# ----- no_action_finish -----


@pytest.mark.parametrize("card", ["red-skip", "red-reverse", "red-draw2", "wild", "wild-draw4"])
def test_no_action_finish_a_last_action_or_wild_card_is_rejected(card: str) -> None:
    game = table3("classic", house=FINISH)
    give(game, 1, [card])
    rejects(game, act(1, "play", card, "blue"), "cannot_play")
    assert [a.do for a in game.legal_actions()] == ["draw"]
    assert not any(hand_view(game, 1).playable)


def test_no_action_finish_a_last_number_card_wins() -> None:
    game = table3("classic", house=FINISH)
    give(game, 1, ["red-2"])
    play(game, 1, "red-2")
    assert game.winner == 1


def test_no_action_finish_an_action_card_before_the_last_is_fine() -> None:
    game = table3("classic", house=FINISH)
    give(game, 1, ["red-skip", "red-2"])
    play(game, 1, "red-skip")
    assert hand(game, 1) == ["red-2"] and game.current == 0


def test_no_action_finish_applies_to_a_super_star_bounce() -> None:
    game = table3("mario", ["red-draw2"], house=FINISH)
    give(game, 2, ["wild-super-star"])
    play(game, 1, "red-draw2")
    rejects(game, act(2, "play", "wild-super-star", "blue"), "cannot_play")
    assert [a.do for a in game.legal_actions()] == ["accept"]
    assert not hand_view(game, 2).can_bounce


# ----- the order of errors -----


def test_error_order_phase_then_hand_then_match_then_color_then_target() -> None:
    house = {"jump_in": True, "seven_o": True, "wd4_strict": True, "custom_effect": "swap_hands"}
    game = table3("mario", ["wild-draw4", "red-2", "wild-custom"], house=house)
    rejects(game, act(2, "play", "blue-2"), "not_your_turn")  # not held, out of turn
    rejects(game, act(1, "play", "green-7"), "not_in_hand")  # not held and no match
    rejects(game, act(1, "play", "wild-draw4"), "cannot_play")  # strict before the color
    rejects(game, act(1, "play", "wild-custom"), "bad_color")  # color before the target
    rejects(game, act(1, "play", "wild-custom", "red"), "bad_action")


def test_house_rules_keep_every_card_in_the_deal() -> None:
    game = make_game("classic", [[], [], []], ["red-5"], house={"hand_size": 3})
    assert sorted(all_cards(game).elements()) == sorted(map(parse_card, edition_codes("classic")))


def test_wd4_strict_in_sonic_two_wild_draw4s_block_each_other() -> None:
    game = table3("sonic", house=STRICT)
    give(game, 1, ["wild-draw4", "wild-draw4", "blue-2"])
    assert game.playable(1) == []
    rejects(game, act(1, "play", "wild-draw4", "green"), "cannot_play")


def test_a_round_nobody_can_finish_stops_at_the_simulation_cap() -> None:
    # Sonic, wd4_strict, two players holding two Wild Draw Fours each: neither can ever go out.
    game = make_game(
        "sonic", [["wild-draw4", "wild-draw4"], ["wild-draw4", "wild-draw4"]], ["red-5"]
    )
    game.configure(HouseRules(wd4_strict=True))
    give(game, 0, ["wild-draw4", "wild-draw4", "green-1"])
    give(game, 1, ["wild-draw4", "wild-draw4", "green-2"])
    assert play_round(game, random_policy, random.Random(1), cap=300) == 300
    assert not game.over
    assert all(sum(c == parse_card("wild-draw4") for c in h) == 2 for h in game.hands)
