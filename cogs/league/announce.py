"""Achievements announced privately when a finished match earns them: a direct message to the
player, in the table's language. Nothing is sent for a table restored at a start (its match was
announced, or not, before) or twice for one table."""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from bot.engine.achievements import newly_earned
from bot.i18n import lang
from bot.storage import Storage, StorageError
from bot.tables.snapshot import TableSnapshot
from bot.tables.table import Status

from .profile import ACHIEVEMENT_NAMES, read_rounds

log = logging.getLogger(__name__)

Send = Callable[[int, str], Awaitable[None]]
TABLES_KEPT = 1024  # finished tables remembered as announced


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
        self._done[table.table_id] = None
        while len(self._done) > TABLES_KEPT:
            self._done.popitem(last=False)
        if self.restored(table):
            return
        task = asyncio.get_running_loop().create_task(self.announce(table))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

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
            if not new:
                continue
            names = ", ".join(f"**{tongue.gettext(ACHIEVEMENT_NAMES[key])}**" for key in new)
            text = tongue.ngettext(
                "🏅 New achievement in this server's UNO league: {names}. See `/uno profile`.",
                "🏅 New achievements in this server's UNO league: {names}. See `/uno profile`.",
                len(new),
            ).format(names=names)
            try:
                await self.send(seat.user_id, text)
            except Exception:
                log.warning("could not tell %s of an achievement", seat.user_id, exc_info=True)
