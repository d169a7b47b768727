"""The game's own words in a language: card names, color names and the editions' titles."""

from __future__ import annotations

from functools import lru_cache

from bot.engine.cards import CARD_INDEX, EDITION_TITLES, Edition
from bot.markers import N_

from .catalog import ENGLISH_LANG, Lang

_WILDS = {
    "wild": N_("Wild"),
    "wild-draw4": N_("Wild Draw Four"),
    "wild-victory-lap": N_("Wild Victory Lap"),
    "wild-super-star": N_("Super Star"),
    "wild-custom": N_("Wild Customizable"),
}
_RANKS = {"skip": N_("Skip"), "reverse": N_("Reverse"), "draw2": N_("Draw Two")}
# A colored card: its color's template, with the rank (a digit or an action's name) in it.
_COLORED = {
    "red": N_("Red {rank}"),
    "yellow": N_("Yellow {rank}"),
    "green": N_("Green {rank}"),
    "blue": N_("Blue {rank}"),
}
# A color named in a sentence ("chose red"), lower case in English.
_COLORS = {"red": N_("red"), "yellow": N_("yellow"), "green": N_("green"), "blue": N_("blue")}
# Written capitalised on its own (a button to pick the color).
_COLOR_TITLES = {"red": N_("Red"), "yellow": N_("Yellow"), "green": N_("Green"), "blue": N_("Blue")}
_EDITIONS = {
    Edition.CLASSIC: N_("Classic UNO"),
    Edition.SONIC: N_("UNO Sonic the Hedgehog"),
    Edition.MARIO: N_("UNO Super Mario"),
}
_SHORT_EDITIONS = {"classic": N_("Classic"), "sonic": N_("Sonic"), "mario": N_("Super Mario")}
assert {str(e): t for e, t in _EDITIONS.items()} == {str(e): t for e, t in EDITION_TITLES.items()}


@lru_cache(maxsize=1024)  # 57 cards in 10 languages
def card_name(code: str | None, lang: Lang = ENGLISH_LANG) -> str:
    """A card's name (``Red 7``, ``Wild Draw Four``); ``?`` for no card or an unknown code."""
    if code is None or code not in CARD_INDEX:
        return "?"
    if code in _WILDS:
        return lang.gettext(_WILDS[code])
    color, rank = code.split("-", 1)
    told = lang.gettext(_RANKS[rank]) if rank in _RANKS else rank
    return lang.gettext(_COLORED[color]).format(rank=told)


def color_name(color: str | None, lang: Lang = ENGLISH_LANG) -> str:
    """A color in a sentence (``red``); anything else as it is."""
    if color is None:
        return "?"
    return lang.gettext(_COLORS[color]) if color in _COLORS else color


def color_title(color: str, lang: Lang = ENGLISH_LANG) -> str:
    """A color on its own, capitalised (``Red``)."""
    return lang.gettext(_COLOR_TITLES[color]) if color in _COLOR_TITLES else color.title()


def edition_title(edition: Edition, lang: Lang = ENGLISH_LANG) -> str:
    """An edition's full title (``UNO Super Mario``)."""
    return lang.gettext(_EDITIONS[edition])


def edition_short(edition: str, lang: Lang = ENGLISH_LANG) -> str:
    """An edition's short name (``Super Mario``); an unknown one as it is stored."""
    return lang.gettext(_SHORT_EDITIONS[edition]) if edition in _SHORT_EDITIONS else edition
