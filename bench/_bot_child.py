"""The bot side of bench/scale.py: the project's UnoBot in a process of its own, on a fake Discord.

Run by path, never imported, with ``PYTHONPATH=<tree>`` so it measures whichever checkout the
bench was pointed at:

    python _bot_child.py --api-base URL --gateway URL --token T --database PATH

It patches discord.py's REST base and gateway URL, opens the tree's storage on the SQLite file,
starts ``UnoBot(settings, storage=...)`` as ``python -m bot`` would, and reports its milestones on
stdout as JSON lines ``{"event": ..., "t": <time.monotonic()>}`` (the clock is shared by every
process, so the parent can time them): ``hello``, ``imported``, ``setup_done``, ``ready``,
``closed``, and ``gc`` (its garbage collection time so far, and the event loop's longest pause
since the last ``gc``: a 10 ms ticker's lateness) whenever ``gc`` is read from stdin.
It closes the bot cleanly on SIGTERM, on ``stop`` read from stdin, or when stdin
reaches its end (the parent is gone), and exits by itself a few seconds later if closing hangs.

Only the project's stable surface is used: ``Settings.from_env`` (or the ``Settings``
constructor), ``Storage.open`` (or a storage factory taking the settings, when the tree has
one), ``UnoBot(settings, storage=...)`` and discord.py's public client API.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import inspect
import json
import logging
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

HERE = str(Path(__file__).resolve().parent)
# The bench folder holds modules (engine.py, render.py, storage.py) that must not shadow anything.
sys.path[:] = [p for p in sys.path if p and str(Path(p).resolve()) != HERE]

HARD_EXIT_AFTER = 8.0  # seconds a clean close may take before the process exits regardless


def report(event: str, **extra: Any) -> None:
    """One milestone for the parent, as a JSON line on stdout."""
    sys.stdout.write(json.dumps({"event": event, "t": time.monotonic(), **extra}) + "\n")
    sys.stdout.flush()


class GcClock:
    """Time this process spends in garbage collection, by generation."""

    def __init__(self) -> None:
        self.seconds = [0.0, 0.0, 0.0]
        self.counts = [0, 0, 0]
        self._started = 0.0
        gc.callbacks.append(self._tick)

    def _tick(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            return
        generation = info["generation"]
        self.seconds[generation] += time.perf_counter() - self._started
        self.counts[generation] += 1

    def report(self) -> dict[str, Any]:
        return {"gc_s": [round(s, 3) for s in self.seconds], "gc_collections": self.counts}


class LoopWatch:
    """The event loop's pauses, seen by a task that asks to wake every 10 ms: how late it
    wakes is how long the loop was held by something else."""

    TICK = 0.010
    PAUSE = 0.100  # a lateness past this is counted as a pause

    def __init__(self) -> None:
        self.longest = 0.0
        self.pauses = 0

    async def run(self) -> None:
        while True:
            asked = time.perf_counter()
            await asyncio.sleep(self.TICK)
            late = time.perf_counter() - asked - self.TICK
            self.longest = max(self.longest, late)
            self.pauses += late > self.PAUSE

    def report(self) -> dict[str, Any]:
        """The longest pause and the pauses since the last report."""
        out = {"loop_longest_pause_ms": round(self.longest * 1000, 1), "loop_pauses": self.pauses}
        self.longest, self.pauses = 0.0, 0
        return out


def make_settings(token: str, database: str) -> Any:
    """The tree's Settings, built the way the bot's own entry point builds them."""
    from bot.config import Settings

    env = {"DISCORD_TOKEN": token, "DATABASE_PATH": database, "LOG_LEVEL": "WARNING"}
    from_env = getattr(Settings, "from_env", None)
    if callable(from_env):
        return from_env(env)
    try:
        from bot.config import Secret

        return Settings(token=Secret(token), database_path=Path(database))
    except ImportError:  # a tree whose Settings take the token as a plain string
        return Settings(token=token, database_path=Path(database))  # type: ignore[arg-type, unused-ignore]


async def open_storage(settings: Any, database: str) -> Any:
    """A storage factory taking the settings if the tree has one, else ``Storage.open(path)``."""
    import bot.storage as storage_module

    factory = getattr(storage_module, "open_storage", None)
    if callable(factory):
        opened = factory(settings)
        return await opened if inspect.isawaitable(opened) else opened
    return await storage_module.Storage.open(database)


def make_bot(settings: Any, storage: Any, guild_ready_timeout: float) -> Any:
    """UnoBot reporting when its setup (storage, restore, command sync) and READY are done."""
    from bot.client import UnoBot

    class BenchBot(UnoBot):
        async def setup_hook(self) -> None:
            await super().setup_hook()
            manager = getattr(self, "tables", None)
            live = getattr(manager, "tables", None)
            report("setup_done", tables=len(live) if isinstance(live, dict) else None)

    given: dict[str, Any] = {}
    if "tree" in inspect.signature(UnoBot.__init__).parameters:  # handed in, as bot.runner does
        from cogs.errors import UnoTree

        given["tree"] = UnoTree
    try:
        client = BenchBot(
            settings, storage=storage, guild_ready_timeout=guild_ready_timeout, **given
        )
    except TypeError:  # a UnoBot that no longer forwards client options
        client = BenchBot(settings, storage=storage, **given)
        client._connection.guild_ready_timeout = guild_ready_timeout

    async def on_ready() -> None:
        report("ready")

    client.add_listener(on_ready, "on_ready")
    return client


def watch_stdin(loop: asyncio.AbstractEventLoop, stop: asyncio.Event) -> None:
    """Stop when the parent says so or goes away (its end of the pipe closes); ``gc`` asks for
    the time spent collecting so far."""

    def run() -> None:
        for line in sys.stdin:
            if line.strip() == "stop":
                break
            if line.strip() == "gc":
                report("gc", **GC_CLOCK.report(), **LOOP_WATCH.report())
        loop.call_soon_threadsafe(stop.set)

    threading.Thread(target=run, name="bench-stdin", daemon=True).start()


async def main(args: argparse.Namespace) -> None:
    import yarl
    from discord.gateway import DiscordWebSocket
    from discord.http import Route

    Route.BASE = args.api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(args.gateway)
    import bot

    settings = make_settings(args.token, args.database)
    report("imported", bot_file=str(Path(bot.__file__ or "").resolve().parent))
    storage = await open_storage(settings, args.database)
    client = make_bot(settings, storage, args.guild_ready_timeout)

    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    loop.add_signal_handler(signal.SIGINT, stop.set)
    watch_stdin(loop, stop)
    watcher = asyncio.create_task(LOOP_WATCH.run())
    runner = asyncio.create_task(client.start(args.token))
    stopper = asyncio.create_task(stop.wait())
    await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
    # Whatever happens next, the process is gone soon: a hung close must not outlive the bench.
    threading.Timer(HARD_EXIT_AFTER, os._exit, (3,)).start()
    if runner.done() and runner.exception() is not None:
        report("crashed", error=repr(runner.exception()))
    with contextlib.suppress(Exception):
        await client.close()
    runner.cancel()
    watcher.cancel()
    with contextlib.suppress(BaseException):
        await runner
    with contextlib.suppress(Exception):
        close = getattr(storage, "close", None)
        if close is not None:
            await close()
    report("closed")


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--api-base", required=True)
    parser.add_argument("--gateway", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--database", required=True)
    parser.add_argument("--guild-ready-timeout", type=float, default=0.05)
    return parser.parse_args()


GC_CLOCK = GcClock()
LOOP_WATCH = LoopWatch()

if __name__ == "__main__":
    report("hello", pid=os.getpid())
    arguments = parse()
    logging.basicConfig(
        level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    asyncio.run(main(arguments))
    os._exit(0)  # threads (stdin watcher, timers) must not keep the process alive
