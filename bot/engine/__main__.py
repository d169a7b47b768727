"""`python -m bot.engine scenario FILE|-` and `python -m bot.engine simulate ...`.

docs/rules.md describes both commands. Malformed input exits 2 with one line on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .cards import Edition, edition_deck
from .house import HouseRules
from .scenario import ScenarioError, run_scenario
from .simulate import POLICIES, simulate


def _fail(message: str) -> int:
    print(f"error: {' '.join(message.split())}", file=sys.stderr)
    return 2


def _scenario(path: str) -> int:
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as exc:
        return _fail(f"cannot read {path}: {exc.strerror}")
    except UnicodeDecodeError:
        return _fail(f"{path} is not UTF-8 text")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return _fail(f"malformed JSON: {exc}")
    except RecursionError:
        return _fail("malformed JSON: nested too deeply")
    except ValueError as exc:  # e.g. an integer longer than Python converts
        return _fail(f"malformed JSON: {exc}")
    # The refusals' English lives with the other texts (the engine holds none).
    from bot.i18n import refusals

    try:
        result = run_scenario(data, refusals.english)
    except ScenarioError as exc:
        return _fail(str(exc))
    except RecursionError:
        return _fail("the scenario is nested too deeply")
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")
    return 0


def _simulate(args: argparse.Namespace, house: HouseRules) -> int:
    result = simulate(args.edition, args.players, args.games, args.seed, args.policy, house)
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")
    return 0


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:
        # One line and exit 2, as for any other malformed input.
        raise SystemExit(_fail(message))


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
    sim.add_argument(
        "--house",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a house rule, e.g. stack=all or jump_in=true (repeatable)",
    )
    args = parser.parse_args(argv)
    if args.command == "scenario":
        return _scenario(args.file)
    if args.games < 0:
        parser.error("--games must be 0 or more")
    try:
        house = HouseRules.from_text(args.house)
    except ValueError as exc:
        parser.error(str(exc))
    if house.hand_size * args.players + 1 > len(edition_deck(Edition(args.edition))):
        parser.error(f"the deck cannot deal {house.hand_size} cards to {args.players} players")
    return _simulate(args, house)


if __name__ == "__main__":
    sys.exit(main())
