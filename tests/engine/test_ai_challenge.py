"""The Wild Draw Four challenge as a judgment: what the table saw of a player, and the stakes."""

from __future__ import annotations

import random

import pytest

from bot.engine import ai
from bot.engine.ai_challenge import (
    BLUFF_RATES,
    bluff_weights,
    illegal_belief,
    worth_challenging,
)
from bot.engine.ai_memory import BLUFF, HONEST, UNSHOWN
from bot.engine.cards import CARD_INDEX
from bot.engine.game import Action, Game, Phase
from tests.engine.helpers import position, spare

BLUE = 3
FAST = {"budget_s": 10.0, "max_rollouts": 12}


YELLOWS = ["yellow-3", "yellow-4", "yellow-6", "yellow-7"]  # the four cards a penalty draws


def _draw4_by_seat0(held: list[str], pile: list[str] | None = None) -> Game:
    """Seat 0 (holding ``held`` besides) plays a Wild Draw Four on red, naming blue."""
    hands = [["wild-draw4", *held], ["yellow-1", "yellow-2", "green-9"]]
    game = position(hands, "red-9", pile=[*YELLOWS, *(pile or [])])
    game.play(0, CARD_INDEX["wild-draw4"], BLUE)
    assert game.phase is Phase.RESPOND
    return game


def test_a_bluff_shown_by_a_later_play_is_read_as_a_bluff() -> None:
    game = _draw4_by_seat0(["red-5", "blue-5", "blue-6"], pile=["yellow-8"])
    game.accept(1)
    assert ai.knowledge(game, 1).wd4_reads == {}  # not shown yet
    game.play(0, CARD_INDEX["blue-5"])
    game.draw(1)  # the yellow 8 fits nothing
    assert game.current == 0
    # Red was in force before the Draw Four: a red card played before any draw was held then.
    game.play(0, CARD_INDEX["red-5"])
    assert ai.knowledge(game, 1).wd4_reads == {0: [BLUFF]}


def test_challenges_show_bluffs_and_honest_plays() -> None:
    honest = _draw4_by_seat0(["blue-5", "blue-6"])
    honest.challenge(1)
    assert ai.knowledge(honest, 1).wd4_reads == {0: [HONEST]}
    bluff = _draw4_by_seat0(["red-3", "blue-6"])
    bluff.challenge(1)
    # The outcome of a challenge is public: every seat reads it.
    assert ai.knowledge(bluff, 0).wd4_reads == {0: [BLUFF]}


def test_a_draw4_followed_by_the_culprits_draw_is_never_shown() -> None:
    game = _draw4_by_seat0(["green-1", "green-2"], pile=["yellow-9"])
    game.accept(1)
    assert game.current == 0
    game.draw(0)  # blue in force: seat 0 holds none
    assert ai.knowledge(game, 1).wd4_reads == {0: [UNSHOWN]}


def test_the_belief_follows_what_was_seen() -> None:
    q = 0.8
    fresh = illegal_belief(q, [])
    assert illegal_belief(q, [BLUFF]) > 2 * fresh
    assert illegal_belief(q, [HONEST, HONEST]) < fresh / 2
    assert illegal_belief(q, [UNSHOWN] * 3) < fresh
    assert illegal_belief(0.0, [BLUFF, BLUFF]) == 0.0  # no card of the color: legal for sure
    assert illegal_belief(1.0, []) == 1.0
    weights = bluff_weights([BLUFF] * 4)
    assert abs(sum(weights) - 1.0) < 1e-9
    assert weights[BLUFF_RATES.index(0.0)] == 0.0


def test_a_challenge_is_made_only_when_the_gain_beats_the_risk() -> None:
    # Two players, a penalty of 4: a won challenge is worth 4 + 4 + the turn, a lost one -2.
    assert not worth_challenging(2 / 11 - 0.01, 4, 2)
    assert worth_challenging(2 / 11 + 0.01, 4, 2)
    # With more players the culprit's extra cards help less: a higher bar.
    assert not worth_challenging(2 / 11 + 0.01, 4, 4)


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_a_player_caught_bluffing_before_is_challenged(level: str) -> None:
    game = _draw4_by_seat0(["green-3", "blue-5"])
    assert ai.decide(game, 1, level, random.Random(0), **FAST) == Action(1, "accept")
    record = ai.ChallengeRecord()
    record.add({0: [BLUFF]})
    assert ai.decide(game, 1, level, random.Random(0), record=record, **FAST) == Action(
        1, "challenge"
    )
    honest = ai.ChallengeRecord({0: [HONEST, HONEST, UNSHOWN]})
    assert ai.decide(game, 1, level, random.Random(0), record=honest, **FAST) == Action(1, "accept")


def test_a_color_seen_in_the_culprits_hand_is_always_challenged() -> None:
    hands = [
        ["wild-draw4", "wild-draw4", "red-3", "green-3", "blue-5"],
        ["yellow-1", *spare("green", 5)],
    ]
    game = position(hands, "red-9", pile=YELLOWS)
    game.play(0, CARD_INDEX["wild-draw4"], 2)
    game.challenge(1)  # a bluff (the red 3): seat 0 draws 4, seat 1 saw its hand
    assert game.current == 1
    game.play(1, CARD_INDEX["green-1"])
    game.play(0, CARD_INDEX["wild-draw4"], BLUE)  # on green, holding the green 3 seat 1 saw
    assert ai.decide(game, 1, "normal", random.Random(0)) == Action(1, "challenge")
