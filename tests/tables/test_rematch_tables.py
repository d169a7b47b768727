"""A rematch lobby at the table layer: the same seats in their order, the asker as host, opened
once, and not while another lobby waits in the channel."""

from __future__ import annotations

import random

import pytest

from bot.engine import RuleSet, Scoring
from bot.engine.cards import Edition
from bot.tables.commands import Actor, Cancel
from bot.tables.manager import TableManager
from bot.tables.refusals import TableError
from bot.tables.scheduler import ManualScheduler
from bot.tables.table import Seat, Status

RULES = RuleSet(edition=Edition.MARIO, scoring=Scoring.LOWEST, target=200, house_rule="Dance")
SEATS = [Seat(1, "Ann"), Seat(-2, "Ada (bot)", "hard"), Seat(3, "Bo")]


def manager() -> TableManager:
    return TableManager(None, scheduler=ManualScheduler(), rng=random.Random(1), brain=None)


async def test_a_rematch_seats_everyone_again_with_the_asker_as_host() -> None:
    tables = manager()
    outcome = await tables.create(
        "r1", 1, 100, Actor(3, "Bo again"), RULES, threads=True, seats=SEATS, rematch_of="old"
    )
    table = outcome.table
    assert table.status is Status.LOBBY and table.host_id == 3
    assert [(s.user_id, s.name, s.computer) for s in table.seats] == [
        (1, "Ann", None),
        (-2, "Ada (bot)", "hard"),
        (3, "Bo again", None),
    ]
    assert table.rules == RULES and table.rematch_of == "old"
    assert tables.rematch_for("old") == table

    # Once: a second ask names the open lobby.
    with pytest.raises(TableError) as again:
        await tables.create("r2", 1, 100, Actor(1, "Ann"), RULES, threads=True, rematch_of="old")
    assert again.value.note.key == "rematch_open"
    assert again.value.message == "The rematch is already open: https://discord.com/channels/1/100"

    # Not while another lobby waits in the channel.
    await tables.act("r1", Actor(3, "Bo"), Cancel())
    await tables.create("new", 1, 100, Actor(9, "Cy"), RuleSet(), threads=True)
    with pytest.raises(TableError) as busy:
        await tables.create("r3", 1, 100, Actor(1, "Ann"), RULES, threads=True, rematch_of="old")
    assert busy.value.note.key == "rematch_busy"
    assert set(tables.tables) == {"new"}


async def test_a_rematch_without_computers_seats_the_humans_alone() -> None:
    tables = manager()
    outcome = await tables.create(
        "r1",
        1,
        100,
        Actor(1, "Ann"),
        RULES,
        threads=True,
        seats=SEATS,
        rematch_of="old",
        computers=None,
    )
    assert [s.user_id for s in outcome.table.seats] == [1, 3]
