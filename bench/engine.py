"""Engine speed: actions and games per second under the `random` policy, beside RLCard's UNO.

Run: python bench/engine.py [--games N] [--repeats R] [--house NAME=VALUE ...]

Every edition at 2, 4 and 10 players, best of R runs each, under the printed rules; with
``--house`` (repeatable, e.g. ``--house stack=all --house jump_in=true``) the same tables again
under those house rules. Both wall-clock and CPU rates are reported: on a shared machine the CPU
rate is the steadier one. RLCard is measured only if it is installed (pip install rlcard==1.2.0),
in the same run, on the same machine. The engine measured is whichever ``bot.engine`` Python
imports (``engine_path`` says which), so another checkout can be measured with PYTHONPATH.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

import bot.engine
from bot.engine.simulate import simulate

TABLES = [(edition, players) for edition in ("classic", "sonic", "mario") for players in (2, 4, 10)]


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


def measure(games: int, seed: int, repeats: int, house: Any = None) -> list[dict[str, Any]]:
    """Best of ``repeats`` runs per table (the least disturbed by other work on the machine)."""
    rows: list[dict[str, Any]] = []
    for edition, players in TABLES:
        best_wall: dict[str, Any] | None = None
        best_cpu = float("inf")
        for _ in range(repeats):
            cpu = time.process_time()
            if house is None:
                run = simulate(edition, players, games, seed, "random")
            else:
                run = simulate(edition, players, games, seed, "random", house)
            best_cpu = min(best_cpu, time.process_time() - cpu)
            if best_wall is None or run["seconds"] < best_wall["seconds"]:
                best_wall = run
        assert best_wall is not None
        actions = best_wall["turns"]
        rows.append(
            {
                "edition": edition,
                "players": players,
                "games": games,
                "actions": actions,
                "actions_per_s": round(best_wall["actions_per_s"]),
                "games_per_s": best_wall["games_per_s"],
                "us_per_action": round(best_wall["seconds"] / actions * 1e6, 3),
                "cpu_actions_per_s": round(actions / best_cpu),
            }
        )
    return rows


def main() -> None:
    """Print one JSON object with every figure."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--house", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--no-rlcard", action="store_true", help="skip RLCard even if installed")
    args = parser.parse_args()
    result: dict[str, Any] = {
        "policy": "random",
        "engine_path": bot.engine.__file__,
        "engine": measure(args.games, args.seed, args.repeats),
    }
    if args.house:
        from bot.engine.house import HouseRules

        house = HouseRules.from_text(args.house)
        result["house_rules"] = house.to_dict()
        result["house"] = measure(args.games, args.seed, args.repeats, house)
    theirs = []
    if not args.no_rlcard:
        games = max(args.games // 10, 50)
        theirs = [r for p in (2, 4, 10) if (r := rlcard_rate(p, games, args.seed))]
    result["rlcard"] = theirs or None
    if theirs:
        by_players = {r["players"]: r["actions_per_s"] for r in theirs}
        result["speedup_vs_rlcard_classic"] = {
            str(r["players"]): round(r["actions_per_s"] / by_players[r["players"]], 2)
            for r in result["engine"]
            if r["edition"] == "classic"
        }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
