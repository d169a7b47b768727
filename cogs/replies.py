"""Private, ping-free answers to an interaction, whether or not it was answered already."""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
SORRY = "Something went wrong on my side; nothing was changed. Please try again."
# A command named in a reply, `/uno new` in code or /uno leave in a sentence: it becomes a
# clickable mention. The words after /uno are tried longest first ("/uno leave to go" names
# /uno leave).
QUOTED_COMMAND = re.compile(r"`/([a-z-]+(?: [a-z-]+){0,2})`")
COMMAND_IN_TEXT = re.compile(r"(?<![\w</`:])/(uno(?:-admin)?)((?: [a-z][a-z-]*){1,2})")


def link_commands(client: Any, text: str, guild_id: int | None) -> str:
    """Every /uno command named in ``text`` as a clickable ``</uno new:ID>`` mention once the
    bot knows the synced ids (``command_ids``); otherwise the text stays as written."""
    ids = getattr(client, "command_ids", None)
    if ids is None:
        return text

    def quoted(match: re.Match[str]) -> str:
        found: str | None = ids.mention(match[1], guild_id)
        return found or match[0]

    def in_text(match: re.Match[str]) -> str:
        words = [match[1], *match[2].split(" ")[1:]]
        for size in range(len(words), 1, -1):
            found: str | None = ids.mention(" ".join(words[:size]), guild_id)
            if found:
                return " ".join([found, *words[size:]])
        return match[0]

    return COMMAND_IN_TEXT.sub(in_text, QUOTED_COMMAND.sub(quoted, text))


async def say(interaction: discord.Interaction[Any], text: str) -> None:
    """A private answer that pings nobody; commands it names are clickable."""
    text = link_commands(interaction.client, text, interaction.guild_id)
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
