"""Slash command options checked in the bot as well: types, ranges and choices, whatever Discord
promises (a modified client, a stale command cache or a Discord change can send anything)."""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from typing import Any

from discord import AppCommandOptionType, app_commands

from bot.i18n import ENGLISH_LANG, Lang

SNOWFLAKE_MAX = 2**64 - 1
INTEGER_LIMIT = 2**53  # Discord's integers are doubles on its side
SNOWFLAKE_TYPES = (
    AppCommandOptionType.user,
    AppCommandOptionType.channel,
    AppCommandOptionType.role,
    AppCommandOptionType.mentionable,
    AppCommandOptionType.attachment,
)


def _leaves(options: list[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    """The option values given, inside any subcommand and group."""
    for option in options:
        if option.get("type") in (1, 2):  # a subcommand or a group of them
            yield from _leaves(list(option.get("options") or []))
        else:
            yield option


def _what(parameter: app_commands.Parameter, tongue: Lang) -> str:
    """How to describe the values a parameter takes, for a refusal."""
    _ = tongue.gettext
    kind = parameter.type
    lo, hi = parameter.min_value, parameter.max_value
    if parameter.choices:
        return _("one of the choices in the list")
    if kind is AppCommandOptionType.integer:
        if lo is not None and hi is not None:
            return _("a whole number from {low} to {high}").format(low=lo, high=hi)
        return _("a whole number")
    if kind is AppCommandOptionType.number:
        if lo is not None and hi is not None:
            return _("a number from {low} to {high}").format(low=lo, high=hi)
        return _("a number")
    if kind is AppCommandOptionType.string:
        if hi is not None:
            return _("some text of at most {limit} characters").format(limit=hi)
        return _("some text")
    if kind is AppCommandOptionType.user:
        return _("a member of this server")
    return _("one of the values Discord offers")


def _valid(parameter: app_commands.Parameter, value: object) -> bool:
    kind = parameter.type
    if kind is AppCommandOptionType.boolean:
        return isinstance(value, bool)
    if kind in SNOWFLAKE_TYPES:
        return (
            isinstance(value, str)
            and value.isascii()
            and value.isdigit()
            and 0 < int(value) <= SNOWFLAKE_MAX
        )
    if kind is AppCommandOptionType.string:
        if not isinstance(value, str):
            return False
        size = len(value)
        if parameter.min_value is not None and size < parameter.min_value:
            return False
        if parameter.max_value is not None and size > parameter.max_value:
            return False
    elif kind is AppCommandOptionType.integer:
        if not isinstance(value, int) or isinstance(value, bool) or abs(value) > INTEGER_LIMIT:
            return False
    elif kind is AppCommandOptionType.number:
        if not isinstance(value, int | float) or isinstance(value, bool):
            return False
        if not math.isfinite(value):
            return False
    else:
        return True
    if kind is not AppCommandOptionType.string:
        assert isinstance(value, int | float)
        if parameter.min_value is not None and value < parameter.min_value:
            return False
        if parameter.max_value is not None and value > parameter.max_value:
            return False
    if parameter.choices:
        return value in [choice.value for choice in parameter.choices]
    return True


def refusal(
    command: app_commands.Command[Any, ..., Any],
    data: Mapping[str, Any],
    tongue: Lang = ENGLISH_LANG,
) -> str | None:
    """Why the options of a command interaction cannot be used, in words; None when they can."""
    parameters = {p.display_name: p for p in command.parameters}
    for option in _leaves(list(data.get("options") or [])):
        parameter = parameters.get(str(option.get("name")))
        if parameter is None:
            return tongue.gettext("That command has changed; please try it again.")
        if not _valid(parameter, option.get("value")):
            return tongue.gettext("`{option}` must be {values}.").format(
                option=parameter.display_name, values=_what(parameter, tongue)
            )
    return None
