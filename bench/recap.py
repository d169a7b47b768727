"""Recap benchmark: the animated picture of a long round, its size and its drawing time.

Run: .venv/bin/python bench/recap.py [--search 200] [--seed 1] [--repeats 3]; prints JSON.

Seeded rounds of 2 to 6 computer players are played headless; the one with the most cards
played is the long round (and the median one the usual round). Each recap is drawn --repeats
times as /uno history draws it (the table pictures, shrunk, one frame per play, then the
scoreboard) on one thread; reported are its frames, its bytes against Discord's 10 MiB
attachment limit, and the median time of drawing the frames and of encoding them: both the
wall time and the thread's CPU time, which a machine shared with other work does not inflate
(the load average is reported beside them).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import RuleSet
from bot.engine.cards import Edition
from bot.engine.match import ScoreView
from bot.engine.playout import play_match
from bot.engine.record import RoundRecord
from bot.engine.review import play_views
from bot.render.recap import MAX_BYTES, QUALITIES, encode_recap, recap_frames

DISCORD_LIMIT = 10 * 1024 * 1024


def measure(record: RoundRecord, repeats: int) -> dict[str, object]:
    names = [f"Player {s + 1}" for s in range(record.players)]
    views = play_views(record, names)
    points = record.points or (0,) * record.players
    scores = ScoreView(
        record.edition,
        tuple(names),
        (tuple(points),),
        tuple(points),
        500,
        record.scoring.value,
        (views[-1].winner,),
        (),
        (True,) * record.players,
    )
    wall: dict[str, list[float]] = {"draw": [], "encode": []}
    cpu: dict[str, list[float]] = {"draw": [], "encode": []}
    data = b""
    for _ in range(repeats):
        start, used = time.perf_counter(), time.thread_time()
        frames, durations = recap_frames(views, scores)
        wall["draw"].append(time.perf_counter() - start)
        cpu["draw"].append(time.thread_time() - used)
        start, used = time.perf_counter(), time.thread_time()
        data = encode_recap(frames, durations, QUALITIES[0])  # as render_recap when it fits
        wall["encode"].append(time.perf_counter() - start)
        cpu["encode"].append(time.thread_time() - used)
    med = {k: statistics.median(v) for k, v in wall.items()}
    med_cpu = {k: statistics.median(v) for k, v in cpu.items()}
    return {
        "players": record.players,
        "actions": len(record.actions),
        "frames": len(views) + 1,
        "bytes": len(data),
        "under_limit": len(data) <= MAX_BYTES < DISCORD_LIMIT,
        "render_s_median": round(med["draw"] + med["encode"], 3),
        "draw_s_median": round(med["draw"], 3),
        "encode_s_median": round(med["encode"], 3),
        "cpu_s_median": round(med_cpu["draw"] + med_cpu["encode"], 3),
        "cpu_draw_s_median": round(med_cpu["draw"], 3),
        "cpu_encode_s_median": round(med_cpu["encode"], 3),
        "cpu_ms_per_frame": round(
            1000 * (med_cpu["draw"] + med_cpu["encode"]) / (len(views) + 1), 1
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--search", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    found: list[tuple[int, RoundRecord]] = []
    for index in range(args.search):
        seed = args.seed + index
        rules = RuleSet(edition=tuple(Edition)[seed % 3], target=None)
        levels = ["easy", "normal"] * 3
        match = play_match(rules, levels[: 2 + seed % 5], seed, leave=0.0, max_rounds=1)
        record = RoundRecord.from_text(match.records[0])
        plays = len(play_views(record, ["x"] * record.players))
        found.append((plays, record))
    found.sort(key=lambda pair: pair[0])
    print(
        json.dumps(
            {
                "searched": args.search,
                "usual_round": measure(found[len(found) // 2][1], args.repeats),
                "long_round": measure(found[-1][1], args.repeats),
                "limit_bytes": MAX_BYTES,
                "load_average": [round(x, 1) for x in os.getloadavg()],
            }
        )
    )


if __name__ == "__main__":
    main()
