"""The ``cogs.uno`` extension: the /uno command group with the game's commands, its buttons and
what presents their outcomes.

- ``commands.py``: ``UnoCog``, the /uno group and the game's commands;
- ``clicks.py``: ``GameClicks``, the outcome of every game click presented;
- ``live_hands.py``: each player's live hand, kept current through its own interaction;
- ``house_rule.py``: the Wild Customizable rule's form; ``rematch.py``: the Rematch button.

The league and settings extensions add their commands to the /uno group when they load.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.group import ADMIN_GROUP, admin_group
from cogs.translator import CatalogueTranslator
from cogs.ui.items import DYNAMIC_ITEMS

from .commands import UnoCog

if TYPE_CHECKING:
    from bot.client import UnoBot

__all__ = ["UnoCog", "setup", "teardown"]


async def setup(bot: UnoBot) -> None:
    """Load the /uno and /uno-admin groups, register the game's buttons and localize the
    commands."""
    await bot.tree.set_translator(CatalogueTranslator())
    await bot.add_cog(UnoCog(bot))
    bot.tree.add_command(admin_group())
    bot.add_dynamic_items(*DYNAMIC_ITEMS)


async def teardown(bot: UnoBot) -> None:
    bot.remove_dynamic_items(*DYNAMIC_ITEMS)
    bot.tree.remove_command(ADMIN_GROUP)
    await bot.tree.set_translator(None)
