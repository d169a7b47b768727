"""One error funnel: anything unexpected in a command or a button ends in a polite private reply."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

log = logging.getLogger(__name__)

SORRY = "Something went wrong on my side; nothing was changed. Please try again."


async def reply_privately(interaction: discord.Interaction[Any], text: str) -> None:
    """Answer ephemerally whether or not the interaction was acknowledged yet."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell the user about an error")


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
    """The command tree, with every command error funnelled to a private reply."""

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        if isinstance(error, app_commands.CommandInvokeError) or explain(error) == SORRY:
            log.error("command failed", exc_info=error)
        await reply_privately(interaction, explain(error))
