"""Achievements announced privately when a finished match (for a podium, a finished tournament)
earns them: a direct message to the player, in the table's (the tournament's) language. Nothing
is sent for a table restored at a start (its match was announced, or not, before) or twice for
one table or tournament."""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from bot.engine.achievements import newly_earned
from bot.i18n import Lang, lang
from bot.storage import Storage, StorageError
from bot.tables.snapshot import TableSnapshot
from bot.tables.table import Status
from bot.tournament.model import Tournament, record_of

from .profile import ACHIEVEMENT_NAMES, TOURNAMENTS_COUNTED, read_rounds

log = logging.getLogger(__name__)

Send = Callable[[int, str], Awaitable[None]]
TABLES_KEPT = 1024  # finished tables and tournaments remembered as announced


class AchievementAnnouncer:
    """Hears every committed table change; at a match's end tells each player what it earned."""

    def __init__(
        self,
        storage: Callable[[], Storage | None],
        send: Send,
        restored: Callable[[TableSnapshot], bool] = lambda _: False,
    ) -> None:
        self.storage = storage
        self.send = send
        self.restored = restored
        self._done: OrderedDict[str, None] = OrderedDict()
        self._tasks: set[asyncio.Task[None]] = set()

    def on_change(self, table: TableSnapshot) -> None:
        """A listener of the table manager: never blocks, the work runs in a task."""
        if table.status is not Status.FINISHED or table.table_id in self._done:
            return
        self._remember(table.table_id)
        if self.restored(table):
            return
        task = asyncio.get_running_loop().create_task(self.announce(table))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _remember(self, key: str) -> None:
        self._done[key] = None
        while len(self._done) > TABLES_KEPT:
            self._done.popitem(last=False)

    async def wait(self) -> None:
        """Until every announcement under way is sent (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def announce(self, table: TableSnapshot) -> None:
        """Each human seat's new achievements, told to them alone."""
        storage = self.storage()
        if storage is None or table.scores is None:
            return
        tongue = lang(table.locale)
        rounds = len(table.scores.rounds)
        for seat in table.seats:
            if seat.computer is not None:
                continue
            try:
                history = await storage.player_history(table.guild_id, seat.user_id)
            except StorageError:
                log.warning("no achievements for %s: the league is not available", seat.user_id)
                continue
            if history is None:
                continue
            results = [(edition, won) for edition, won, _ in history.results]
            records = read_rounds(history)
            new = await asyncio.to_thread(newly_earned, results, records, rounds)
            if new:
                await self._tell(seat.user_id, new, tongue)

    async def on_tournament_finished(self, t: Tournament) -> None:
        """A listener of finished tournaments: the people on its podium told of their first
        tournament podium (a later one earns nothing new), once per tournament."""
        key = f"tournament:{t.tournament_id}"
        if key in self._done:
            return
        self._remember(key)
        storage = self.storage()
        people = [s.user_id for s in t.podium() if t.entrants[s.user_id].computer is None]
        if storage is None or not people:
            return
        try:
            records = await storage.finished_tournaments(t.guild_id, TOURNAMENTS_COUNTED)
        except StorageError:
            log.warning("no podium achievements for %s: no tournaments", t.tournament_id)
            return
        finished = [Tournament.from_dict(record) for record in records]
        if not any(f.tournament_id == t.tournament_id for f in finished):
            return  # not counted yet: it would be told as a later one's
        tongue = lang(str(t.options.get("locale", "en")))
        for user_id in people:
            if record_of(finished, user_id).podiums == 1:
                await self._tell(user_id, ["tournament_podium"], tongue)

    async def _tell(self, user_id: int, new: list[str], tongue: Lang) -> None:
        names = ", ".join(f"**{tongue.gettext(ACHIEVEMENT_NAMES[key])}**" for key in new)
        text = tongue.ngettext(
            "🏅 New achievement in this server's UNO league: {names}. See `/uno profile`.",
            "🏅 New achievements in this server's UNO league: {names}. See `/uno profile`.",
            len(new),
        ).format(names=names)
        try:
            await self.send(user_id, text)
        except Exception:
            log.warning("could not tell %s of an achievement", user_id, exc_info=True)
