"""Computer players: legal actions only, no mutation, no peeking, and normal's habits."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest

from bot.engine import ai
from bot.engine.ai_memory import BLUFF, HONEST
from bot.engine.cards import CARD_INDEX, Edition
from bot.engine.events import Challenged
from bot.engine.game import Action, Game, Phase
from tests.engine.helpers import EDITIONS, dealt, hidden_variant, position, positions, spare

FAST = {"budget_s": 10.0, "max_rollouts": 12}  # count-limited: exact and quick


def _decide(game: Game, level: str, seed: int) -> Action:
    return ai.decide(game, game.current, level, random.Random(seed), **FAST)


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("level", ai.LEVELS)
def test_every_decision_is_legal_and_rounds_finish(edition: Edition, level: str) -> None:
    rng = random.Random(7)
    rounds = 2 if level == "hard" else 30
    for index in range(rounds):
        game = dealt(edition, 100 + index)
        steps = 0
        while not game.over:
            action = ai.decide(game, game.current, level, rng, max_rollouts=12)
            assert action in game.legal_actions(), (action, game.phase)
            game.apply(action)
            for seat in range(game.n):
                extra = ai.out_of_turn(game, seat, level, rng)
                if extra is not None:
                    game.apply(extra)
            steps += 1
            assert steps < 3000


@pytest.mark.parametrize("edition", EDITIONS)
def test_decide_never_changes_the_game(edition: Edition) -> None:
    for game in itertools.islice(positions(edition, 3, 3), 0, None, 7):
        before = game.to_dict()
        for level in ai.LEVELS:
            _decide(game, level, 1)
            ai.out_of_turn(game, (game.current + 1) % game.n, level, random.Random(1))
            assert game.to_dict() == before


@pytest.mark.parametrize("edition", EDITIONS)
def test_hidden_cards_do_not_change_the_decision(edition: Edition) -> None:
    checked = 0
    for index, game in enumerate(positions(edition, 5, 4)):
        seat = game.current
        variant = hidden_variant(game, index, seat)
        assert variant.hands[seat] == game.hands[seat]
        assert _decide(game, "normal", index) == _decide(variant, "normal", index)
        if index % 5 == 0:
            assert _decide(game, "hard", index) == _decide(variant, "hard", index)
        checked += 1
    assert checked > 100


def test_hidden_draw4_legality_is_not_read() -> None:
    # Seat 0 plays a Wild Draw Four; seat 1 decides the same whatever seat 0 really held.
    caught_twice = ai.ChallengeRecord({0: [BLUFF, BLUFF]})
    for record, expected in ((None, "accept"), (caught_twice, "challenge")):
        for held in (["red-3", "blue-5", "blue-6"], ["green-3", "blue-5", "blue-6"]):
            game = position(
                [["wild-draw4", *held], ["yellow-1", "yellow-2", "green-9"], spare("blue", 2, 1)],
                "red-9",
            )
            game.play(0, CARD_INDEX["wild-draw4"], 3)
            assert game.phase is Phase.RESPOND
            for level in ai.LEVELS[1:]:
                action = ai.decide(game, 1, level, random.Random(0), record=record, **FAST)
                assert action == Action(1, expected), (level, held)


def test_normal_calls_uno_with_its_next_to_last_card() -> None:
    game = position([["red-5", "blue-7"], spare("green", 5, 1), spare("yellow", 5, 2)], "red-2")
    for level in ai.LEVELS:
        action = _decide(game, level, 0)
        assert action.do == "play" and action.uno, level


def test_normal_keeps_a_wild_when_a_colored_card_fits() -> None:
    game = position([["wild", "red-5", "blue-7", "blue-8"], spare("green", 5, 1)], "red-2")
    assert _decide(game, "normal", 0) == Action(0, "play", CARD_INDEX["red-5"])


def test_normal_names_the_color_it_holds_most() -> None:
    game = position([["wild", "blue-5", "blue-7", "green-8"], spare("green", 5, 1)], "red-2")
    assert _decide(game, "normal", 0) == Action(0, "play", CARD_INDEX["wild"], 3)


def test_normal_sheds_high_cards_when_someone_is_about_to_go_out() -> None:
    hands = [["red-1", "red-9", "blue-2", "blue-3"], spare("green", 2, 1), spare("yellow", 6, 2)]
    game = position(hands, "red-4")
    assert _decide(game, "normal", 0) == Action(0, "play", CARD_INDEX["red-9"])


def test_normal_hits_the_next_player_on_their_last_card() -> None:
    hands = [["red-1", "red-draw2", "red-3"], ["green-1"], spare("yellow", 6, 2)]
    game = position(hands, "red-4")
    assert _decide(game, "normal", 0) == Action(0, "play", CARD_INDEX["red-draw2"])


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_catches_a_player_who_forgot_uno(level: str) -> None:
    game = position([["red-5", "red-6"], spare("green", 5, 1), spare("yellow", 5, 2)], "red-2")
    game.play(0, CARD_INDEX["red-5"], uno=False)
    assert ai.out_of_turn(game, 1, level, random.Random(0)) == Action(1, "catch", target=0)
    assert ai.out_of_turn(game, 1, "easy", random.Random(0)) is None


def test_every_level_calls_its_own_forgotten_uno() -> None:
    game = position([["red-5", "red-6"], spare("green", 5, 1), spare("yellow", 5, 2)], "red-2")
    game.play(0, CARD_INDEX["red-5"], uno=False)
    for level in ai.LEVELS:
        assert ai.out_of_turn(game, 0, level, random.Random(0)) == Action(0, "call_uno")


def test_normal_challenges_a_big_hand_unless_its_player_was_shown_honest() -> None:
    culprit = ["wild-draw4", "blue-1", "blue-2", "blue-3", "green-4", "green-5", "yellow-6"]
    game = position([culprit, ["yellow-1", "yellow-2"], spare("blue", 2, 9)], "red-9")
    game.play(0, CARD_INDEX["wild-draw4"], 3)
    # Six unknown cards with a quarter of the unseen ones red: very likely one was red...
    assert ai.illegal_chance(game, ai.knowledge(game, 1)) > 0.7
    assert _decide(game, "normal", 0) == Action(1, "challenge")
    # ...but a player whose Wild Draw Fours were shown legal twice probably does not bluff.
    honest = ai.ChallengeRecord({0: [HONEST, HONEST]})
    action = ai.decide(game, 1, "normal", random.Random(0), record=honest)
    assert action == Action(1, "accept")


def test_normal_accepts_a_draw4_from_a_player_who_just_drew_on_red() -> None:
    # Seat 0 drew on red twice: it held no red, and the second draw is the Draw Four it plays.
    hands = [["blue-5", "blue-6", "green-7"], ["red-1", "red-4", "red-5"], ["red-2", "red-6"]]
    game = position(hands, "red-9", current=0, pile=["yellow-8", "wild-draw4"])
    game.draw(0)
    game.play(1, CARD_INDEX["red-1"])
    game.play(2, CARD_INDEX["red-2"])
    game.draw(0)
    game.play(0, CARD_INDEX["wild-draw4"], 3)
    assert game.phase is Phase.RESPOND
    info = ai.knowledge(game, 1)
    assert info.voids[0][0] == 4
    assert ai.illegal_chance(game, info) == 0.0
    assert _decide(game, "normal", 0) == Action(1, "accept")


def test_decide_rejects_a_seat_that_is_not_awaited() -> None:
    game = dealt(Edition.CLASSIC, 1)
    with pytest.raises(ValueError):
        ai.decide(game, (game.current + 1) % game.n, "normal", random.Random(0))
    with pytest.raises(ValueError):
        ai.decide(game, game.current, "expert", random.Random(0))


def test_a_hand_shown_to_another_challenger_is_not_read() -> None:
    # Seat 1 challenges seat 0's Wild Draw Four and sees its hand; seat 2 sees only the outcome.
    hands = [
        ["wild-draw4", "red-3", "green-5", "green-6"],
        ["yellow-1", "yellow-2", "blue-9"],
        ["green-7", "green-8", "blue-4", "yellow-9"],
    ]
    game = position(hands, "red-9", pile=["yellow-3", "yellow-4", "yellow-6", "yellow-7"])
    game.play(0, CARD_INDEX["wild-draw4"], 2)
    game.challenge(1)  # a bluff: seat 0 draws 4, seat 1 plays on
    while game.current != 2:
        game.apply(ai.decide(game, game.current, "normal", random.Random(0)))
    index = next(i for i, e in enumerate(game.events) if isinstance(e, Challenged))
    shown = game.events[index]
    assert isinstance(shown, Challenged)
    variant = hidden_variant(game, 5, 2)
    assert variant.events[index] == shown
    variant.events[index] = replace(shown, hand=("blue-1", "blue-2", "blue-3"))
    assert ai.knowledge(game, 2) == ai.knowledge(variant, 2)
    assert ai.knowledge(game, 1).known != ai.knowledge(variant, 1).known  # the challenger's own
    for level in ai.LEVELS:
        assert _decide(game, level, 3) == _decide(variant, level, 3), level
