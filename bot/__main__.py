"""`python -m bot`: read .env and the settings, set up logging, open storage and run the bot."""

from __future__ import annotations

import asyncio
import logging
import sys

from dotenv import load_dotenv

from bot.config import ConfigError, Settings
from bot.storage import Storage, StorageError


async def _run(settings: Settings) -> None:
    from bot.client import UnoBot

    storage = await Storage.open(settings.database_path)
    bot = UnoBot(settings, storage=storage)
    try:
        async with bot:
            await bot.start(settings.token)
    finally:
        await storage.close()


def main() -> int:
    load_dotenv()
    try:
        settings = Settings.from_env()
    except ConfigError as exc:
        print(f"uno-bot: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    logging.getLogger("discord.http").setLevel(logging.WARNING)
    try:
        asyncio.run(_run(settings))
    except StorageError as exc:
        print(f"uno-bot: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
