"""Computer players under house rules: only legal actions under any mix of options, and
sensible stacks, swaps and jump-ins."""

from __future__ import annotations

import random

import pytest

from bot.engine import OPTIONS, HouseRules, ai
from bot.engine.cards import CARD_INDEX, Edition, edition_deck, shuffle
from bot.engine.game import Action, Game, Phase
from tests.engine.helpers import position, spare

FAST = {"budget_s": 10.0, "max_rollouts": 8}  # count-limited: exact and quick


def random_rules(rng: random.Random, players: int, edition: Edition) -> HouseRules:
    values = {o.name: rng.choice(o.choices) for o in OPTIONS if rng.random() < 0.5}
    values["hand_size"] = min(
        values.get("hand_size", 7), (len(edition_deck(edition)) - 1) // players
    )
    return HouseRules(**values)


def check_round(edition: Edition, level: str, seed: int) -> int:
    """Play one round where every seat plays at ``level``, jumping in and catching; returns
    the number of decisions, each checked against the legal actions."""
    rng = random.Random(seed)
    players = rng.randint(2, 10 if level != "hard" else 4)
    house = random_rules(rng, players, edition)
    deck = edition_deck(edition)
    shuffle(deck, rng)
    game = Game(edition, players, rng.randrange(players), deck, random.Random(seed), house=house)
    decisions = 0
    while not game.over:
        seat = game.current
        assert ai.timeout_action(game, seat, rng) in game.legal_actions()
        action = ai.decide(game, seat, level, rng, **FAST)
        assert action in game.legal_actions(), (house, action, game.awaiting)
        game.apply(action)
        decisions += 1
        for other in range(game.n):
            if game.over:
                break
            jump = ai.jump_in(game, other, level, rng)
            if jump is not None:
                assert jump in game.legal_actions(other), (house, jump)
                game.apply(jump)
            extra = ai.out_of_turn(game, other, level, rng)
            if extra is not None:
                game.apply(extra)
        assert decisions < 20_000
    return decisions


@pytest.mark.parametrize("edition", list(Edition))
@pytest.mark.parametrize("level", ai.LEVELS)
def test_every_decision_is_legal_under_random_house_rules(edition: Edition, level: str) -> None:
    rounds = 2 if level == "hard" else 25
    assert sum(check_round(edition, level, seed) for seed in range(rounds)) > rounds * 5


STACK = HouseRules.parse({"stack": "all"})


def responding(hands: list[list[str]], house: HouseRules, card: str = "red-draw2") -> Game:
    """Seat 0 has just played ``card`` on a red 4: seat 1 must answer."""
    game = position(hands, "red-4", house=house)
    game.play(0, CARD_INDEX[card], 3 if card.startswith("wild") else None)
    assert game.phase is Phase.RESPOND and game.current == 1
    return game


@pytest.mark.parametrize("level", ai.LEVELS)
def test_every_level_stacks_a_draw2_when_it_can(level: str) -> None:
    hands = [
        ["red-draw2", *spare("red", 4)],
        ["blue-draw2", "green-5", "yellow-6"],
        spare("green", 5),
    ]
    game = responding(hands, STACK)
    action = ai.decide(game, 1, level, random.Random(0), **FAST)
    assert action == Action(1, "play", CARD_INDEX["blue-draw2"])


def test_normal_keeps_a_draw2_stack_cheap_before_a_super_star_or_a_draw4() -> None:
    hands = [
        ["red-draw2", *spare("red", 4)],
        ["wild-draw4", "wild-super-star", "green-draw2", "green-5"],
        spare("yellow", 5),
    ]
    game = position(hands, "red-4", Edition.MARIO, house=STACK)
    game.play(0, CARD_INDEX["red-draw2"])
    assert ai.decide(game, 1, "normal", random.Random(0)).card == CARD_INDEX["green-draw2"]


def test_normal_stacks_a_draw4_only_on_a_big_penalty_or_a_player_close_to_out() -> None:
    far = [
        ["red-draw2", *spare("red", 4)],
        ["wild-draw4", "green-5", "green-6"],
        spare("yellow", 6),
    ]
    game = responding(far, STACK)
    assert ai.decide(game, 1, "normal", random.Random(0)) == Action(1, "accept")
    close = [far[0], far[1], ["yellow-1", "yellow-2"]]
    game = responding(close, STACK)
    assert ai.decide(game, 1, "normal", random.Random(0)).card == CARD_INDEX["wild-draw4"]
    big = [["wild-draw4", *spare("red", 4)], far[1], spare("yellow", 6)]
    game = responding(big, STACK, "wild-draw4")  # a penalty of 4
    action = ai.decide(game, 1, "normal", random.Random(0))
    assert action.card == CARD_INDEX["wild-draw4"] and action.color == 2  # green, held most


def test_normal_never_challenges_under_wd4_strict() -> None:
    culprit = ["wild-draw4", "blue-1", "blue-2", "blue-3", "green-4", "green-5", "yellow-6"]
    strict = HouseRules(wd4_strict=True)
    game = position([culprit, ["yellow-1", "yellow-2"], spare("blue", 2, 9)], "red-9", house=strict)
    game.play(0, CARD_INDEX["wild-draw4"], 3)
    assert ai.decide(game, 1, "normal", random.Random(0)) == Action(1, "accept")


SEVEN_O = HouseRules(seven_o=True)


def test_swap_target_is_the_opponent_with_the_fewest_cards() -> None:
    hands = [
        ["red-7", *spare("blue", 6)],
        spare("green", 5),
        spare("yellow", 2),
        spare("green", 4, 5),
    ]
    game = position(hands, "red-4", house=SEVEN_O)
    assert ai.swap_target(game, 0) == 2
    action = ai.decide(game, 0, "normal", random.Random(0))
    assert action == Action(0, "play", CARD_INDEX["red-7"], None, False, 2)


def test_normal_avoids_a_seven_that_would_swap_into_a_bigger_hand() -> None:
    hands = [["red-7", "red-2", "blue-3"], spare("green", 6), spare("yellow", 7)]
    game = position(hands, "red-4", house=SEVEN_O)
    assert ai.decide(game, 0, "normal", random.Random(0)).card == CARD_INDEX["red-2"]
    assert ai.exchange_gain(game, 0, CARD_INDEX["red-7"]) == -4


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_normal_and_hard_jump_in_with_an_identical_card(level: str) -> None:
    jump = HouseRules(jump_in=True)
    game = position(
        [spare("blue", 5), spare("green", 5), ["red-4", "yellow-5", "yellow-6"]],
        "red-4",
        house=jump,
    )
    assert ai.jump_in(game, 2, level, random.Random(0)) == Action(2, "play", CARD_INDEX["red-4"])
    assert ai.jump_in(game, 2, "easy", random.Random(0)) is None
    assert ai.jump_in(game, 1, level, random.Random(0)) is None  # nothing identical
    assert ai.jump_in(game, 0, level, random.Random(0)) is None  # the awaited seat plays


def test_no_jump_in_with_a_seven_that_would_swap_into_a_bigger_hand() -> None:
    house = HouseRules(jump_in=True, seven_o=True)
    game = position(
        [spare("blue", 6), spare("green", 6), ["red-7", "yellow-5"]], "red-7", house=house
    )
    assert ai.jump_in(game, 2, "normal", random.Random(0)) is None
    game = position(
        [spare("blue", 2), spare("green", 6), ["red-7", *spare("yellow", 5)]], "red-7", house=house
    )
    assert ai.jump_in(game, 2, "normal", random.Random(0)) == Action(
        2, "play", CARD_INDEX["red-7"], target=0
    )


def test_under_must_play_a_drawn_wild_is_played_not_kept() -> None:
    hands = [["blue-5", "green-6", "yellow-7"], spare("green", 5), spare("yellow", 5)]
    game = position(hands, "red-4", pile=["wild"], house=HouseRules(must_play=True))
    game.draw(0)
    assert game.phase is Phase.DRAWN
    for level in ai.LEVELS:
        action = ai.decide(game, 0, level, random.Random(0), **FAST)
        assert action.do == "play" and action.card == CARD_INDEX["wild"], level


def test_timeout_draws_keeps_and_accepts_and_plays_only_when_it_must() -> None:
    hands = [["red-5", "green-6"], spare("green", 5), spare("yellow", 5)]
    game = position(hands, "red-4", pile=["red-9"])
    rng = random.Random(0)
    assert ai.timeout_action(game, 0, rng) == Action(0, "draw")
    game.draw(0)
    assert ai.timeout_action(game, 0, rng) == Action(0, "pass")
    strict = position(hands, "red-4", house=HouseRules(must_play=True))
    assert ai.timeout_action(strict, 0, rng) == Action(0, "play", CARD_INDEX["red-5"], uno=True)
    with pytest.raises(ValueError):
        ai.timeout_action(strict, 1, rng)
