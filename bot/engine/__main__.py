"""`python -m bot.engine scenario FILE|-` and `python -m bot.engine simulate ...`.

The contract is ``shared/ENGINE_CONTRACT.md``. Malformed input exits 2 with one line on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .scenario import ScenarioError, run_scenario
from .simulate import POLICIES, simulate


def _scenario(path: str) -> int:
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as exc:
        print(f"error: cannot read {path}: {exc.strerror}", file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print(f"error: {path} is not UTF-8 text", file=sys.stderr)
        return 2
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        print(f"error: malformed JSON: {exc}", file=sys.stderr)
        return 2
    try:
        result = run_scenario(data)
    except ScenarioError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")
    return 0


def _simulate(args: argparse.Namespace) -> int:
    result = simulate(args.edition, args.players, args.games, args.seed, args.policy)
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")
    return 0


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:
        # One line and exit 2, as for any other malformed input.
        print(f"error: {message}", file=sys.stderr)
        raise SystemExit(2)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _Parser(prog="python -m bot.engine", description="The UNO rules engine.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    scenario = commands.add_parser("scenario", help="apply actions to a dealt deck; JSON in/out")
    scenario.add_argument("file", help="a JSON file, or - for standard input")
    sim = commands.add_parser("simulate", help="play whole rounds headless")
    sim.add_argument("--edition", choices=["classic", "sonic", "mario"], default="classic")
    sim.add_argument("--players", type=int, choices=range(2, 11), default=4, metavar="2..10")
    sim.add_argument("--games", type=int, default=1000)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--policy", choices=sorted(POLICIES), default="random")
    args = parser.parse_args(argv)
    if args.command == "scenario":
        return _scenario(args.file)
    if args.games < 0:
        parser.error("--games must be 0 or more")
    return _simulate(args)


if __name__ == "__main__":
    sys.exit(main())
