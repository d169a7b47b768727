"""Positions for the computer-player tests: consistent games built from explicit hands."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

from bot.engine.cards import CARD_COLOR, CARD_INDEX, CODES, Edition, edition_deck, shuffle
from bot.engine.game import Game, Phase
from bot.engine.house import HouseRules
from bot.engine.simulate import random_policy

EDITIONS = tuple(Edition)


def position(
    hands: list[list[str]],
    top: str,
    edition: Edition = Edition.CLASSIC,
    current: int = 0,
    seed: int = 0,
    pile: list[str] | None = None,
    house: HouseRules | None = None,
) -> Game:
    """A game whose hands and top card are given; the rest of the deck is the draw pile."""
    rng = random.Random(seed)
    game = Game(edition, len(hands), 0, _deck(edition, rng), random.Random(seed))
    if house is not None:
        game.configure(house)
    rest = Counter(edition_deck(edition))
    game.hands = [[CARD_INDEX[c] for c in hand] for hand in hands]
    for hand in game.hands:
        rest.subtract(hand)
    top_card = CARD_INDEX[top]
    rest[top_card] -= 1
    stack = [CARD_INDEX[c] for c in pile or []]  # drawn first to last
    rest.subtract(stack)
    assert min(rest.values()) >= 0, "more copies than the deck holds"
    draw_pile = list(rest.elements())
    shuffle(draw_pile, rng)
    game.draw_pile = draw_pile + stack[::-1]
    game.discard = [top_card]
    game.color = CARD_COLOR[top_card]
    game.direction = 1
    game.phase = Phase.TURN
    game.current = current
    game.called = [False] * len(hands)
    game.exposed = -1
    game.events = [
        {"type": "deal", "dealer": 0, "cards": 7},
        {"type": "first_card", "card": top, "effect": "starts"},
    ]
    return game


def _deck(edition: Edition, rng: random.Random) -> list[int]:
    deck = edition_deck(edition)
    shuffle(deck, rng)
    return deck


def dealt(edition: Edition, seed: int, players: int = 4) -> Game:
    """A freshly dealt seeded round."""
    rng = random.Random(seed)
    return Game(edition, players, seed % players, _deck(edition, rng), random.Random(seed))


def positions(edition: Edition, seed: int, rounds: int) -> Iterator[Game]:
    """Every position of a few seeded rounds that random players play out."""
    rng = random.Random(seed)
    for index in range(rounds):
        game = dealt(edition, seed * 1000 + index)
        while not game.over:
            yield game
            random_policy(game, rng)


def hidden_variant(game: Game, seed: int, seat: int) -> Game:
    """The same game for ``seat``: other hands and the draw pile redealt, counts kept."""
    other = game.clone(random.Random(seed))
    others = [s for s in range(game.n) if s != seat]
    pool = [c for s in others for c in game.hands[s]] + game.draw_pile
    shuffle(pool, random.Random(seed))
    for s in others:
        size = len(game.hands[s])
        other.hands[s], pool = pool[:size], pool[size:]
    other.draw_pile = pool
    other.events = list(game.events)
    # What only the engine knows about a pending Wild Draw Four must not matter either.
    other.pending_legal = not game.pending_legal
    other.pending_hand = list(reversed(game.pending_hand))
    return other


def codes(cards: list[int]) -> list[str]:
    """Card codes, for readable failures."""
    return [CODES[c] for c in cards]


def spare(color: str, count: int, start: int = 1) -> list[str]:
    """``count`` distinct-ish filler cards of one color (ranks from ``start``, two of each)."""
    ranks = [str(r) for r in range(start, 10) for _ in range(2)]
    return [f"{color}-{rank}" for rank in ranks[:count]]
