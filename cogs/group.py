"""The /uno and /uno-admin command groups that the extensions share (``cogs.uno`` owns both).

Discord hides a command from members without its ``default_member_permissions``, but only a
top-level command carries them (it ignores them on subcommands). So the Manage Server commands
live in their own top-level group, /uno-admin, which Discord shows to server managers only;
each admin command still checks the permission when it runs, since a server may grant it to
others in its integration settings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

if TYPE_CHECKING:
    from bot.client import UnoBot

GROUP = "uno"
ADMIN_GROUP = "uno-admin"
OWNER = "cogs.uno"


def admin_group() -> app_commands.Group:
    """A fresh /uno-admin group: server managers only, never in direct messages."""
    return app_commands.Group(
        name=ADMIN_GROUP,
        description="Server settings, league seasons and data (Manage Server)",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )


async def uno_group(bot: UnoBot, name: str = GROUP) -> app_commands.Group:
    """The /uno group (or /uno-admin), loading its extension first when needed."""
    if OWNER not in bot.extensions:
        await bot.load_extension(OWNER)
    group = bot.tree.get_command(name)
    if not isinstance(group, app_commands.Group):
        raise RuntimeError(f"the {OWNER} extension did not register /{name}")
    return group


Subcommand = app_commands.Command[Any, ..., Any] | app_commands.Group


async def add_to_group(bot: UnoBot, subcommands: tuple[Subcommand, ...], name: str = GROUP) -> None:
    """Put an extension's commands under /uno, or /uno-admin (at load)."""
    group = await uno_group(bot, name)
    for command in subcommands:
        group.add_command(command)


def remove_from_group(bot: UnoBot, subcommands: tuple[Subcommand, ...], name: str = GROUP) -> None:
    """Take an extension's commands out of the group again (at unload)."""
    group = bot.tree.get_command(name)
    if isinstance(group, app_commands.Group):
        for command in subcommands:
            group.remove_command(command.name)
