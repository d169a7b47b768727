"""The states a table saves while its match is played, with and without its round records.

Seeded matches of 2 to 6 normal computer players (the three editions, first to 500) are played
at a ``Table`` as a table plays them; at every change (each action, each round's end) the table
is written as ``Table.to_record`` writes it, once as it is (the round being played logged, the
finished rounds recorded) and once with the round record left out (no log, no records), as
every table saved before rounds were recorded. Used by ``bench/storage.py --table-saves``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import dataclass

from bot.engine import RuleSet, ai
from bot.engine.cards import Edition
from bot.engine.match import Match
from bot.tables.table import Seat, Status, Table

EDITIONS = (Edition.CLASSIC, Edition.SONIC, Edition.MARIO)
ACTIONS_CAP = 5_000  # a round still going after this many actions is left (never seen)


@dataclass(frozen=True, slots=True)
class SavedState:
    """One save of a table: its state with and without the round record, and the time each
    took to write (seconds)."""

    recorded: str
    unrecorded: str
    recorded_s: float
    unrecorded_s: float
    rounds_recorded: int  # finished rounds whose records the state carries


def table_of(seed: int) -> Table:
    """A started table of 2 to 6 players, its match dealt."""
    rules = RuleSet(edition=EDITIONS[seed % 3], target=500)
    players = 2 + seed % 5
    seats = [Seat(1_000_000 + seat, f"Player {seat + 1}") for seat in range(players)]
    match = Match(rules, players, random.Random(seed))
    return Table(
        table_id=f"bench{seed}",
        guild_id=1,
        channel_id=10,
        host_id=seats[0].user_id,
        rules=rules,
        seats=seats,
        status=Status.PLAYING,
        match=match,
        seed=seed,
        started_at=1_700_000_000.0,
    )


def played(table: Table, rng: random.Random) -> Iterator[Table]:
    """The table after each change of its match, to the end."""
    match = table.match
    assert match is not None
    while True:
        game = match.game
        for _ in range(ACTIONS_CAP):
            if game.over:
                break
            match.apply(ai.decide(game, game.current, "normal", rng))
            game.end_if_stalled()
            table.version += 1
            yield table
        if not game.over:
            return
        match.finish_round()
        table.status = Status.FINISHED if match.over else Status.ROUND_OVER
        table.version += 1
        yield table
        if match.over:
            return
        match.next_round()
        table.status = Status.PLAYING
        table.version += 1
        yield table


def both_states(table: Table) -> SavedState:
    """The table written as it is, and again without its round record."""
    match = table.match
    assert match is not None
    start = time.perf_counter()
    recorded = table.to_record()
    middle = time.perf_counter()
    log, records = match.log, match.records
    match.log, match.records = None, []
    try:
        unrecorded = table.to_record()
    finally:
        match.log, match.records = log, records
    end = time.perf_counter()
    return SavedState(recorded, unrecorded, middle - start, end - middle, len(records))


def table_saves(matches: int, seed: int) -> Iterator[SavedState]:
    """Every save of ``matches`` seeded matches, in the order they were made."""
    for number in range(matches):
        table = table_of(seed + number)
        rng = random.Random(seed * 1_000 + number)
        for state in played(table, rng):
            yield both_states(state)
