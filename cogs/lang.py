"""Which language a message speaks: private replies the clicking user's, public messages the
table's or the server's (chosen in /uno-admin settings, else the server's Discord locale)."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import Lang, lang
from bot.tables.snapshot import TableSnapshot


def user_lang(interaction: discord.Interaction[Any]) -> Lang:
    """The clicking user's language (private replies)."""
    return lang(interaction.locale.value)


def server_locale(interaction: discord.Interaction[Any], chosen: str | None = None) -> str:
    """The server's language as a catalogue name: the one chosen in /uno-admin settings, else the
    server's preferred locale (English in a direct message)."""
    if chosen:
        return lang(chosen).code
    guild_locale = interaction.guild_locale
    return lang(guild_locale.value if guild_locale is not None else None).code


def server_lang(interaction: discord.Interaction[Any], chosen: str | None = None) -> Lang:
    """The server's language (public messages outside a table: leaderboards, history)."""
    return lang(server_locale(interaction, chosen))


def table_lang(table: TableSnapshot) -> Lang:
    """The language of a table's public messages (stored when it opened)."""
    return lang(table.locale)
