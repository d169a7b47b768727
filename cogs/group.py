"""The /uno command group that the extensions share (the ``cogs.uno`` extension owns it)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from discord import app_commands

if TYPE_CHECKING:
    from bot.client import UnoBot

GROUP = "uno"
OWNER = "cogs.uno"


async def uno_group(bot: UnoBot) -> app_commands.Group:
    """The /uno group, loading its extension first when needed."""
    if OWNER not in bot.extensions:
        await bot.load_extension(OWNER)
    group = bot.tree.get_command(GROUP)
    if not isinstance(group, app_commands.Group):
        raise RuntimeError(f"the {OWNER} extension did not register /{GROUP}")
    return group


Subcommand = app_commands.Command[Any, ..., Any] | app_commands.Group


async def add_to_group(bot: UnoBot, subcommands: tuple[Subcommand, ...]) -> None:
    """Put an extension's commands under /uno (at load)."""
    group = await uno_group(bot)
    for command in subcommands:
        group.add_command(command)


def remove_from_group(bot: UnoBot, subcommands: tuple[Subcommand, ...]) -> None:
    """Take an extension's commands out of the /uno group again (at unload)."""
    group = bot.tree.get_command(GROUP)
    if isinstance(group, app_commands.Group):
        for command in subcommands:
            group.remove_command(command.name)
