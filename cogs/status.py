"""The ``cogs.status`` extension: `/uno-admin status`, what a server manager can see of the
bot that serves their server: its version, its shard and gateway latency, and the server's
live tables."""

from __future__ import annotations

from importlib import metadata
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.tables.table import Status

from .group import ADMIN_GROUP, Subcommand, add_to_group, remove_from_group
from .lang import user_lang
from .replies import NO_PINGS

if TYPE_CHECKING:
    from bot.client import UnoBot


def version() -> str:
    """The installed bot's version."""
    try:
        return metadata.version("uno-bot")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown"


def shard_latency(bot: UnoBot, shard_id: int) -> float | None:
    """The shard's gateway heartbeat latency in seconds, None before the first heartbeat."""
    for shard, seconds in bot.latencies:
        if shard == shard_id:
            return seconds if seconds == seconds and seconds < 1e9 else None
    return None


@app_commands.command(
    name="status", description="The bot's version, shard and latency, and this server's tables"
)
async def status(interaction: discord.Interaction[UnoBot]) -> None:
    tongue = user_lang(interaction)
    _ = tongue.gettext
    guild = interaction.guild
    if guild is None or not interaction.permissions.manage_guild:
        await interaction.response.send_message(
            _("You need the Manage Server permission to see the bot's status."), ephemeral=True
        )
        return
    bot = interaction.client
    shard = guild.shard_id
    lines = [
        _("### UNO bot status"),
        _("Version: {version}").format(version=version()),
        _("Shard: {shard} of {count}").format(
            shard=tongue.number(shard), count=tongue.number(bot.shard_count or 1)
        ),
    ]
    latency = shard_latency(bot, shard)
    if latency is None:
        lines.append(_("Gateway latency: not measured yet"))
    else:
        lines.append(
            _("Gateway latency: {milliseconds} ms").format(
                milliseconds=tongue.number(round(latency * 1000))
            )
        )
    tables = bot.tables.in_guild(guild.id)
    lines.append(
        tongue.ngettext(
            "This server has {count} live table.", "This server has {count} live tables.",
            len(tables),
        ).format(count=tongue.number(len(tables)))
    )  # fmt: skip
    for table in sorted(tables, key=lambda t: t.table_id):
        players = len(table.seats)
        if table.status is Status.LOBBY:
            text = tongue.ngettext(
                "- {channel}: a lobby, {count} player", "- {channel}: a lobby, {count} players",
                players,
            )  # fmt: skip
        else:
            text = tongue.ngettext(
                "- {channel}: a game, {count} player", "- {channel}: a game, {count} players",
                players,
            )  # fmt: skip
        where = f"<#{table.thread_id or table.channel_id}>"
        lines.append(text.format(channel=where, count=tongue.number(players)))
    await interaction.response.send_message(
        "\n".join(lines), ephemeral=True, allowed_mentions=NO_PINGS
    )


STATUS_COMMANDS: tuple[Subcommand, ...] = (status,)


async def setup(bot: UnoBot) -> None:
    """Add /uno-admin status (loading the groups first)."""
    await add_to_group(bot, STATUS_COMMANDS, ADMIN_GROUP)


async def teardown(bot: UnoBot) -> None:
    remove_from_group(bot, STATUS_COMMANDS, ADMIN_GROUP)
