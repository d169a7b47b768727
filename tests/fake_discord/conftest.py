"""Fixtures of the fake Discord's own tests: the minimal bot, two members, raw REST access."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest

from fake_discord import BotRunner, FakeDiscord, FakeGuild, FakeUser
from fake_discord.minimal_bot import MinimalBot


@pytest.fixture
async def bot(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner
) -> MinimalBot:
    client = MinimalBot()
    await bot_runner.start(client)
    return client


@pytest.fixture
async def alice(fake_discord: FakeDiscord, fake_guild: FakeGuild) -> FakeUser:
    # Accents, markdown and @everyone in names: the bot must not mangle or ping them.
    return await fake_discord.create_member(
        fake_guild, "alice", global_name="Zoë *the* _great_ @everyone"
    )


@pytest.fixture
async def bob(fake_discord: FakeDiscord, fake_guild: FakeGuild) -> FakeUser:
    return await fake_discord.create_member(fake_guild, "bob")


@pytest.fixture
async def http(fake_discord: FakeDiscord) -> AsyncIterator[aiohttp.ClientSession]:
    """Raw REST access (as the bot) to check the fake's answers directly."""
    headers = {"Authorization": f"Bot {fake_discord.token}"}
    async with aiohttp.ClientSession(fake_discord.api_base + "/", headers=headers) as session:
        yield session
