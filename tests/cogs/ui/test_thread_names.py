"""Game threads are named so a server's thread list tells its games apart."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

from bot.engine import RuleSet
from bot.engine.cards import Edition
from bot.tables.commands import Actor
from bot.tables.manager import TableManager
from bot.tables.scheduler import ManualScheduler
from bot.tables.snapshot import TableSnapshot
from cogs.ui.table import THREAD_NAME_LIMIT, thread_name

AT = datetime(2026, 12, 2, 14, 5, tzinfo=UTC)


async def lobby(edition: Edition, host: str) -> TableSnapshot:
    """A table just opened by ``host``."""
    manager = TableManager(None, scheduler=ManualScheduler(), brain=None)
    opened = await manager.create("tbl", 1, 100, Actor(1, host), RuleSet(edition), threads=True)
    return opened.table


async def test_a_thread_names_the_edition_the_host_and_the_start_in_the_tables_language() -> None:
    table = await lobby(Edition.SONIC, "Alice")
    assert thread_name(table, AT) == "UNO Sonic the Hedgehog · Alice · 12/2/26, 2:05\u202fPM UTC"
    german = dataclasses.replace(table, locale="de")
    assert thread_name(german, AT) == "UNO Sonic the Hedgehog · Alice · 02.12.26, 14:05 UTC"
    # Two games of the same host and edition started a minute apart are told apart.
    assert thread_name(table, AT) != thread_name(table, AT.replace(minute=6))


async def test_a_long_host_name_is_shortened_to_fit_discords_limit() -> None:
    table = await lobby(Edition.MARIO, "Wu")
    long = dataclasses.replace(table.seats[0], name="W" * 100)
    name = thread_name(dataclasses.replace(table, seats=(long, *table.seats[1:])), AT)
    assert len(name) <= THREAD_NAME_LIMIT
    assert name.startswith("UNO Super Mario · WWW") and name.endswith(
        "W… · 12/2/26, 2:05\u202fPM UTC"
    )
