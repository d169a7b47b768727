"""How many rollouts hard's time budget buys a decision on this machine, as JSON.

Run: python bench/rollouts.py [--rounds 6] [--budget 0.12] [--seed 1]

Plays seeded classic rounds, seat 0 hard at the given budget against normal players, at two
seats and at four (two teams of two), and counts the rollouts of every hard decision that
searched (a forced move or a challenge decided by judgment searches none). The team and arena
benchmarks bound hard by a rollout count instead of time, so that their runs repeat on any
machine: this tells which count stands for the bot's real budget.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from typing import Any

from bot.engine import ai
from bot.engine.cards import Edition, edition_deck, shuffle
from bot.engine.game import Game, Phase

STEP_CAP = 400  # decisions a round at most: the counts of a long round's start are enough


def count_rollouts(players: int, rounds: int, seed: int, budget: float) -> list[int]:
    """The rollouts of each searching hard decision of seat 0 over ``rounds`` rounds."""
    counts: list[int] = []
    calls = [0]
    rollout = ai._rollout

    def counted(world: Game, seat: int, rng: random.Random) -> float:
        calls[0] += 1
        return rollout(world, seat, rng)

    ai._rollout = counted  # counted where the search calls it, its result unchanged
    try:
        for index in range(rounds):
            rng = random.Random(f"{seed}:{players}:{index}")
            deck = edition_deck(Edition.CLASSIC)
            shuffle(deck, rng)
            teams = 2 if players == 4 else 0
            game = Game(Edition.CLASSIC, players, index % players, deck, rng, teams=teams)
            steps = 0
            while game.phase is not Phase.OVER and steps < STEP_CAP:
                seat = game.current
                if seat == 0:
                    calls[0] = 0
                    action = ai.decide(game, seat, "hard", rng, budget_s=budget)
                    if calls[0]:
                        counts.append(calls[0])
                else:
                    action = ai.decide(game, seat, "normal", rng)
                game.apply(action)
                steps += 1
    finally:
        ai._rollout = rollout
    return counts


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--budget", type=float, default=ai.DEFAULT_BUDGET_S)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    result: dict[str, Any] = {"budget_s": args.budget, "rounds": args.rounds}
    for players in (2, 4):
        counts = sorted(count_rollouts(players, args.rounds, args.seed, args.budget))
        result[f"{players}_seats"] = {
            "decisions": len(counts),
            "median": statistics.median(counts) if counts else None,
            "p25": counts[len(counts) // 4] if counts else None,
            "max": counts[-1] if counts else None,
        }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
