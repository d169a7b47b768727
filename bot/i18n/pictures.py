"""The words drawn in the pictures, in each language: one ``Words`` per language, built once."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from bot.render.words import ENGLISH, Words, text_fields

from .catalog import Lang, lang
from .locales import ENGLISH as ENGLISH_CODE
from .locales import SUPPORTED


def _cards(tongue: Lang) -> Callable[[int], str]:
    def cards(count: int) -> str:
        return tongue.ngettext("{n} card", "{n} cards", count).format(n=count)

    return cards


@lru_cache(maxsize=len(SUPPORTED))  # the same Words object each time: picture caches key on it
def _words(code: str) -> Words:
    if code == ENGLISH_CODE:
        return ENGLISH
    tongue = lang(code)
    texts = {name: tongue.gettext(getattr(ENGLISH, name)) for name in text_fields()}
    return Words(**texts, cards=_cards(tongue))


def picture_words(tongue: Lang) -> Words:
    """The pictures' words in ``tongue`` (English: the renderer's own defaults)."""
    return _words(tongue.code)
