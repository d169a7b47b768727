"""Computer players: win rates in 4-seat rounds and milliseconds per decision, as JSON.

Run: python bench/ai.py [--rounds 10000] [--hard-rounds 1000] [--budget 0.12] [--jobs 2]
     [--levels easy,normal,sharp,hard] [--against random,normal] [--editions classic,sonic,mario]

Seat 0 plays at the level under test against three opponents (``random`` or ``normal``); the
dealer rotates with the round number so that no seat keeps the first turn. Every round is seeded
from (seed, edition, opponents, round number): every level meets the same deals, and a run is
repeatable and may be split over processes. Decision times are wall-clock per ``ai.decide`` call.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import time
from typing import Any

from bot.engine import ai
from bot.engine.cards import Edition, edition_deck, shuffle
from bot.engine.game import Game, Phase
from bot.engine.simulate import random_policy

SEATS = 4
# Not a level of the bot: hard's heuristic alone, to show what hard's rollouts add to it.
SHARP = "sharp"
EDITIONS = ("classic", "sonic", "mario")


def play(
    edition: str, level: str, opponents: str, first: int, count: int, seed: int, budget: float
) -> tuple[int, list[float]]:
    """Play rounds ``first .. first+count-1``; returns seat 0's wins and its decision times."""
    ed = Edition(edition)
    base = edition_deck(ed)
    wins = 0
    times: list[float] = []
    for index in range(first, first + count):
        # The same deals for every level: the levels are compared on identical rounds.
        rng = random.Random(f"{seed}:{edition}:{opponents}:{index}")
        deck = base[:]
        shuffle(deck, rng)
        game = Game(ed, SEATS, index % SEATS, deck, random.Random(rng.getrandbits(32)))
        while game.phase is not Phase.OVER:
            seat = game.current
            if seat == 0:
                start = time.perf_counter()
                if level == SHARP:
                    action = ai.heuristic(game, 0, rng, ai.SHARP)
                else:
                    action = ai.decide(game, 0, level, rng, budget_s=budget)
                times.append(time.perf_counter() - start)
                game.apply(action)
            elif opponents == "random":
                random_policy(game, rng)
            else:
                game.apply(ai.decide(game, seat, opponents, rng))
            extra = ai.out_of_turn(game, 0, "hard" if level == SHARP else level, rng)
            if extra is not None:
                game.apply(extra)
        wins += game.winner == 0
    return wins, times


def _play_star(args: tuple[str, str, str, int, int, int, float]) -> tuple[int, list[float]]:
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
    edition: str, level: str, opponents: str, rounds: int, seed: int, budget: float, jobs: int
) -> dict[str, Any]:
    """Win rate and decision times of ``level`` in seat 0 against three ``opponents``."""
    chunks = max(1, min(jobs * 4, rounds))
    size = math.ceil(rounds / chunks)
    parts = [
        (edition, level, opponents, first, min(size, rounds - first), seed, budget)
        for first in range(0, rounds, size)
    ]
    start = time.perf_counter()
    if jobs > 1 and len(parts) > 1:
        with multiprocessing.Pool(jobs) as pool:
            results = pool.map(_play_star, parts)
    else:
        results = [_play_star(part) for part in parts]
    seconds = time.perf_counter() - start
    wins = sum(w for w, _ in results)
    times = sorted(t for _, ts in results for t in ts)
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
    args = parser.parse_args()
    runs: list[dict[str, Any]] = []
    editions = args.editions.split(",")
    levels = args.levels.split(",")
    against = args.against.split(",")
    for edition in editions:
        for level in levels:
            rounds = args.hard_rounds if level == "hard" else args.rounds
            for opponents in against:
                runs.append(
                    matchup(edition, level, opponents, rounds, args.seed, args.budget, args.jobs)
                )
    result = {
        "seats": SEATS,
        "seed": args.seed,
        "hard_budget_s": args.budget,
        "jobs": args.jobs,
        "cpus": multiprocessing.cpu_count(),
        "baseline": 1 / SEATS,
        "runs": runs,
    }
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
