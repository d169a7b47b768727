"""Players, a manager on a real SQLite file, a started table and a legal move: shared by the
table tests (and the board's and the storage's tests that drive tables)."""

from __future__ import annotations

import random

from bot.engine import Action, RuleSet, Scoring
from bot.engine.cards import CARD_INDEX, COLOR_INDEX, Edition
from bot.engine.game import Phase
from bot.storage import Storage
from bot.tables.commands import (
    ANY_SEAT,
    Actor,
    Command,
    Join,
    Start,
)
from bot.tables.manager import TableManager
from bot.tables.scheduler import ManualScheduler
from bot.tables.table import Table

ALICE, BOB, CAROL, MALLORY = 11, 22, 33, 99


NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol", MALLORY: "Mallory"}


def who(user_id: int) -> Actor:
    return Actor(user_id, NAMES.get(user_id, "Someone"))


def manager_on(storage: Storage, scheduler: ManualScheduler | None = None) -> TableManager:
    return TableManager(storage, scheduler=scheduler or ManualScheduler(), rng=random.Random(3))


async def started(
    manager: TableManager, edition: Edition = Edition.CLASSIC, target: int | None = 500
) -> Table:
    rules = RuleSet(edition=edition, scoring=Scoring.STANDARD, target=target)
    await manager.create("t1", 1, 100, who(ALICE), rules, threads=True)
    await manager.act("t1", who(BOB), Join())
    await manager.act("t1", who(CAROL), Join())
    await manager.act("t1", who(ALICE), Start(555))
    return manager.tables["t1"]


def user_at(table: Table, seat: int) -> int:
    return table.seats[seat].user_id


def legal(table: Table) -> Command:
    """A legal move for whoever the game awaits, as a click would ask it."""
    assert table.match is not None
    game = table.match.game
    seat = game.current
    if game.phase is Phase.COLOR:
        return Action(ANY_SEAT, "choose_color", color=COLOR_INDEX["red"])
    if game.phase is Phase.RESPOND:
        return Action(ANY_SEAT, "accept")
    cards = game.playable(seat)
    if not cards:
        return Action(ANY_SEAT, "draw" if game.phase is Phase.TURN else "pass")
    wild = cards[0] >= CARD_INDEX["wild"]
    return Action(ANY_SEAT, "play", cards[0], COLOR_INDEX["blue"] if wild else None)


async def move(manager: TableManager, table_id: str = "t1") -> None:
    table = manager.tables[table_id]
    seat = table.match.game.current  # type: ignore[union-attr]
    await manager.act(table_id, who(user_at(table, seat)), legal(table), table.version)
