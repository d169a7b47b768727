"""Round records benchmark: how big a round's record is, and the database after N rounds.

Run: .venv/bin/python bench/records.py [--rounds 10000] [--seed 1] [--postgres-url URL]
prints JSON.

Seeded matches of 2 to 6 computer players (editions, house rules and scoring varied, some
players leaving) are played headless and recorded through Storage.record_match, exactly as the
bot records a finished match, into a fresh SQLite file (and, with --postgres-url, a PostgreSQL
schema of its own, dropped afterwards). Reported: a round record's size (mean, median, p95,
largest), the events list the league also keeps per match for comparison, the database's size
after the run and its share per round, and the time to replay every stored round.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import asyncpg

from bot.engine import PRESETS, RuleSet
from bot.engine.cards import Edition
from bot.engine.events import write_all
from bot.engine.match import Match
from bot.engine.playout import play_match
from bot.engine.record import RoundRecord
from bot.engine.rules import Scoring
from bot.storage import MatchPlayer, MatchRecord, Storage

EDITIONS = (Edition.CLASSIC, Edition.SONIC, Edition.MARIO)
HOUSES = tuple(PRESETS.values())


def simulated(seed: int) -> Match:
    """One seeded match, its table varied by the seed."""
    rules = RuleSet(
        edition=EDITIONS[seed % 3],
        scoring=Scoring.LOWEST if seed % 7 == 6 else Scoring.STANDARD,
        target=300,
        house=HOUSES[seed % len(HOUSES)],
    )
    return play_match(rules, (["easy", "normal"] * 3)[: 2 + seed % 5], seed, leave=0.003)


def match_record(match: Match, seed: int) -> MatchRecord:
    """The league's record of a played match, as bot/tables/records.py makes it."""
    totals = match.totals
    best = max(totals)
    players = [
        MatchPlayer(
            user_id=1000 + (seed * 7 + seat) % 500,
            name=f"player{seat}",
            seat=seat,
            points=totals[seat],
            place=1 if totals[seat] == best else 2,
        )
        for seat in range(match.n)
    ]
    rules = match.rules
    return MatchRecord(
        match_uid=f"bench-{seed}",
        guild_id=1,
        channel_id=10,
        edition=rules.edition.value,
        scoring=rules.scoring.value,
        target=rules.target,
        started_at=1.7e9 + seed,
        finished_at=1.7e9 + seed + 600,
        rounds=match.rounds,
        events=write_all([*match.dealer_events, *match.game.events]),
        players=players,
        winners=[p.user_id for p in players if p.place == 1],
        house_rules=rules.house.to_dict(),
        round_records=list(match.records),
    )


async def fill(storage: Storage, matches: list[MatchRecord]) -> float:
    start = time.perf_counter()
    for record in matches:
        await storage.record_match(record)
    return time.perf_counter() - start


async def postgres_size(url: str, matches: list[MatchRecord]) -> dict[str, Any]:
    """Record the matches into a fresh schema and measure its tables."""
    schema = f"bench_{secrets.token_hex(4)}"
    conn = await asyncpg.connect(url)
    await conn.execute(f"CREATE SCHEMA {schema}")
    target = urlunsplit(urlsplit(url)._replace(query=f"search_path={schema}"))
    try:
        storage = await Storage.open(target)
        try:
            seconds = await fill(storage, matches)
        finally:
            await storage.close()
        rounds_bytes = await conn.fetchval(
            f"SELECT pg_total_relation_size('{schema}.match_rounds')"
        )
        all_bytes = await conn.fetchval(
            "SELECT SUM(pg_total_relation_size(quote_ident(schemaname) || '.' || "
            "quote_ident(tablename))) FROM pg_tables WHERE schemaname = $1",
            schema,
        )
        return {
            "record_s": round(seconds, 2),
            "match_rounds_bytes": int(rounds_bytes),
            "database_bytes": int(all_bytes),
        }
    finally:
        await conn.execute(f"DROP SCHEMA {schema} CASCADE")
        await conn.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--postgres-url")
    args = parser.parse_args()

    start = time.perf_counter()
    matches: list[MatchRecord] = []
    rounds = 0
    seed = args.seed
    while rounds < args.rounds:
        played = match_record(simulated(seed), seed)
        matches.append(played)
        rounds += len([r for r in played.round_records if r])
        seed += 1
    play_s = time.perf_counter() - start
    sizes = [len(r) for m in matches for r in m.round_records if r]
    sample = [r for m in matches[:200] for r in m.round_records if r]
    actions = [len(RoundRecord.from_text(r).actions) for r in sample]
    events = [len(json.dumps(m.events, separators=(",", ":"))) for m in matches]
    result: dict[str, Any] = {
        "matches": len(matches),
        "rounds": rounds,
        "play_s": round(play_s, 2),
        "record_bytes_mean": round(statistics.fmean(sizes), 1),
        "record_bytes_median": statistics.median(sizes),
        "record_bytes_p95": sorted(sizes)[int(len(sizes) * 0.95)],
        "record_bytes_max": max(sizes),
        "actions_per_round_mean": round(statistics.fmean(actions), 1),
        "last_round_events_bytes_per_match_mean": round(statistics.fmean(events), 1),
    }
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "records.db"
        storage = await Storage.open(path)
        try:
            result["sqlite_record_s"] = round(await fill(storage, matches), 2)
        finally:
            await storage.close()
        with sqlite3.connect(path) as conn:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            per_table = dict(
                conn.execute(
                    "SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC"
                ).fetchall()
            )
            stored = [row[0] for row in conn.execute("SELECT record FROM match_rounds")]
        result["sqlite_database_bytes"] = path.stat().st_size
        result["sqlite_match_rounds_bytes"] = int(per_table.get("match_rounds", 0))
        result["sqlite_matches_bytes"] = int(per_table.get("matches", 0))
        result["sqlite_bytes_per_round"] = round(result["sqlite_database_bytes"] / rounds, 1)
        result["sqlite_match_rounds_bytes_per_round"] = round(
            result["sqlite_match_rounds_bytes"] / rounds, 1
        )
    replay_start = time.perf_counter()
    for text in stored:
        RoundRecord.from_text(text).replay()
    result["replay_all_s"] = round(time.perf_counter() - replay_start, 2)
    if args.postgres_url:
        result["postgres"] = await postgres_size(args.postgres_url, matches)
    print(json.dumps(result))


if __name__ == "__main__":
    asyncio.run(main())
