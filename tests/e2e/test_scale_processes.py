"""Processes of one bot over one PostgreSQL database and one fake Discord: they share one REST
budget, and a shard is run by one live process at a time."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import asyncpg

from bot.storage import Storage
from fake_discord import FakeDiscord
from fake_discord.discord_py import URL_ENV
from fake_discord.wire import WireProcess
from tests.e2e.shards import (
    CHILD,
    GUILD_ON,
    ROOT,
    BotProcess,
    launch,
    start_game,
    take_turn,
)

SPENDER = Path(__file__).with_name("budget_process.py")
EXIT_TIMEOUT = 60.0


async def until(done: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    """Poll a child's log (it changes outside the fake's sight) until ``done``, bounded."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not done():
        assert loop.time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.1)


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
    # Arrivals are dated on the wire, by a proxy in a process of its own: the fake's loop, in
    # the test's process, may get to them late on a busy machine and date several together.
    wire = await WireProcess.start(fake.port)
    env = {
        **os.environ,
        "DISCORD_TOKEN": fake.token,
        "DATABASE_URL": database,
        "REST_PER_SECOND": "10",
        URL_ENV: wire.url,
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
    try:
        outputs = [await asyncio.wait_for(p.communicate(), EXIT_TIMEOUT) for p in spenders]
    finally:
        await wire.stop()
    for process, (_, err) in zip(spenders, outputs, strict=True):
        assert process.returncode == 0, err.decode()
    sent = [r for r in fake.traffic.log if not r.answers_interaction]
    assert {r.agent.split()[-1] for r in sent} == {"left", "right"}
    assert len(sent) == 2 * (1 + 24)  # each logged in, then asked 24 times
    # Together they kept to the one budget: at most 10 in any second, though each alone
    # asked for all of its 24 at once; the budget's 7 a second spread them over 6 s. As they
    # left the processes, at most 9: the tenth is the spare for the way to Discord.
    times = [r.wire_at for r in sent if r.wire_at is not None]
    assert len(times) == len(sent)
    assert busiest_second(times) <= 10
    assert all(r.sent_at is not None for r in sent)
    assert busiest_second([r.sent_at for r in sent if r.sent_at is not None]) <= 9
    assert max(times) - min(times) >= 4.5
    waits = [w for out, _ in outputs for w in json.loads(out)]
    assert len(waits) == 50 and max(waits) > 0


async def spawn(
    fake: FakeDiscord,
    url: str,
    shard: int,
    name: str,
    tmp_path: Path,
    *,
    auto_sharded: bool = False,
) -> BotProcess:
    env = {
        **os.environ,
        "DISCORD_TOKEN": fake.token,
        "DATABASE_URL": url,
        "SHARD_COUNT": "2",
        "SHARD_IDS": str(shard),
        URL_ENV: fake.base_url,
    }
    env.pop("DEV_GUILD_IDS", None)
    if auto_sharded:  # Discord picks the shard count
        env.pop("SHARD_COUNT")
        env.pop("SHARD_IDS")
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


async def test_a_database_restart_mid_game_keeps_every_live_table(
    fake_discord: FakeDiscord, database: str, tmp_path: Path, processes: list[BotProcess]
) -> None:
    """Every connection the processes hold is cut at once, as a PostgreSQL restart does (by
    pg_terminate_backend: the server itself is shared with other tests and stays up)."""
    fake = fake_discord
    storage = await Storage.open(database)
    try:
        guilds = {s: await fake.create_guild(f"Shard {s}", guild_id=GUILD_ON[s]) for s in (0, 1)}
        for shard in (0, 1):
            await launch(fake, database, shard, f"bot{shard}", tmp_path, processes)
        await fake.wait_for(lambda: "uno" in fake.commands[None], what="the commands")
        games = {s: await start_game(fake, guilds[s]) for s in (0, 1)}
        for s in (0, 1):
            await take_turn(fake, storage, games[s])

        admin = await asyncpg.connect(database)
        try:
            for round_ in range(2):
                await storage.close()  # the test's own connections stay out of it
                cut = await admin.fetchval(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
                # The first time: both pools and both lease connections at least.
                assert cut >= (4 if round_ == 0 else 1)
                storage = await Storage.open(database)
                for s in (0, 1):  # each move saved, through reconnected pools
                    await take_turn(fake, storage, games[s])
        finally:
            await admin.close()
        assert {r.guild_id for r in await storage.load_tables()} == set(GUILD_ON.values())
        assert not fake.failed_interactions()
        # Each process took its leases again (it looks every 5 s): a newcomer is refused.
        for bot in processes[:2]:
            await until(lambda bot=bot: bot.output().count("holding the lease") >= 2, "a lease")
        intruder = await spawn(fake, database, 1, "intruder", tmp_path)
        processes.append(intruder)
        assert await asyncio.wait_for(intruder.process.wait(), EXIT_TIMEOUT) == 1
        for bot in processes[:2]:
            assert "Traceback" not in bot.output(), bot.output()
    finally:
        await storage.close()


async def test_an_auto_sharded_process_leases_every_shard_discord_asks_for(
    fake_discord: FakeDiscord, database: str, tmp_path: Path, processes: list[BotProcess]
) -> None:
    fake = fake_discord
    fake.shards = 2  # what /gateway/bot recommends
    await (await Storage.open(database)).close()
    first = await launch(fake, database, 1, "first", tmp_path, processes)

    auto = await spawn(fake, database, 0, "auto", tmp_path, auto_sharded=True)
    processes.append(auto)
    assert await asyncio.wait_for(auto.process.wait(), EXIT_TIMEOUT) == 1
    assert "uno-bot: shard 1 is already run by another live process" in auto.output()

    first.process.send_signal(signal.SIGKILL)
    await first.process.wait()
    again = await spawn(fake, database, 0, "again", tmp_path, auto_sharded=True)
    processes.append(again)
    await until(lambda: "holding the lease of shards 0, 1" in again.output(), "both leases")
