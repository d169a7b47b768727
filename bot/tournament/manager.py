"""The one owner of every tournament: requests under one lock, saved before anyone hears.

Tables are opened through an injected ``TableOpener`` (the table manager's lobby machinery in
the bot, a fake in tests); the table layer reports each finished table back through
``table_finished``. Time comes from the scheduler's clock, so tests drive it by hand.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

from bot.tables.scheduler import Scheduler

from .model import EditWindow, Entrant, Finish, Kind, Tournament, TournamentError

log = logging.getLogger(__name__)

Publisher = Callable[[Tournament], Awaitable[None]]


class TableOpener(Protocol):
    async def open_table(
        self, tournament: Tournament, players: Sequence[Entrant], berserk: frozenset[int]
    ) -> str:
        """Open a table of the tournament for these players; returns its table id."""
        ...


class TournamentStore(Protocol):
    async def save_tournament(self, record: dict[str, Any]) -> None: ...

    async def load_tournaments(self) -> list[dict[str, Any]]: ...


class MemoryTournamentStore:
    """Records kept in memory (tests, and a bot without a database)."""

    def __init__(self) -> None:
        self.records: dict[str, dict[str, Any]] = {}

    async def save_tournament(self, record: dict[str, Any]) -> None:
        self.records[record["tournament_id"]] = record

    async def load_tournaments(self) -> list[dict[str, Any]]:
        return [r for r in self.records.values() if not r["finished"]]


class TournamentManager:
    """Opens, seats, scores and ends tournaments; the standings message paced to its window."""

    def __init__(
        self,
        opener: TableOpener,
        store: TournamentStore,
        scheduler: Scheduler,
        publish: Publisher | None = None,
    ) -> None:
        self.opener = opener
        self.store = store
        self.scheduler = scheduler
        self.clock = scheduler.clock
        self.publish = publish
        self.tournaments: dict[str, Tournament] = {}
        self.windows: dict[str, EditWindow] = {}
        self._lock = asyncio.Lock()

    # ----- lookup -----

    def in_channel(self, channel_id: int) -> Tournament | None:
        for t in self.tournaments.values():
            if t.channel_id == channel_id:
                return t
        return None

    def owner_of(self, table_id: str) -> Tournament | None:
        for t in self.tournaments.values():
            if table_id in t.tables:
                return t
        return None

    def _get(self, tournament_id: str) -> Tournament:
        t = self.tournaments.get(tournament_id)
        if t is None:
            raise TournamentError("tournament_unknown")
        return t

    # ----- requests -----

    async def open(
        self,
        tournament_id: str,
        kind: Kind,
        guild_id: int,
        channel_id: int,
        host_id: int,
        *,
        minutes: int | None = None,
        seed: int = 0,
        options: dict[str, Any] | None = None,
    ) -> Tournament:
        async with self._lock:
            if self.in_channel(channel_id) is not None:
                raise TournamentError("tournament_channel_busy")
            now = self.clock()
            ends_at = now + minutes * 60 if kind is Kind.ARENA and minutes else None
            t = Tournament(
                tournament_id,
                kind,
                guild_id,
                channel_id,
                host_id,
                opened_at=now,
                ends_at=ends_at,
                seed=seed,
                options=dict(options or {}),
            )
            self.tournaments[tournament_id] = t
            await self._commit(t)
            return t

    async def join(self, tournament_id: str, entrant: Entrant) -> None:
        async with self._lock:
            t = self._get(tournament_id)
            t.join(entrant, self.clock())
            await self._seat(t)
            await self._commit(t)

    async def leave(self, tournament_id: str, user_id: int) -> None:
        async with self._lock:
            t = self._get(tournament_id)
            t.leave(user_id)
            await self._commit(t)

    async def berserk(self, tournament_id: str, user_id: int) -> None:
        async with self._lock:
            t = self._get(tournament_id)
            t.go_berserk(user_id)
            await self._commit(t)

    async def start_knockout(self, tournament_id: str) -> None:
        async with self._lock:
            t = self._get(tournament_id)
            t.close_entries()
            await self._seat(t)
            await self._commit(t)

    async def close(self, tournament_id: str) -> None:
        """End it now: no more tables; the ones playing still count."""
        async with self._lock:
            t = self._get(tournament_id)
            t.closed = True
            t.waiting.clear()
            await self._commit(t)

    async def table_finished(self, table_id: str, placings: Sequence[int]) -> Finish | None:
        """A tournament table's match ended with these players in order (None: not ours)."""
        async with self._lock:
            t = self.owner_of(table_id)
            if t is None:
                return None
            done = t.finish(table_id, placings, self.clock())
            await self._seat(t)
            await self._commit(t)
            return done

    async def table_abandoned(self, table_id: str) -> None:
        """A tournament table closed unplayed: its players are seated again."""
        async with self._lock:
            t = self.owner_of(table_id)
            if t is None:
                return
            t.abandon(table_id, self.clock())
            await self._seat(t)
            await self._commit(t)

    async def restore(self) -> list[Tournament]:
        """Load the unfinished tournaments; their timers resume and waiting players are seated."""
        async with self._lock:
            for record in await self.store.load_tournaments():
                t = Tournament.from_dict(record)
                self.tournaments[t.tournament_id] = t
            for t in list(self.tournaments.values()):
                await self._seat(t)
                await self._commit(t)
            return list(self.tournaments.values())

    # ----- under the lock -----

    async def _seat(self, t: Tournament) -> None:
        for group in t.pair(self.clock()):
            berserk = frozenset(u for u in group if u in t.berserk)
            players = [t.entrants[u] for u in group]
            table_id = await self.opener.open_table(t, players, berserk)
            t.seat(table_id, group)

    async def _commit(self, t: Tournament) -> None:
        t.version += 1
        now = self.clock()
        record = t.to_dict()
        record["finished"] = t.finished(now)
        await self.store.save_tournament(record)
        if record["finished"]:
            self.tournaments.pop(t.tournament_id, None)
            self.scheduler.cancel(f"tournament-end:{t.tournament_id}")
        elif t.ends_at is not None and not t.over(now):
            self.scheduler.schedule(
                f"tournament-end:{t.tournament_id}", t.ends_at, lambda: self._end(t.tournament_id)
            )
        self._standings_due(t)

    async def _end(self, tournament_id: str) -> None:
        async with self._lock:
            t = self.tournaments.get(tournament_id)
            if t is None:
                return
            t.waiting.clear()
            await self._commit(t)

    # ----- the standings message, within its edit window -----

    def _standings_due(self, t: Tournament) -> None:
        if self.publish is None:
            return
        key = f"tournament-standings:{t.tournament_id}"
        if self.scheduler.pending(key):
            return  # the write already due will show this change too
        window = self.windows.setdefault(t.tournament_id, EditWindow())
        when = window.next_at(self.clock())
        self.scheduler.schedule(key, when, lambda: self._write_standings(t, window))

    async def _write_standings(self, t: Tournament, window: EditWindow) -> None:
        if self.publish is None:
            return
        window.spend(self.clock())
        await self.publish(Tournament.from_dict(t.to_dict()))
