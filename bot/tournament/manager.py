"""The one owner of every tournament: requests under one lock, saved before anyone hears.

Tables are opened through an injected ``TableOpener`` (the table manager's lobby machinery in
the bot, a fake in tests); the table layer reports each finished table back through
``table_finished``. Time comes from the scheduler's clock, so tests drive it by hand.

Every change is saved before any table it seats is opened: a failed save rolls the tournament
back to what was saved, opens nothing and refuses the request (``tournament_save_failed``),
so no table ever plays for a tournament that does not know it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from bot.storage import StorageError
from bot.storage.models import FORMER_PLAYER_NAME
from bot.tables.scheduler import Scheduler

from .model import EditWindow, Entrant, Finish, Kind, Tournament, TournamentError

log = logging.getLogger(__name__)

Publisher = Callable[[Tournament], Awaitable[None]]
RETRY_SECONDS = 15.0  # a table's end that could not be saved is counted again this much later


class TableOpener(Protocol):
    async def open_table(
        self,
        tournament: Tournament,
        table_id: str,
        players: Sequence[Entrant],
        berserk: frozenset[int],
    ) -> None:
        """Open table ``table_id`` of the tournament for these players."""
        ...


class TournamentStore(Protocol):
    async def save_tournament(self, record: dict[str, Any]) -> None: ...

    async def load_tournaments(self) -> list[dict[str, Any]]: ...


@dataclass(frozen=True, slots=True)
class TableFate:
    """What became of a tournament table while nobody was listening (after a restart)."""

    playing: bool
    placings: tuple[int, ...] = ()  # its players in order, when it finished; else it closed
    places: tuple[int, ...] = ()  # their places where partners share one (team tables)


TableCheck = Callable[[Tournament, str], Awaitable[TableFate]]


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
        self._ended: dict[str, Tournament] = {}  # finished, their last standings not yet shown
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

    def view(self, tournament_id: str) -> Tournament | None:
        """A copy of a running tournament as it stands (for presenting)."""
        t = self.tournaments.get(tournament_id)
        return None if t is None else Tournament.from_dict(t.to_dict())

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
            if tournament_id in self.tournaments:
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
            try:
                await self._commit(t)
            except TournamentError:
                self.tournaments.pop(tournament_id, None)
                raise
            return self._copy(t)

    async def join(self, tournament_id: str, entrant: Entrant) -> Tournament:
        return await self._request(tournament_id, lambda t: t.join(entrant, self.clock()))

    async def leave(self, tournament_id: str, user_id: int) -> Tournament:
        return await self._request(tournament_id, lambda t: t.leave(user_id))

    async def berserk(self, tournament_id: str, user_id: int) -> Tournament:
        return await self._request(tournament_id, lambda t: t.go_berserk(user_id))

    async def start_knockout(self, tournament_id: str) -> Tournament:
        return await self._request(tournament_id, Tournament.close_entries)

    async def close(self, tournament_id: str) -> Tournament:
        """End it now: no more tables; the ones playing still count."""

        def close(t: Tournament) -> None:
            t.closed = True
            t.waiting.clear()

        return await self._request(tournament_id, close)

    async def set_standings_message(self, tournament_id: str, message_id: int) -> None:
        """Remember the standings message's id (saved; a failure is only logged)."""
        async with self._lock:
            t = self.tournaments.get(tournament_id) or self._ended.get(tournament_id)
            if t is None or t.standings_message_id == message_id:
                return
            t.standings_message_id = message_id
            try:
                await self._save(t)
            except StorageError:
                log.warning("could not save tournament %s's message id", tournament_id)

    async def forget_member(self, guild_id: int, user_id: int) -> int:
        """A member who asked to be forgotten: their name out of this server's tournaments
        still held here (they play on as a former player); how many changed. The stored ones
        are scrubbed by the league's forget-me."""
        changed = 0
        async with self._lock:
            for t in [*self.tournaments.values(), *self._ended.values()]:
                entrant = t.entrants.get(user_id)
                if t.guild_id != guild_id or entrant is None or entrant.name == FORMER_PLAYER_NAME:
                    continue
                t.entrants[user_id] = replace(entrant, name=FORMER_PLAYER_NAME)
                changed += 1
                try:
                    await self._save(t)
                except StorageError:  # the league's own scrub of the stored state covers it
                    log.warning("could not save tournament %s after a forget-me", t.tournament_id)
                self._standings_due(t.tournament_id)
        return changed

    async def table_finished(
        self, table_id: str, placings: Sequence[int], places: Sequence[int] = ()
    ) -> Finish | None:
        """A tournament table's match ended with these players in order, ``places`` their
        places where partners share one (None: not ours)."""
        async with self._lock:
            t = self.owner_of(table_id)
            if t is None:
                return None
            before = t.to_dict()
            done = t.finish(table_id, placings, self.clock(), places)
            try:
                await self._commit(t)
            except TournamentError:
                self._rollback(before)
                self._retry(table_id, lambda: self.table_finished(table_id, placings, places))
                return None
            return done

    async def table_abandoned(self, table_id: str) -> None:
        """A tournament table closed unplayed: its players are seated again."""
        async with self._lock:
            t = self.owner_of(table_id)
            if t is None:
                return
            before = t.to_dict()
            t.abandon(table_id, self.clock())
            try:
                await self._commit(t)
            except TournamentError:
                self._rollback(before)
                self._retry(table_id, lambda: self.table_abandoned(table_id))

    async def load(self) -> list[Tournament]:
        """Take up the unfinished tournaments as saved (at start, before the tables return)."""
        async with self._lock:
            for record in await self.store.load_tournaments():
                try:
                    t = Tournament.from_dict(record)
                except (KeyError, TypeError, ValueError):
                    log.exception("could not restore tournament %s", record.get("tournament_id"))
                    continue
                self.tournaments[t.tournament_id] = t
            return [self._copy(t) for t in self.tournaments.values()]

    async def resume(self, check: TableCheck | None = None) -> list[Tournament]:
        """After the tables are back: count each table that ended while the bot was down (as
        ``check`` tells), seat whoever waits, and resume the timers."""
        async with self._lock:
            for t in list(self.tournaments.values()):
                before = t.to_dict()
                now = self.clock()
                for table_id in list(t.tables) if check is not None else []:
                    assert check is not None
                    fate = await check(self._copy(t), table_id)
                    if fate.playing:
                        continue
                    if fate.placings:
                        t.finish(table_id, fate.placings, now, fate.places)
                    else:
                        t.abandon(table_id, now)
                try:
                    await self._commit(t)
                except TournamentError:
                    self._rollback(before)
                    self._after_save(self.tournaments[t.tournament_id])
            return [self._copy(t) for t in self.tournaments.values()]

    async def restore(self, check: TableCheck | None = None) -> list[Tournament]:
        """Load the unfinished tournaments and resume them (``load`` then ``resume``)."""
        await self.load()
        return await self.resume(check)

    # ----- under the lock -----

    async def _request(
        self, tournament_id: str, change: Callable[[Tournament], None]
    ) -> Tournament:
        async with self._lock:
            t = self._get(tournament_id)
            before = t.to_dict()
            try:
                change(t)
                await self._commit(t)
            except TournamentError:
                self._rollback(before)
                raise
            return self._copy(t)

    def _rollback(self, saved: dict[str, Any]) -> None:
        t = Tournament.from_dict(saved)
        self.tournaments[t.tournament_id] = t

    def _retry(self, table_id: str, again: Callable[[], Awaitable[object]]) -> None:
        async def job() -> None:
            await again()

        self.scheduler.schedule(f"tournament-retry:{table_id}", self.clock() + RETRY_SECONDS, job)

    async def _commit(self, t: Tournament) -> None:
        """Seat whoever can be seated, save, and only then open their tables."""
        now = self.clock()
        planned: list[tuple[str, tuple[int, ...], frozenset[int]]] = []
        for group in t.pair(now):
            table_id = f"{t.tournament_id}t{t.opened + 1}"  # a table id: [0-9a-z] only
            berserk = frozenset(u for u in group if u in t.berserk)
            t.seat(table_id, group)
            planned.append((table_id, group, berserk))
        try:
            await self._save(t)
        except StorageError as error:
            log.warning("could not save tournament %s: %s", t.tournament_id, error)
            raise TournamentError("tournament_save_failed") from None
        failed = False
        for table_id, group, berserk in planned:
            players = [t.entrants[u] for u in group]
            try:
                await self.opener.open_table(self._copy(t), table_id, players, berserk)
            except Exception:
                log.exception("could not open table %s of a tournament", table_id)
                t.abandon(table_id, self.clock())
                failed = True
        if failed:  # its players wait again; a later change seats them
            try:
                await self._save(t)
            except StorageError:
                log.warning("could not save tournament %s after a failed table", t.tournament_id)
        self._after_save(t)

    async def _save(self, t: Tournament) -> None:
        t.version += 1
        now = self.clock()
        record = t.to_dict()
        record["finished"] = t.finished(now)
        record["finished_at"] = now if record["finished"] else None
        try:
            await self.store.save_tournament(record)
        except BaseException:
            t.version -= 1
            raise

    def _after_save(self, t: Tournament) -> None:
        now = self.clock()
        if t.finished(now):
            self.tournaments.pop(t.tournament_id, None)
            self._ended[t.tournament_id] = t
            self.scheduler.cancel(f"tournament-end:{t.tournament_id}")
        elif t.ends_at is not None and not t.over(now):
            tournament_id = t.tournament_id
            self.scheduler.schedule(
                f"tournament-end:{tournament_id}", t.ends_at, lambda: self._end(tournament_id)
            )
        self._standings_due(t.tournament_id)

    async def _end(self, tournament_id: str) -> None:
        async with self._lock:
            t = self.tournaments.get(tournament_id)
            if t is None:
                return
            before = t.to_dict()
            t.waiting.clear()
            try:
                await self._commit(t)
            except TournamentError:
                self._rollback(before)
                self._retry(f"end:{tournament_id}", lambda: self._end(tournament_id))

    @staticmethod
    def _copy(t: Tournament) -> Tournament:
        return Tournament.from_dict(t.to_dict())

    # ----- the standings message, within its edit window -----

    def _standings_due(self, tournament_id: str) -> None:
        if self.publish is None:
            return
        key = f"tournament-standings:{tournament_id}"
        if self.scheduler.pending(key):
            return  # the write already due will show this change too
        window = self.windows.setdefault(tournament_id, EditWindow())
        when = window.next_at(self.clock())
        self.scheduler.schedule(key, when, lambda: self._write_standings(tournament_id))

    async def _write_standings(self, tournament_id: str) -> None:
        if self.publish is None:
            return
        t = self.tournaments.get(tournament_id) or self._ended.pop(tournament_id, None)
        if t is None:
            return
        window = self.windows.setdefault(tournament_id, EditWindow())
        window.spend(self.clock())
        if tournament_id not in self.tournaments:
            self.windows.pop(tournament_id, None)
        await self.publish(self._copy(t))
