"""The playground's cost: CPU while idle with a page open, and memory over played rounds.

Starts a Playground (the real bot, the fake Discord, the page's server), opens one page's
live socket, then measures the process's CPU time over an idle wait, and plays single rounds
as Alice against two computers through the fake's user simulation, recording Python's
allocated memory and what the fake keeps after each round. Prints JSON.
`--gap MINUTES` (default 16) moves the fake's clock on between rounds, as if they were played
that far apart (interaction tokens expire after 15 minutes). The same run then repeats with a
fake that keeps everything (as in tests), for comparison.
Run: python bench/playground.py [--idle SECONDS] [--rounds N] [--gap MINUTES]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import aiohttp

from bot.playground import Playground
from fake_discord import FakeDiscord, FakeMessage, FakeUser
from fake_discord.constants import CB_DEFERRED_MESSAGE, CB_MESSAGE

COLORS = ("Red", "Yellow", "Green", "Blue")


class JumpClock:
    """The real clock, moved forward by hand between rounds."""

    def __init__(self) -> None:
        self.offset = 0.0

    def time(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds


def choose(msg: FakeMessage) -> str | None:
    """The browser test's player: a color, UNO!, a playable card, else draw/keep/accept."""
    enabled = [b for b in msg.buttons if not b.disabled and b.custom_id]
    by_label = {b.label: b.custom_id for b in enabled}
    for label in (*COLORS, "UNO!"):
        if label in by_label:
            return by_label[label]
    playable = [b.custom_id for b in enabled if b.style == 3]
    if playable:
        return playable[0]
    for label in ("Draw", "Keep it", "Accept"):
        if label in by_label:
            return by_label[label]
    return None


async def play_round(fake: FakeDiscord, alice: FakeUser, channel: Any) -> None:
    itx = await fake.slash(alice, channel, "uno new", {"length": "round"})
    lobby = await itx.original_message()
    for _ in range(2):
        await (await fake.click(alice, lobby, lobby.button("Add computer (easy)"))).response()
    await (await fake.click(alice, lobby, lobby.button("Start"))).response()
    thread = await fake.wait_for(lambda: lobby.thread, what="the game's thread")

    def finished() -> bool:
        return any(
            a.filename == "scores.png" for m in fake.public_messages(thread) for a in m.attachments
        )

    while not finished():
        table = await fake.wait_for(
            lambda: finished() or fake.latest_message(thread, button="Show my hand"),
            what="the table",
        )
        if table is True:
            break
        assert isinstance(table, FakeMessage)
        version = table.edit_count
        click = await fake.click(alice, table, table.button("Show my hand"), force=True)
        if (await click.response()).type not in (CB_MESSAGE, CB_DEFERRED_MESSAGE):
            continue  # not a new hand message: the table moved on meanwhile
        hand = await click.original_message()
        if not hand.buttons:
            continue  # a refusal: the table moved on meanwhile
        acted = False
        while (custom_id := choose(hand)) is not None:
            edits = hand.edit_count
            await (await fake.click(alice, hand, custom_id)).response()
            await fake.wait_for(edited_since(hand, edits), what="the hand redrawn")
            acted = True
        if not acted:
            await fake.wait_for(
                either(finished, edited_since(table, version)),
                timeout=30,
                what="the computers to play",
            )


def either(*conditions: Callable[[], bool]) -> Callable[[], bool]:
    return lambda: any(c() for c in conditions)


def edited_since(msg: FakeMessage, edits: int) -> Callable[[], bool]:
    """Whether `msg` was edited (or deleted) since it had `edits` edits."""
    return lambda: msg.deleted or msg.edit_count > edits


def kept(fake: FakeDiscord) -> dict[str, int]:
    return {
        "messages": len(fake.messages),
        "message_versions": sum(len(m.history) for m in fake.messages.values()),
        "attachments": len(fake.attachments),
        "attachment_bytes": sum(a.size for a in fake.attachments.values()),
        "interactions": len(fake.interactions),
        "requests_logged": len(fake.traffic.log),
    }


async def measure(idle: float, rounds: int, gap: float, keep_history: bool) -> dict[str, Any]:
    playground = Playground(
        users=2, bot_options={"rng": random.Random(3), "computer_delay": (0.01, 0.01)}
    )
    await playground.start()
    playground.fake.keep_history = keep_history
    result: dict[str, Any] = {}
    try:
        assert playground.world is not None
        fake = playground.fake
        clock = JumpClock()
        fake.clock = clock
        alice = playground.world.users[0]
        async with (
            aiohttp.ClientSession() as http,
            http.ws_connect(f"{playground.url}ws?user={alice.id}") as page,
        ):
            received = 0

            async def read() -> None:
                nonlocal received
                async for _ in page:
                    received += 1

            reader = asyncio.create_task(read())
            cpu = time.process_time()
            await asyncio.sleep(idle)  # measuring idleness itself
            result["idle"] = {
                "seconds": idle,
                "cpu_seconds": round(time.process_time() - cpu, 4),
                "cpu_percent": round(100 * (time.process_time() - cpu) / idle, 3),
            }
            gc.collect()
            tracemalloc.start()
            start = tracemalloc.get_traced_memory()[0]
            per_round = []
            for _ in range(rounds):
                clock.advance(gap * 60)
                began = time.perf_counter()
                await play_round(fake, alice, playground.world.channel)
                gc.collect()
                per_round.append(
                    {
                        "seconds": round(time.perf_counter() - began, 2),
                        "python_mib": round(
                            (tracemalloc.get_traced_memory()[0] - start) / 2**20, 2
                        ),
                        **kept(fake),
                    }
                )
            tracemalloc.stop()
            result["rounds"] = per_round
            result["page_events_received"] = received
            reader.cancel()
    finally:
        await playground.stop()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--idle", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--gap", type=float, default=16.0)
    args = parser.parse_args()
    results = {
        # The playground's fake (what Discord would still serve), then one keeping everything
        # (the tests' fake) on the same rounds, for comparison.
        "playground": asyncio.run(measure(args.idle, args.rounds, args.gap, False)),
        "keeping_everything": asyncio.run(measure(args.idle, args.rounds, args.gap, True)),
    }
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
