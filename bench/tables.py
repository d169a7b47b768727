"""CPU per click on the table path, without Discord or a database: ``TableManager.act`` for the
awaited player's move, then the table and hand layouts built from its outcome.

Prints JSON: clicks, microseconds per click for ``act`` and for the layouts. The games are
seeded, so two checkouts play the very same clicks under the printed rules.
Run: python bench/tables.py [--games N] [--house NAME=VALUE ...] [--no-layouts]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
from typing import Any

from bot.engine import Action, HouseRules, RuleSet
from bot.engine.game import Game, Phase
from bot.tables.commands import ANY_SEAT, Actor, Join, Start
from bot.tables.manager import TableManager
from bot.tables.scheduler import ManualScheduler
from cogs.ui.hand import hand_layout
from cogs.ui.table import table_view


def move(game: Game) -> Action:
    """The first legal move, as a click asks it."""
    seat = game.current
    if game.phase is Phase.COLOR:
        return Action(ANY_SEAT, "choose_color", color=0)
    if game.phase is Phase.RESPOND:
        return Action(ANY_SEAT, "accept")
    for action in game.legal_actions(seat):
        if action.do == "play":
            return Action(ANY_SEAT, "play", action.card, action.color, target=action.target)
    return Action(ANY_SEAT, "pass" if game.phase is Phase.DRAWN else "draw")


async def measure(games: int, house: HouseRules, layouts: bool) -> dict[str, Any]:
    clicks, acting, drawing = 0, 0.0, 0.0
    for number in range(games):
        manager = TableManager(
            None, scheduler=ManualScheduler(), rng=random.Random(number), brain=None
        )
        host = Actor(1, "Ann")
        await manager.create("t", 1, 1, host, RuleSet(target=None, house=house), threads=True)
        await manager.act("t", Actor(2, "Bob"), Join())
        await manager.act("t", Actor(3, "Cal"), Join())
        await manager.act("t", host, Start())
        while (table := manager.tables.get("t")) is not None and table.status.value == "playing":
            assert table.match is not None
            game = table.match.game
            actor = Actor(table.seats[game.current].user_id)
            start = time.perf_counter()
            outcome = await manager.act("t", actor, move(game), table.version)
            done = time.perf_counter()
            if layouts:
                table_view(outcome.table, image="table.png")
                if outcome.hand is not None:
                    hand_layout("t", outcome.version, outcome.hand)
            clicks += 1
            acting += done - start
            drawing += time.perf_counter() - done
    return {
        "games": games,
        "house": house.to_dict(),
        "clicks": clicks,
        "act_us_per_click": round(acting / max(clicks, 1) * 1e6, 1),
        "layouts_us_per_click": round(drawing / max(clicks, 1) * 1e6, 1) if layouts else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--house", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--no-layouts", action="store_true")
    args = parser.parse_args()
    house = HouseRules.from_text(args.house)
    print(json.dumps(asyncio.run(measure(args.games, house, not args.no_layouts)), indent=2))


if __name__ == "__main__":
    main()
