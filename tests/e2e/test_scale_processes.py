"""Processes of one bot over one PostgreSQL database and one fake Discord: they share one REST
budget, and a shard is run by one live process at a time."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from bot.storage import Storage
from fake_discord import FakeDiscord
from fake_discord.discord_py import URL_ENV
from tests.e2e.test_shards import CHILD, ROOT, BotProcess, launch

SPENDER = Path(__file__).with_name("budget_process.py")
EXIT_TIMEOUT = 60.0


def busiest_second(times: list[float]) -> int:
    """The most requests in any one-second window."""
    times = sorted(times)
    best = start = 0
    for end, at in enumerate(times):
        while at - times[start] >= 1.0:
            start += 1
        best = max(best, end - start + 1)
    return best


async def test_two_processes_over_one_budget_never_exceed_it_together(
    fake_discord: FakeDiscord, database: str, tmp_path: Path
) -> None:
    fake = fake_discord
    await (await Storage.open(database)).close()  # migrated once, as a release step would
    env = {
        **os.environ,
        "DISCORD_TOKEN": fake.token,
        "DATABASE_URL": database,
        "REST_PER_SECOND": "10",
        URL_ENV: fake.base_url,
    }
    spenders = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            str(SPENDER),
            name,
            "24",
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for name in ("left", "right")
    ]
    outputs = [await asyncio.wait_for(p.communicate(), EXIT_TIMEOUT) for p in spenders]
    for process, (_, err) in zip(spenders, outputs, strict=True):
        assert process.returncode == 0, err.decode()
    sent = [r for r in fake.traffic.log if not r.answers_interaction]
    assert {r.agent.split()[-1] for r in sent} == {"left", "right"}
    assert len(sent) == 2 * (1 + 24)  # each logged in, then asked 24 times
    # Together they kept to the one budget: at most 10 in any second, though each alone
    # asked for all of its 24 at once; the budget's 7 a second spread them over 6 s.
    times = [r.at for r in sent]
    assert busiest_second(times) <= 10
    assert max(times) - min(times) >= 4.5
    waits = [w for out, _ in outputs for w in json.loads(out)]
    assert len(waits) == 50 and max(waits) > 0


async def spawn(fake: FakeDiscord, url: str, shard: int, name: str, tmp_path: Path) -> BotProcess:
    env = {
        **os.environ,
        "DISCORD_TOKEN": fake.token,
        "DATABASE_URL": url,
        "SHARD_COUNT": "2",
        "SHARD_IDS": str(shard),
        URL_ENV: fake.base_url,
    }
    env.pop("DEV_GUILD_IDS", None)
    log = tmp_path / f"{name}.log"
    with log.open("wb") as out:
        process = await asyncio.create_subprocess_exec(
            sys.executable, str(CHILD), name, cwd=ROOT, env=env,
            stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    return BotProcess(name, shard, process, log)


async def test_a_second_process_on_a_held_shard_refuses_to_start(
    fake_discord: FakeDiscord, database: str, tmp_path: Path, processes: list[BotProcess]
) -> None:
    fake = fake_discord
    await (await Storage.open(database)).close()
    first = await launch(fake, database, 0, "first", tmp_path, processes)
    assert "holding the lease of shards 0" in first.output()

    second = await spawn(fake, database, 0, "second", tmp_path)
    processes.append(second)
    assert await asyncio.wait_for(second.process.wait(), EXIT_TIMEOUT) == 1
    said = [line for line in second.output().splitlines() if line.startswith("uno-bot:")]
    assert said == [
        "uno-bot: shard 0 is already run by another live process (its lease is held in the "
        "database): stop that process first, or give this one other SHARD_IDS"
    ], second.output()
    assert "Traceback" not in second.output()
    # It never connected: the first process is the shard's only one.
    assert [s.shard for s in fake.gateway.live_sessions()] == [[0, 2]]

    # The lease dies with its process: a replacement starts at once after a kill -9.
    first.process.send_signal(signal.SIGKILL)
    await first.process.wait()
    await fake.wait_for(
        lambda: not fake.gateway.live_sessions(), what="the gateway to notice the dead process"
    )
    again = await launch(fake, database, 0, "again", tmp_path, processes)
    assert "holding the lease of shards 0" in again.output()
    again.process.send_signal(signal.SIGTERM)
    assert await asyncio.wait_for(again.process.wait(), EXIT_TIMEOUT) == 0, again.output()
