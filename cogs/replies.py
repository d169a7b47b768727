"""Private, ping-free answers to an interaction, whether or not it was answered already."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import ui

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
SORRY = "Something went wrong on my side; nothing was changed. Please try again."


def let_go(view: ui.LayoutView) -> None:
    """Forget a view just sent in a private message (its buttons are all dynamic items).

    discord.py gives an ephemeral view with buttons a 15-minute timeout: one pending task that
    keeps the view and its items alive, for every hand shown. Dynamic items are found by their
    custom ids and need no stored view, so the view is stopped once sent. A view with any other
    interactive item is left alone: its callbacks need it stored.
    """
    items = [item for item in view.walk_children() if item.is_dispatchable()]
    if all(isinstance(item, ui.DynamicItem) for item in items):
        view.stop()


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
