"""The deal and the first card turned up."""

from __future__ import annotations

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
from .events import Dealt, FirstCard, reversed_, skipped
from .phase import Phase
from .state import RoundState


def deal(state: RoundState) -> None:
    """Deal the hands one card at a time from the dealer's left, then turn up the first card."""
    pile = state.draw_pile
    hands = state.hands
    order = []
    seat = state.dealer
    for _ in range(state.players):
        seat = state.next_seat(seat)
        order.append(seat)
    size = state.house.hand_size
    if len(pile) < size * state.players + 1:
        raise ValueError("the deck is too small to deal")
    for _ in range(size):
        for seat in order:
            hands[seat].append(pile.pop())
    state.events.append(Dealt(state.dealer, size))
    turn_up_first(state)


def turn_up_first(state: RoundState) -> None:
    """Turn up the first card and start the round as it says."""
    pile = state.draw_pile
    discard = state.discard
    events = state.events
    left = state.next_seat(state.dealer)
    card = pile.pop()
    # When no card left in the pile could ever start (a huge deal), the one turned up stays,
    # and a wild card among them only waits for its color.
    if state.edition is Edition.SONIC:
        while not IS_NUMBER[card] and any(IS_NUMBER[c] for c in pile):
            discard.append(card)
            events.append(FirstCard(CODES[card], "ignored"))
            card = pile.pop()
    elif card == WILD_DRAW4 and any(c != WILD_DRAW4 for c in pile):
        while card == WILD_DRAW4:
            pile.insert(state.rng.randrange(len(pile) + 1), card)
            events.append(FirstCard(CODES[card], "returned"))
            card = pile.pop()
    discard.append(card)
    state.color = CARD_COLOR[card]
    rank = CARD_RANK[card]
    events.append(FirstCard(CODES[card], "starts"))
    state.current = left
    # A first 7, 0 or Wild Customizable is only its plain game: no swap, pass or effect.
    if IS_WILD[card]:
        state.phase = Phase.COLOR
    elif state.edition is Edition.SONIC:
        return  # an action card that could not be covered: its effect is ignored
    elif rank == DRAW2:
        state.draw_cards(left, 2, "draw2")
        events.append(skipped(left))
        state.current = state.next_seat(left)
    elif rank == SKIP:
        events.append(skipped(left))
        state.current = state.next_seat(left)
    elif rank == REVERSE:
        state.direction = -1
        events.append(reversed_(-1))
        state.current = state.dealer
