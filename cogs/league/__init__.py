"""The ``cogs.league`` extension: league commands under /uno and /uno-admin; their items; the
achievements told to players when a match earns them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.group import ADMIN_GROUP, add_to_group, remove_from_group
from cogs.replies import NO_PINGS

from .announce import AchievementAnnouncer
from .commands import LEAGUE_ADMIN_COMMANDS, LEAGUE_COMMANDS
from .items import LEAGUE_ITEMS

if TYPE_CHECKING:
    from bot.client import UnoBot

TOURNAMENT_FINISHED = "on_uno_tournament_finished"  # dispatched with the finished Tournament
# Each running bot's announcer, so that teardown can stop it hearing of changes.
ANNOUNCERS: dict[int, AchievementAnnouncer] = {}


async def setup(bot: UnoBot) -> None:
    """Add the league commands to /uno and /uno-admin (loading them first); register the items;
    start telling players their new achievements."""
    await add_to_group(bot, LEAGUE_COMMANDS)
    await add_to_group(bot, LEAGUE_ADMIN_COMMANDS, ADMIN_GROUP)
    bot.add_dynamic_items(*LEAGUE_ITEMS)

    async def direct_message(user_id: int, text: str) -> None:
        user = bot.get_user(user_id) or await bot.fetch_user(user_id)
        await user.send(text, allowed_mentions=NO_PINGS)

    announcer = AchievementAnnouncer(
        lambda: bot.storage, direct_message, bot.tables.unchanged_since_restore
    )
    ANNOUNCERS[id(bot)] = announcer
    bot.tables.subscribe(announcer.on_change)
    bot.add_listener(announcer.on_tournament_finished, TOURNAMENT_FINISHED)


async def teardown(bot: UnoBot) -> None:
    announcer = ANNOUNCERS.pop(id(bot), None)
    if announcer is not None:
        bot.tables.unsubscribe(announcer.on_change)
        bot.remove_listener(announcer.on_tournament_finished, TOURNAMENT_FINISHED)
    bot.remove_dynamic_items(*LEAGUE_ITEMS)
    remove_from_group(bot, LEAGUE_ADMIN_COMMANDS, ADMIN_GROUP)
    remove_from_group(bot, LEAGUE_COMMANDS)
