"""Engine speed: actions and games per second under the `random` policy, beside RLCard's UNO.

Run: python bench/engine.py [--games N] [--repeats R] [--house NAME=VALUE ...] [--baseline DIR]

Every edition at 2, 4 and 10 players, best of R runs each, under the printed rules; with
``--house`` (repeatable, e.g. ``--house stack=all --house jump_in=true``) the same tables again
under those house rules. ``--baseline DIR`` loads another checkout's engine (DIR/bot/engine) as
a separate package and measures it in this same process, each of its runs interleaved with one
of ours on the same table, so that both meet the same machine load. Wall-clock and CPU rates are
both reported; on a shared machine the CPU rate is the steadier one. RLCard is measured only if
it is installed (pip install rlcard==1.2.0).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.engine.house import HouseRules
from bot.engine.simulate import simulate

TABLES = [(edition, players) for edition in ("classic", "sonic", "mario") for players in (2, 4, 10)]
Simulate = Callable[..., dict[str, Any]]


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


def load_baseline(checkout: Path) -> Simulate:
    """Another checkout's ``simulate``, imported as the package ``baseline_engine``."""
    package = checkout / "bot" / "engine"
    spec = importlib.util.spec_from_file_location(
        "baseline_engine", package / "__init__.py", submodule_search_locations=[str(package)]
    )
    if spec is None or spec.loader is None:
        raise SystemExit(f"no engine at {package}")
    module = importlib.util.module_from_spec(spec)
    sys.modules["baseline_engine"] = module
    spec.loader.exec_module(module)
    run: Simulate = importlib.import_module("baseline_engine.simulate").simulate
    return run


class Best:
    """The best (least disturbed) of several runs of one table."""

    def __init__(self) -> None:
        self.run: dict[str, Any] | None = None
        self.cpu = float("inf")

    def time(self, run_games: Simulate, *args: Any) -> None:
        cpu = time.process_time()
        run = run_games(*args)
        self.cpu = min(self.cpu, time.process_time() - cpu)
        if self.run is None or run["seconds"] < self.run["seconds"]:
            self.run = run

    def row(self, edition: str, players: int) -> dict[str, Any]:
        assert self.run is not None
        actions = self.run["turns"]
        return {
            "edition": edition,
            "players": players,
            "games": self.run["games"],
            "actions": actions,
            "actions_per_s": round(self.run["actions_per_s"]),
            "games_per_s": self.run["games_per_s"],
            "us_per_action": round(self.run["seconds"] / actions * 1e6, 3),
            "cpu_actions_per_s": round(actions / self.cpu),
        }


def measure(
    games: int, seed: int, repeats: int, house: HouseRules | None, baseline: Simulate | None
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Per table: our rows and (with a baseline) the baseline's, runs interleaved."""
    ours: list[dict[str, Any]] = []
    theirs: list[dict[str, Any]] = []
    for edition, players in TABLES:
        mine, other = Best(), Best()
        table = (edition, players, games, seed, "random")
        extra = [house] if house is not None else []
        for index in range(repeats):
            if baseline is not None and index % 2 == 0:  # take turns at going first
                other.time(baseline, *table)
            mine.time(simulate, *table, *extra)
            if baseline is not None and index % 2 == 1:
                other.time(baseline, *table)
        ours.append(mine.row(edition, players))
        if baseline is not None:
            theirs.append(other.row(edition, players))
    return ours, theirs


def main() -> None:
    """Print one JSON object with every figure."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--house", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--baseline", type=Path, help="a checkout to measure alongside")
    parser.add_argument("--no-rlcard", action="store_true", help="skip RLCard even if installed")
    args = parser.parse_args()
    baseline = load_baseline(args.baseline) if args.baseline else None
    ours, theirs = measure(args.games, args.seed, args.repeats, None, baseline)
    result: dict[str, Any] = {"policy": "random", "engine": ours}
    if baseline is not None:
        result["baseline"] = theirs
        result["cpu_speedup_vs_baseline"] = {
            f"{a['edition']}-{a['players']}": round(
                a["cpu_actions_per_s"] / b["cpu_actions_per_s"], 3
            )
            for a, b in zip(ours, theirs, strict=True)
        }
    if args.house:
        house = HouseRules.from_text(args.house)
        result["house_rules"] = house.to_dict()
        result["house"] = measure(args.games, args.seed, args.repeats, house, None)[0]
    rl = []
    if not args.no_rlcard:
        rl = [r for p in (2, 4, 10) if (r := rlcard_rate(p, max(args.games // 10, 50), args.seed))]
    result["rlcard"] = rl or None
    if rl:
        by_players = {r["players"]: r["actions_per_s"] for r in rl}
        result["speedup_vs_rlcard_classic"] = {
            str(r["players"]): round(r["actions_per_s"] / by_players[r["players"]], 2)
            for r in ours
            if r["edition"] == "classic"
        }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
