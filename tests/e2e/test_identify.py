"""Starting the gateway within Discord's limits: with SHARD_COUNT set the bot reads
/gateway/bot, learns max_concurrency, and waits, saying so, when session starts run low."""

from __future__ import annotations

import logging
import random
from pathlib import Path

import pytest

from bot.client import UnoBot
from bot.config import Secret, Settings
from bot.storage import Storage
from bot.tables.scheduler import ManualScheduler
from cogs.errors import UnoTree
from fake_discord import FakeDiscord
from fake_discord.runner import BotRunner
from tests.e2e.helpers import OPEN_STORAGES


async def test_few_session_starts_left_make_the_bot_wait_for_their_reset(
    fake_discord: FakeDiscord,
    bot_runner: BotRunner,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake = fake_discord
    fake.session_start_limit = {
        "total": 1000,
        "remaining": 0,
        "reset_after": 200,
        "max_concurrency": 16,
    }
    storage = await Storage.open(tmp_path / "uno.db")
    OPEN_STORAGES.append(storage)
    settings = Settings(token=Secret(fake.token), database_path=tmp_path / "uno.db", shard_count=1)
    bot = UnoBot(
        settings, tree=UnoTree, storage=storage, scheduler=ManualScheduler(), rng=random.Random(1)
    )
    with caplog.at_level(logging.WARNING, logger="bot.client"):
        await bot_runner.start(bot)
    assert bot.max_concurrency == 16
    said = [r.getMessage() for r in caplog.records if r.name == "bot.client"]
    assert said == [
        "Discord allows 0 more session starts until its limit of 1000 resets, and this "
        "process needs 1: waiting 0.2 s for the reset"
    ]
    assert [s.shard for s in fake.gateway.live_sessions()] == [[0, 1]]
