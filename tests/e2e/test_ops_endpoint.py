"""The operator's endpoint of a running bot (METRICS_PORT): /metrics in the Prometheus format,
read back with prometheus_client's own parser, and /healthz following the gateway."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from bot.client import UnoBot
from bot.config import Secret, Settings
from bot.storage import Storage
from bot.tables.scheduler import ManualScheduler
from cogs.errors import UnoTree
from fake_discord import FakeDiscord, FakeGuild
from fake_discord.runner import BotRunner
from tests.e2e.helpers import OPEN_STORAGES

WANTED = {
    "uno_interactions",
    "uno_interaction_answer_seconds",
    "uno_rest_requests",
    "uno_rest_rate_limited",
    "uno_rest_budget_wait_seconds",
    "uno_rest_budget_renewed",
    "uno_live_tables",
    "uno_picture_queue_depth",
    "uno_picture_render_seconds",
    "uno_storage_seconds",
    "uno_storage_errors",
    "uno_shard_latency_seconds",
    "uno_gateway_connected",
}


async def started(fake: FakeDiscord, runner: BotRunner, tmp_path: Path) -> UnoBot:
    path = tmp_path / "uno.db"
    storage = await Storage.open(path)
    OPEN_STORAGES.append(storage)
    bot = UnoBot(
        Settings(token=Secret(fake.token), database_path=path, metrics_port=0),
        tree=UnoTree,
        storage=storage,
        scheduler=ManualScheduler(),
        rng=random.Random(1),
        edit_interval=0.0,
    )
    await runner.start(bot)
    assert bot.ops is not None and bot.ops.port
    return bot


async def get(bot: UnoBot, path: str) -> tuple[int, str]:
    assert bot.ops is not None
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"http://127.0.0.1:{bot.ops.port}{path}") as answer,
    ):
        return answer.status, await answer.text()


async def test_metrics_are_served_in_the_prometheus_format(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = await started(fake, bot_runner, tmp_path)
    user = await fake.create_member(fake_guild, "ana")
    itx = await fake.slash(user, fake_guild.default_channel, "uno new", {"edition": "classic"})
    await itx.response()

    status, text = await get(bot, "/metrics")
    assert status == 200
    families = {f.name: f for f in text_string_to_metric_families(text)}
    assert set(families) >= WANTED
    samples = {(s.name, tuple(sorted(s.labels.items()))): s.value for f in families.values()
               for s in f.samples}  # fmt: skip
    assert samples[("uno_live_tables", ())] == 1  # the lobby just opened
    assert samples[("uno_gateway_connected", ())] == 1
    assert samples[("uno_interactions_total", (("kind", "application_command"),))] >= 1
    assert samples[("uno_interaction_answer_seconds_count", ())] >= 1
    assert samples[("uno_rest_requests_total", (("status", "200"),))] >= 1
    assert samples[("uno_storage_seconds_count", (("operation", "save the table"),))] >= 1


async def test_healthz_turns_unhealthy_while_the_gateway_is_down(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = await started(fake, bot_runner, tmp_path)
    assert await get(bot, "/healthz") == (200, '{"gateway": true, "storage": true}')

    fake.gateway.refusing = True
    fake.gateway.drop_all()
    for _ in range(200):  # bounded: the bot notices the cut connection within moments
        status, body = await get(bot, "/healthz")
        if status == 503:
            break
        await asyncio.sleep(0.02)
    assert (status, body) == (503, '{"gateway": false, "storage": true}')

    fake.gateway.refusing = False  # back up: discord.py reconnects by itself
    await fake.wait_for(lambda: fake.gateway.live_sessions(), timeout=30, what="a reconnect")
    for _ in range(200):
        if (await get(bot, "/healthz"))[0] == 200:
            break
        await asyncio.sleep(0.05)
    assert await get(bot, "/healthz") == (200, '{"gateway": true, "storage": true}')
