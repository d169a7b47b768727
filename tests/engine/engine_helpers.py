"""Decks arranged on purpose, games built from them, and terse action helpers for engine tests."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from bot.engine import (
    Action,
    Edition,
    Game,
    HouseRules,
    RuleError,
    edition_deck,
    parse_card,
    parse_color,
)
from bot.engine.cards import CARD_COLOR, CODES

HAND = 7


def edition_codes(edition: Edition | str) -> list[str]:
    """The edition's whole deck as codes, in the engine's fixed order."""
    return [CODES[c] for c in edition_deck(Edition(edition))]


def deal_order(players: int, dealer: int) -> list[int]:
    """Seats in the order they receive cards: the dealer's left first, clockwise."""
    return [(dealer + 1 + i) % players for i in range(players)]


def build_deck(
    edition: Edition | str,
    hands: Sequence[Sequence[str]],
    pile: Sequence[str] = (),
    dealer: int = 0,
    rest: Sequence[str] | None = None,
    hand_size: int = HAND,
) -> list[str]:
    """A full edition deck (index 0 the top) whose deal gives ``hands`` and turns up ``pile[0]``.

    ``hands[s]`` lists seat s's cards (up to ``hand_size``; missing ones are filled from the
    spare cards);
    ``pile`` is the draw pile from its top right after the deal, so ``pile[0]`` is the first card
    turned up; ``rest`` optionally orders the cards below ``pile`` (default: spare cards with
    number cards first, in the engine's fixed order). The result holds exactly the edition's cards.
    """
    players = len(hands)
    spare = Counter(edition_codes(edition))
    wanted = [code for hand in hands for code in hand] + list(pile) + list(rest or [])
    for code in wanted:
        if spare[code] <= 0:
            raise ValueError(f"the {edition} deck has no spare {code!r}")
        spare[code] -= 1
    # Fillers: number cards of high rank first (deterministic, unlikely to disturb a scenario).
    fillers = sorted(
        (code for code, k in spare.items() for _ in range(k)),
        key=lambda code: (code.startswith("wild"), not code[-1].isdigit(), code),
    )
    full_hands: list[list[str]] = []
    for hand in hands:
        if len(hand) > hand_size:
            raise ValueError(f"a hand holds at most {hand_size} cards")
        filled = list(hand)
        while len(filled) < hand_size:
            filled.append(fillers.pop(0))
        full_hands.append(filled)
    deck: list[str] = []
    order = deal_order(players, dealer)
    for i in range(hand_size):
        for seat in order:
            deck.append(full_hands[seat][i])
    deck += list(pile)
    deck += list(rest or [])
    deck += fillers
    assert Counter(deck) == Counter(edition_codes(edition))
    return deck


def make_game(
    edition: Edition | str,
    hands: Sequence[Sequence[str]],
    pile: Sequence[str] = (),
    dealer: int = 0,
    seed: int = 0,
    rest: Sequence[str] | None = None,
    house_rule: str = "",
    house: HouseRules | dict[str, Any] | None = None,
) -> Game:
    """A round dealt from :func:`build_deck`, under ``house`` rules (a HouseRules or a dict)."""
    rules = house if isinstance(house, HouseRules) else HouseRules.parse(house or {})
    deck = build_deck(edition, hands, pile, dealer, rest, rules.hand_size)
    return Game(
        Edition(edition),
        len(hands),
        dealer,
        [parse_card(c) for c in deck],
        random.Random(seed),
        house_rule=house_rule,
        house=rules,
    )


def act(
    seat: int,
    do: str,
    card: str | None = None,
    color: str | None = None,
    uno: bool = False,
    target: int | None = None,
) -> Action:
    """An Action spelled with codes and color names."""
    return Action(
        seat,
        do,
        parse_card(card) if card is not None else None,
        parse_color(color) if color is not None else None,
        uno,
        target,
    )


def play(
    game: Game, seat: int, card: str, color: str | None = None, uno: bool = False
) -> list[dict[str, Any]]:
    """Apply a play and return its events."""
    return game.apply(act(seat, "play", card, color, uno))


def do(game: Game, seat: int, what: str, target: int | None = None) -> list[dict[str, Any]]:
    """Apply a card-less action and return its events."""
    return game.apply(act(seat, what, target=target))


def hand(game: Game, seat: int) -> list[str]:
    """Seat's cards as codes."""
    return [CODES[c] for c in game.hands[seat]]


def top(game: Game) -> str:
    """The top discard's code."""
    return CODES[game.discard[-1]]


def color(game: Game) -> str | None:
    """The color in force."""
    return None if game.color < 0 else ("red", "yellow", "green", "blue")[game.color]


def rejects(game: Game, action: Action, code: str) -> RuleError:
    """Assert ``action`` is rejected with ``code`` and leaves the round exactly as it was."""
    before = game.to_dict()
    with pytest.raises(RuleError) as info:
        game.apply(action)
    assert info.value.code == code, str(info.value)
    assert game.to_dict() == before
    return info.value


def all_cards(game: Game) -> Counter[int]:
    """Every card in hands, draw pile and discard pile, as a multiset."""
    total: Counter[int] = Counter(game.draw_pile)
    total.update(game.discard)
    for h in game.hands:
        total.update(h)
    return total


def draws(events: list[dict[str, Any]]) -> list[tuple[int, int, str]]:
    """The (seat, count, reason) of each draw event."""
    return [(e["seat"], e["count"], e["reason"]) for e in events if e["type"] == "draw"]


def give(game: Game, seat: int, codes: Sequence[str]) -> None:
    """Replace seat's hand with ``codes``: its cards go under the draw pile, the new ones come
    from the draw pile (searched from the bottom), so every card stays accounted for."""
    pile = game.draw_pile
    old = game.hands[seat]
    game.hands[seat] = []
    pile[0:0] = old
    for code in codes:
        card = parse_card(code)
        pile.remove(card)  # list.remove takes the first, i.e. the bottom-most copy
        game.hands[seat].append(card)
    game.called[seat] = False


def set_top(game: Game, code: str) -> None:
    """Move ``code`` from the draw pile onto the discard pile; its color comes into force."""
    card = parse_card(code)
    game.draw_pile.remove(card)
    game.discard.append(card)
    game.color = CARD_COLOR[card]


# Three hands with no red card, no 5, no 7, no 0 and no wild card, for tables of three.
BASE0 = ["green-1", "green-2", "green-3", "yellow-1", "yellow-2", "yellow-3", "blue-1"]
BASE1 = ["blue-2", "blue-3", "blue-4", "green-4", "green-6", "yellow-4", "yellow-6"]
BASE2 = ["green-8", "green-9", "yellow-8", "yellow-9", "blue-8", "blue-9", "blue-6"]


def _pad(cards: Sequence[str], base: Sequence[str]) -> list[str]:
    return list(cards) + [c for c in base if c not in cards][: HAND - len(cards)]


def table3(
    edition: str,
    p1: Sequence[str] = (),
    first: str = "red-5",
    then: Sequence[str] = (),
    p0: Sequence[str] = (),
    p2: Sequence[str] = (),
    house: dict[str, Any] | None = None,
    house_rule: str = "",
) -> Game:
    """Three players, dealer 0 (seat 1 starts); each hand is the given cards padded from a
    base hand without red, 5, 7, 0 or wild cards; ``first`` turned up, ``then`` below it."""
    hands = [_pad(p0, BASE0), _pad(p1, BASE1), _pad(p2, BASE2)]
    return make_game(edition, hands, [first, *then], house=house, house_rule=house_rule)


def through_json(data: dict[str, Any]) -> dict[str, Any]:
    """A saved state as it comes back from storage."""
    loaded: dict[str, Any] = json.loads(json.dumps(data))
    return loaded
