"""The deal and the first card turned up."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import (
    CARD_COLOR,
    CARD_RANK,
    CODES,
    DRAW2,
    IS_NUMBER,
    IS_WILD,
    REVERSE,
    SKIP,
    WILD_DRAW4,
    Edition,
)
from .phase import Phase

if TYPE_CHECKING:
    from .game import Game


def deal(game: Game) -> None:
    """Deal the hands one card at a time from the dealer's left, then turn up the first card."""
    pile = game.draw_pile
    hands = game.hands
    order = []
    seat = game.dealer
    for _ in range(game.players):
        seat = game.next_seat(seat)
        order.append(seat)
    size = game.house.hand_size
    if len(pile) < size * game.players + 1:
        raise ValueError("the deck is too small to deal")
    for _ in range(size):
        for seat in order:
            hands[seat].append(pile.pop())
    game.events.append({"type": "deal", "dealer": game.dealer, "cards": size})
    turn_up_first(game)


def turn_up_first(game: Game) -> None:
    """Turn up the first card and start the round as it says."""
    pile = game.draw_pile
    discard = game.discard
    events = game.events
    left = game.next_seat(game.dealer)
    card = pile.pop()
    # When no card left in the pile could ever start (a huge deal), the one turned up stays,
    # and a wild card among them only waits for its color.
    if game.edition is Edition.SONIC:
        while not IS_NUMBER[card] and any(IS_NUMBER[c] for c in pile):
            discard.append(card)
            events.append({"type": "first_card", "card": CODES[card], "effect": "ignored"})
            card = pile.pop()
    elif card == WILD_DRAW4 and any(c != WILD_DRAW4 for c in pile):
        while card == WILD_DRAW4:
            pile.insert(game.rng.randrange(len(pile) + 1), card)
            events.append({"type": "first_card", "card": CODES[card], "effect": "returned"})
            card = pile.pop()
    discard.append(card)
    game.color = CARD_COLOR[card]
    rank = CARD_RANK[card]
    events.append({"type": "first_card", "card": CODES[card], "effect": "starts"})
    game.current = left
    # A first 7, 0 or Wild Customizable is only its plain game: no swap, pass or effect.
    if IS_WILD[card]:
        game.phase = Phase.COLOR
    elif game.edition is Edition.SONIC:
        return  # an action card that could not be covered: its effect is ignored
    elif rank == DRAW2:
        game._draw(left, 2, "draw2")
        events.append({"type": "skip", "seat": left})
        game.current = game.next_seat(left)
    elif rank == SKIP:
        events.append({"type": "skip", "seat": left})
        game.current = game.next_seat(left)
    elif rank == REVERSE:
        game.direction = -1
        events.append({"type": "reverse", "direction": -1})
        game.current = game.dealer
