"""Helpers to drive the real UnoBot through the fake Discord, as players would."""

from __future__ import annotations

import importlib
import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from bot.client import UnoBot
from bot.config import Secret, Settings
from bot.storage import Storage
from bot.tables.scheduler import ManualScheduler
from cogs.errors import UnoTree
from cogs.ui.board import TableBoard
from fake_discord import BotRunner, FakeChannel, FakeDiscord, FakeMessage, FakeUser, RunningBot
from fake_discord.commands import CommandRegistry

# Every Storage opened for a test; closed at teardown (an open aiosqlite thread would keep the
# test process alive), after the bots that use it have stopped.
OPEN_STORAGES: list[Storage] = []


@contextmanager
def commands_granted_to_everyone() -> Iterator[None]:
    """As a server that overrides a command's default permissions for everyone in its
    integration settings: Discord then offers hidden commands to members without them."""
    original = CommandRegistry.member_may_use
    CommandRegistry.member_may_use = staticmethod(lambda *_: True)  # type: ignore[method-assign]
    try:
        yield
    finally:
        CommandRegistry.member_may_use = original  # type: ignore[method-assign]


@dataclass
class Harness:
    """A running bot plus the fake world it lives in."""

    fake: FakeDiscord
    runner: BotRunner
    bot: UnoBot
    running: RunningBot
    scheduler: ManualScheduler
    storage: Storage
    channel: FakeChannel


async def start_bot(
    fake: FakeDiscord,
    runner: BotRunner,
    db_path: Path,
    channel: FakeChannel,
    seed: int = 7,
    scheduler: ManualScheduler | None = None,
) -> Harness:
    """Start a UnoBot on a SQLite file, with hand-driven timers and a seeded table generator."""
    storage = await Storage.open(db_path)
    OPEN_STORAGES.append(storage)
    scheduler = scheduler or ManualScheduler()
    bot = UnoBot(
        Settings(token=Secret(fake.token), database_path=db_path),
        tree=UnoTree,
        storage=storage,
        scheduler=scheduler,
        rng=random.Random(seed),
        edit_interval=0.0,
        # Unpaced: a test waits for each change; the pacing has tests of its own.
        channel_writes=(1000, 5.0),
        computer_delay=(1.0, 1.0),
    )
    running = await runner.start(bot)
    return Harness(fake, runner, bot, running, scheduler, storage, channel)


def live_clicks() -> ModuleType:
    """The cogs.uno.clicks module the bot runs (or will load): discord.py drops an extension's
    modules when a bot closes, so one imported by a test module may no longer be the live one."""
    return importlib.import_module("cogs.uno.clicks")


def board(bot: UnoBot) -> TableBoard:
    """The game extension's table board (it keeps the table messages up to date)."""
    cog = bot.get_cog("UnoCog")
    assert cog is not None, "the cogs.uno extension is not loaded"
    board: TableBoard = cog.clicks.board  # type: ignore[attr-defined]
    return board


async def settle(h: Harness) -> None:
    """Wait until every table message shows the latest state."""
    await board(h.bot).settle()


def table_message(fake: FakeDiscord, channel: FakeChannel) -> FakeMessage | None:
    """The newest public message with a "Show my hand" button in the channel."""
    for msg in reversed(fake.public_messages(channel)):
        if any(b.label == "Show my hand" for b in msg.buttons):
            return msg
    return None


async def open_hand(fake: FakeDiscord, user: FakeUser, table: FakeMessage) -> FakeMessage:
    """Press "Show my hand" and return the ephemeral hand message: a new one, or the player's
    newest hand brought up to date in place."""
    return await fake.click_for_private(user, table, table.button("Show my hand"))
