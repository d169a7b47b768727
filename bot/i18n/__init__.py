"""The bot's languages: gettext catalogues read with Babel, one ``Lang`` per language.

English source texts are the message ids. Private replies are told in the clicking user's
language, public messages in the server's (see docs/translating.md).
"""

from __future__ import annotations

from bot.markers import N_, Np_

from .catalog import ENGLISH_LANG, Lang, lang
from .locales import ENGLISH, NATIVE_NAMES, SUPPORTED, TRANSLATED, resolve

__all__ = [
    "ENGLISH",
    "ENGLISH_LANG",
    "NATIVE_NAMES",
    "N_",
    "SUPPORTED",
    "TRANSLATED",
    "Lang",
    "Np_",
    "lang",
    "resolve",
]
