"""Scale: one bot process hosting many tables through the fake Discord, measured from outside.

The bot (the project's UnoBot on a real SQLite file) runs in a child process of its own
(bench/_bot_child.py, started with PYTHONPATH=<tree>), so its memory and CPU are read alone from
/proc. The fake Discord runs here, on 127.0.0.1, and simulated players (bench/_scale_players.py)
drive the bot by clicks, as people would: the player the table message names opens their hand
and clicks a card.

Prints one JSON object:

- rss: RSS (MiB) at 100 / 250 / 500 live tables (3 human players each, spread over classic,
  sonic and mario, each started so its picture was drawn), after N moves spread over them, over
  repeated Show my hand clicks, and over time at a steady load;
- requests: channel requests (posts, edits, deletes to channel message routes, not interaction
  responses) per move, over whole four-human single-round games;
- pacing: the most message writes (create + edit + delete) one channel received in any 5 s,
  with players taking about 1 s per move and with players clicking flat out;
- latency: click -> private hand result and click acknowledgement, p50 / p99;
- cpu: the bot's CPU ms per interaction, and the interactions per second it sustains saturated
  (with the bot's garbage collection time and context switches meanwhile);
- restart: with the saved tables, start -> ready, and clicks sent right after ready.

Run: python bench/scale.py [--quick] [--only rss,requests,pacing,latency,cpu,restart]
     [--tables 100,250,500] [--moves 2000] [--tree PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import contextlib
import gc
import importlib
import json
import logging
import os
import platform
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

ROOT = Path(__file__).resolve().parents[1]
CHILD = Path(__file__).resolve().parent / "_bot_child.py"
sys.path.insert(0, str(ROOT))  # the fake Discord comes from this repository, not from --tree

from _scale_players import BenchTable, Clicks, Players, World, choices, summary  # noqa: E402

if TYPE_CHECKING:
    from tests.e2e.fake_discord import FakeDiscord, FakeMessage, FakeUser


def load_fake() -> ModuleType:
    """The fake Discord: a top-level package once it moves there, else the tests' module."""
    try:
        return importlib.import_module("fake_discord")
    except ImportError:
        return importlib.import_module("tests.e2e.fake_discord")


PATIENCE = 20.0  # seconds a player waits for an answer before counting the click as failed
SECTIONS = ("rss", "latency", "requests", "pacing", "cpu", "restart")
WRITE_KINDS = ("create", "edit", "delete")
EDITIONS = ("classic", "sonic", "mario")
# The fake records paths without its API prefix (older fakes kept it).
MESSAGE_ROUTE = re.compile(r"^(?:/api/v\d+)?/channels/(\d+)/messages(?:/\d+)?$")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")

# ----- the bot process -----


def proc_rss_mib(pid: int, key: str = "VmRSS") -> float:
    """Resident memory of a process (or its peak, key VmHWM), MiB."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(key + ":"):
                return round(int(line.split()[1]) / 1024, 1)
    raise RuntimeError(f"no {key} for process {pid}")


def proc_user_system_s(pid: int) -> tuple[float, float]:
    """User and system CPU seconds a process has used."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return int(fields[11]) / CLOCK_TICKS, int(fields[12]) / CLOCK_TICKS


def proc_cpu_s(pid: int) -> float:
    """User + system CPU seconds a process has used."""
    return sum(proc_user_system_s(pid))


def proc_switches(pid: int) -> dict[str, int]:
    """Context switches of every thread of a process so far: voluntary (it waited: I/O, a
    lock, the GIL) and not (the kernel took the CPU away)."""
    totals = {"voluntary": 0, "involuntary": 0}
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError), open(task / "status") as status:
            for line in status:
                if line.startswith("voluntary_ctxt_switches:"):
                    totals["voluntary"] += int(line.split()[1])
                elif line.startswith("nonvoluntary_ctxt_switches:"):
                    totals["involuntary"] += int(line.split()[1])
    return totals


class BotProcess:
    """The bot in its own process; its milestones arrive as JSON lines on its stdout."""

    def __init__(self, proc: asyncio.subprocess.Process, log_path: Path, started: float) -> None:
        self.proc = proc
        self.pid = proc.pid
        self.log_path = log_path
        self.started = started
        self.events: dict[str, dict[str, Any]] = {}
        # The event loop's longest pause (ms) and its pauses over 100 ms, as of the last "gc".
        self.loop_pause: tuple[float | None, int | None] = (None, None)
        self._changed = asyncio.Event()
        self._reader = asyncio.create_task(self._read())
        LIVE_CHILDREN.add(self.pid)

    @classmethod
    async def start(
        cls, tree: Path, fake: FakeDiscord, database: Path, log_path: Path, ready_timeout: float
    ) -> BotProcess:
        env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONSAFEPATH": "1"}
        args = [
            sys.executable,
            str(CHILD),
            "--api-base",
            fake.api_base,
            "--gateway",
            fake.gateway_url,
            "--token",
            fake.token,
            "--database",
            str(database),
            "--guild-ready-timeout",
            str(ready_timeout),
        ]
        with open(log_path, "ab") as log:
            started = time.monotonic()
            proc = await asyncio.create_subprocess_exec(
                *args,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=log,
                cwd=str(database.parent),
                env=env,
            )
        return cls(proc, log_path, started)

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        async for raw in self.proc.stdout:
            with contextlib.suppress(ValueError):
                event = json.loads(raw)
                self.events[event["event"]] = event
            self._changed.set()
            self._changed = asyncio.Event()
        self._changed.set()

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    async def wait(self, name: str, timeout: float) -> dict[str, Any]:
        """A milestone's report; RuntimeError if the process ends or is too slow first."""
        deadline = time.monotonic() + timeout
        while name not in self.events:
            if self._reader.done():
                raise RuntimeError(f"the bot exited before {name!r}:\n{self.log_tail()}")
            left = deadline - time.monotonic()
            if left <= 0:
                raise RuntimeError(f"the bot did not report {name!r} in {timeout} s")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), left)
        return self.events[name]

    def rss(self) -> float:
        return proc_rss_mib(self.pid)

    def peak(self) -> float:
        return proc_rss_mib(self.pid, "VmHWM")

    def cpu(self) -> float:
        return proc_cpu_s(self.pid)

    def switches(self) -> dict[str, int]:
        return proc_switches(self.pid)

    def user_system(self) -> tuple[float, float]:
        return proc_user_system_s(self.pid)

    async def gc_seconds(self) -> list[float] | None:
        """Seconds the bot spent in garbage collection so far, by generation (None if the
        process does not answer)."""
        self.events.pop("gc", None)
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(b"gc\n")
            await self.proc.stdin.drain()
            event = await self.wait("gc", 5.0)
            self.loop_pause = event.get("loop_longest_pause_ms"), event.get("loop_pauses")
            return [float(s) for s in event["gc_s"]]
        except (AssertionError, ConnectionError, RuntimeError, KeyError):
            return None

    async def stop(self, timeout: float = 15.0) -> float:
        """Ask for a clean close (stdin, then SIGTERM), kill if it hangs; seconds it took."""
        begun = time.monotonic()
        if self.proc.returncode is None:
            with contextlib.suppress(Exception):
                assert self.proc.stdin is not None
                self.proc.stdin.write(b"stop\n")
                await self.proc.stdin.drain()
                self.proc.stdin.close()
            try:
                await asyncio.wait_for(self.proc.wait(), timeout)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        with contextlib.suppress(Exception):
            await self._reader
        LIVE_CHILDREN.discard(self.pid)
        return time.monotonic() - begun


LIVE_CHILDREN: set[int] = set()


@atexit.register
def _kill_children() -> None:
    """Whatever happened, no bot process outlives the bench."""
    for pid in list(LIVE_CHILDREN):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


# ----- figures -----


def worst_window(times: Iterable[float], window: float) -> int:
    """The most events inside any half-open window of ``window`` seconds."""
    ordered = sorted(times)
    best = start = 0
    for end, at in enumerate(ordered):
        while at - ordered[start] >= window:
            start += 1
        best = max(best, end - start + 1)
    return best


def slope_per_min(samples: list[tuple[float, float]]) -> float | None:
    """Least-squares slope of (seconds, MiB) samples, in MiB per minute."""
    if len(samples) < 2:
        return None
    n = len(samples)
    mx = sum(t for t, _ in samples) / n
    my = sum(v for _, v in samples) / n
    den = sum((t - mx) ** 2 for t, _ in samples)
    if den == 0:
        return None
    return round(60 * sum((t - mx) * (v - my) for t, v in samples) / den, 2)


# ----- running many players at once -----


async def pool(jobs: Iterable[Callable[[], Awaitable[Any]]], concurrency: int) -> list[Any]:
    """Run the jobs with at most ``concurrency`` at a time, in order; their results."""
    queue = list(enumerate(jobs))
    results: list[Any] = [None] * len(queue)
    queue.reverse()

    async def worker() -> None:
        while queue:
            index, job = queue.pop()
            results[index] = await job()

    await asyncio.gather(*(worker() for _ in range(max(1, concurrency))))
    return results


async def quiet(fake: FakeDiscord, seconds: float = 1.5, limit: float = 60.0) -> float:
    """Wait until the bot has made no REST request for ``seconds``; how long that took."""
    begun = time.monotonic()
    count, since = len(fake.requests), time.monotonic()
    while time.monotonic() - begun < limit:
        await asyncio.sleep(0.1)
        if len(fake.requests) != count:
            count, since = len(fake.requests), time.monotonic()
        elif time.monotonic() - since >= seconds:
            break
    return round(time.monotonic() - begun, 2)


def writes_per_move(
    before: dict[tuple[str, str], int], after: dict[tuple[str, str], int], moves: int
) -> dict[str, Any]:
    """Message writes per move between two counts, by route: "channel" (posts, edits and
    deletes on channel routes: the bot's rate limits), "webhook" (through an interaction's
    token: private hands edited or deleted, deferred answers; outside those limits) and
    "callback" (interaction responses)."""
    out: dict[str, Any] = {}
    for via in ("channel", "webhook", "callback"):
        kinds = {k: after.get((via, k), 0) - before.get((via, k), 0) for k in WRITE_KINDS}
        out[via] = {k: round(v / moves, 3) for k, v in kinds.items()} if moves else kinds
        out[via]["all"] = round(sum(kinds.values()) / moves, 3) if moves else None
    return out


def lighten(fake: FakeDiscord) -> None:
    """Keep the bench itself light: drop the picture bytes the fake keeps (the bot never reads
    them back), and stop the garbage collector from scanning everything made so far over and
    over (the fake keeps every message and interaction, so full collections grow long)."""
    for attachment in fake.attachments.values():
        attachment.data = b""
    gc.freeze()


def stray_players() -> list[asyncio.Task[Any]]:
    """Tasks of the bench's players still running (there should be none between sections)."""
    current = asyncio.current_task()
    return [
        task
        for task in asyncio.all_tasks()
        if task is not current
        and any(
            part in getattr(task.get_coro(), "__qualname__", "")
            for part in ("Bench.", "Players.", "pool.")
        )
    ]


class GcClock:
    """Seconds this process spent in garbage collection (so a slow bench shows why)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._started = 0.0
        gc.callbacks.append(self._tick)

    def _tick(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.seconds += time.perf_counter() - self._started


@dataclass
class Meter:
    """CPU seconds of the bot and interactions sent to it, between two points in time."""

    bot: BotProcess
    fake: FakeDiscord
    wall: float = 0.0
    cpu: float = 0.0
    interactions: int = 0
    bench_cpu: float = 0.0
    gc: list[float] | None = None
    switches: dict[str, int] = field(default_factory=dict)
    user_system: tuple[float, float] = (0.0, 0.0)

    async def start(self) -> Meter:
        self.gc = await self.bot.gc_seconds()
        self.switches = self.bot.switches()
        self.user_system = self.bot.user_system()
        self.wall = time.monotonic()
        self.cpu = self.bot.cpu()
        self.interactions = len(self.fake.interactions)
        self.bench_cpu = time.process_time()
        return self

    async def read(self) -> dict[str, Any]:
        wall = time.monotonic() - self.wall
        cpu = self.bot.cpu() - self.cpu
        count = len(self.fake.interactions) - self.interactions
        switches = {k: v - self.switches.get(k, 0) for k, v in self.bot.switches().items()}
        user, system = (
            a - b for a, b in zip(self.bot.user_system(), self.user_system, strict=True)
        )
        gc_now = await self.bot.gc_seconds()
        gc_s = None
        if gc_now is not None and self.gc is not None:
            gc_s = [round(after - before, 3) for before, after in zip(self.gc, gc_now, strict=True)]
        return {
            "interactions": count,
            "seconds": round(wall, 2),
            "interactions_per_s": round(count / wall, 1) if wall else None,
            "cpu_ms_per_interaction": round(cpu * 1000 / count, 2) if count else None,
            "bot_cpu_share": round(cpu / wall, 2) if wall else None,
            "bench_cpu_share": round((time.process_time() - self.bench_cpu) / wall, 2)
            if wall
            else None,
            # the bot's garbage collections meanwhile, seconds by generation (part of its CPU)
            "bot_gc_s": gc_s,
            # the bot's event loop meanwhile: its longest pause (a 10 ms ticker's lateness), and
            # how many pauses were over 100 ms
            "bot_loop_longest_pause_ms": self.bot.loop_pause[0],
            "bot_loop_pauses_over_100ms": self.bot.loop_pause[1],
            "bot_user_system_s": [round(user, 2), round(system, 2)],
            # context switches of the bot's threads per interaction (waits, the GIL, preemption)
            "bot_switches_per_interaction": {k: round(v / count, 1) for k, v in switches.items()}
            if count
            else None,
        }


# ----- the sections -----


class Bench:
    """One run: the fake, the bot process, the players and the figures."""

    def __init__(self, args: argparse.Namespace, fake: FakeDiscord, folder: Path) -> None:
        self.args = args
        self.fake = fake
        self.world = World(fake, args.seed)
        self.players = Players(self.world, PATIENCE)
        self.folder = folder
        self.database: Path = args.database or folder / "uno.db"
        self.database.parent.mkdir(parents=True, exist_ok=True)
        self.log_path = folder / "bot.log"
        self.bot: BotProcess | None = None
        self.out: dict[str, Any] = {}
        self.bot_cpu_s = 0.0  # CPU the bot processes used in all, for the run's cost
        self.gc_clock = GcClock()
        self.stray_tasks = 0  # players still running after their section: a bench bug
        self._edition = 0

    def next_edition(self) -> str:
        edition = EDITIONS[self._edition % len(EDITIONS)]
        self._edition += 1
        return edition

    async def start_bot(self) -> dict[str, Any]:
        self.bot = await BotProcess.start(
            self.args.tree, self.fake, self.database, self.log_path, self.args.guild_ready_timeout
        )
        ready = await self.bot.wait("ready", 180)
        hello = await self.bot.wait("imported", 1)
        if Path(hello["bot_file"]).resolve().parent != self.args.tree.resolve():
            raise RuntimeError(f"the bot was imported from {hello['bot_file']}, not the tree")
        return ready

    @property
    def proc(self) -> BotProcess:
        assert self.bot is not None
        return self.bot

    async def open_tables(
        self, count: int, players: int = 3, *, single_round: bool = False, own_channel: bool = False
    ) -> list[BenchTable]:
        """Open ``count`` tables (editions in turn), several lobbies at a time."""
        tables = [
            await self.world.seat(self.next_edition(), players, own_channel) for _ in range(count)
        ]

        def job(table: BenchTable) -> Callable[[], Awaitable[None]]:
            return lambda: self.players.open(table, single_round)

        await pool((job(t) for t in tables), self.args.concurrency)
        return tables

    async def moves(
        self,
        count: int,
        tables: list[BenchTable],
        clicks: Clicks,
        concurrency: int,
        rate: float | None = None,
        until: float | None = None,
    ) -> int:
        """``count`` turns spread round-robin over the tables (``rate`` per second at most),
        started before ``until`` (time.monotonic())."""
        queue: asyncio.Queue[BenchTable] = asyncio.Queue()
        for table in tables:
            if not table.finished:
                queue.put_nowait(table)
        made = busy = 0
        next_at = time.monotonic()

        async def worker() -> None:
            nonlocal made, busy, next_at
            while made < count and (busy or not queue.empty()):
                if rate:
                    now = time.monotonic()
                    slot = max(next_at, now)
                    next_at = slot + 1 / rate
                    await asyncio.sleep(slot - now)
                if until is not None and time.monotonic() >= until:
                    return
                try:
                    table = await asyncio.wait_for(queue.get(), 1.0)
                except TimeoutError:
                    continue
                busy += 1
                try:
                    moved = await self.players.move(table, clicks)
                    made += moved  # after the await: another worker may have counted meanwhile
                finally:
                    busy -= 1
                if not table.finished:
                    queue.put_nowait(table)

        await asyncio.gather(*(worker() for _ in range(concurrency)))
        return made

    async def ensure_tables(self, count: int) -> list[BenchTable]:
        """``count`` live tables, opening more if there are not enough yet."""
        live = self.world.live()
        if len(live) < count:
            await self.open_tables(count - len(live))
        return self.world.live()[:count]

    # ----- rss -----

    async def rss(self) -> None:
        """Memory by live tables, after moves, over Show my hand clicks and over time."""
        args, bot = self.args, self.proc
        out: dict[str, Any] = {"baseline_mib": bot.rss(), "tables": {}}
        self.out["rss"] = out
        for target in args.tables:
            await self.open_tables(target - len(self.world.live()))
            await quiet(self.fake)
            out["tables"][str(target)] = bot.rss()
            lighten(self.fake)
        tables = self.world.live()
        print(f"scale: rss: {len(tables)} tables open, moves...", file=sys.stderr, flush=True)
        clicks = Clicks()
        writes = dict(self.fake.traffic.write_counts)
        meter = await Meter(bot, self.fake).start()
        made = await self.moves(args.moves, tables, clicks, args.concurrency)
        load = await meter.read()
        await quiet(self.fake)
        out["after_moves"] = {
            "tables": len(tables),
            "moves": made,
            "mib": bot.rss(),
            "writes_per_move": writes_per_move(writes, self.fake.traffic.write_counts, made),
        }
        self.out.setdefault("cpu", {})["during_moves"] = load
        self.out.setdefault("latency", {})["during_moves"] = clicks.report()
        lighten(self.fake)

        # Show my hand, again and again, by every player in turn.
        pressed = Clicks()
        series = {"0": bot.rss()}
        done = 0
        for target in args.hand_clicks:
            people = [(t, p) for t in self.world.live() for p in t.players]
            batch = [people[(done + i) % len(people)] for i in range(target - done)]

            def job(table: BenchTable, user: FakeUser) -> Callable[[], Awaitable[Any]]:
                return lambda: self.players.show_hand(table, user, pressed)

            await pool((job(t, u) for t, u in batch), args.concurrency)
            done = target
            await quiet(self.fake, 1.0)
            series[str(target)] = bot.rss()
        out["show_hand_clicks"] = {"mib": series, "failed": pressed.failed}
        lighten(self.fake)

        # A steady load: moves at a fixed rate, RSS sampled as time goes by.
        samples: list[tuple[float, float]] = []
        moved = sum(t.moves for t in self.world.tables)
        begun = time.monotonic()
        steady_clicks = Clicks()
        end = begun + args.steady_seconds
        # The players stop by themselves at the end (cancelling them is not reliable: Python
        # 3.11's asyncio.wait_for can swallow a cancellation and leave a player running).
        runner = asyncio.create_task(
            self.moves(
                10**9, self.world.live(), steady_clicks, args.concurrency, args.steady_rate, end
            )
        )
        while time.monotonic() < end:
            samples.append((round(time.monotonic() - begun, 1), bot.rss()))
            await asyncio.sleep(min(5.0, args.steady_seconds / 6, max(0.0, end - time.monotonic())))
        samples.append((round(time.monotonic() - begun, 1), bot.rss()))
        moved = sum(t.moves for t in self.world.tables) - moved
        elapsed = time.monotonic() - begun
        await runner
        out["steady"] = {
            "seconds": args.steady_seconds,
            "target_moves_per_s": args.steady_rate,
            "moves_per_s": round(moved / elapsed, 2),
            "samples": [list(s) for s in samples],
            "growth_mib": round(samples[-1][1] - samples[0][1], 1),
            "slope_mib_per_min": slope_per_min(samples),
        }
        await quiet(self.fake)
        out["peak_mib"] = bot.peak()
        lighten(self.fake)

    # ----- latency -----

    async def latency(self) -> None:
        """Click latencies at one table, one click at a time (each turn waits for the last)."""
        [table] = await self.ensure_tables(1)
        await quiet(self.fake, 1.0)
        clicks = Clicks()
        for _ in range(self.args.latency_clicks):
            if table.finished:
                [table] = await self.open_tables(1)
            await self.players.move(table, clicks)
        self.out.setdefault("latency", {})["one_at_a_time"] = clicks.report()

    # ----- requests -----

    async def requests(self) -> None:
        """Channel requests per move over whole four-human games."""
        args = self.args
        start = len(self.fake.requests)
        events = len(self.fake.message_events)
        tables = await self.open_tables(args.games, 4, single_round=True, own_channel=True)
        clicks = Clicks()

        async def game(table: BenchTable) -> None:
            last = time.monotonic()
            while not table.finished and table.moves < args.max_game_moves:
                due = last + args.think
                if await self.players.move(
                    table, clicks, wait=max(5.0, args.think * 3), not_before=due
                ):
                    last = time.monotonic()

        await asyncio.gather(*(game(t) for t in tables))
        await quiet(self.fake, 3.0)
        channels = {t.channel.id for t in tables} | {t.where.id for t in tables}
        kinds: dict[str, int] = defaultdict(int)
        for method, path in self.fake.requests[start:]:
            found = MESSAGE_ROUTE.match(path.split("?")[0])
            if found and int(found.group(1)) in channels and method in ("POST", "PATCH", "DELETE"):
                kinds[{"POST": "posts", "PATCH": "edits", "DELETE": "deletes"}[method]] += 1
        moves = sum(t.moves for t in tables)
        total = sum(kinds.values())
        self.out["requests"] = {
            "games": len(tables),
            "finished": sum(t.finished for t in tables),
            "players": 4,
            "think_s": args.think,
            "moves": moves,
            "channel_requests": total,
            **{k: kinds.get(k, 0) for k in ("posts", "edits", "deletes")},
            "per_move": round(total / moves, 3) if moves else None,
            "worst_5s_writes_one_channel": self.worst(channels, events, 5.0),
            "clicks": {"refused": clicks.refused, "failed": clicks.failed},
        }

    def worst(self, channels: set[int], since: int, window: float) -> int:
        """The most channel-route writes one of ``channels`` got in any ``window`` seconds."""
        times: dict[int, list[float]] = defaultdict(list)
        for event in self.fake.message_events[since:]:
            if event.via == "channel" and event.channel_id in channels:
                times[event.channel_id].append(event.at)
        return max((worst_window(v, window) for v in times.values()), default=0)

    # ----- pacing -----

    async def pacing(self) -> None:
        """The worst 5 s of writes per channel, at one second per move and flat out."""
        args = self.args
        out: dict[str, Any] = {"tables": args.pacing_tables, "players": 3}
        out["one_second_per_move"] = await self.pace(think=1.0, probe=False)
        out["flat_out"] = await self.pace(think=0.0, probe=True)
        self.out["pacing"] = out

    async def pace(self, think: float, probe: bool) -> dict[str, Any]:
        """Fresh tables played for a while at one pace; the writes each channel received.

        Flat out, every player opens their hand right after each move (probe) instead of
        waiting for the table message to name them, so clicks come as fast as the bot answers.
        """
        seconds = self.args.pacing_seconds
        tables = await self.open_tables(self.args.pacing_tables)
        await quiet(self.fake)
        events = len(self.fake.message_events)
        clicks = Clicks()
        stop_at = time.monotonic() + seconds

        async def run(table: BenchTable) -> None:
            last = time.monotonic()
            while time.monotonic() < stop_at and not table.finished:
                made = await self.players.move(
                    table, clicks, probe=probe, wait=0.0 if probe else 5.0, not_before=last + think
                )
                if made:
                    last = time.monotonic()

        await asyncio.gather(*(run(t) for t in tables))
        await quiet(self.fake, 2.5)
        channels = {t.where.id for t in tables}
        named: dict[str, int] = defaultdict(int)
        for table in tables:
            board = self.players.board(table)
            found = None if table.finished else await self.players.actor(table, Clicks(), True, 0)
            if board is None or found is None:
                named["unknown"] += 1
                continue
            mentioned = [p for p in table.players if f"<@{p.id}>" in board.text]
            named["unknown" if not mentioned else "yes" if found[0] in mentioned else "no"] += 1
        moves = sum(t.moves for t in tables)
        for table in tables:
            table.finished = True  # leave these tables alone from now on
        return {
            "seconds": seconds,
            "think_s": think,
            "moves": moves,
            "moves_per_table_per_s": round(moves / len(tables) / seconds, 2),
            "worst_5s_writes_one_channel": self.worst(channels, events, 5.0),
            "worst_1s_writes_one_channel": self.worst(channels, events, 1.0),
            "table_message_names_current_player": dict(named),
            "clicks": {"refused": clicks.refused, "failed": clicks.failed},
        }

    # ----- cpu -----

    async def cpu(self) -> None:
        """CPU per interaction and interactions per second, with the bot saturated."""
        args = self.args
        tables = await self.ensure_tables(args.cpu_tables)
        await quiet(self.fake)
        clicks = Clicks()
        stop_at = time.monotonic() + args.cpu_seconds + 2.0

        async def run(table: BenchTable) -> None:
            while time.monotonic() < stop_at and not table.finished:
                await self.players.move(table, clicks, wait=5.0)

        runner = asyncio.gather(*(run(t) for t in tables))
        await asyncio.sleep(2.0)  # let the load build up
        meter = await Meter(self.proc, self.fake).start()
        await asyncio.sleep(args.cpu_seconds)
        saturated = await meter.read()
        cpu_ms = saturated["cpu_ms_per_interaction"]
        # What one fully available core would sustain at that cost (a shared machine may not
        # give the bot a whole core: see bot_cpu_share).
        saturated["interactions_per_cpu_s"] = round(1000 / cpu_ms, 1) if cpu_ms else None
        await runner
        saturated.update(tables=len(tables), clicks=clicks.report())
        self.out.setdefault("cpu", {})["saturated"] = saturated
        await quiet(self.fake)

    # ----- restart -----

    async def restart(self) -> None:
        """A clean stop, a start on the same database, and clicks right after ready."""
        args = self.args
        tables = await self.ensure_tables(args.restart_tables)
        await quiet(self.fake)
        count = min(args.restart_clicks, len(tables) // 2)
        picked = self.world.rng.sample(tables, 2 * count)
        before = Clicks()
        hands: list[tuple[FakeUser, FakeMessage]] = []
        for table in picked[:count]:
            found = await self.players.actor(table, before, False, 5.0)
            if found is not None:
                hands.append(found)
        boards = [
            (t, self.world.rng.choice(t.players), self.players.board(t)) for t in picked[count:]
        ]
        await quiet(self.fake)
        out: dict[str, Any] = {"rss_before_mib": self.proc.rss()}
        self.bot_cpu_s += self.proc.cpu()
        out["stop_s"] = round(await self.proc.stop(), 2)
        lighten(self.fake)
        events = len(self.fake.message_events)
        ready = await self.start_bot()
        bot = self.proc
        begun = bot.started
        out["start_to_ready_s"] = round(ready["t"] - begun, 2)
        out["milestones_s"] = {
            k: round(v["t"] - begun, 2) for k, v in bot.events.items() if k != "hello"
        }
        out["restored_tables"] = bot.events.get("setup_done", {}).get("tables")
        clicks = Clicks()
        sent_at = self.fake.now()  # the fake's clock, which stamps its writes
        out["clicks_sent_after_ready_ms"] = round((time.monotonic() - ready["t"]) * 1000, 1)
        self.players.timeout = 300.0  # they may wait long behind the restored tables' refreshes
        jobs = [self.players.show_hand(t, u, clicks, b) for t, u, b in boards]
        card_clicks = Clicks()
        for user, hand in hands:
            options = choices(hand)
            if options:
                jobs.append(
                    self.players.press(user, hand, self.world.rng.choice(options), card_clicks)
                )
        await asyncio.gather(*jobs)
        self.players.timeout = PATIENCE
        await quiet(self.fake, 2.0, 120.0)
        written = [e for e in self.fake.message_events[events:] if e.via == "channel"]
        writes = [e.at for e in written]
        kinds: dict[str, int] = defaultdict(int)
        for event in written:
            kinds[event.kind] += 1
        out["show_hand_after_ready"] = {
            "result": summary(clicks.hand_result),
            "ack": summary(clicks.hand_ack),
            "refused": clicks.refused,
            "failed": clicks.failed,
        }
        out["card_click_after_ready"] = {
            "result": summary(card_clicks.card_result),
            "ack": summary(card_clicks.card_ack),
            "refused": card_clicks.refused,
            "failed": card_clicks.failed,
        }
        out["table_writes_after_start"] = {"total": len(writes), **kinds}
        out["last_table_write_after_ready_s"] = round(max(writes) - sent_at, 2) if writes else None
        out["peak_channel_writes_per_s"] = worst_window(writes, 1.0)
        out["rss_after_mib"] = bot.rss()
        self.out["restart"] = out

    # ----- the whole run -----

    async def run(self) -> dict[str, Any]:
        """Start the bot, run the chosen sections in order, stop it."""
        begun = time.monotonic()
        ready = await self.start_bot()
        self.out["start_to_ready_s"] = round(ready["t"] - self.proc.started, 2)
        for name in SECTIONS:
            if name in self.args.only:
                started = time.monotonic()
                print(f"scale: {name}...", file=sys.stderr, flush=True)
                await getattr(self, name)()
                lighten(self.fake)
                self.stray_tasks += len(stray_players())
                took = round(time.monotonic() - started, 1)
                self.out.setdefault("section_seconds", {})[name] = took
                print(f"scale: {name} took {took} s", file=sys.stderr, flush=True)
        self.bot_cpu_s += self.proc.cpu()
        await self.proc.stop()
        self.out["health"] = self.health()
        self.out["wall_s"] = round(time.monotonic() - begun, 1)
        return self.out

    def last_board(self, table: BenchTable) -> dict[str, Any]:
        board = self.players.board(table)
        newest = self.players.newest_message(table)
        return {
            "edition": table.edition,
            "moves": table.moves,
            "table_message": board.text[-300:] if board is not None else None,
            "buttons": [b.label for b in board.buttons] if board is not None else [],
            "newest_message": newest.text[-300:] if newest is not None else None,
            "hands": [self._hand_seen(table, user) for user in table.players],
        }

    def _hand_seen(self, table: BenchTable, user: FakeUser) -> dict[str, Any] | None:
        hand = self.players.hands.get((table.where.id, user.id))
        if hand is None:
            return None
        mine = [
            m
            for m in self.fake.channel_messages.get(table.where.id, [])
            if m.ephemeral_to == user.id
        ]
        return {
            "id": hand.id,
            "edits": hand.edit_count,
            "text": hand.text[:200],
            "buttons": [f"{b.label}{' (off)' if b.disabled else ''}" for b in hand.buttons],
            "private_messages": [(m.id, m.edit_count, m.text[:90]) for m in mine[-3:]],
        }

    def health(self) -> dict[str, Any]:
        """Anything that went wrong: rejected calls, unanswered clicks, errors the bot logged."""
        fake = self.fake
        log = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        lines = log.splitlines()
        errors = [i for i, line in enumerate(lines) if " ERROR " in line]
        rejected: dict[str, int] = defaultdict(int)
        for error in fake.errors:
            rejected[f"{error.status} {error.code} {error.method}"] += 1
        return {
            "bot_cpu_s": round(self.bot_cpu_s, 1),
            "stuck_tables": sum(t.stuck for t in self.world.tables),
            # What the first few given-up tables showed last, to tell the bot's fault from a
            # state the players do not handle.
            "stuck_boards": [self.last_board(t) for t in self.world.tables if t.stuck][:5],
            "table_waits_timed_out": self.players.stale_waits,
            "stray_player_tasks": self.stray_tasks,
            "interactions": len(fake.interactions),
            "failed_interactions": len(fake.failed_interactions()),
            "rejected_requests": dict(rejected),
            "bot_errors": len(errors),
            "bot_warnings": sum(" WARNING " in line for line in lines),
            # The first error in full, with its traceback: enough to find the cause.
            "bot_first_error": lines[errors[0] : errors[0] + 40] if errors else [],
            "bench_rss_mib": proc_rss_mib(os.getpid()),
            "bench_gc_s": round(self.gc_clock.seconds, 1),
        }


# ----- entry point -----


def describe_tree(tree: Path) -> dict[str, Any]:
    info: dict[str, Any] = {"tree": str(tree)}
    with contextlib.suppress(Exception):
        info["commit"] = subprocess.run(
            ["git", "-C", str(tree), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        info["dirty"] = bool(
            subprocess.run(
                ["git", "-C", str(tree), "status", "--porcelain", "--untracked-files=no"],
                capture_output=True,
                text=True,
                check=True,
            ).stdout.strip()
        )
    return info


async def measure(args: argparse.Namespace) -> dict[str, Any]:
    fake_module = load_fake()
    logging.getLogger("fake_discord").setLevel(logging.ERROR)
    fake: FakeDiscord = fake_module.FakeDiscord()
    await fake.start()
    with tempfile.TemporaryDirectory(prefix="uno-scale-") as tmp:
        bench = Bench(args, fake, Path(tmp))
        out: dict[str, Any] = {
            **describe_tree(args.tree),
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "load_average_at_start": [round(x, 2) for x in os.getloadavg()],
            "options": {
                k: (str(v) if isinstance(v, Path) else v)
                for k, v in vars(args).items()
                if k != "database"
            },
        }
        try:
            out.update(await bench.run())
            out["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
        finally:
            if bench.bot is not None:
                await bench.bot.stop(5.0)
            await fake.stop()
    return out


def int_list(text: str) -> list[int]:
    return sorted({int(part) for part in text.split(",") if part.strip()})


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="One bot process, many tables: prints JSON.")
    parser.add_argument("--tree", type=Path, default=ROOT, help="checkout to measure")
    parser.add_argument("--database", type=Path, help="SQLite file (default: a temporary one)")
    parser.add_argument("--only", default=",".join(SECTIONS), help="sections, comma-separated")
    parser.add_argument("--quick", action="store_true", help="a smoke run of about a minute")
    parser.add_argument("--tables", type=int_list, help="live table counts (100,250,500)")
    parser.add_argument("--moves", type=int, help="moves after the last table count (2000)")
    parser.add_argument("--hand-clicks", type=int_list, help="Show my hand clicks (500,2000)")
    parser.add_argument("--steady-seconds", type=float, help="steady load duration (45)")
    parser.add_argument("--steady-rate", type=float, default=4.0, help="moves/s of it (4)")
    parser.add_argument("--latency-clicks", type=int, help="turns played one at a time (80)")
    parser.add_argument("--games", type=int, help="four-human single-round games (6)")
    parser.add_argument("--think", type=float, help="s per move in those games (1)")
    parser.add_argument("--max-game-moves", type=int, default=400)
    parser.add_argument("--pacing-seconds", type=float, help="duration of each pacing mode (20)")
    parser.add_argument("--pacing-tables", type=int, default=3)
    parser.add_argument("--cpu-seconds", type=float, help="saturated run duration (20)")
    parser.add_argument("--cpu-tables", type=int, help="tables played at once then (150)")
    parser.add_argument("--restart-tables", type=int, help="saved tables at the restart (500)")
    parser.add_argument("--restart-clicks", type=int, default=5, help="clicks of each kind then")
    parser.add_argument("--concurrency", type=int, default=8, help="players acting at once")
    parser.add_argument(
        "--guild-ready-timeout",
        type=float,
        default=0.05,
        help="discord.py's wait for more servers before READY (its default is 2 s)",
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    full = {
        "tables": [100, 250, 500],
        "moves": 2000,
        "hand_clicks": [500, 2000],
        "steady_seconds": 45.0,
        "latency_clicks": 80,
        "games": 6,
        "think": 1.0,
        "pacing_seconds": 20.0,
        "cpu_seconds": 20.0,
        # Enough tables to keep the bot busy: each table's players wait for its message, whose
        # edits are paced (1 s), so 24 tables left a paced bot three quarters idle.
        "cpu_tables": 150,
    }
    quick = {
        "tables": [6, 15],
        "moves": 60,
        "hand_clicks": [30, 90],
        "steady_seconds": 5.0,
        "latency_clicks": 20,
        "games": 3,
        "think": 0.0,
        "pacing_seconds": 5.0,
        "cpu_seconds": 4.0,
        "cpu_tables": 9,
    }
    for key, value in (quick if args.quick else full).items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    if args.restart_tables is None:
        args.restart_tables = max(args.tables)
    args.only = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = set(args.only) - set(SECTIONS)
    if unknown:
        parser.error(f"unknown sections {sorted(unknown)}; choose from {', '.join(SECTIONS)}")
    args.tree = args.tree.resolve()
    if not (args.tree / "bot" / "client.py").exists():
        parser.error(f"{args.tree} is not a checkout of the bot (no bot/client.py)")
    if args.database is not None:
        args.database = args.database.resolve()
    return args


def main() -> None:
    args = parse()
    loop = asyncio.new_event_loop()
    task = loop.create_task(measure(args))

    def interrupted() -> None:
        task.cancel()  # unwind, so the bot process is stopped cleanly...
        loop.call_later(20.0, give_up)  # ...or killed, if unwinding hangs

    def give_up() -> None:
        _kill_children()
        os._exit(130)

    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, interrupted)
    try:
        result = loop.run_until_complete(task)
    except asyncio.CancelledError:
        sys.exit("scale: interrupted (the bot process was stopped)")
    finally:
        loop.close()
    text = json.dumps(result, indent=2)
    # Short lists of numbers on one line each.
    text = re.sub(
        r"\[\s+([-\d.,\s]+?)\s+\]",
        lambda m: "[" + ", ".join(x.strip() for x in m.group(1).split(",")) + "]",
        text,
    )
    print(text)


if __name__ == "__main__":
    main()
