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
from bot.engine.game import Phase
from bot.storage import Storage
from bot.tables.scheduler import ManualScheduler
from bot.tables.table import Table
from cogs.errors import UnoTree
from cogs.ui.board import TableBoard
from fake_discord import (
    BotRunner,
    FakeChannel,
    FakeDiscord,
    FakeMessage,
    FakeUser,
    RunningBot,
)
from fake_discord.commands import CommandRegistry

# Every Storage opened for a test; closed at teardown (an open aiosqlite thread would keep the
# test process alive), after the bots that use it have stopped.
OPEN_STORAGES: list[Storage] = []

# A bot in a process of its own shares the machine's two cores with the test and whatever else
# runs there: on a busy machine it answers a click late for the machine's sake, not its own.
# Tests of what survives a kill or a restart give such a bot this long to answer; Discord's 3 s
# deadline is held where the bot runs in the test's own process.
CHILD_ACK_DEADLINE = 10.0


def patient_with_child_processes(fake: FakeDiscord) -> None:
    """Let a bot in a process of its own answer within ``CHILD_ACK_DEADLINE``."""
    fake.ack_timeout = max(fake.ack_timeout, CHILD_ACK_DEADLINE)


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
    """Wait until every table message and live hand shows the latest state."""
    cog = h.bot.get_cog("UnoCog")
    assert cog is not None
    await board(h.bot).settle()
    await cog.clicks.live.settle()  # type: ignore[attr-defined]


def table_message(fake: FakeDiscord, channel: FakeChannel) -> FakeMessage | None:
    """The newest public message with a "Show my hand" button and a picture in the channel
    (not a turn notice)."""
    for msg in reversed(fake.public_messages(channel)):
        if msg.attachments and any(b.label == "Show my hand" for b in msg.buttons):
            return msg
    return None


async def open_hand(fake: FakeDiscord, user: FakeUser, table: FakeMessage) -> FakeMessage:
    """Press "Show my hand" and return the fresh ephemeral hand message."""
    return await fake.click_for_private(user, table, table.button("Show my hand"))


async def press(h: Harness, user: FakeUser, msg: FakeMessage, custom_id: str) -> None:
    """Click a button of an ephemeral hand and wait for the bot to redraw it."""
    edits = msg.edit_count
    itx = await h.fake.click(user, msg, custom_id)
    await itx.response()
    await h.fake.wait_for(lambda: msg.edit_count > edits, what="the hand to be redrawn")
    await settle(h)


def enabled(msg: FakeMessage, action: str) -> list[str]:
    return [
        b.custom_id
        for b in msg.buttons
        if b.custom_id and not b.disabled and b.custom_id.split(":")[3] == action
    ]


async def lobby_and_start(
    h: Harness, users: list[FakeUser], options: dict[str, object]
) -> tuple[FakeMessage, object]:
    fake = h.fake
    itx = await fake.slash(users[0], h.channel, "uno new", options)
    lobby = (await itx.response()).message
    assert lobby is not None
    for user in users[1:]:
        await (await fake.click(user, lobby, lobby.button("Join"))).response()
    await (await fake.click(users[0], lobby, lobby.button("Start"))).response()
    thread = (await fake.wait_for(lambda: fake.threads_of(h.channel)))[-1]
    await fake.wait_for(lambda: table_message(fake, thread), what="the table message")
    await settle(h)
    return lobby, thread


async def play_turn(h: Harness, users: dict[int, FakeUser], thread: object, step: int) -> None:
    """The awaited player opens their hand and acts on it with buttons only."""
    fake = h.fake
    [table] = h.bot.tables.tables.values()
    assert table.match is not None
    game = table.match.game
    seat = game.current
    user = users[table.seats[seat].user_id]
    board = await fake.wait_for(lambda: table_message(fake, thread), what="the table")  # type: ignore[arg-type]
    hand = await open_hand(fake, user, board)
    assert hand.is_ephemeral and hand.visible_to(user)
    if game.phase is Phase.COLOR:
        await press(h, user, hand, enabled(hand, "color")[step % 4])
        return
    if game.phase is Phase.RESPOND:
        bounce = enabled(hand, "pick")
        if bounce and step % 2 == 0:
            await press(h, user, hand, bounce[0])
            await press(h, user, hand, enabled(hand, "play")[0])
            return
        choice = "challenge" if enabled(hand, "challenge") and step % 3 != 2 else "accept"
        await press(h, user, hand, enabled(hand, choice)[0])
        return
    if len(game.hands[seat]) == 2 and game.playable(seat) and step % 3 != 0:
        await press(h, user, hand, enabled(hand, "arm")[0])  # call UNO with the next card
    cards = enabled(hand, "play") + enabled(hand, "pick")
    if game.phase is Phase.TURN and (not cards or step % 7 == 0):
        await press(h, user, hand, enabled(hand, "draw")[0])
        cards = enabled(hand, "play") + enabled(hand, "pick")
        if not cards:
            return  # the drawn card could not be played: the turn is over
        if step % 2:
            await press(h, user, hand, enabled(hand, "keep")[0])
            return
    if not cards:
        await press(h, user, hand, enabled(hand, "keep")[0])
        return
    card = cards[0]
    await press(h, user, hand, card)
    if card.split(":")[3] == "pick":
        await press(h, user, hand, enabled(hand, "play")[step % 4])


async def maybe_catch(h: Harness, users: dict[int, FakeUser], thread: object) -> None:
    """Anyone may catch a player who went down to one card without calling UNO."""
    fake = h.fake
    board = table_message(fake, thread)  # type: ignore[arg-type]
    if board is None:
        return
    catch = [b for b in board.buttons if b.label.startswith("Catch") and not b.disabled]
    if not catch:
        return
    [table] = h.bot.tables.tables.values()
    target = int(catch[0].custom_id.split(":")[4])  # type: ignore[union-attr]
    catcher = next(u for uid, u in users.items() if uid != table.seats[target].user_id)
    itx = await fake.click(catcher, board, catch[0])
    reply = (await itx.response()).message
    assert reply is not None and reply.is_ephemeral
    await settle(h)


async def new_lobby(h: Harness, users: list[FakeUser], options: dict[str, object]) -> FakeMessage:
    """A lobby opened by ``users[0]`` and joined by the others."""
    itx = await h.fake.slash(users[0], h.channel, "uno new", options)
    lobby = (await itx.response()).message
    assert lobby is not None
    for user in users[1:]:
        await (await h.fake.click(user, lobby, lobby.button("Join"))).response()
    return lobby


async def start(h: Harness, users: list[FakeUser], lobby: FakeMessage) -> tuple[Table, object]:
    """The host starts; returns the live table (awaiting a turn) and the game's thread."""
    fake = h.fake
    await (await fake.click(users[0], lobby, lobby.button("Start"))).response()
    thread = (await fake.wait_for(lambda: fake.threads_of(h.channel)))[-1]
    await fake.wait_for(lambda: table_message(fake, thread), what="the table message")
    await settle(h)
    [table] = h.bot.tables.tables.values()
    game = table.match.game  # type: ignore[union-attr]
    if game.phase.name == "COLOR":
        game.choose_color(game.current, 0)
    return table, thread


def user_of(table: Table, users: list[FakeUser], seat: int) -> FakeUser:
    return next(u for u in users if u.id == table.seats[seat].user_id)


def card_button(hand: FakeMessage, code: str) -> str:
    """The enabled button of a card in a hand (play, pick a color, or aim at a player)."""
    for action in ("play", "pick", "aim"):
        for cid in enabled(hand, action):
            if cid.split(":")[4].split(".")[1] == code:
                return cid
    raise AssertionError(f"no enabled {code} in {[b.label for b in hand.buttons]}")


async def shown_table(h: Harness, thread: object) -> FakeMessage:
    """The table message once everything shows the latest state."""
    await settle(h)
    msg = table_message(h.fake, thread)  # type: ignore[arg-type]
    assert msg is not None
    return msg
