"""Storage benchmark: a 100,000-match league, then timed saves, records and leaderboard pages.

Run: .venv/bin/python bench/storage.py [--backend sqlite|postgres] [--matches N] [--dir PATH]
     [--postgres-url URL] [--baseline CHECKOUT]; prints JSON (times in ms).
     .venv/bin/python bench/storage.py --table-saves MATCHES [--postgres-url URL]

The build writes rows in bulk (executemany in one SQLite transaction, COPY into PostgreSQL):
the bench only needs a realistically shaped, indexed database fast. Every timed operation goes
through Storage. --backend postgres creates a database of its own on the server of
--postgres-url and drops it afterwards. --baseline runs CHECKOUT's own bench/storage.py (another
worktree, an older commit) and this one alternately, --rounds times each with the same options,
and reports both side by side. With --rounds N, each operation's figures are the median of the
N runs' medians and p95s (load from other programs drifts; alternating runs share it).

--table-saves MATCHES times what recording rounds costs a table save, side by side in one run:
the states a table saves at every change of MATCHES seeded matches (bench/_table_states.py),
each written with its round record and without it, and saved both ways, alternately, into a
fresh SQLite file and (unless --no-postgres) a PostgreSQL database of its own.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import asyncpg
from _table_states import SavedState, table_saves

from bot.storage import MatchPlayer, MatchRecord, Storage, TableRecord
from bot.storage.models import Edition
from bot.storage.postgres.league import page_query
from bot.storage.rating import skill
from bot.storage.rows import BOARD_COLUMNS, LEADERBOARD_ORDER

EDITIONS: tuple[Edition, ...] = ("classic", "sonic", "mario")
BIG_GUILD = 1
BIG_GUILD_MEMBERS = 3000
SMALL_GUILDS = 19
SMALL_GUILD_MEMBERS = 300

COLUMNS = {
    "matches": (
        "match_id", "match_uid", "guild_id", "number", "season", "channel_id", "edition",
        "scoring", "target", "started_at", "finished_at", "rounds", "round_winners", "events",
        "house_rules",
    ),
    "match_players": (
        "match_id", "seat", "user_id", "name", "points", "place", "computer", "winner",
        "rating_before", "rating_after",
    ),
    "standings": (
        "guild_id", "season", "official_only", "user_id", "matches", "wins", "points",
        "rounds_won", "best_round", "matches_classic", "matches_sonic", "matches_mario", "mu",
        "sigma", "ordinal", "rated",
    ),
    "player_names": ("guild_id", "user_id", "name"),
    "league_guilds": ("guild_id", "last_number", "house_matches"),
    "standings_counts": ("guild_id", "season", "official_only", "players"),
}  # fmt: skip


def events_json(rng: random.Random, count: int) -> list[dict[str, Any]]:
    """A game record shaped like the engine's: one small object per action."""
    return [
        {"type": "play", "seat": rng.randrange(10), "card": f"red-{rng.randrange(10)}"}
        for _ in range(count)
    ]


def league_rows(matches: int, seed: int) -> dict[str, list[tuple[Any, ...]]]:
    """Matches, seats, standings, names and counters of 20 servers, one of them big."""
    rng = random.Random(seed)
    guilds = [BIG_GUILD, *range(2, 2 + SMALL_GUILDS)]
    members = {
        g: [g * 1_000_000 + i for i in range(BIG_GUILD_MEMBERS if g == BIG_GUILD else 300)]
        for g in guilds
    }
    small_events = json.dumps(events_json(rng, 20), separators=(",", ":"))
    match_rows = []
    seat_rows = []
    numbers: dict[int, int] = {}
    played: dict[tuple[int, int], list[int]] = {}
    for match_id in range(1, matches + 1):
        # Half of all matches are in one big server: the leaderboard worst case.
        guild = BIG_GUILD if match_id % 2 else rng.choice(guilds[1:])
        numbers[guild] = numbers.get(guild, 0) + 1
        n = rng.choice((2, 2, 3, 3, 4, 4, 5, 6, 8, 10))
        seats = rng.sample(members[guild], n)
        rounds = [[0] * n for _ in range(rng.randint(1, 5))]
        for row in rounds:
            row[rng.randrange(n)] = rng.randint(1, 150)
        totals = [sum(r[s] for r in rounds) for s in range(n)]
        best = max(totals)
        finished = 1_600_000_000.0 + match_id * 60.0
        match_rows.append(
            (match_id, f"bench-{match_id}", guild, numbers[guild], 1, 10, rng.choice(EDITIONS),
             "standard", 500, finished - 900.0, finished, json.dumps(rounds), "[]",
             small_events, "{}")
        )  # fmt: skip
        for seat, user in enumerate(seats):
            won = totals[seat] == best
            place = 1 + sum(1 for t in totals if t > totals[seat])
            seat_rows.append(
                (match_id, seat, user, f"user{user}", totals[seat], place, False, won, 0.0, 0.0)
            )
            stats = played.setdefault((guild, user), [0, 0, 0])
            stats[0] += 1
            stats[1] += int(won)
            stats[2] += totals[seat]
    standing_rows = []
    for (guild, user), (count, wins, points) in played.items():
        rating = skill(rng.gauss(25, 4), max(1.0, 8.33 - count * 0.1))
        for scope in (0, 1):
            classic = rng.randint(0, count)
            sonic = rng.randint(0, count - classic)
            standing_rows.append(
                (guild, scope, False, user, count, wins, points, wins, rng.randint(0, 150),
                 classic, sonic, count - classic - sonic, *rating, count)
            )  # fmt: skip
    counts: dict[tuple[int, int], int] = {}
    for standing in standing_rows:
        counts[standing[0], standing[1]] = counts.get((standing[0], standing[1]), 0) + 1
    return {
        "matches": match_rows,
        "match_players": seat_rows,
        "standings": standing_rows,
        "player_names": [(g, u, f"user{u}") for (g, u) in played],
        "league_guilds": [(g, last, 0) for g, last in numbers.items()],
        "standings_counts": [(g, scope, False, n) for (g, scope), n in counts.items()],
    }


def build_sqlite(path: Path, rows: dict[str, list[tuple[Any, ...]]]) -> None:
    """Fill a migrated SQLite file in one transaction."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous = OFF")  # the build is disposable
    conn.execute("BEGIN")
    for table, names in COLUMNS.items():
        marks = ", ".join("?" * len(names))
        conn.executemany(f"INSERT INTO {table} ({', '.join(names)}) VALUES ({marks})", rows[table])
    conn.execute("COMMIT")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


async def build_postgres(url: str, rows: dict[str, list[tuple[Any, ...]]]) -> None:
    """Fill a migrated PostgreSQL database with COPY, then catch up the id sequence."""
    conn = await asyncpg.connect(url)
    try:
        async with conn.transaction():
            for table, names in COLUMNS.items():
                await conn.copy_records_to_table(table, records=rows[table], columns=names)
            await conn.execute(
                "SELECT setval(pg_get_serial_sequence('matches', 'match_id'), "
                "MAX(match_id) + 1, false) FROM matches"
            )
        await conn.execute("VACUUM ANALYZE")
    finally:
        await conn.close()


def ten_player_match(rng: random.Random, uid: str, events: int) -> MatchRecord:
    """A finished 10-player match in the big server: 5 rounds and a game record of events."""
    users = rng.sample(range(BIG_GUILD * 1_000_000, BIG_GUILD * 1_000_000 + BIG_GUILD_MEMBERS), 10)
    rounds = [[0] * 10 for _ in range(5)]
    for row in rounds:
        row[rng.randrange(10)] = rng.randint(1, 150)
    totals = [sum(r[s] for r in rounds) for s in range(10)]
    best = max(totals)
    now = time.time()
    return MatchRecord(
        match_uid=uid,
        guild_id=BIG_GUILD,
        channel_id=10,
        edition=rng.choice(EDITIONS),
        scoring="standard",
        target=500,
        started_at=now - 900.0,
        finished_at=now,
        rounds=rounds,
        events=events_json(rng, events),
        players=[
            MatchPlayer(u, f"user{u}", s, totals[s], 1 + sum(t > totals[s] for t in totals))
            for s, u in enumerate(users)
        ],
        winners=[u for s, u in enumerate(users) if totals[s] == best],
    )


async def timed(calls: int, make: Callable[[int], Awaitable[Any]]) -> dict[str, float]:
    """Median and p95 wall time in ms of awaiting make(i) for i in range(calls)."""
    samples = []
    for i in range(calls):
        awaitable = make(i)
        start = time.perf_counter()
        await awaitable
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    return {
        "median_ms": round(statistics.median(samples), 3),
        "p95_ms": round(samples[int(len(samples) * 0.95) - 1], 3),
        "calls": calls,
    }


async def measure(store: Storage, label: str, seed: int, calls: int, events: int) -> dict[str, Any]:
    """Time the hot operations on an open Storage."""
    rng = random.Random(seed)
    state = json.dumps({"blob": "x" * 20_000})  # a ~20 KB table state
    results: dict[str, Any] = {}
    await store.save_table(TableRecord(f"bench-{label}", 1, 10, 1, state, time.time()), seen=0)

    def save(i: int) -> Awaitable[None]:
        record = TableRecord(f"bench-{label}", 1, 10, i + 2, state, time.time())
        return store.save_table(record, seen=i + 1)  # a click's save, from the version seen

    results["save_table"] = await timed(calls, save)
    for i in range(calls):
        await store.save_table(TableRecord(f"{label}-{i}", 1, 10, 1, "{}", 0.0), seen=0)
    records = [ten_player_match(rng, f"{label}-{seed}-{i}", events) for i in range(calls)]

    def record(i: int) -> Awaitable[bool]:
        return store.record_match(records[i], table_id=f"{label}-{i}", table_version=1)

    results["record_match_10_players"] = await timed(calls, record)
    for sort in ("rating", "wins", "points"):

        def page(i: int, sort: Any = sort) -> Awaitable[Any]:
            return store.leaderboard(BIG_GUILD, None, sort, offset=25 * (i % 10), limit=25)

        results[f"leaderboard_page_{sort}"] = await timed(calls, page)
    user = BIG_GUILD * 1_000_000 + 7
    results["player_stats"] = await timed(calls, lambda i: store.player_stats(1, user))
    results["recent_matches_10"] = await timed(calls, lambda i: store.recent_matches(1, 10))
    return results


async def second_season(store: Storage, seed: int, calls: int, events: int) -> dict[str, Any]:
    """record_match once a second season runs: season and all-time ratings then differ."""
    rng = random.Random(seed)
    await store.start_season(BIG_GUILD, "Bench season 2")
    # Give the sampled players season-2 ratings that differ from their all-time ones.
    for i in range(calls):
        await store.record_match(ten_player_match(rng, f"warm-{seed}-{i}", events))
    records = [ten_player_match(rng, f"s2-{seed}-{i}", events) for i in range(calls)]
    return {"record_match_10_players": await timed(calls, lambda i: store.record_match(records[i]))}


# SQLite's rating page (it must walk standings_by_rating).
LEADERBOARD_PAGE = (
    f"SELECT {BOARD_COLUMNS} FROM standings s "
    "LEFT JOIN player_names n ON n.guild_id = s.guild_id AND n.user_id = s.user_id "
    "WHERE s.guild_id = 1 AND s.season = 0 AND s.official_only = {official} "
    f"ORDER BY {LEADERBOARD_ORDER['rating']} LIMIT 25 OFFSET 100"
)


async def run_sqlite(args: argparse.Namespace) -> dict[str, Any]:
    """Build a SQLite league and time it with synchronous NORMAL and FULL."""
    report: dict[str, Any] = {"sqlite": sqlite3.sqlite_version}
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        path = Path(folder) / "bench.db"
        await (await Storage.open(path)).close()
        start = time.perf_counter()
        build_sqlite(path, league_rows(args.matches, args.seed))
        gc.collect()  # the build's millions of rows are gone before anything is timed
        report["build_seconds"] = round(time.perf_counter() - start, 1)
        for offset, mode in enumerate(("NORMAL", "FULL")):
            async with await Storage.open(path, synchronous=mode) as store:  # type: ignore[arg-type]
                report[f"synchronous_{mode}"] = await measure(
                    store, mode, args.seed + offset, args.calls, args.events
                )
        async with await Storage.open(path) as store:
            report["second_season_NORMAL"] = await second_season(
                store, args.seed + 7, args.calls, args.events
            )
        report["db_bytes"] = path.stat().st_size
        with sqlite3.connect(path) as conn:
            plan = conn.execute("EXPLAIN QUERY PLAN " + LEADERBOARD_PAGE.format(official=0))
            report["leaderboard_plan"] = [row[-1] for row in plan]
    return report


async def run_postgres(args: argparse.Namespace) -> dict[str, Any]:
    """Build a PostgreSQL league in a database of its own, time it, drop the database.

    The bot commits with synchronous_commit on ("on", its default); "off" (chosen in the URL)
    is timed beside it, for the cost of waiting for the disk.
    """
    name = f"uno_bench_{os.getpid()}"
    url = urlunsplit(urlsplit(args.postgres_url)._replace(path=f"/{name}"))
    admin = await asyncpg.connect(args.postgres_url)
    report: dict[str, Any] = {"postgres": str(admin.get_server_version().major)}
    await admin.execute(f'CREATE DATABASE "{name}"')
    try:
        await (await Storage.open(url)).close()
        start = time.perf_counter()
        await build_postgres(url, league_rows(args.matches, args.seed))
        gc.collect()  # the build's millions of rows are gone before anything is timed
        report["build_seconds"] = round(time.perf_counter() - start, 1)
        for offset, mode in enumerate(("off", "on")):
            where = f"{url}?synchronous_commit={mode}"
            async with await Storage.open(where) as store:
                report[f"synchronous_commit_{mode}"] = await measure(
                    store, mode, args.seed + offset, args.calls, args.events
                )
        async with await Storage.open(url) as store:
            report["second_season_on"] = await second_season(
                store, args.seed + 7, args.calls, args.events
            )
        conn = await asyncpg.connect(url)
        try:
            report["db_bytes"] = await conn.fetchval("SELECT pg_database_size(current_database())")
            page = page_query(
                LEADERBOARD_ORDER["rating"],
                "s.guild_id = 1 AND s.season = 0 AND NOT s.official_only",
                "LIMIT 25 OFFSET 100",
            )
            plan = await conn.fetch("EXPLAIN " + page)
            report["leaderboard_plan"] = [row[0] for row in plan]
        finally:
            await conn.close()
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()
    return report


def spread(values: list[float], scale: float = 1.0, digits: int = 3) -> dict[str, float]:
    """Mean, median, p95 and largest of ``values`` (times ``scale``)."""
    ordered = sorted(v * scale for v in values)
    return {
        "mean": round(statistics.fmean(ordered), digits),
        "median": round(statistics.median(ordered), digits),
        "p95": round(ordered[max(0, int(len(ordered) * 0.95) - 1)], digits),
        "max": round(ordered[-1], digits),
    }


async def save_both_ways(store: Storage, states: list[SavedState]) -> dict[str, Any]:
    """Every state saved as a click saves it, with and without its round record, alternately
    (which goes first alternates too, so the two share the machine's load); ms."""
    times: dict[str, list[float]] = {"recorded": [], "unrecorded": []}
    for kind in times:
        await store.save_table(TableRecord(f"bench-{kind}", 1, 10, 1, "{}", 0.0), seen=0)
    for i, state in enumerate(states):
        kinds = ("recorded", "unrecorded") if i % 2 == 0 else ("unrecorded", "recorded")
        for kind in kinds:
            text = state.recorded if kind == "recorded" else state.unrecorded
            record = TableRecord(f"bench-{kind}", 1, 10, i + 2, text, time.time())
            start = time.perf_counter()
            await store.save_table(record, seen=i + 1)
            times[kind].append((time.perf_counter() - start) * 1000)
    return {kind: spread(values) for kind, values in times.items()}


async def run_table_saves(args: argparse.Namespace) -> dict[str, Any]:
    """What the round record adds to a table's saves: bytes, writing the state, saving it."""
    start = time.perf_counter()
    states = list(table_saves(args.table_saves, args.seed))
    with_bytes = [len(s.recorded.encode()) for s in states]
    without_bytes = [len(s.unrecorded.encode()) for s in states]
    added = zip(with_bytes, without_bytes, strict=True)
    report: dict[str, Any] = {
        "matches": args.table_saves,
        "saves": len(states),
        "play_seconds": round(time.perf_counter() - start, 1),
        "state_bytes": {
            "recorded": spread([float(b) for b in with_bytes], digits=0),
            "unrecorded": spread([float(b) for b in without_bytes], digits=0),
            "added": spread([float(a - b) for a, b in added], digits=0),
        },
        "to_record_ms": {
            "recorded": spread([s.recorded_s for s in states], 1000),
            "unrecorded": spread([s.unrecorded_s for s in states], 1000),
        },
        "rounds_recorded_max": max(s.rounds_recorded for s in states),
    }
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        async with await Storage.open(Path(folder) / "saves.db") as store:
            report["sqlite_save_table_ms"] = await save_both_ways(store, states)
    if not args.no_postgres:
        name = f"uno_bench_saves_{os.getpid()}"
        url = urlunsplit(urlsplit(args.postgres_url)._replace(path=f"/{name}"))
        admin = await asyncpg.connect(args.postgres_url)
        await admin.execute(f'CREATE DATABASE "{name}"')
        try:
            async with await Storage.open(url) as store:
                report["postgres_save_table_ms"] = await save_both_ways(store, states)
        finally:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            await admin.close()
    return report


def run_checkout(
    checkout: Path, args: argparse.Namespace, extra: tuple[str, ...] = ()
) -> dict[str, Any]:
    """This bench as a checkout's own bench/storage.py runs it (its code), as its report."""
    command = [sys.executable, str(checkout / "bench" / "storage.py"), *extra]
    command += ["--matches", str(args.matches), "--calls", str(args.calls)]
    command += ["--seed", str(args.seed), "--events", str(args.events)]
    if args.dir is not None:
        command += ["--dir", str(args.dir)]
    done = subprocess.run(command, check=True, capture_output=True, text=True, cwd=checkout)
    return dict(json.loads(done.stdout))


def combine(reports: list[dict[str, Any]]) -> dict[str, Any]:
    """Several runs' reports as one: per operation the median of the runs' medians and p95s."""
    combined = dict(reports[0])
    for section, value in reports[0].items():
        if not (isinstance(value, dict) and all("median_ms" in v for v in value.values())):
            continue
        combined[section] = {
            name: {
                "median_ms": statistics.median(r[section][name]["median_ms"] for r in reports),
                "p95_ms": statistics.median(r[section][name]["p95_ms"] for r in reports),
                "run_medians_ms": [r[section][name]["median_ms"] for r in reports],
            }
            for name in value
        }
    return combined


def in_rounds(args: argparse.Namespace) -> dict[str, Any]:
    """Several runs (alternating with the baseline checkout, if any), combined per operation."""
    here = Path(__file__).resolve().parents[1]
    extra = ("--backend", args.backend, "--postgres-url", args.postgres_url, "--rounds", "1")
    runs: dict[str, list[dict[str, Any]]] = {"baseline": [], "current": []}
    for _ in range(args.rounds):
        if args.baseline is not None:  # an older checkout knows SQLite only
            runs["baseline"].append(run_checkout(Path(args.baseline), args))
        runs["current"].append(run_checkout(here, args, extra))
    if args.baseline is None:
        return {**combine(runs["current"]), "rounds": args.rounds}
    return {
        "baseline": {"checkout": str(args.baseline), **combine(runs["baseline"])},
        "current": combine(runs["current"]),
        "rounds": args.rounds,
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--events", type=int, default=100, help="events per recorded match")
    parser.add_argument("--dir", type=Path, default=None, help="where the temporary db goes")
    parser.add_argument(
        "--postgres-url",
        default="postgresql://postgres@127.0.0.1:5432/test",
        help="a server to connect to (the bench creates and drops a database of its own)",
    )
    parser.add_argument(
        "--baseline", type=Path, default=None, help="another checkout to compare (SQLite)"
    )
    parser.add_argument(
        "--rounds", type=int, default=1, help="runs to combine (alternating with --baseline)"
    )
    parser.add_argument(
        "--table-saves",
        type=int,
        default=0,
        metavar="MATCHES",
        help="time table saves with and without the round record over MATCHES played matches",
    )
    parser.add_argument("--no-postgres", action="store_true", help="--table-saves: SQLite only")
    args = parser.parse_args()
    if args.table_saves:
        print(json.dumps(await run_table_saves(args), indent=2))
        return
    if args.baseline is not None or args.rounds > 1:
        print(json.dumps(in_rounds(args), indent=2))
        return
    report: dict[str, Any] = {"matches": args.matches, "events_per_recorded_match": args.events}
    if args.backend == "sqlite":
        report |= await run_sqlite(args)
    else:
        report |= await run_postgres(args)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    asyncio.run(main())
