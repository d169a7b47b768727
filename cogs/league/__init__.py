"""The ``cogs.league`` extension: league commands under /uno, and their buttons and select."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.group import add_to_group, remove_from_group

from .commands import LEAGUE_COMMANDS
from .items import LEAGUE_ITEMS

if TYPE_CHECKING:
    from bot.client import UnoBot


async def setup(bot: UnoBot) -> None:
    """Add the league commands to the /uno group (loading it first) and register the items."""
    await add_to_group(bot, LEAGUE_COMMANDS)
    bot.add_dynamic_items(*LEAGUE_ITEMS)


async def teardown(bot: UnoBot) -> None:
    bot.remove_dynamic_items(*LEAGUE_ITEMS)
    remove_from_group(bot, LEAGUE_COMMANDS)
