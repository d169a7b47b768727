"""Tournament tables at the table manager: opened through its lobby, their ends reported back."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence

from bot.engine import RuleSet
from bot.tables.commands import Actor, Start
from bot.tables.manager import TableManager
from bot.tables.snapshot import TableSnapshot
from bot.tables.table import Seat, Status

from .manager import TournamentManager
from .model import Entrant, Tournament

log = logging.getLogger(__name__)

ThreadFor = Callable[[Tournament, str], Awaitable[int | None]]


def places_of(table: TableSnapshot, placings: Sequence[int]) -> list[int]:
    """At a team table, each of the placings' place: its team's (the winning team first, the
    others by their total); empty at other tables, where the order is the place."""
    scores = table.scores
    if not table.rules.teams or scores is None or not scores.team_totals:
        return []
    teams = table.rules.teams
    lowest = scores.scoring == "lowest"

    def key(team: int) -> tuple[bool, int]:
        total = scores.team_totals[team]
        return (team not in scores.winner_teams, total if lowest else -total)

    ranked = sorted({key(team) for team in range(teams)})
    seat_of = {seat.user_id: s for s, seat in enumerate(table.seats)}
    return [ranked.index(key(seat_of[u] % teams)) for u in placings]


def placings_of(table: TableSnapshot) -> list[int]:
    """A finished table's players as the league places them: the winners, then those still
    in by points (fewest first when lowest scores win), leavers last."""
    scores = table.scores
    if scores is None:
        return [seat.user_id for seat in table.seats]
    lowest = scores.scoring == "lowest"
    order = sorted(
        range(len(table.seats)),
        key=lambda s: (
            s not in scores.winners,
            not scores.active[s],
            scores.totals[s] if lowest else -scores.totals[s],
            s,
        ),
    )
    return [table.seats[s].user_id for s in order]


class ManagedTables:
    """Opens each tournament table as a started lobby of the table manager (in a thread when
    ``thread_for`` gives one) and tells the tournament manager when one ends."""

    def __init__(
        self, tables: TableManager, rules: RuleSet, thread_for: ThreadFor | None = None
    ) -> None:
        self.tables = tables
        self.rules = rules
        self.thread_for = thread_for
        self.tournaments: TournamentManager | None = None
        self._tasks: set[asyncio.Task[object]] = set()
        tables.subscribe(self.on_commit)

    async def open_table(
        self,
        tournament: Tournament,
        table_id: str,
        players: Sequence[Entrant],
        berserk: frozenset[int],
    ) -> None:
        """Open the table with the tournament's options: its rules (``rules``, as a RuleSet's
        dict), ``turn_seconds``, ``timeout_limit`` and ``locale``."""
        options = tournament.options
        rules = RuleSet.from_dict(options["rules"]) if "rules" in options else self.rules
        people = [p for p in players if p.computer is None] or list(players)
        host = Actor(people[0].user_id, people[0].name)
        teams = int(rules.teams)
        # Each seat's team as the tournament seated it (seats alternate: partners opposite).
        seats = [
            Seat(p.user_id, p.name, p.computer, index % teams if teams else None)
            for index, p in enumerate(players)
        ]
        await self.tables.create(
            table_id,
            tournament.guild_id,
            tournament.channel_id,
            host,
            rules,
            threads=True,
            turn_seconds=options.get("turn_seconds"),
            timeout_limit=int(options.get("timeout_limit", 3)),
            seats=seats,
            locale=str(options.get("locale", "en")),
            tournament_id=tournament.tournament_id,
            berserk=sorted(berserk),
            tournament_message_id=tournament.standings_message_id,
        )
        thread_id = await self.thread_for(tournament, table_id) if self.thread_for else None
        await self.tables.act(table_id, host, Start(thread_id))

    def on_commit(self, table: TableSnapshot) -> None:
        """Heard under the table's lock: the report runs as its own task."""
        if self.tournaments is None or table.status not in (Status.FINISHED, Status.CANCELLED):
            return
        if self.tournaments.owner_of(table.table_id) is None:
            return
        if table.status is Status.FINISHED:
            placings = placings_of(table)
            places = places_of(table, placings)
            report = self.tournaments.table_finished(table.table_id, placings, places)
        else:
            report = self.tournaments.table_abandoned(table.table_id)
        task = asyncio.get_running_loop().create_task(report)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[object]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a tournament table's end was not counted", exc_info=task.exception())

    async def settle(self) -> None:
        """Wait for the reports under way (tests, and shutdown)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
