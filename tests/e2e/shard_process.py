"""One bot process of a sharded deployment, on a fake Discord: what ``python -m bot`` runs.

Run by path (``python tests/e2e/shard_process.py NAME``) with the
settings in the environment, as a host would set them (DISCORD_TOKEN, DATABASE_URL,
SHARD_COUNT, SHARD_IDS), and the fake's address in FAKE_DISCORD_URL. NAME is added to the
User-Agent of every REST request, so the fake's traffic log tells the processes apart.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from typing import Any

from discord.http import HTTPClient

from bot.config import Settings
from bot.runner import StartError, serve
from bot.storage import open_storage
from fake_discord.discord_py import URL_ENV, point_discord_py_at


def tag_requests(name: str) -> None:
    """Every REST request of this process carries ``name`` in its User-Agent."""
    original = HTTPClient.__init__

    def tagged(self: HTTPClient, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        self.user_agent = f"{self.user_agent} {name}"

    HTTPClient.__init__ = tagged  # type: ignore[method-assign]


async def main() -> None:
    settings = Settings.from_env()
    storage = await open_storage(settings)
    try:
        await serve(settings, storage, edit_interval=0.0, guild_ready_timeout=0.05)
    finally:
        await storage.close()


if __name__ == "__main__":
    tag_requests(sys.argv[1])
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    logging.getLogger("discord").setLevel(logging.WARNING)
    with point_discord_py_at(os.environ[URL_ENV]):
        try:
            asyncio.run(main())
        except StartError as error:  # as python -m bot says it: one line, exit status 1
            print(f"uno-bot: {error}", file=sys.stderr)
            sys.exit(1)
