"""Hard's memory: what draws and challenges tell about a hand, and how its heuristic uses it."""

from __future__ import annotations

import random
from dataclasses import replace

from bot.engine import ai
from bot.engine.cards import CARD_INDEX, CARD_KINDS, Edition
from bot.engine.game import MATCHES, Action, Game, Phase
from tests.engine.helpers import position, spare

RED, BLUE = 0, 3


def _fits(color: int, top: str) -> tuple[bool, ...]:
    return MATCHES[color * CARD_KINDS + CARD_INDEX[top]]


def _seat1_drew_on_red() -> Game:
    """Seat 1 drew on the red 9 (a card that did not fit either); seat 2 then played a red 2."""
    hands = [
        ["red-5", "blue-2", "blue-7", "green-7"],
        ["blue-1", "blue-3", "green-3"],
        ["red-2", "yellow-4", "yellow-6", "green-1", "green-2"],
    ]
    game = position(hands, "red-9", current=1, pile=["yellow-8"])
    game.draw(1)
    game.play(2, CARD_INDEX["red-2"])
    assert game.current == 0 and game.phase is Phase.TURN
    return game


def test_a_seat_that_drew_on_red_probably_holds_no_red() -> None:
    game = _seat1_drew_on_red()
    info = ai.knowledge(game, 0)
    lacks_red = ai.chance_none(game, info, 1, _fits(RED, "red-5"))
    unknown = ai.chance_none(game, info, 2, _fits(RED, "red-5"))
    assert lacks_red > 2 * unknown
    # Blue tells nothing about seat 1, so it is no more likely to lack it than red.
    assert ai.chance_none(game, info, 1, _fits(BLUE, "blue-2")) < lacks_red


def test_a_card_seen_in_a_challenge_is_known_to_be_held() -> None:
    culprit = ["wild-draw4", "red-1", "blue-2", "blue-3"]
    game = position([culprit, ["yellow-1", "yellow-2"], spare("green", 3, 4)], "red-9")
    game.play(0, CARD_INDEX["wild-draw4"], BLUE)
    game.challenge(1)
    info = ai.knowledge(game, 1)
    assert ai.chance_none(game, info, 0, _fits(RED, "red-5")) == 0.0
    assert ai.chance_none(game, ai.knowledge(game, 2), 0, _fits(RED, "red-5")) > 0.0


def test_the_follower_of_skips_reverses_and_draws() -> None:
    game = position([["red-5"], ["red-6"], ["red-7"], ["red-8"]], "red-9")
    assert ai.follower(game, 0, CARD_INDEX["red-5"]) == 1
    assert ai.follower(game, 0, CARD_INDEX["red-skip"]) == 2
    assert ai.follower(game, 0, CARD_INDEX["red-reverse"]) == 3
    assert ai.follower(game, 0, CARD_INDEX["red-draw2"]) == 2
    assert ai.follower(game, 0, CARD_INDEX["wild"]) == 1
    mario = position([["red-5"], ["red-6"], ["red-7"]], "red-9", Edition.MARIO)
    # A Mario Draw Two waits for its target's answer: the target is the one who must match.
    assert ai.follower(mario, 0, CARD_INDEX["red-draw2"]) == 1


def test_hard_leaves_a_color_the_next_seat_showed_it_lacks() -> None:
    game = _seat1_drew_on_red()
    # Weights that keep the strongest color in force, without memory: the blue 2.
    plain = replace(ai.SHARP, same=3.0, block=0.0)
    assert ai.heuristic(game, 0, random.Random(0), plain) == Action(0, "play", CARD_INDEX["blue-2"])
    # The same weights with hard's memory: the red 5, since seat 1 drew on red.
    sharp = ai.heuristic(game, 0, random.Random(0), replace(ai.SHARP, same=3.0))
    assert sharp == Action(0, "play", CARD_INDEX["red-5"])


def test_hard_keeps_a_drawn_wild_until_someone_is_close_to_out() -> None:
    hands = [["blue-5", "blue-6", "green-7"], spare("green", 5, 1), spare("yellow", 5, 2)]
    calm = position(hands, "red-9", pile=["wild"])
    calm.draw(0)
    assert ai.heuristic(calm, 0, random.Random(0), ai.SHARP) == Action(0, "pass")
    assert ai.decide(calm, 0, "normal", random.Random(0)).do == "play"
    hands[1] = ["green-1", "green-2"]
    close = position(hands, "red-9", pile=["wild"])
    close.draw(0)
    assert ai.heuristic(close, 0, random.Random(0), ai.SHARP).do == "play"
