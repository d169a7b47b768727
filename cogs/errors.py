"""One error funnel: bad options get a worded refusal and anything unexpected a polite reply,
in the user's language."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.i18n import ENGLISH_LANG, Lang, lang

from .inputs import refusal
from .replies import SORRY, reply_privately

log = logging.getLogger(__name__)


def explain(error: app_commands.AppCommandError, tongue: Lang = ENGLISH_LANG) -> str:
    """A friendly sentence for a command error."""
    _ = tongue.gettext
    if isinstance(error, app_commands.NoPrivateMessage):
        return _("UNO games are played in servers, not in direct messages.")
    if isinstance(error, app_commands.MissingPermissions):
        return _("You need the Manage Server permission for that.")
    if isinstance(error, app_commands.TransformerError):
        return _("That option is not valid; please pick from the list or check the value.")
    if isinstance(error, app_commands.CommandOnCooldown):
        return _("Slow down a little: try again in {seconds} s.").format(
            seconds=f"{error.retry_after:.0f}"
        )
    if isinstance(error, app_commands.CheckFailure):
        return _("You cannot use that command here.")
    return _(SORRY)


class UnoTree(app_commands.CommandTree[Any]):
    """The command tree: options checked before any command runs, every error answered."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        if interaction.type is not discord.InteractionType.application_command:
            return True  # autocomplete sees half-typed values by design
        try:
            command = interaction.command
        except app_commands.AppCommandError:
            return True  # discord.py answers an unknown command itself
        if not isinstance(command, app_commands.Command):
            return True
        data: Any = interaction.data or {}
        problem = refusal(command, data, lang(interaction.locale.value))
        if problem is None:
            return True
        log.info("refused /%s: %s", command.qualified_name, problem)
        await reply_privately(interaction, problem)
        return False

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        if isinstance(error, app_commands.CommandInvokeError) or explain(error) == SORRY:
            log.error("command failed", exc_info=error)
        await reply_privately(interaction, explain(error, lang(interaction.locale.value)))
