"""Pytest fixtures to run real discord.py clients against the fake Discord.

- `fake_discord`: a started `FakeDiscord` on 127.0.0.1; discord.py's REST base and gateway
  point at it and no socket may leave the machine for the test's duration (all restored
  afterwards).
- `fake_guild`: a guild on that fake (bot member, owner, `guild.default_channel`).
- `fake_clock`: a `ManualClock` the fake now dates everything with (`fake_clock.advance(s)`).
- `bot_runner`: starts `discord.Client`/`commands.Bot` instances (`await bot_runner.start(bot)`),
  stops them cleanly (`stop`) or abruptly (`kill`), closes leftovers at teardown, and collects
  ERROR log records from the `discord` loggers in `bot_runner.errors`.

Registered for the project's suite by the root conftest.py (`pytest_plugins`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from fake_discord.clock import ManualClock
from fake_discord.discord_py import point_discord_py_at
from fake_discord.guilds import FakeGuild
from fake_discord.runner import BotRunner
from fake_discord.server import FakeDiscord


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    await fake.start()
    try:
        with point_discord_py_at(fake):
            yield fake
    finally:
        await fake.stop()


@pytest.fixture
async def fake_guild(fake_discord: FakeDiscord) -> FakeGuild:
    return await fake_discord.create_guild("Test Guild")


@pytest.fixture
def fake_clock(fake_discord: FakeDiscord) -> ManualClock:
    clock = ManualClock()
    fake_discord.clock = clock
    return clock


@pytest.fixture
async def bot_runner(fake_discord: FakeDiscord) -> AsyncIterator[BotRunner]:
    runner = BotRunner(fake_discord)
    runner.attach()
    try:
        yield runner
    finally:
        await runner.aclose()
        runner.detach()
