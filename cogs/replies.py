"""Private, ping-free answers to an interaction, whether or not it was answered already."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.i18n import N_, lang

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
SORRY = N_("Something went wrong on my side; nothing was changed. Please try again.")


def sorry(interaction: discord.Interaction[Any]) -> str:
    """The polite answer to an unexpected failure, in the user's language."""
    return lang(interaction.locale.value).gettext(SORRY)


async def say(interaction: discord.Interaction[Any], text: str) -> None:
    """A private answer that pings nobody."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_PINGS)
    else:
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_PINGS)


async def reply_privately(interaction: discord.Interaction[Any], text: str) -> None:
    """As ``say``, for error paths: a failure to answer is logged, never raised."""
    try:
        await say(interaction, text)
    except discord.HTTPException:
        log.warning("could not tell the user about an error")
