"""Which languages the bot speaks, and how a Discord locale maps onto one of them."""

from __future__ import annotations

ENGLISH = "en"

# Babel's names of the catalogues shipped (directory names under ``locales/``).
SUPPORTED: tuple[str, ...] = ("en", "de", "fr", "es_ES", "pt_BR", "it", "pl", "nl", "ru", "tr")
TRANSLATED: tuple[str, ...] = SUPPORTED[1:]

# Discord locale -> catalogue. Discord spells regions with a hyphen (``es-ES``, ``pt-BR``);
# a language spoken in another region falls back to the nearest catalogue we ship.
_DISCORD: dict[str, str] = {
    "en-US": "en",
    "en-GB": "en",
    "de": "de",
    "fr": "fr",
    "es-ES": "es_ES",
    "es-419": "es_ES",
    "pt-BR": "pt_BR",
    "it": "it",
    "pl": "pl",
    "nl": "nl",
    "ru": "ru",
    "tr": "tr",
}

# The Discord locale each catalogue is offered for in command localizations.
DISCORD_OF: dict[str, tuple[str, ...]] = {}
for _discord, _code in _DISCORD.items():
    DISCORD_OF.setdefault(_code, ())
    DISCORD_OF[_code] += (_discord,)

# The names people pick a language by (each in its own language, as /uno-admin settings lists them).
NATIVE_NAMES: dict[str, str] = {
    "en": "English",
    "de": "Deutsch",
    "fr": "Français",
    "es_ES": "Español",
    "pt_BR": "Português do Brasil",
    "it": "Italiano",
    "pl": "Polski",
    "nl": "Nederlands",
    "ru": "Русский",
    "tr": "Türkçe",
}


def resolve(locale: str | None) -> str:
    """The catalogue for a Discord locale (``de``, ``es-ES``, ``pt-BR``, or a catalogue name
    such as ``pt_BR``); English for anything else or nothing."""
    if not locale:
        return ENGLISH
    if locale in SUPPORTED:
        return locale
    found = _DISCORD.get(locale)
    if found is not None:
        return found
    base = locale.replace("_", "-").split("-", 1)[0].lower()
    return next((code for code in SUPPORTED if code.split("_", 1)[0] == base), ENGLISH)
