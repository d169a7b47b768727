"""Seeded random rounds in every edition at 2 to 10 players, with invariants after every action."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from engine_helpers import all_cards

from bot.engine import Action, Edition, Game, RuleError
from bot.engine.cards import CARD_POINTS, edition_deck, shuffle

GAMES_PER_CASE = 80  # x 3 editions x 9 table sizes
MAX_ACTIONS = 5_000


def new_game(edition: Edition, players: int, rng: random.Random) -> Game:
    deck = edition_deck(edition)
    shuffle(deck, rng)
    return Game(edition, players, rng.randrange(players), deck, random.Random(rng.random()))


def out_of_turn(game: Game, rng: random.Random) -> None:
    """A random catch or UNO call from anyone: legal or not, it must keep the invariants."""
    live = [s for s in range(game.n) if game.active[s]]
    seat = rng.choice(live)
    if rng.random() < 0.5 or game.catchable() >= 0:
        exposed = game.catchable()
        target = exposed if exposed >= 0 and rng.random() < 0.7 else rng.choice(live)
        if target == seat:
            return
        catchable = game.catchable()
        before = len(game.hands[target])
        game.apply(Action(seat, "catch", target=target))
        grew = len(game.hands[target]) - before
        assert grew == 0 if catchable != target else 0 <= grew <= 2
    elif len(game.hands[seat]) == 1:
        game.apply(Action(seat, "call_uno"))
        assert game.uno_flags()[seat]


def try_illegal(game: Game, rng: random.Random) -> None:
    """A random action that may well be illegal: if rejected, nothing may have changed."""
    seat = rng.randrange(game.n)
    card = rng.choice(game.hands[seat]) if game.hands[seat] else 0
    action = Action(seat, rng.choice(["play", "draw", "pass", "accept", "challenge"]), card, 5)
    before = game.to_dict()
    try:
        game.apply(action)
    except RuleError:
        assert game.to_dict() == before


def play_round(edition: Edition, players: int, seed: int) -> Game:
    rng = random.Random(seed)
    game = new_game(edition, players, rng)
    deck = Counter(edition_deck(edition))
    assert all_cards(game) == deck
    for _ in range(MAX_ACTIONS):
        if game.over:
            break
        legal = game.legal_actions()
        assert legal, "legal actions never run out while the round is on"
        assert game.active[game.current]
        plays = [a for a in legal if a.do == "play"]
        action = rng.choice(plays if plays and rng.random() < 0.85 else legal)
        if action.do == "play" and rng.random() < 0.3:
            action = Action(action.seat, "play", action.card, action.color, not action.uno)
        game.apply(action)
        roll = rng.random()
        if game.catchable() >= 0 and rng.random() < 0.5:
            out_of_turn(game, rng)
        if roll < 0.15 and not game.over:
            out_of_turn(game, rng)
        elif roll < 0.153 and not game.over:
            game.leave(rng.choice([s for s in range(game.n) if game.active[s]]))
        elif roll < 0.16 and not game.over:
            try_illegal(game, rng)
        assert all_cards(game) == deck, "every card accounted for"
        for seat, hand in enumerate(game.hands):
            assert game.active[seat] or not hand
    assert game.over, "the round ends"
    return game


@pytest.mark.parametrize("players", range(2, 11))
@pytest.mark.parametrize("edition", list(Edition))
def test_random_rounds_keep_every_invariant(edition: Edition, players: int) -> None:
    for seed in range(GAMES_PER_CASE):
        game = play_round(edition, players, seed * 100 + players)
        assert 0 <= game.winner < players and game.active[game.winner]
        assert game.awaiting == "round_over" and game.legal_actions() == []
        assert game.points is not None
        forfeit = game.events[-1]["type"] == "forfeit"
        if forfeit:
            assert game.points == [0] * players and game.players == 1
        else:
            assert game.hands[game.winner] == []
            others = sum(CARD_POINTS[c] for h in game.hands for c in h)
            assert game.points == [others if s == game.winner else 0 for s in range(players)]
            ends = [e for e in game.events if e["type"] == "round_over"]
            assert ends == [{"type": "round_over", "winner": game.winner, "points": others}]
