"""One error funnel: bad options get a worded refusal and anything unexpected a polite reply."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from .inputs import refusal
from .replies import SORRY, reply_privately

log = logging.getLogger(__name__)


def explain(error: app_commands.AppCommandError) -> str:
    """A friendly sentence for a command error."""
    if isinstance(error, app_commands.NoPrivateMessage):
        return "UNO games are played in servers, not in direct messages."
    if isinstance(error, app_commands.MissingPermissions):
        return "You need the Manage Server permission for that."
    if isinstance(error, app_commands.TransformerError):
        return "That option is not valid; please pick from the list or check the value."
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down a little: try again in {error.retry_after:.0f} s."
    if isinstance(error, app_commands.CheckFailure):
        return "You cannot use that command here."
    return SORRY


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
        problem = refusal(command, data)
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
        await reply_privately(interaction, explain(error))
