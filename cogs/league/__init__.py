"""The ``cogs.league`` extension: league commands under /uno and /uno-admin; their items."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.group import ADMIN_GROUP, add_to_group, remove_from_group

from .commands import LEAGUE_ADMIN_COMMANDS, LEAGUE_COMMANDS
from .items import LEAGUE_ITEMS

if TYPE_CHECKING:
    from bot.client import UnoBot


async def setup(bot: UnoBot) -> None:
    """Add the league commands to /uno and /uno-admin (loading them first); register the items."""
    await add_to_group(bot, LEAGUE_COMMANDS)
    await add_to_group(bot, LEAGUE_ADMIN_COMMANDS, ADMIN_GROUP)
    bot.add_dynamic_items(*LEAGUE_ITEMS)


async def teardown(bot: UnoBot) -> None:
    bot.remove_dynamic_items(*LEAGUE_ITEMS)
    remove_from_group(bot, LEAGUE_ADMIN_COMMANDS, ADMIN_GROUP)
    remove_from_group(bot, LEAGUE_COMMANDS)
