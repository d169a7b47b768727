"""Decks arranged on purpose, games built from them, terse action helpers, and positions for the
computer players' tests (consistent games from explicit hands)."""

from __future__ import annotations

import contextlib
import io
import json
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.engine import (
    Action,
    Edition,
    Event,
    Game,
    HouseRules,
    RuleError,
    edition_deck,
    parse_card,
    parse_color,
)
from bot.engine.__main__ import main
from bot.engine.cards import CARD_COLOR, CARD_INDEX, CODES, shuffle
from bot.engine.events import Dealt, Drew, FirstCard
from bot.engine.game import Phase
from bot.engine.simulate import random_policy

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
) -> list[Event]:
    """Apply a play and return its events."""
    return game.apply(act(seat, "play", card, color, uno))


def do(game: Game, seat: int, what: str, target: int | None = None) -> list[Event]:
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


def draws(events: list[Event]) -> list[tuple[int, int, str]]:
    """The (seat, count, reason) of each draw event."""
    return [(e.seat, e.count, e.reason) for e in events if isinstance(e, Drew)]


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


# ----- positions for the computer players' tests: consistent games from explicit hands -----


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
    game.events = [Dealt(0, 7), FirstCard(top, "starts")]
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


ROOT = Path(__file__).resolve().parents[2]


SCENARIOS = ROOT / "tests" / "scenarios"


CASES = sorted(p for p in SCENARIOS.glob("*.json") if not p.name.endswith(".expected.json"))


def engine(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """The command line run in this process (the same code as ``engine``, without start-up)."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.stdin = saved
    return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())


def scenario_text(data: Any) -> subprocess.CompletedProcess[str]:
    return cli("scenario", "-", stdin=data if isinstance(data, str) else json.dumps(data))
