"""The ``cogs.tournament`` extension: `/uno tournament …` (for everyone) and
`/uno-admin tournament …` (for managers), the tournament message's buttons, and the desk that
runs the server tournaments through the bot's tables.

- ``commands.py``: the command groups; ``items.py``: Join, Leave and Berserk;
- ``desk.py``: ``TournamentDesk``, the manager wired to the bot, its standings message;
- ``presenter.py``: the standings message and the texts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord.ext.commands import Cog

from cogs.group import ADMIN_GROUP, Subcommand, add_to_group, remove_from_group

from .commands import member_tournament_group, tournament_group
from .desk import TournamentDesk
from .items import TOURNAMENT_ITEMS

if TYPE_CHECKING:
    from bot.client import UnoBot

TOURNAMENT_COMMANDS: tuple[Subcommand, ...] = (tournament_group,)
# Under /uno, which everyone sees: /uno-admin is hidden from members, yet a server may let
# anyone open tournaments, and anyone may join one.
MEMBER_TOURNAMENT_COMMANDS: tuple[Subcommand, ...] = (member_tournament_group,)


class TournamentCog(Cog):
    """Holds the desk for the commands and buttons (state lives in its manager)."""

    def __init__(self, bot: UnoBot) -> None:
        board = getattr(bot.get_cog("UnoCog"), "clicks", None)
        pacer = getattr(getattr(board, "board", None), "pacer", None)
        self.desk = TournamentDesk(bot, pacer)  # the tables' pacer: one per channel

    async def cog_load(self) -> None:
        await self.desk.load()

    async def cog_unload(self) -> None:
        self.desk.close()


async def setup(bot: UnoBot) -> None:
    """Add the commands under /uno-admin and /uno, register the buttons, take up saved
    tournaments (before the tables are restored) and resume them once the tables are back."""
    await add_to_group(bot, TOURNAMENT_COMMANDS, ADMIN_GROUP)
    await add_to_group(bot, MEMBER_TOURNAMENT_COMMANDS)
    cog = TournamentCog(bot)
    await bot.add_cog(cog)
    bot.add_dynamic_items(*TOURNAMENT_ITEMS)
    bot.after_restore.append(cog.desk.resume)
    bot.on_forget.append(cog.desk.manager.forget_member)  # names in running tournaments


async def teardown(bot: UnoBot) -> None:
    cog = bot.get_cog("TournamentCog")
    if isinstance(cog, TournamentCog) and cog.desk.resume in bot.after_restore:
        bot.after_restore.remove(cog.desk.resume)
    if isinstance(cog, TournamentCog) and cog.desk.manager.forget_member in bot.on_forget:
        bot.on_forget.remove(cog.desk.manager.forget_member)
    bot.remove_dynamic_items(*TOURNAMENT_ITEMS)
    remove_from_group(bot, TOURNAMENT_COMMANDS, ADMIN_GROUP)
    remove_from_group(bot, MEMBER_TOURNAMENT_COMMANDS)
