"""Server-side click latency through the fake Discord: our bot beside a minimal discord.py bot.

Prints JSON: p50/p99 milliseconds from a click's arrival to its acknowledgement (game click),
to the redrawn hand, and to the refreshed table message; and the same acknowledgement figure
for a minimal bot answering a button. Run: python bench/latency.py [--clicks N] [--locale de]
(``--locale``: the players' and the server's Discord language; English by default).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.client import UnoBot
from bot.config import Secret, Settings
from bot.storage import Storage
from bot.tables.scheduler import ManualScheduler
from cogs.errors import UnoTree
from fake_discord import (
    BotRunner,
    FakeChannel,
    FakeDiscord,
    FakeMessage,
    FakeUser,
    point_discord_py_at,
)
from fake_discord.minimal_bot import MinimalBot

LABELS = {"show": "Show my hand", "join": "Join", "start": "Start", "draw": "Draw"}
LABELS["keep"] = "Keep it"


def table_message(fake: FakeDiscord, channel: FakeChannel) -> FakeMessage | None:
    return fake.latest_message(channel, button=LABELS["show"])


async def open_hand(fake: FakeDiscord, user: FakeUser, table: FakeMessage) -> FakeMessage:
    """Press "Show my hand": a new private hand, or the player's newest one edited in place."""
    return await fake.click_for_private(user, table, table.button(LABELS["show"]))


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 2)


def summary(values: list[float]) -> dict[str, Any]:
    return {"n": len(values), "p50_ms": pct(values, 0.5), "p99_ms": pct(values, 0.99)}


async def measure(clicks: int, locale: str = "en-US") -> dict[str, Any]:
    if locale != "en-US":  # the buttons are labelled in that language
        from bot.i18n import lang

        for key, label in LABELS.items():
            LABELS[key] = lang(locale).gettext(label)
    fake = FakeDiscord()
    await fake.start()
    point_discord_py_at(fake)
    runner = BotRunner(fake)
    guild = await fake.create_guild("Bench", preferred_locale=locale)
    channel = guild.default_channel
    users = [await fake.create_member(guild, f"p{i}", locale=locale) for i in range(3)]

    # The minimal bot: a button answered with one immediate edit.
    minimal = MinimalBot()
    running = await runner.start(minimal)
    panel = await (await fake.slash(users[0], channel, "demo panel")).original_message()
    base: list[float] = []
    for _ in range(clicks):
        itx = await fake.click(users[0], panel, panel.button(prefix="counter:"))
        await itx.response()
        base.append(itx.ack_latency or 0.0)
    await runner.stop(running)

    with tempfile.TemporaryDirectory() as folder:
        storage = await Storage.open(Path(folder) / "uno.db")
        bot = UnoBot(
            Settings(token=Secret(fake.token)),
            tree=UnoTree,
            storage=storage,
            scheduler=ManualScheduler(),
            rng=random.Random(1),
            edit_interval=0.0,
            channel_writes=(1000, 5.0),  # one click at a time: the pacing is bench/scale.py's
        )
        await runner.start(bot)
        lobby = (
            await (await fake.slash(users[0], channel, "uno new", {"target": 5000})).response()
        ).message
        assert lobby is not None
        for user in users[1:]:
            await (await fake.click(user, lobby, lobby.button(LABELS["join"]))).response()
        await (await fake.click(users[0], lobby, lobby.button(LABELS["start"]))).response()
        thread = (await fake.wait_for(lambda: fake.threads_of(channel)))[0]
        await fake.wait_for(lambda: table_message(fake, thread))
        acks: list[float] = []
        hands: list[float] = []
        tables: list[float] = []
        for _ in range(clicks):
            [table] = bot.tables.tables.values()
            if table.match is None or table.status.value != "playing":
                break
            seat = table.match.game.current
            user = next(u for u in users if u.id == table.seats[seat].user_id)
            board = await fake.wait_for(lambda: table_message(fake, thread))
            hand = await open_hand(fake, user, board)
            buttons = [
                b
                for b in hand.buttons
                if not b.disabled and b.custom_id and ":play:" in b.custom_id
            ]
            target = buttons[0] if buttons else hand.button(LABELS["draw"])
            edits, events = hand.edit_count, len(fake.message_events)
            start = time.perf_counter()
            itx = await fake.click(user, hand, target)
            await itx.response()
            acks.append(itx.ack_latency or 0.0)
            await fake.wait_for(lambda: hand.edit_count > edits)
            hands.append(time.perf_counter() - start)
            await fake.wait_for(
                lambda: any(e.channel_id == thread.id for e in fake.message_events[events:])
            )
            tables.append(time.perf_counter() - start)
            await bot.get_cog("UnoCog").clicks.board.settle()
            [table] = bot.tables.tables.values()
            if table.match is not None and table.match.game.phase.name == "DRAWN":
                await (await fake.click(user, hand, hand.button(LABELS["keep"]))).response()
                await fake.wait_for(lambda: hand.edit_count > edits + 1)
                await bot.get_cog("UnoCog").clicks.board.settle()
        await runner.aclose()
        await storage.close()
    await fake.stop()
    return {
        "minimal_bot_click_ack": summary(base),
        "game_click_ack": summary(acks),
        "game_click_to_hand_redrawn": summary(hands),
        "game_click_to_table_refresh": summary(tables),
        "ack_p99_ratio_vs_minimal": round(pct(acks, 0.99) / max(pct(base, 0.99), 1e-6), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clicks", type=int, default=200)
    parser.add_argument("--locale", default="en-US", help="the players' and server's language")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(measure(args.clicks, args.locale)), indent=2))


if __name__ == "__main__":
    main()
