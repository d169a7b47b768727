"""Storage benchmark: a 100,000-match league, then timed saves, records and leaderboard pages.

Run: .venv/bin/python bench/storage.py [--matches N] [--dir PATH]; prints JSON (times in ms).
The build writes rows with plain sqlite3 and executemany in one transaction (the bench is not
the bot: it only needs a realistically shaped, indexed database fast); every timed operation
goes through Storage.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.storage import MatchPlayer, MatchRecord, Storage, TableRecord

EDITIONS = ("classic", "sonic", "mario")
BIG_GUILD = 1
BIG_GUILD_MEMBERS = 3000
SMALL_GUILDS = 19
SMALL_GUILD_MEMBERS = 300


def events_json(rng: random.Random, count: int) -> list[dict[str, Any]]:
    """A game record shaped like the engine's: one small object per action."""
    return [
        {"type": "play", "seat": rng.randrange(10), "card": f"red-{rng.randrange(10)}"}
        for _ in range(count)
    ]


def build(path: Path, matches: int, seed: int) -> None:
    """Fill a migrated database with matches, seats, standings and names in one transaction."""
    rng = random.Random(seed)
    guilds = [BIG_GUILD, *range(2, 2 + SMALL_GUILDS)]
    members = {
        g: [g * 1_000_000 + i for i in range(BIG_GUILD_MEMBERS if g == BIG_GUILD else 300)]
        for g in guilds
    }
    small_events = json.dumps(events_json(rng, 20), separators=(",", ":"))
    match_rows = []
    seat_rows = []
    played: dict[tuple[int, int], list[int]] = {}
    for match_id in range(1, matches + 1):
        # Half of all matches are in one big server: the leaderboard worst case.
        guild = BIG_GUILD if match_id % 2 else rng.choice(guilds[1:])
        n = rng.choice((2, 2, 3, 3, 4, 4, 5, 6, 8, 10))
        seats = rng.sample(members[guild], n)
        rounds = [[0] * n for _ in range(rng.randint(1, 5))]
        for row in rounds:
            row[rng.randrange(n)] = rng.randint(1, 150)
        totals = [sum(r[s] for r in rounds) for s in range(n)]
        best = max(totals)
        finished = 1_600_000_000.0 + match_id * 60.0
        match_rows.append(
            (match_id, f"bench-{match_id}", guild, 1, 10, rng.choice(EDITIONS), "standard",
             500, finished - 900.0, finished, json.dumps(rounds), "[]", small_events)
        )  # fmt: skip
        for seat, user in enumerate(seats):
            won = totals[seat] == best
            place = 1 + sum(1 for t in totals if t > totals[seat])
            seat_rows.append(
                (match_id, seat, user, f"user{user}", totals[seat], place, 0, int(won), 0.0, 0.0)
            )
            played.setdefault((guild, user), [0, 0, 0]).__setitem__(
                0, played[guild, user][0] + 1 if (guild, user) in played else 1
            )
            stats = played[guild, user]
            stats[1] += int(won)
            stats[2] += totals[seat]
    standing_rows = []
    for (guild, user), (count, wins, points) in played.items():
        mu = rng.gauss(25, 4)
        sigma = max(1.0, 8.33 - count * 0.1)
        for scope in (0, 1):
            classic = rng.randint(0, count)
            sonic = rng.randint(0, count - classic)
            standing_rows.append(
                (guild, scope, user, count, wins, points, wins, rng.randint(0, 150), classic,
                 sonic, count - classic - sonic, mu, sigma, mu - 3 * sigma)
            )  # fmt: skip
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous = OFF")  # the build is disposable
    conn.execute("BEGIN")
    conn.executemany(f"INSERT INTO matches VALUES ({', '.join('?' * 13)})", match_rows)
    conn.executemany(f"INSERT INTO match_players VALUES ({', '.join('?' * 10)})", seat_rows)
    conn.executemany(f"INSERT INTO standings VALUES ({', '.join('?' * 14)})", standing_rows)
    conn.executemany(
        "INSERT INTO player_names VALUES (?, ?, ?)",
        [(g, u, f"user{u}") for (g, u) in played],
    )
    conn.execute("COMMIT")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


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


async def measure(
    path: Path, synchronous: str, seed: int, calls: int, events: int
) -> dict[str, Any]:
    """Time the hot operations with one synchronous setting."""
    rng = random.Random(seed)
    state = json.dumps({"blob": "x" * 20_000})  # a ~20 KB table state
    results: dict[str, Any] = {}
    store = await Storage.open(path, synchronous=synchronous)  # type: ignore[arg-type]
    try:
        base = int(time.time() * 1000)

        def save(i: int) -> Awaitable[None]:
            return store.save_table(TableRecord("bench-t", 1, 10, base + i, state, time.time()))

        results["save_table"] = await timed(calls, save)
        for i in range(calls):
            await store.save_table(TableRecord(f"{synchronous}-{i}", 1, 10, 1, "{}", 0.0))
        records = [ten_player_match(rng, f"{synchronous}-{seed}-{i}", events) for i in range(calls)]

        def record(i: int) -> Awaitable[bool]:
            return store.record_match(records[i], table_id=f"{synchronous}-{i}")

        results["record_match_10_players"] = await timed(calls, record)
        for sort in ("rating", "wins", "points"):

            def page(i: int, sort: Any = sort) -> Awaitable[Any]:
                return store.leaderboard(BIG_GUILD, None, sort, offset=25 * (i % 10), limit=25)

            results[f"leaderboard_page_{sort}"] = await timed(calls, page)
        user = BIG_GUILD * 1_000_000 + 7
        results["player_stats"] = await timed(calls, lambda i: store.player_stats(1, user))
        results["recent_matches_10"] = await timed(calls, lambda i: store.recent_matches(1, 10))
    finally:
        await store.close()
    return results


async def second_season(path: Path, seed: int, calls: int, events: int) -> dict[str, Any]:
    """record_match once a second season runs: season and all-time ratings then differ."""
    rng = random.Random(seed)
    store = await Storage.open(path)
    try:
        await store.start_season(BIG_GUILD, "Bench season 2")
        # Give the sampled players season-2 ratings that differ from their all-time ones.
        for i in range(calls):
            await store.record_match(ten_player_match(rng, f"warm-{seed}-{i}", events))
        records = [ten_player_match(rng, f"s2-{seed}-{i}", events) for i in range(calls)]
        return {
            "record_match_10_players": await timed(calls, lambda i: store.record_match(records[i]))
        }
    finally:
        await store.close()


def query_plan(path: Path) -> list[str]:
    """How SQLite runs the rating leaderboard page (it must walk standings_by_rating)."""
    with sqlite3.connect(path) as conn:
        rows = conn.execute(
            "EXPLAIN QUERY PLAN SELECT s.user_id, n.name FROM standings s "
            "LEFT JOIN player_names n ON n.guild_id = s.guild_id AND n.user_id = s.user_id "
            "WHERE s.guild_id = 1 AND s.season = 0 ORDER BY s.ordinal DESC, s.user_id LIMIT 25"
        ).fetchall()
    return [row[-1] for row in rows]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--events", type=int, default=100, help="events per recorded match")
    parser.add_argument("--dir", type=Path, default=None, help="where the temporary db goes")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        path = Path(folder) / "bench.db"
        await (await Storage.open(path)).close()
        start = time.perf_counter()
        build(path, args.matches, args.seed)
        build_seconds = time.perf_counter() - start
        report: dict[str, Any] = {
            "matches": args.matches,
            "build_seconds": round(build_seconds, 1),
            "sqlite": sqlite3.sqlite_version,
            "events_per_recorded_match": args.events,
        }
        for offset, mode in enumerate(("NORMAL", "FULL")):
            report[f"synchronous_{mode}"] = await measure(
                path, mode, args.seed + offset, args.calls, args.events
            )
        report["second_season_NORMAL"] = await second_season(
            path, args.seed + 7, args.calls, args.events
        )
        report["db_bytes"] = path.stat().st_size
        report["leaderboard_plan"] = query_plan(path)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    asyncio.run(main())
