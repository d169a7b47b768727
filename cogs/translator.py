"""Slash commands in each user's language: discord.py's ``app_commands.Translator`` over the
catalogues, and how to read a command's texts (``catalogue.py`` collects every command's).

Names (of commands, groups and options) are looked up with the context ``command``, since they
obey Discord's rules for names (lower case, no spaces, at most 32 characters); descriptions and
choices are plain messages. A translation that breaks Discord's limits is not offered: the
English text is shown instead, and a test keeps every catalogue within them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import lang
from bot.i18n.locales import resolve

NAME_CONTEXT = "command"
NAME = re.compile(r"^[-_'\w]{1,32}$")  # Discord's rule for names, in Python's \w (letters, digits)
DESCRIPTION_MAX = 100
CHOICE_MAX = 100
NAMES = (Where.command_name, Where.group_name, Where.parameter_name)


def valid_name(text: str) -> bool:
    return NAME.match(text) is not None and text == text.lower()


def fits(text: str, name: bool) -> bool:
    """Whether a localized command text keeps to Discord's limits."""
    if name:
        return valid_name(text)
    return 1 <= len(text) <= DESCRIPTION_MAX


class CatalogueTranslator(app_commands.Translator):
    """Localized names, descriptions and choices for every Discord locale we have a catalogue
    for (English is the source: nothing to translate)."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        return localize(string.message, locale.value, context.location in NAMES)


def localize(message: str, locale: str, name: bool) -> str | None:
    """The text in ``locale``'s catalogue, or None when there is none (or it breaks a limit)."""
    code = resolve(locale)
    if code == "en":
        return None
    tongue = lang(code)
    told = str(tongue.pgettext(NAME_CONTEXT, message) if name else tongue.gettext(message))
    if told == message or not fits(told, name):
        return None
    return told


@dataclass(frozen=True, slots=True)
class CommandText:
    """One text of a slash command, as the catalogue holds it."""

    message: str
    name: bool  # a name (context ``command``) rather than a description or a choice
    where: str  # which command it belongs to, for translators


def command_texts(
    commands: tuple[app_commands.Command[Any, ..., Any] | app_commands.Group, ...],
    group: tuple[str, str] | None = None,
) -> Iterator[CommandText]:
    """Every name, description and choice of ``commands`` (and of ``group``: name, description)."""
    if group is not None:
        yield CommandText(group[0], True, f"/{group[0]}")
        yield CommandText(group[1], False, f"/{group[0]}")
    prefix = f"/{group[0]} " if group is not None else "/"
    for command in commands:
        where = prefix + command.name
        yield CommandText(command.name, True, where)
        yield CommandText(command.description, False, where)
        if isinstance(command, app_commands.Group):
            for inner in command_texts(tuple(command.commands)):
                yield CommandText(inner.message, inner.name, f"{where} {inner.where[1:]}")
            continue
        for parameter in command.parameters:
            at = f"{where} {parameter.display_name}"
            yield CommandText(parameter.display_name, True, at)
            yield CommandText(parameter.description, False, at)
            for choice in parameter.choices:
                yield CommandText(choice.name, False, at)
