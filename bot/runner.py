"""The bot as a service: a clean stop on SIGTERM or SIGINT, and one clear line for start errors."""

from __future__ import annotations

import asyncio
import logging
import signal
from typing import Any

import aiohttp
import discord

from bot.config import Settings
from bot.storage import Storage

log = logging.getLogger(__name__)


class StartError(Exception):
    """The bot could not start; the message says why in one line."""


def explain_start_error(error: BaseException) -> str | None:
    """One line for the errors a host operator can fix, or None for a real bug."""
    if isinstance(error, discord.LoginFailure):
        return "Discord refused the bot token: check DISCORD_TOKEN (Developer Portal > Bot)"
    if isinstance(error, discord.PrivilegedIntentsRequired):
        return (
            "Discord refused a privileged intent: this bot needs none, so check that the "
            "application's settings match this version of the bot"
        )
    if isinstance(error, discord.ConnectionClosed):
        if error.code == 4004:
            return "Discord refused the bot token: check DISCORD_TOKEN (Developer Portal > Bot)"
        return f"Discord closed the connection (code {error.code}): {error.reason or 'no reason'}"
    if isinstance(error, discord.GatewayNotFound | aiohttp.ClientConnectionError | OSError):
        return f"could not reach Discord ({type(error).__name__}): check the network"
    if isinstance(error, discord.DiscordServerError):
        return f"Discord answered with a server error ({error.status}): try again later"
    return None


async def serve(settings: Settings, storage: Storage, **options: Any) -> None:
    """Run the bot until Discord closes it or the host asks it to stop (SIGTERM, SIGINT)."""
    from bot.client import UnoBot
    from cogs.errors import UnoTree

    # The runner puts the parts together: the client knows no cogs, so its command tree (the
    # cogs' error funnel) is handed in here, as its extensions are named.
    bot = UnoBot(settings, tree=UnoTree, storage=storage, **options)
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stopping.set)
    try:
        async with bot:
            running = asyncio.create_task(bot.start(settings.token))
            stop = asyncio.create_task(stopping.wait())
            await asyncio.wait({running, stop}, return_when=asyncio.FIRST_COMPLETED)
            if stop.done():
                log.info("stopping: finishing saves and closing")
                await bot.close()
            else:
                stop.cancel()
            try:
                await running
            except Exception as exc:
                reason = explain_start_error(exc)
                if reason is None:
                    raise
                raise StartError(reason) from None
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)
