"""One bot process of a sharded deployment, on a fake Discord: what ``python -m bot`` runs.

Run by path (``python tests/e2e/shard_process.py NAME``) with the
settings in the environment, as a host would set them (DISCORD_TOKEN, DATABASE_URL,
SHARD_COUNT, SHARD_IDS), and the fake's address in FAKE_DISCORD_URL. NAME is added to the
User-Agent of every REST request, so the fake's traffic log tells the processes apart, and each
request carries the wall time it left the REST budget, so the log tells sending from arrival.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import time
from types import SimpleNamespace
from typing import Any

import aiohttp
from discord.http import HTTPClient

import bot.client
from bot.config import Settings
from bot.runner import StartError, serve
from bot.storage import open_storage
from fake_discord.discord_py import URL_ENV, point_discord_py_at
from fake_discord.traffic import HELD_HEADER, SENT_AT_HEADER


def tag_requests(name: str) -> None:
    """Every REST request of this process carries ``name`` in its User-Agent."""
    original = HTTPClient.__init__

    def tagged(self: HTTPClient, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        self.user_agent = f"{self.user_agent} {name}"

    HTTPClient.__init__ = tagged  # type: ignore[method-assign]


def stamped(trace: aiohttp.TraceConfig) -> aiohttp.TraceConfig:
    """``trace`` with hooks around its own: every REST request carries the wall time it left
    (stamped by the last hook before aiohttp writes its headers, after the budget's) and how
    long it was held from its start until then."""

    async def asked(
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestStartParams,
    ) -> None:
        context.asked = time.perf_counter()

    async def stamp(
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestHeadersSentParams,
    ) -> None:
        params.headers[SENT_AT_HEADER] = repr(time.time())
        params.headers[HELD_HEADER] = repr(time.perf_counter() - context.asked)

    trace.on_request_start.insert(0, asked)
    trace.on_request_headers_sent.append(stamp)
    return trace


def stamp_sends() -> None:
    """The bot's REST trace, stamped."""
    original = bot.client.rest_trace

    def traced(*args: Any, **kwargs: Any) -> aiohttp.TraceConfig:
        return stamped(original(*args, **kwargs))

    bot.client.rest_trace = traced  # type: ignore[assignment]


async def main() -> None:
    settings = Settings.from_env()
    storage = await open_storage(settings)
    try:
        await serve(settings, storage, edit_interval=0.0, guild_ready_timeout=0.05)
    finally:
        await storage.close()


if __name__ == "__main__":
    tag_requests(sys.argv[1])
    stamp_sends()
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
