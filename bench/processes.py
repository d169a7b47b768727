"""Processes: a bot deployed as N shard processes over one PostgreSQL database, measured from
the fake Discord they all talk to (the fake routes each guild to its shard's connection).

Each process is ``tests/e2e/shard_process.py`` of the checkout measured (``python -m bot``'s
service, SHARD_COUNT=N, its own SHARD_IDS), started with that checkout's code on PYTHONPATH.
The bench opens tables on every shard, plays them, then kills every process at once (SIGKILL)
and starts them all together again, as a host restarting a deployment would.

Prints one JSON object per checkout:

- worst_second: the most REST requests of the whole bot (every process; interaction answers
  are not counted, as Discord does not count them) in any one-second window by their arrival
  on the wire (as Discord would count them), while starting, while playing, and after the
  restart all together (restored tables redrawn);
- identify: the seconds between the first and the last process connected, at each start;
- worst_second_anatomy: per phase, the worst second by three clocks: as the requests left
  their processes (``sent``: each stamps X-Sent-At in its last hook before aiohttp writes),
  as they came off the socket (``wire``: a stamping proxy in a process of its own,
  fake_discord.wire, between the bot and the fake), and as the fake's event loop got to them
  (``fake``, in this process beside the players it drives); that second's routes and
  processes, the delays between the clocks (sent to wire: the bot's own event loop after its
  last hook; wire to fake: the stand-in's lateness), what the budget held each (X-Held), and
  how late the proxy's and the fake's loops woke;
- budget_wait: what requests waited for the shared REST budget (p50 / p99, from each process's
  /metrics histogram, as bucket bounds), and the database round trip of taking one slot.

Run: python bench/processes.py [--processes 10] [--tables 3] [--rest-per-second 50]
     [--bot-nice N] [--wire-nice N] [--baseline PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import aiohttp
import asyncpg

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fake_discord import FakeDiscord, FakeGuild, RequestRecord  # noqa: E402
from fake_discord.discord_py import URL_ENV, point_discord_py_at  # noqa: E402
from fake_discord.wire import WireProcess  # noqa: E402
from tests.e2e.helpers import open_hand, table_message  # noqa: E402
from tests.e2e.shards import Game  # noqa: E402

START_TIMEOUT = 240.0
WAIT = 120.0  # a busy machine draws the first pictures slowly


@dataclass
class Child:
    shard: int
    process: asyncio.subprocess.Process
    log: Path

    def metrics_port(self) -> int | None:
        found = re.search(r"serving /healthz and /metrics on port (\d+)", self.log.read_text())
        return int(found[1]) if found else None


def busiest_window(times: list[float]) -> tuple[int, float]:
    """The most times in any one-second window, and where that window begins."""
    times = sorted(times)
    best, begins, start = 0, 0.0, 0
    for end, at in enumerate(times):
        while at - times[start] >= 1.0:
            start += 1
        if end - start + 1 > best:
            best, begins = end - start + 1, times[start]
    return best, begins


def counted_requests(fake: FakeDiscord, since: float, until: float) -> list[RequestRecord]:
    return [r for r in fake.traffic.log if not r.answers_interaction and since <= r.at <= until]


def counted(fake: FakeDiscord, since: float, until: float) -> list[float]:
    return [r.at for r in counted_requests(fake, since, until)]


class LoopLag:
    """How late the bench's own event loop (the fake Discord's) wakes up: the fake stamps a
    request's arrival only when its loop gets to it, so a late loop bunches arrivals."""

    TICK = 0.02

    def __init__(self) -> None:
        self.samples: list[tuple[float, float]] = []  # (wall time, seconds late)
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._watch())

    async def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(self.TICK)
            self.samples.append((time.time(), loop.time() - before - self.TICK))

    def between(self, since: float, until: float) -> dict[str, float]:
        return quantiles([late for at, late in self.samples if since <= at <= until])

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


def quantiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    values = sorted(values)
    return {
        "p50_ms": round(1000 * values[len(values) // 2], 1),
        "p99_ms": round(1000 * values[min(len(values) - 1, int(len(values) * 0.99))], 1),
        "max_ms": round(1000 * values[-1], 1),
    }


def breakdown(window: list[RequestRecord]) -> dict[str, dict[str, int]]:
    by_route = Counter(f"{r.method} {r.route}" for r in window)
    by_process = Counter(r.agent.split()[-1] if r.agent else "?" for r in window)
    return {
        "by_route": dict(by_route.most_common()),
        "by_process": dict(sorted(by_process.items())),
    }


def in_second(stamp: float | None, begins: float) -> bool:
    return stamp is not None and begins <= stamp < begins + 1.0


def anatomy(fake: FakeDiscord, since: float, until: float) -> dict[str, Any]:
    """What made a phase's worst second: its count by each clock, that second's requests by
    route and by process (on the wire, and as sent), and the delays between the clocks."""
    requests = counted_requests(fake, since, until)
    clocks = {
        "sent": [r.sent_at for r in requests if r.sent_at is not None],
        "wire": [r.wire_at for r in requests if r.wire_at is not None],
        "fake": [r.at for r in requests],
    }
    worst = {name: busiest_window(times) for name, times in clocks.items()}
    wire_from, sent_from = worst["wire"][1], worst["sent"][1]
    on_wire = [r for r in requests if in_second(r.wire_at, wire_from)]
    return {name: count for name, (count, _) in worst.items()} | {
        "stamped": f"{len(clocks['sent'])}/{len(clocks['wire'])}/{len(requests)}",
        "worst_wire_second": breakdown(on_wire)
        | {"sent_within_it": sum(1 for r in on_wire if in_second(r.sent_at, wire_from))},
        "worst_sent_second": breakdown([r for r in requests if in_second(r.sent_at, sent_from)]),
        # The bot's side: from its last hook to the socket (its loop, aiohttp's body task).
        "wire_after_sent": quantiles(
            [r.wire_at - r.sent_at for r in requests if r.wire_at and r.sent_at]
        ),
        # The stand-in's side: from the socket to the fake's loop getting to it.
        "fake_after_wire": quantiles([r.at - r.wire_at for r in requests if r.wire_at]),
        # What the budget added to each counted request: from asking for a slot to sending.
        "held": quantiles([r.held for r in requests if r.held is not None]),
    }


async def launch_all(
    fake: FakeDiscord,
    checkout: Path,
    url: str,
    count: int,
    folder: Path,
    round_: int,
    rest_per_second: float,
    bot_nice: int = 0,
    discord_url: str | None = None,
) -> tuple[list[Child], float]:
    """Start every shard process at once; wait until all are connected. Returns the seconds
    from the first connection to the last."""
    children = []
    for shard in range(count):
        env = {
            **os.environ,
            "PYTHONPATH": str(checkout),
            "DISCORD_TOKEN": fake.token,
            "DATABASE_URL": url,
            "SHARD_COUNT": str(count),
            "SHARD_IDS": str(shard),
            "SYNC_COMMANDS": "1" if shard == 0 else "0",
            "METRICS_PORT": "0",
            "REST_PER_SECOND": str(rest_per_second),
            URL_ENV: discord_url or fake.base_url,
        }
        log = folder / f"shard{shard}-{round_}.log"
        with log.open("wb") as out:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                str(checkout / "tests" / "e2e" / "shard_process.py"),
                f"shard{shard}",
                cwd=checkout,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                preexec_fn=(lambda: os.nice(bot_nice)) if bot_nice else None,
            )
        children.append(Child(shard, process, log))
    connected: dict[int, float] = {}
    deadline = time.monotonic() + START_TIMEOUT
    while len(connected) < count:
        for session in fake.gateway.live_sessions():
            if session.shard is not None:
                connected.setdefault(session.shard[0], time.time())
        if time.monotonic() > deadline:
            raise RuntimeError(f"only shards {sorted(connected)} connected")
        await asyncio.sleep(0.05)
    return children, max(connected.values()) - min(connected.values())


async def start_game(fake: FakeDiscord, guild: FakeGuild) -> Game:
    """Two players open a lobby, join and start; the table message is up."""
    users = [await fake.create_member(guild, f"player{i}") for i in range(2)]
    itx = await fake.slash(users[0], guild.default_channel, "uno new", {"edition": "classic"})
    lobby = (await itx.response()).message
    assert lobby is not None
    await (await fake.click(users[1], lobby, lobby.button("Join"))).response()
    await (await fake.click(users[0], lobby, lobby.button("Start"))).response()
    threads = await fake.wait_for(lambda: fake.threads_of(guild.default_channel), timeout=WAIT)
    thread = threads[-1]
    await fake.wait_for(lambda: table_message(fake, thread), timeout=WAIT, what="the table")
    return Game(guild, {u.id: u for u in users}, thread)


async def take_turn(fake: FakeDiscord, game: Game, rounds: int) -> None:
    """The awaited players open their hands and play what they can (or draw)."""
    for _ in range(rounds):
        board = table_message(fake, game.thread)
        if board is None:
            return
        for user in game.users.values():
            try:
                hand = await open_hand(fake, user, board)
            except AssertionError:
                continue
            playable = [
                b.custom_id
                for b in hand.buttons
                if b.custom_id and not b.disabled and b.custom_id.split(":")[3] in {"play", "draw"}
            ]
            if playable:
                with contextlib.suppress(AssertionError):  # late on a busy machine
                    await (await fake.click(user, hand, playable[0])).response()


def exited(children: list[Child]) -> dict[int, int]:
    """The shards whose process ended by itself (or was ended from outside), by exit status."""
    return {c.shard: c.process.returncode for c in children if c.process.returncode is not None}


async def budget_waits(children: list[Child]) -> dict[str, Any]:
    """Every process's budget-wait histogram, merged: p50 and p99 as bucket bounds."""
    buckets: dict[float, float] = {}
    total = renewed = 0.0
    unreachable = []
    async with aiohttp.ClientSession() as http:
        for child in children:
            port = child.metrics_port()
            if port is None:
                return {}
            try:
                async with http.get(f"http://127.0.0.1:{port}/metrics") as answer:
                    text = await answer.text()
            except aiohttp.ClientError:  # the process is gone: see exited in the report
                unreachable.append(child.shard)
                continue
            for le, value in re.findall(
                r'^uno_rest_budget_wait_seconds_bucket\{le="([^"]+)"\} (\S+)$', text, re.M
            ):
                buckets[float(le)] = buckets.get(float(le), 0.0) + float(value)
            found = re.search(r"^uno_rest_budget_renewed_total (\S+)$", text, re.M)
            renewed += float(found[1]) if found else 0.0
    total = buckets.get(float("inf"), 0.0)
    if not total:
        return {}

    def quantile(q: float) -> float:
        return next(le for le in sorted(buckets) if buckets[le] >= q * total)

    return {
        "requests": int(total),
        "p50_at_most_s": quantile(0.5),
        "p99_at_most_s": quantile(0.99),
        "renewed": int(renewed),
    } | ({"unreachable_shards": unreachable} if unreachable else {})


async def reservation_round_trip(url: str, checkout: Path) -> dict[str, float]:
    """Taking one slot: its database round trip, timed alone (this checkout's SQL)."""
    if not (checkout / "bot" / "storage" / "postgres" / "coordination.py").exists():
        return {}
    from bot.storage.postgres.coordination import Coordination

    coordination = Coordination(url, [])
    await coordination.open()
    spent = []
    try:
        for _ in range(500):
            start = time.perf_counter()
            await coordination.try_take("bench", 1e-6, 0.0)
            spent.append(time.perf_counter() - start)
    finally:
        await coordination.close()
    spent.sort()
    return {
        "p50_ms": round(1000 * spent[len(spent) // 2], 3),
        "p99_ms": round(1000 * spent[int(len(spent) * 0.99)], 3),
    }


async def run(checkout: Path, args: argparse.Namespace) -> dict[str, Any]:
    name = f"uno_procs_{os.getpid()}_{secrets.token_hex(3)}"
    url = urlunsplit(urlsplit(args.postgres_url)._replace(path=f"/{name}"))
    admin = await asyncpg.connect(args.postgres_url)
    await admin.execute(f'CREATE DATABASE "{name}"')
    fake = FakeDiscord()
    await fake.start()
    report: dict[str, Any] = {
        "checkout": str(checkout),
        "processes": args.processes,
        "rest_per_second": args.rest_per_second,
    }
    folder = Path(args.logs or tempfile.mkdtemp(prefix="uno-processes-")) / name
    folder.mkdir(parents=True, exist_ok=True)
    children: list[Child] = []
    lag = LoopLag()
    lag.start()
    wire = await WireProcess.start(fake.port, nice=args.wire_nice)
    report["bot_nice"] = args.bot_nice
    report["wire_nice"] = args.wire_nice
    phases: dict[str, tuple[float, float]] = {}
    try:
        with point_discord_py_at(fake):
            count = args.processes
            guilds = [
                await fake.create_guild(f"g{s}-{k}", guild_id=((k * count + s) << 22) | 42)
                for s in range(count)
                for k in range(args.tables)
            ]
            settings = (url, count, folder)

            async def launch(round_: int) -> tuple[list[Child], float]:
                return await launch_all(
                    fake,
                    checkout,
                    *settings,
                    round_,
                    args.rest_per_second,
                    args.bot_nice,
                    discord_url=wire.url,
                )

            began = time.time()
            children, spread = await launch(1)
            await fake.wait_for(lambda: "uno" in fake.commands[None], timeout=60, what="commands")
            report["identify_spread_s"] = {"first_start": round(spread, 1)}
            started = time.time()
            phases["starting"] = (began, started)
            opening = asyncio.Semaphore(4)  # a few at a time: a busy machine answers late

            async def opened(guild: FakeGuild) -> Game | None:
                async with opening:
                    try:
                        return await start_game(fake, guild)
                    except AssertionError:  # an answer later than Discord's 3 s
                        return None

            found = await asyncio.gather(*(opened(g) for g in guilds))
            games = [g for g in found if g is not None]
            report["tables_opened"] = len(games)
            await asyncio.gather(*(take_turn(fake, g, args.turns) for g in games))
            phases["opening_and_playing"] = (started, time.time())
            report["budget_wait"] = await budget_waits(children)
            report["exited_before_the_kill"] = exited(children)
            for child in children:
                child.process.send_signal(signal.SIGKILL)
            for child in children:
                await child.process.wait()
            await fake.wait_for(lambda: not fake.gateway.live_sessions(), timeout=30, what="gone")
            restart = time.time()
            children, spread = await launch(2)
            report["identify_spread_s"]["restart_together"] = round(spread, 1)
            await asyncio.sleep(args.settle)  # restored tables are redrawn in the background
            phases["restart_together"] = (restart, time.time())
            report["budget_wait_after_restart"] = await budget_waits(children)
            report["exited_after_the_restart"] = exited(children)
            report["rest_requests_counted"] = len(counted(fake, began, time.time()))
            report["reservation_round_trip"] = await reservation_round_trip(url, checkout)
    finally:
        await lag.stop()
        for child in children:
            if child.process.returncode is None:
                child.process.send_signal(signal.SIGKILL)
                await child.process.wait()
        await wire.stop()
        await fake.stop()
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()
    anatomies = {
        phase: anatomy(fake, *span)
        | {"wire_late": quantiles(wire.late_between(*span)), "fake_late": lag.between(*span)}
        for phase, span in phases.items()
    }
    report["worst_second"] = {phase: an["wire"] for phase, an in anatomies.items()}
    report["worst_second_by_clock"] = {
        phase: {clock: an[clock] for clock in ("sent", "wire", "fake")}
        for phase, an in anatomies.items()
    }
    report["worst_second_anatomy"] = anatomies
    return report


async def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--processes", type=int, default=10)
    parser.add_argument("--tables", type=int, default=3, help="tables per shard")
    parser.add_argument("--turns", type=int, default=2, help="rounds of clicks per table")
    parser.add_argument(
        "--rest-per-second", type=float, default=50.0, help="REST_PER_SECOND of every process"
    )
    parser.add_argument("--settle", type=float, default=10.0, help="seconds after the restart")
    parser.add_argument(
        "--bot-nice",
        type=int,
        default=0,
        help="run the bot processes this much nicer than the bench, so that the fake Discord "
        "(in the bench's process) stamps arrivals on time on a machine the bots overload",
    )
    parser.add_argument(
        "--wire-nice",
        type=int,
        default=0,
        help="run the stamping proxy this much nicer (negative: sooner; root only) than the bench",
    )
    parser.add_argument("--baseline", type=Path, default=None, help="another checkout, first")
    parser.add_argument("--logs", type=Path, default=None)
    parser.add_argument(
        "--postgres-url",
        default="postgresql://postgres@127.0.0.1:5432/test",
        help="a server to connect to (the bench creates and drops a database of its own)",
    )
    args = parser.parse_args()
    results = []
    for checkout in ([args.baseline] if args.baseline else []) + [ROOT]:
        results.append(await run(checkout.resolve(), args))
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    asyncio.run(main())
