"""Spectators: Watch (a private view that keeps up with the table) and cheers on the table.

Neither changes the game: a watch reads the table (``Look``) and a cheer is counted beside it
(``bot.tables.cheers``); the table message shows the cheers at its next paced edit, so they
share its edit budget. A watch is redrawn through the interaction that opened it, at most once a
``interval`` seconds, for as long as Discord lets the bot edit it (15 minutes).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.i18n import Lang
from bot.tables.cheers import Cheers
from bot.tables.commands import Actor, Look
from bot.tables.manager import TableManager
from bot.tables.notes import note
from bot.tables.refusals import TableError
from bot.tables.snapshot import TableSnapshot
from bot.tables.table import Status
from cogs.lang import user_lang
from cogs.replies import NO_PINGS, say
from cogs.ui.board import TableBoard
from cogs.ui.watch import watch_view

log = logging.getLogger(__name__)

WATCH_LIFETIME = 14 * 60.0  # an interaction's message can be edited for 15 minutes
WATCH_INTERVAL = 2.0  # seconds between two redraws of one table's watches
CLOSED = (Status.FINISHED, Status.CANCELLED)


@dataclass(slots=True)
class Watcher:
    """One open watch: the interaction that can edit it, its language, until when."""

    interaction: discord.Interaction[Any]
    tongue: Lang
    until: float


class Spectators:
    """The watches of every table and the audience's cheers."""

    def __init__(
        self,
        manager: TableManager,
        board: TableBoard,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        interval: float = WATCH_INTERVAL,
    ) -> None:
        self.manager = manager
        self.board = board
        self.clock = clock
        self.sleep = sleep
        self.interval = interval
        self.cheers = Cheers(clock)
        self._watchers: dict[str, dict[int, Watcher]] = {}
        self._latest: dict[str, TableSnapshot] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}

    async def watch(self, interaction: discord.Interaction[Any], table_id: str) -> None:
        """Open (or reopen) this person's private view of the table."""
        tongue = user_lang(interaction)
        try:
            outcome = await self.manager.act(table_id, _actor(interaction), Look())
        except TableError as exc:
            await say(interaction, exc.note.render(tongue))
            return
        await interaction.response.send_message(
            view=watch_view(outcome.table, tongue), ephemeral=True, allowed_mentions=NO_PINGS
        )
        until = self.clock() + WATCH_LIFETIME
        self._watchers.setdefault(table_id, {})[interaction.user.id] = Watcher(
            interaction, tongue, until
        )

    async def cheer(self, interaction: discord.Interaction[Any], table_id: str, emote: int) -> None:
        """Count a cheer (once per cooldown) and have the table message show it."""
        tongue = user_lang(interaction)
        latest = self.board.latest(table_id)
        if latest is None or latest.status in CLOSED:
            await say(interaction, note("gone").render(tongue))
            return
        wait = self.cheers.cheer(table_id, interaction.user.id, emote)
        if wait:
            await say(interaction, note("cheer_wait", seconds=int(wait) + 1).render(tongue))
            return
        await interaction.response.defer()  # the table message shows the cheer
        self.board.redraw(table_id)

    def on_change(self, table: TableSnapshot) -> None:
        """A listener: redraw the table's watches soon (never under the table's lock)."""
        key = table.table_id
        if table.status in CLOSED:
            self.cheers.forget(key)
        if key not in self._watchers:
            return
        self._latest[key] = table
        if key not in self._tasks:
            task = asyncio.get_running_loop().create_task(self._redraw(key))
            self._tasks[key] = task

    async def _redraw(self, key: str) -> None:
        try:
            while key in self._latest:
                table = self._latest.pop(key)
                now = self.clock()
                watchers = self._watchers.get(key, {})
                for user_id, watcher in list(watchers.items()):
                    if watcher.until <= now:
                        del watchers[user_id]
                        continue
                    try:
                        await watcher.interaction.edit_original_response(
                            view=watch_view(table, watcher.tongue), allowed_mentions=NO_PINGS
                        )
                    except discord.HTTPException:
                        del watchers[user_id]  # dismissed or expired: nothing to keep up
                if table.status in CLOSED or not watchers:
                    self._watchers.pop(key, None)
                    self._latest.pop(key, None)
                    return
                await self.sleep(self.interval)
        finally:
            self._tasks.pop(key, None)

    def watching(self, table_id: str) -> int:
        """How many watches of the table are open."""
        return len(self._watchers.get(table_id, {}))

    async def close(self) -> None:
        for task in list(self._tasks.values()):
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)


def _actor(interaction: discord.Interaction[Any]) -> Actor:
    """A spectator as the manager knows people (a Look needs no more)."""
    return Actor(interaction.user.id, interaction.user.display_name)
