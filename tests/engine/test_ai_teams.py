"""Computer players at a team table: they never catch a partner, never hit a partner with a
penalty while another card will do, hand the turn to a partner close to going out, and count a
partner's win as their own."""

from __future__ import annotations

import random

from bot.engine import ai, ai_teams
from bot.engine.cards import CARD_INDEX, CODES
from bot.engine.game import Game
from tests.engine.helpers import position


def teamed(game: Game, teams: int = 2) -> Game:
    game.teams = teams
    return game


def test_a_partner_is_never_caught() -> None:
    game = teamed(
        position([["red-1", "blue-2"], ["green-3"], ["red-4"], ["blue-5", "red-7"]], "red-9")
    )
    game.exposed = 2  # seat 2, seat 0's partner, holds one card and did not call UNO
    assert ai.out_of_turn(game, 0, "normal", random.Random(1)) is None
    game.exposed = 1
    caught = ai.out_of_turn(game, 0, "normal", random.Random(1))
    assert caught is not None and caught.target == 1


def test_no_draw_two_on_a_partner_when_another_card_fits() -> None:
    hands = [["red-draw2", "red-5", "blue-9"], ["green-3"], ["yellow-1", "yellow-2"], ["blue-1"]]
    game = teamed(position(hands, "red-3"))
    game.active[1] = False  # the opponent between them left: seat 2, a partner, is next
    game.players = 3
    game.hands[1] = []
    for level in ("normal", "hard"):
        action = ai.decide(game, 0, level, random.Random(2), max_rollouts=12)
        assert action.card == CARD_INDEX["red-5"], (level, CODES[action.card or 0])
    game.teams = 0  # without teams the Draw Two on a player down to two cards is the move
    assert ai.decide(game, 0, "normal", random.Random(2)).card == CARD_INDEX["red-draw2"]


def test_a_skip_hands_the_turn_to_a_partner_near_out() -> None:
    hands = [
        ["red-skip", "red-5", "blue-9", "green-7"],
        ["green-3", "green-4", "green-5", "green-6", "green-8"],
        ["yellow-1"],
        ["blue-1", "blue-2", "blue-3", "blue-4", "blue-6"],
    ]
    game = teamed(position(hands, "red-3"))
    assert ai_teams.card_bonus(game, 0, True, 2) == ai_teams.PARTNER_NEXT
    assert ai.decide(game, 0, "normal", random.Random(3)).card == CARD_INDEX["red-skip"]


def test_a_partner_going_out_is_a_win_for_the_team() -> None:
    game = teamed(position([["red-1"], ["green-3"], ["red-4"], ["blue-5"]], "red-9"))
    game.winner = 2
    assert ai_teams.won_for(game, 0) and not ai_teams.won_for(game, 1)
    game.teams = 0
    assert not ai_teams.won_for(game, 0)
