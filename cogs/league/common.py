"""What every league handler shares: the storage, the public language, the guard."""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import N_, Lang
from bot.storage import Storage, StorageError
from cogs.lang import server_lang, user_lang
from cogs.replies import reply_privately, sorry

if TYPE_CHECKING:
    from bot.client import UnoBot

log = logging.getLogger(__name__)

DB_DOWN = N_("The league database is not available right now; please try again.")


async def public_lang(interaction: discord.Interaction[Any], storage: Storage) -> Lang:
    """The language of the server's public league messages (chosen in /uno-admin settings, else the
    server's Discord locale)."""
    assert interaction.guild_id is not None
    settings = await storage.get_settings(interaction.guild_id)
    return server_lang(interaction, settings.language)


def storage_of(interaction: discord.Interaction[UnoBot]) -> Storage:
    """The bot's storage; StorageError when it is not open."""
    storage = interaction.client.storage
    if storage is None:
        raise StorageError("storage is not open")
    return storage


async def guarded(interaction: discord.Interaction[Any], work: Awaitable[None]) -> None:
    """Run a league handler: storage trouble and surprises end in a polite private reply."""
    try:
        await work
    except StorageError:
        log.warning("league storage unavailable", exc_info=True)
        await reply_privately(interaction, user_lang(interaction).gettext(DB_DOWN))
    except Exception:
        log.exception("league handler failed")
        await reply_privately(interaction, sorry(interaction))
