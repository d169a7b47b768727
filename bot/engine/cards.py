"""Colors, card codes and the three editions' decks.

A card is a small int (its code index) so that hands are plain lists of ints and the hot paths of
the engine index tuples instead of comparing strings. ``CODES[card]`` gives the public code.
"""

from __future__ import annotations

import random
from enum import StrEnum

COLORS: tuple[str, ...] = ("red", "yellow", "green", "blue")
COLOR_INDEX: dict[str, int] = {name: i for i, name in enumerate(COLORS)}
NO_COLOR = -1

# Ranks of colored cards: 0-9 then the three action symbols.
SKIP, REVERSE, DRAW2 = 10, 11, 12
RANK_NAMES: tuple[str, ...] = (*(str(n) for n in range(10)), "skip", "reverse", "draw2")
WILD_NAMES: tuple[str, ...] = (
    "wild",
    "wild-draw4",
    "wild-victory-lap",
    "wild-super-star",
    "wild-custom",
)

_colored = [f"{color}-{rank}" for color in COLORS for rank in RANK_NAMES]
CODES: tuple[str, ...] = (*_colored, *WILD_NAMES)
CARD_INDEX: dict[str, int] = {code: i for i, code in enumerate(CODES)}

WILD = CARD_INDEX["wild"]
WILD_DRAW4 = CARD_INDEX["wild-draw4"]
WILD_VICTORY_LAP = CARD_INDEX["wild-victory-lap"]
WILD_SUPER_STAR = CARD_INDEX["wild-super-star"]
WILD_CUSTOM = CARD_INDEX["wild-custom"]
FIRST_WILD = WILD
CARD_KINDS = len(CODES)

# Per card: color index (NO_COLOR for wilds), rank (13+ for wilds, unique per wild kind), points.
CARD_COLOR: tuple[int, ...] = tuple(
    COLOR_INDEX[code.split("-", 1)[0]] if i < FIRST_WILD else NO_COLOR
    for i, code in enumerate(CODES)
)
CARD_RANK: tuple[int, ...] = tuple(
    i % 13 if i < FIRST_WILD else 13 + i - FIRST_WILD for i in range(CARD_KINDS)
)
IS_WILD: tuple[bool, ...] = tuple(i >= FIRST_WILD for i in range(CARD_KINDS))
IS_NUMBER: tuple[bool, ...] = tuple(i < FIRST_WILD and i % 13 < 10 for i in range(CARD_KINDS))
CARD_POINTS: tuple[int, ...] = tuple(
    (i % 13 if i % 13 < 10 else 20) if i < FIRST_WILD else 50 for i in range(CARD_KINDS)
)


class Edition(StrEnum):
    """The three games the bot plays."""

    CLASSIC = "classic"
    SONIC = "sonic"
    MARIO = "mario"


EDITION_TITLES: dict[Edition, str] = {
    Edition.CLASSIC: "Classic UNO",
    Edition.SONIC: "UNO Sonic the Hedgehog",
    Edition.MARIO: "UNO Super Mario",
}


def card_code(card: int) -> str:
    """The public code of a card, e.g. ``red-7``."""
    return CODES[card]


def parse_card(code: str) -> int:
    """The card for a public code; KeyError for an unknown code."""
    return CARD_INDEX[code]


def parse_color(name: str) -> int:
    """The color index for a color name; KeyError for an unknown one."""
    return COLOR_INDEX[name]


def _classic_deck() -> list[int]:
    deck: list[int] = []
    for color in COLORS:
        deck.append(CARD_INDEX[f"{color}-0"])
        for rank in RANK_NAMES[1:]:
            card = CARD_INDEX[f"{color}-{rank}"]
            deck += [card, card]
    deck += [WILD] * 4 + [WILD_DRAW4] * 4
    return deck


def edition_deck(edition: Edition) -> list[int]:
    """The edition's whole deck in a fixed order (108 or 112 cards)."""
    deck = _classic_deck()
    if edition is Edition.SONIC:
        deck += [WILD_VICTORY_LAP] * 4
    elif edition is Edition.MARIO:
        deck += [WILD_SUPER_STAR] * 2 + [WILD_CUSTOM] * 2
    return deck


def describe(card: int) -> str:
    """A card's name for people, e.g. ``Red 7`` or ``Wild Draw Four``."""
    return CARD_LABELS[card]


_WILD_LABELS = {
    "wild": "Wild",
    "wild-draw4": "Wild Draw Four",
    "wild-victory-lap": "Wild Victory Lap",
    "wild-super-star": "Super Star",
    "wild-custom": "Wild Customizable",
}
_RANK_LABELS = {"skip": "Skip", "reverse": "Reverse", "draw2": "Draw Two"}


def _label(code: str) -> str:
    if code in _WILD_LABELS:
        return _WILD_LABELS[code]
    color, rank = code.split("-", 1)
    return f"{color.title()} {_RANK_LABELS.get(rank, rank)}"


CARD_LABELS: tuple[str, ...] = tuple(_label(code) for code in CODES)


def shuffle(cards: list[int], rng: random.Random) -> None:
    """Shuffle in place (Fisher-Yates on ``rng.random()``: several times faster than
    ``Random.shuffle``, which matters when computer players simulate thousands of deals)."""
    rand = rng.random
    for i in range(len(cards) - 1, 0, -1):
        j = int(rand() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]
