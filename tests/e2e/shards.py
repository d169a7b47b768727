"""Shard processes for the tests: a database of the test's own, bot processes started as a
host would start them (one shard each), and games played through them."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.engine.game import Phase
from bot.storage import Storage
from bot.tables.table import Table
from fake_discord import FakeChannel, FakeDiscord, FakeGuild, FakeMessage, FakeUser
from fake_discord.discord_py import URL_ENV
from tests.e2e.helpers import enabled, open_hand, patient_with_child_processes, table_message
from tests.storage.helpers import server_database

ROOT = Path(__file__).resolve().parents[2]
CHILD = Path(__file__).with_name("shard_process.py")
# Guild ids on shard 0 and on shard 1 of two: (guild_id >> 22) % 2.
GUILD_ON = {0: (5000 << 22) | 42, 1: (5001 << 22) | 42}
START_TIMEOUT = 60.0  # a cold interpreter importing discord.py on a busy machine


@pytest.fixture
def database() -> Iterator[str]:
    """A PostgreSQL database of this test alone, dropped afterwards."""
    with server_database("uno_shards") as url:
        yield url


@dataclass
class BotProcess:
    """A bot process on one shard, named in the User-Agent of its requests."""

    name: str
    shard: int
    process: asyncio.subprocess.Process
    log: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@pytest.fixture
async def processes() -> AsyncIterator[list[BotProcess]]:
    """Every process the test started; any still running is killed at the end."""
    started: list[BotProcess] = []
    yield started
    for bot in started:
        if bot.process.returncode is None:
            bot.process.kill()
            await bot.process.wait()


async def launch(
    fake: FakeDiscord, url: str, shard: int, name: str, tmp_path: Path, started: list[BotProcess]
) -> BotProcess:
    """Start ``python -m bot``'s service on one shard of two, and wait for its connection."""
    patient_with_child_processes(fake)
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
            sys.executable,
            str(CHILD),
            name,
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    bot = BotProcess(name, shard, process, log)
    started.append(bot)
    try:
        await fake.wait_for(
            lambda: any(s.shard == [shard, 2] for s in fake.gateway.live_sessions()),
            timeout=START_TIMEOUT,
            what=f"the process on shard {shard} to connect",
        )
    except AssertionError:
        raise AssertionError(f"{name} did not connect:\n{bot.output()}") from None
    return bot


def restored(bot: BotProcess) -> int:
    """How many tables the process said it restored at start."""
    found = re.search(r"restored (\d+) tables", bot.output())
    assert found is not None, bot.output()
    return int(found[1])


async def stored(storage: Storage, guild_id: int) -> Table:
    """The guild's live table as the database holds it."""
    [record] = [r for r in await storage.load_tables() if r.guild_id == guild_id]
    table = Table.from_record(record.state)
    assert table.version == record.version
    return table


async def press(fake: FakeDiscord, user: FakeUser, hand: FakeMessage, custom_id: str) -> None:
    """Click a button of a private hand and wait for the bot to redraw it."""
    edits = hand.edit_count
    await (await fake.click(user, hand, custom_id)).response()
    await fake.wait_for(lambda: hand.edit_count > edits, what="the hand to be redrawn")


@dataclass
class Game:
    """One guild's game: its players and its thread."""

    guild: FakeGuild
    users: dict[int, FakeUser]
    thread: FakeChannel


async def start_game(fake: FakeDiscord, guild: FakeGuild) -> Game:
    users = [await fake.create_member(guild, f"player{i}") for i in range(2)]
    itx = await fake.slash(users[0], guild.default_channel, "uno new", {"edition": "classic"})
    lobby = (await itx.response()).message
    assert lobby is not None
    await (await fake.click(users[1], lobby, lobby.button("Join"))).response()
    await (await fake.click(users[0], lobby, lobby.button("Start"))).response()
    thread = (await fake.wait_for(lambda: fake.threads_of(guild.default_channel)))[-1]
    await fake.wait_for(lambda: table_message(fake, thread), what="the table message")
    return Game(guild, {u.id: u for u in users}, thread)


async def take_turn(fake: FakeDiscord, storage: Storage, game: Game) -> None:
    """The awaited player acts from their hand; the saved table moves to a new version."""
    before = await stored(storage, game.guild.id)
    assert before.match is not None
    state = before.match.game
    user = game.users[before.seats[state.current].user_id]
    board = await fake.wait_for(lambda: table_message(fake, game.thread), what="the table")
    hand = await open_hand(fake, user, board)
    if state.phase is Phase.COLOR:
        await press(fake, user, hand, enabled(hand, "color")[0])
    elif state.phase is Phase.RESPOND:
        await press(fake, user, hand, enabled(hand, "accept")[0])
    else:
        cards = enabled(hand, "play") + enabled(hand, "pick")
        if not cards and state.phase is Phase.TURN:
            await press(fake, user, hand, enabled(hand, "draw")[0])
            cards = enabled(hand, "play") + enabled(hand, "pick")
        if cards:
            await press(fake, user, hand, cards[0])
            if cards[0].split(":")[3] == "pick":
                await press(fake, user, hand, enabled(hand, "play")[0])
        elif enabled(hand, "keep"):
            await press(fake, user, hand, enabled(hand, "keep")[0])
    after = await stored(storage, game.guild.id)
    assert after.version > before.version


def agents(fake: FakeDiscord, *channels: FakeChannel) -> set[str]:
    """The processes (last word of the User-Agent) that sent requests on these channels."""
    ids = {c.id for c in channels}
    return {r.agent.split()[-1] for r in fake.traffic.log if r.channel_id in ids}
