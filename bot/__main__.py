"""`python -m bot`: read .env and the settings, set up logging, open storage and run the bot.

`python -m bot playground` (`uno-bot playground`) runs the local playground instead: no token,
no network."""

from __future__ import annotations

import asyncio
import sys

from dotenv import load_dotenv

from bot.config import ConfigError, Settings
from bot.logs import setup_logging
from bot.runner import StartError, serve
from bot.storage import Storage, StorageError


async def _run(settings: Settings) -> None:
    storage = await Storage.open(settings.database_path)
    try:
        await serve(settings, storage)
    finally:
        await storage.close()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["playground"]:
        from bot.playground import main as playground

        return playground(args[1:])
    load_dotenv()
    try:
        settings = Settings.from_env()
    except ConfigError as exc:
        print(f"uno-bot: {exc}", file=sys.stderr)
        return 2
    setup_logging(settings.log_level, secrets=[settings.token])
    try:
        asyncio.run(_run(settings))
    except (StorageError, StartError) as exc:
        print(f"uno-bot: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
