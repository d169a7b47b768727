"""Rendering benchmark: median and p95 milliseconds and PNG bytes per picture, as JSON."""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine.cards import Edition
from bot.render import render_hand, render_scores, render_table
from bot.render.samples import sample_hand, sample_scores, sample_table


def measure(fn: Callable[[], bytes], runs: int) -> dict[str, float | int]:
    """Time ``fn`` after a warm-up call (sprites and palettes are drawn once per process)."""
    data = fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        data = fn()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    return {
        "median_ms": round(statistics.median(times), 2),
        "p95_ms": round(p95, 2),
        "bytes": len(data),
    }


def main() -> None:
    """Print the benchmark as JSON."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--edition", default="classic", choices=[e.value for e in Edition])
    args = parser.parse_args()
    edition = Edition(args.edition)
    cases: dict[str, Callable[[], bytes]] = {
        "table_2": lambda: render_table(sample_table(2, edition)),
        "table_4": lambda: render_table(sample_table(4, edition)),
        "table_10": lambda: render_table(sample_table(10, edition)),
        "hand_7": lambda: render_hand(sample_hand(7, edition)),
        "hand_40": lambda: render_hand(sample_hand(40, edition)),
        "scores": lambda: render_scores(sample_scores(4, edition)),
    }
    start = time.perf_counter()
    results = {name: measure(fn, args.runs) for name, fn in cases.items()}
    print(
        json.dumps(
            {
                "edition": edition.value,
                "runs": args.runs,
                "results": results,
                "total_s": round(time.perf_counter() - start, 2),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
