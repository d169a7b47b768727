"""The catalogues: each locale's .po file read with Babel and compiled in memory once.

No compiled .mo files are kept in the repository and there is no build step: the first time a
language is needed its .po file is read (``read_po``), compiled into an in-memory .mo
(``write_mo``) and loaded as ``babel.support.Translations``; later lookups come from a bounded
cache (one entry per language shipped).
"""

from __future__ import annotations

import io
from datetime import date, datetime
from functools import lru_cache
from pathlib import Path

from babel import Locale as BabelLocale
from babel.dates import format_date, format_datetime
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent
from babel.support import NullTranslations, Translations

from .locales import ENGLISH, SUPPORTED, resolve

LOCALES_DIR = Path(__file__).with_name("locales")
DOMAIN = "messages"
TEMPLATE = LOCALES_DIR / f"{DOMAIN}.pot"


def po_path(code: str) -> Path:
    """Where the catalogue of ``code`` lives (``locales/de/LC_MESSAGES/messages.po``)."""
    return LOCALES_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalog(path: Path, code: str | None = None) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=code, domain=DOMAIN)


def _compiled(catalog: Catalog) -> NullTranslations:
    """The catalogue as Translations; untranslated messages (and any empty plural form) are left
    out, so they fall back to the English source text."""
    for message in list(catalog):
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(strings) or message.fuzzy:
            catalog.delete(message.id, message.context)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Translations(buffer, domain=DOMAIN)


@lru_cache(maxsize=len(SUPPORTED))
def translations(code: str) -> NullTranslations:
    """The compiled catalogue of a shipped language (English: the source texts themselves)."""
    path = po_path(code)
    if code == ENGLISH or code not in SUPPORTED or not path.exists():
        return NullTranslations()
    return _compiled(read_catalog(path, code))


class Lang:
    """One language: gettext, ngettext and pgettext over its catalogue, and Babel's numbers and
    dates in its conventions. Get one with ``lang(locale)``."""

    __slots__ = ("babel", "code", "gettext", "ngettext", "npgettext", "pgettext")

    def __init__(self, code: str) -> None:
        self.code = code
        self.babel = BabelLocale.parse(code)
        found = translations(code)
        self.gettext = found.gettext
        self.ngettext = found.ngettext
        self.pgettext = found.pgettext
        self.npgettext = found.npgettext

    def __repr__(self) -> str:
        return f"Lang({self.code!r})"

    def number(self, value: float, decimals: int | None = None) -> str:
        """A number in this language's conventions (``1,234.5``; ``1.234,5`` in German);
        with ``decimals``, exactly that many and no grouping (``1234.5``; ``1234,5``)."""
        if decimals is None:
            return format_decimal(value, locale=self.babel)
        pattern = "0." + "0" * decimals if decimals else "0"
        return format_decimal(value, format=pattern, locale=self.babel)

    def percent(self, ratio: float) -> str:
        """A ratio as a whole percentage (``67%``; ``67 %`` in German)."""
        return format_percent(ratio, locale=self.babel)

    def date(self, moment: date) -> str:
        return format_date(moment, format="medium", locale=self.babel)

    def datetime(self, moment: datetime) -> str:
        return format_datetime(moment, format="short", locale=self.babel)


@lru_cache(maxsize=len(SUPPORTED))
def _lang(code: str) -> Lang:
    return Lang(code)


def lang(locale: str | None) -> Lang:
    """The language for a Discord locale or a catalogue name (English when not shipped)."""
    return _lang(resolve(locale))


ENGLISH_LANG = lang(ENGLISH)
