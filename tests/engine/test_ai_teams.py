"""Computer players at a team table: they never catch a partner, never hit a partner with a
penalty while another card will do, hand the turn to a partner close to going out, count a
partner's win as their own, and read a partner's hand only where the table lets partners see."""

from __future__ import annotations

import random

from bot.engine import ai, ai_teams
from bot.engine.cards import CARD_INDEX, CODES, Edition
from bot.engine.game import Game
from tests.engine.helpers import hidden_variant, position, positions


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


def opponents_redealt(game: Game, seed: int, seat: int) -> Game:
    """The same game for ``seat`` and its partners: the opponents' hands and the draw pile
    redealt, every count kept."""
    other = game.clone(random.Random(seed))
    hidden = ai_teams.opponents(game, seat)
    pool = [c for s in hidden for c in game.hands[s]] + game.draw_pile
    random.Random(seed).shuffle(pool)
    for s in hidden:
        size = len(game.hands[s])
        other.hands[s], pool = pool[:size], pool[size:]
    other.draw_pile = pool
    other.events = list(game.events)
    return other


def test_partners_see_opens_the_partners_hands_and_nothing_else() -> None:
    hands = [["wild", "red-1"], ["green-3"], ["blue-4", "blue-5"], ["yellow-6"]]
    game = teamed(position(hands, "red-9"))
    info = ai.knowledge(game, 0)
    ai_teams.see_partners(game, 0, info)
    assert set(info.known) == {2} and sorted(info.known[2].elements()) == sorted(game.hands[2])
    checked = 0
    for index, played in enumerate(positions(Edition.CLASSIC, 11, 3)):
        if index % 4:
            continue
        played.teams = 2
        seat = played.current
        variant = opponents_redealt(played, index, seat)
        first = ai.decide(
            played, seat, "hard", random.Random(index), max_rollouts=12, partners_see=True
        )
        again = ai.decide(
            variant, seat, "hard", random.Random(index), max_rollouts=12, partners_see=True
        )
        assert first == again
        checked += 1
    assert checked > 20


def test_without_partners_see_hard_does_not_read_a_partners_hand() -> None:
    checked = 0
    for index, played in enumerate(positions(Edition.CLASSIC, 9, 3)):
        if index % 4:
            continue
        played.teams = 2
        seat = played.current
        variant = hidden_variant(played, index, seat)
        first = ai.decide(played, seat, "hard", random.Random(index), max_rollouts=12)
        again = ai.decide(variant, seat, "hard", random.Random(index), max_rollouts=12)
        assert first == again
        checked += 1
    assert checked > 20
