"""Kill the bot the instant a click is acknowledged, many times over; print JSON.

Each round starts the bot in a process of its own (bench/_bot_child.py, the project's UnoBot on
one SQLite file) with ``UNO_CRASH_AT=ack``, presses a hand button of the awaited player, and
lets the process die the instant Discord shows that click as accepted. Then it checks the
database: the click's move must be saved (``clicks_lost`` counts those that are not). The next
round's bot restores the table and reconciles its messages; at the end a last bot runs without
a crash point and the live table messages are counted (``duplicate_table_messages``).

The cost of saving before acknowledging: the acknowledgement latency of clicks that save a move
(``saved_before_ack``) beside clicks that save nothing (an out-of-date hand's button, answered
with the current hand), both measured by the fake Discord from the click to the answer.

Run: python bench/crash.py [--kills 25] [--latency-clicks 40]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from fake_discord import FakeChannel, FakeDiscord, FakeGuild, FakeMessage, FakeUser  # noqa: E402
from tests.e2e.child import ChildBot, saved_tables  # noqa: E402

ANSWERS = ("color", "accept", "keep", "draw")  # a button the awaited seat has in every phase


def quantile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 1)


def latency(values: list[float]) -> dict[str, Any]:
    return {
        "clicks": len(values),
        "p50_ms": quantile(values, 0.5),
        "p99_ms": quantile(values, 0.99),
        "max_ms": round(max(values) * 1000, 1) if values else None,
        "mean_ms": round(statistics.fmean(values) * 1000, 1) if values else None,
    }


class World:
    """The fake Discord, two players and their game, seen from outside the bot."""

    def __init__(self, fake: FakeDiscord, guild: FakeGuild, users: list[FakeUser], db: Path):
        self.fake = fake
        self.guild = guild
        self.users = users
        self.by_id = {u.id: u for u in users}
        self.db = db
        self.thread: FakeChannel | None = None
        self.table_id = ""

    def table_messages(self) -> list[FakeMessage]:
        assert self.thread is not None
        mine = f"uno:{self.table_id}:"
        return [
            m
            for m in self.fake.public_messages(self.thread)
            if any(b.custom_id and b.custom_id.startswith(mine) for b in m.buttons)
        ]

    async def start_game(self) -> None:
        fake, channel = self.fake, self.guild.default_channel
        itx = await fake.slash(self.users[0], channel, "uno new", {"edition": "classic"})
        lobby = (await itx.response(30)).message
        assert lobby is not None
        await (await fake.click(self.users[1], lobby, lobby.button("Join"))).response(30)
        await (await fake.click(self.users[0], lobby, lobby.button("Start"))).response(30)
        self.thread = (await fake.wait_for(lambda: fake.threads_of(channel), 30))[-1]
        message = await fake.wait_for(
            lambda: next((m for m in fake.public_messages(self.thread) if m.buttons), None), 30
        )
        self.table_id = (message.buttons[0].custom_id or "").split(":")[1]

    async def awaited_hand(self) -> tuple[FakeUser, FakeMessage, int]:
        """The awaited player's fresh hand, and the table's saved version."""
        [table] = await saved_tables(self.db)
        assert table.match is not None
        user = self.by_id[table.seats[table.match.game.current].user_id]
        message = await self.fake.wait_for(
            lambda: next(iter(self.table_messages()), None), 30, "a table message"
        )
        # A new private hand, or the player's newest one brought up to date in place.
        hand = await self.fake.click_for_private(user, message, message.button("Show my hand"), 30)
        return user, hand, table.version

    async def press(self, user: FakeUser, hand: FakeMessage) -> float:
        """Press the hand's answer button; the acknowledgement latency in seconds."""
        button = next(
            b.custom_id
            for action in ANSWERS
            for b in hand.buttons
            if b.custom_id and not b.disabled and b.custom_id.split(":")[3] == action
        )
        itx = await self.fake.click(user, hand, button)
        return (await itx.response(30)).latency


async def kills(world: World, rounds: int) -> dict[str, Any]:
    lost = not_acknowledged = crashed = 0
    acks: list[float] = []
    restarts: list[float] = []
    for _ in range(rounds):
        began = time.monotonic()
        bot = await ChildBot.start(world.fake, world.db, crash_at="ack")
        try:
            await bot.wait("ready")
            restarts.append(time.monotonic() - began)
            if not world.table_id:
                await world.fake.wait_for(lambda: world.fake.commands[None], 30, "commands")
                await world.start_game()
            user, hand, before = await world.awaited_hand()
            try:
                acks.append(await world.press(user, hand))
            except AssertionError:
                not_acknowledged += 1
            crashed += await bot.crashed()
        finally:
            await bot.stop()
        [table] = await saved_tables(world.db)
        lost += table.version != before + 1
    bot = await ChildBot.start(world.fake, world.db)
    try:
        await bot.wait("ready")
        user, hand, _ = await world.awaited_hand()  # the restored bot answers
        await world.fake.wait_for(lambda: len(world.table_messages()) <= 1, 30)
    except TimeoutError:
        pass
    finally:
        await bot.stop()
    return {
        "kills": rounds,
        "killed_at_the_ack": crashed,
        "clicks_acknowledged": len(acks),
        "clicks_not_acknowledged": not_acknowledged,
        "clicks_lost": lost,
        "duplicate_table_messages": max(0, len(world.table_messages()) - 1),
        "ack_latency": latency(acks),
        "start_to_ready_s_p50": round(statistics.median(restarts), 2) if restarts else None,
    }


async def ack_cost(world: World, clicks: int, deadline: float) -> dict[str, Any]:
    """Acknowledgement latency of clicks that save a move and of clicks that save nothing."""
    saved: list[float] = []
    unsaved: list[float] = []
    bot = await ChildBot.start(world.fake, world.db)
    try:
        await bot.wait("ready")
        for _ in range(clicks // 2):
            user, hand, _ = await world.awaited_hand()
            saved.append(await world.press(user, hand))
            # The same hand again: its buttons are out of date now, so nothing is saved.
            await world.fake.wait_for(lambda h=hand: h.edit_count > 0, 30)
            stale = next(b for b in hand.buttons if b.custom_id and not b.disabled)
            itx = await world.fake.click(user, hand, stale.custom_id or "")
            unsaved.append((await itx.response(30)).latency)
    finally:
        await bot.stop()
    return {
        "saved_before_ack": latency(saved),
        "nothing_saved": latency(unsaved),
        "deadline_ms": round(1000 * deadline),
    }


async def main(args: argparse.Namespace) -> dict[str, Any]:
    fake = FakeDiscord(ack_timeout=args.ack_deadline)
    await fake.start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            guild = await fake.create_guild("Crash bench")
            users = [await fake.create_member(guild, f"p{i}") for i in range(2)]
            world = World(fake, guild, users, Path(tmp) / "uno.db")
            out: dict[str, Any] = {"kills_at_ack": await kills(world, args.kills)}
            out["ack_cost"] = await ack_cost(world, args.latency_clicks, args.ack_deadline)
            out["failed_interactions"] = len(fake.failed_interactions())
            return out
    finally:
        await fake.stop()


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--kills", type=int, default=25)
    parser.add_argument(
        "--ack-deadline",
        type=float,
        default=3.0,
        help="seconds the fake gives a click's answer (Discord: 3); longer only to check that "
        "the bench runs on a machine too busy for its child bot to answer in time",
    )
    parser.add_argument("--latency-clicks", type=int, default=40)
    return parser.parse_args()


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(parse())), indent=2))
