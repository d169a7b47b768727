"""Arranging a live round for a test: chosen cards moved into a hand or onto the discard pile by
swapping, so every card of the deck stays in the round exactly once."""

from __future__ import annotations

from collections import Counter

from bot.engine import Game, Phase
from bot.engine.cards import CARD_COLOR, CARD_INDEX, IS_WILD


def _take(game: Game, card: int, seat: int) -> tuple[list[int], int]:
    """Where a copy of ``card`` sits that may be moved (the draw pile first, then other hands)."""
    if card in game.draw_pile:
        return game.draw_pile, game.draw_pile.index(card)
    for other, hand in enumerate(game.hands):
        if other != seat and card in hand:
            return hand, hand.index(card)
    raise ValueError(f"no spare {card} to move")


def give(game: Game, seat: int, codes: list[str]) -> None:
    """``seat`` holds these cards (besides others), each swapped in for one it did not need."""
    wanted = Counter(CARD_INDEX[code] for code in codes)
    hand = game.hands[seat]
    for card, count in wanted.items():
        while hand.count(card) < count:
            spare = next(i for i, c in enumerate(hand) if hand.count(c) > wanted.get(c, 0))
            source, where = _take(game, card, seat)
            source[where], hand[spare] = hand[spare], source[where]


def hand_of_exactly(game: Game, seat: int, codes: list[str]) -> None:
    """``seat`` holds exactly these cards; the rest of its hand goes under the draw pile."""
    give(game, seat, codes)
    wanted = Counter(CARD_INDEX[code] for code in codes)
    hand = game.hands[seat]
    kept: list[int] = []
    for card in hand:
        if wanted[card] > 0:
            wanted[card] -= 1
            kept.append(card)
        else:
            game.draw_pile.insert(0, card)
    hand[:] = kept


def put_on_top(game: Game, code: str, color: int | None = None) -> None:
    """The discard pile shows ``code`` (swapped with a copy from the draw pile or a hand: call
    it before ``give``), with its color in force; the round awaits a turn."""
    card = CARD_INDEX[code]
    if game.discard[-1] != card:
        source, where = _take(game, card, -1)
        source[where], game.discard[-1] = game.discard[-1], source[where]
    game.color = color if IS_WILD[card] and color is not None else CARD_COLOR[card]
    if game.phase is Phase.COLOR:
        game.phase = Phase.TURN
