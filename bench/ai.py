"""Computer players: win rates in 4-seat rounds and milliseconds per decision, as JSON.

Run: python bench/ai.py [--rounds 10000] [--hard-rounds 1000] [--budget 0.12] [--jobs 2]
     [--levels easy,normal,sharp,hard] [--against random,normal] [--editions classic,sonic,mario]
     [--max-rollouts N] [--baseline DIR]

Seat 0 plays at the level under test against three opponents (``random`` or ``normal``); the
dealer rotates with the round number so that no seat keeps the first turn. Every round is seeded
from (seed, edition, opponents, round number): every level meets the same deals, and a run is
repeatable and may be split over processes. Decision times are wall-clock per ``ai.decide`` call.

Hard thinks until its time budget or its rollouts run out: with a budget far above what
``--max-rollouts`` needs, its decision time measures the engine and the AI's speed. ``--baseline
DIR`` loads another checkout's engine (``DIR/bot/engine``) as a separate package and plays every
matchup with it too, in this same process, chunk by chunk interleaved with ours (one process:
``--jobs`` is then ignored), so that both meet the same machine load; both play the same deals.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

from bot.engine import ai

SEATS = 4
# Not a level of the bot: hard's heuristic alone, to show what hard's rollouts add to it.
SHARP = "sharp"
EDITIONS = ("classic", "sonic", "mario")


def play(
    edition: str,
    level: str,
    opponents: str,
    first: int,
    count: int,
    seed: int,
    budget: float,
    max_rollouts: int = ai.DEFAULT_MAX_ROLLOUTS,
    engine: str = "bot.engine",
) -> tuple[int, list[float], list[float]]:
    """Play rounds ``first .. first+count-1``; returns seat 0's wins and its decision times,
    wall-clock and CPU (``engine``: the package whose engine plays, ours or a baseline)."""
    e = parts(engine)
    ed = e.Edition(edition)
    base = e.edition_deck(ed)
    wins = 0
    times: list[float] = []
    cpu: list[float] = []
    for index in range(first, first + count):
        # The same deals for every level: the levels are compared on identical rounds.
        rng = random.Random(f"{seed}:{edition}:{opponents}:{index}")
        deck = base[:]
        e.shuffle(deck, rng)
        game = e.Game(ed, SEATS, index % SEATS, deck, random.Random(rng.getrandbits(32)))
        while game.phase is not e.Phase.OVER:
            seat = game.current
            if seat == 0:
                start, start_cpu = time.perf_counter(), time.process_time()
                if level == SHARP:
                    action = e.ai.heuristic(game, 0, rng, e.ai.SHARP_MANY)
                else:
                    action = e.ai.decide(
                        game, 0, level, rng, budget_s=budget, max_rollouts=max_rollouts
                    )
                times.append(time.perf_counter() - start)
                cpu.append(time.process_time() - start_cpu)
                game.apply(action)
            elif opponents == "random":
                e.simulate.random_policy(game, rng)
            else:
                game.apply(e.ai.decide(game, seat, opponents, rng))
            extra = e.ai.out_of_turn(game, 0, "hard" if level == SHARP else level, rng)
            if extra is not None:
                game.apply(extra)
        wins += game.winner == 0
    return wins, times, cpu


def parts(package: str) -> SimpleNamespace:
    """What ``play`` uses of an engine package: its ai, simulate, Edition, edition_deck,
    shuffle, Game and Phase."""
    cards = importlib.import_module(f"{package}.cards")
    game = importlib.import_module(f"{package}.game")
    return SimpleNamespace(
        ai=importlib.import_module(f"{package}.ai"),
        simulate=importlib.import_module(f"{package}.simulate"),
        Edition=cards.Edition,
        edition_deck=cards.edition_deck,
        shuffle=cards.shuffle,
        Game=game.Game,
        Phase=game.Phase,
    )


def load_baseline(checkout: Path) -> str:
    """Another checkout's engine, imported as the package ``baseline_engine``."""
    package = checkout / "bot" / "engine"
    spec = importlib.util.spec_from_file_location(
        "baseline_engine", package / "__init__.py", submodule_search_locations=[str(package)]
    )
    if spec is None or spec.loader is None:
        raise SystemExit(f"no engine at {package}")
    module: ModuleType = importlib.util.module_from_spec(spec)
    sys.modules["baseline_engine"] = module
    spec.loader.exec_module(module)
    return "baseline_engine"


def _play_star(args: tuple[Any, ...]) -> tuple[int, list[float], list[float]]:
    return play(*args)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (round(centre - half, 4), round(centre + half, 4))


def matchup(
    edition: str,
    level: str,
    opponents: str,
    rounds: int,
    seed: int,
    budget: float,
    jobs: int,
    max_rollouts: int = ai.DEFAULT_MAX_ROLLOUTS,
    baseline: str | None = None,
) -> dict[str, Any]:
    """Win rate and decision times of ``level`` in seat 0 against three ``opponents`` (and
    the baseline's, under ``"baseline"``, when one is loaded)."""
    chunks = max(1, min(jobs * 4, rounds)) if baseline is None else max(1, min(20, rounds))
    size = math.ceil(rounds / chunks)
    chunked = [
        (edition, level, opponents, first, min(size, rounds - first), seed, budget, max_rollouts)
        for first in range(0, rounds, size)
    ]
    start = time.perf_counter()
    if baseline is not None:
        results, theirs = [], []
        for part in chunked:  # interleaved: both engines meet the same load
            results.append(_play_star(part))
            theirs.append(_play_star((*part, baseline)))
        summary = _summary(edition, level, opponents, rounds, results, time.perf_counter() - start)
        summary["baseline"] = _summary(edition, level, opponents, rounds, theirs, 0.0)
        return summary
    if jobs > 1 and len(chunked) > 1:
        with multiprocessing.Pool(jobs) as pool:
            results = pool.map(_play_star, chunked)
    else:
        results = [_play_star(part) for part in chunked]
    return _summary(edition, level, opponents, rounds, results, time.perf_counter() - start)


def _summary(
    edition: str,
    level: str,
    opponents: str,
    rounds: int,
    results: list[tuple[int, list[float], list[float]]],
    seconds: float,
) -> dict[str, Any]:
    wins = sum(w for w, _, _ in results)
    times = sorted(t for _, ts, _ in results for t in ts)
    cpu = [t for _, _, ts in results for t in ts]
    p99 = times[min(len(times) - 1, math.ceil(0.99 * len(times)) - 1)] if times else 0.0
    return {
        "edition": edition,
        "level": level,
        "opponents": opponents,
        "rounds": rounds,
        "wins": wins,
        "win_rate": round(wins / rounds, 4) if rounds else None,
        "ci95": wilson(wins, rounds),
        "decisions": len(times),
        "ms_median": round(statistics.median(times) * 1000, 3) if times else None,
        "ms_p99": round(p99 * 1000, 3),
        "ms_max": round(times[-1] * 1000, 3) if times else None,
        # CPU time, steadier than the wall clock on a shared machine.
        "cpu_ms_median": round(statistics.median(cpu) * 1000, 3) if cpu else None,
        "cpu_ms_mean": round(statistics.fmean(cpu) * 1000, 3) if cpu else None,
        "seconds": round(seconds, 1),
    }


def main() -> None:
    """Print one JSON object with every matchup."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=10_000, help="rounds for easy and normal")
    parser.add_argument("--hard-rounds", type=int, default=1000, help="rounds for hard")
    parser.add_argument("--budget", type=float, default=ai.DEFAULT_BUDGET_S, help="hard, seconds")
    parser.add_argument("--jobs", type=int, default=1, help="processes (hard times share cores)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--editions", default=",".join(EDITIONS))
    parser.add_argument("--levels", default=",".join((*ai.LEVELS[:2], SHARP, ai.LEVELS[2])))
    parser.add_argument("--against", default="random,normal", help="the opponents' level")
    parser.add_argument("--max-rollouts", type=int, default=ai.DEFAULT_MAX_ROLLOUTS, help="hard")
    parser.add_argument("--baseline", type=Path, help="a checkout to measure alongside")
    args = parser.parse_args()
    baseline = load_baseline(args.baseline) if args.baseline else None
    runs: list[dict[str, Any]] = []
    editions = args.editions.split(",")
    levels = args.levels.split(",")
    against = args.against.split(",")
    for edition in editions:
        for level in levels:
            rounds = args.hard_rounds if level == "hard" else args.rounds
            for opponents in against:
                runs.append(
                    matchup(
                        edition,
                        level,
                        opponents,
                        rounds,
                        args.seed,
                        args.budget,
                        args.jobs,
                        args.max_rollouts,
                        baseline,
                    )
                )
    result = {
        "seats": SEATS,
        "seed": args.seed,
        "hard_budget_s": args.budget,
        "hard_max_rollouts": args.max_rollouts,
        "jobs": args.jobs,
        "cpus": multiprocessing.cpu_count(),
        "baseline": 1 / SEATS,
        "runs": runs,
    }
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
