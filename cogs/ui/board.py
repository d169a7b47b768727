"""Keeps each table message up to date from snapshots: coalesced edits, and a fresh message to ping
a new turn."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Iterator
from functools import partial

import discord

from bot.i18n import lang
from bot.i18n.pictures import picture_words
from bot.pictures import PictureQueue, Priority
from bot.render import render_scores, render_table
from bot.tables.manager import TableManager
from bot.tables.snapshot import TableSnapshot
from bot.tables.table import Status

from .table import SCORES_IMAGE, TABLE_IMAGE, table_view

log = logging.getLogger(__name__)

CLOSED = (Status.FINISHED, Status.CANCELLED)


class TableBoard:
    """One refresher task per table; a burst of snapshots collapses into one edit per interval.

    It hears of changes as snapshots (a manager listener) and never sees the live table.
    """

    def __init__(
        self,
        client: discord.Client,
        manager: TableManager,
        min_interval: float = 1.0,
        pictures: PictureQueue | None = None,
    ) -> None:
        self.client = client
        self.manager = manager
        self.pictures = pictures or PictureQueue()
        self.min_interval = min_interval
        self._latest: dict[str, TableSnapshot] = {}
        self._dirty: set[str] = set()
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._pinged: dict[str, int | None] = {}  # the user the current table message pinged
        self._message: dict[str, int] = {}  # the table message this board posted last
        self._holds: dict[str, int] = {}  # tables whose clicks are being acknowledged
        self._free: dict[str, asyncio.Event] = {}  # set when a table's last hold ends

    def on_change(self, table: TableSnapshot) -> None:
        """A listener: show the newest snapshot of a started table."""
        if not table.started:
            return
        if table.status is Status.CANCELLED and self._message_id(table) is None:
            return
        if table.table_id not in self._latest and table.table_message_id is not None:
            # Seen first with a message already posted (after a restart): its player was pinged.
            self._pinged[table.table_id] = self._awaited_user(table)
        self.request(table)

    def request(self, table: TableSnapshot) -> None:
        """Ask for the table message to show ``table`` (or a newer snapshot) soon."""
        key = table.table_id
        latest = self._latest.get(key)
        if latest is None or table.version >= latest.version:
            self._latest[key] = table
        self._dirty.add(key)
        if key not in self._tasks:
            self._tasks[key] = asyncio.get_running_loop().create_task(self._run(key))

    @contextlib.contextmanager
    def hold(self, table_id: str) -> Iterator[None]:
        """Keep this table's refresh waiting while a click is applied and acknowledged: the
        clicker's acknowledgement goes out first, and the picture is drawn right after."""
        self._holds[table_id] = self._holds.get(table_id, 0) + 1
        self._free.setdefault(table_id, asyncio.Event()).clear()
        try:
            yield
        finally:
            self._holds[table_id] -= 1
            if not self._holds[table_id]:
                del self._holds[table_id]
                self._free.pop(table_id).set()

    async def settle(self) -> None:
        """Wait until every requested refresh is done (tests and shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def _run(self, key: str) -> None:
        table = self._latest[key]
        try:
            while key in self._dirty:
                while key in self._holds:
                    await self._free[key].wait()
                self._dirty.discard(key)
                table = self._latest[key]
                try:
                    await self._refresh(table)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    # Logged, and the refresher goes on: the next change draws the table again.
                    log.exception("could not refresh table %s", key)
                if key in self._dirty and self.min_interval:
                    await asyncio.sleep(self.min_interval)  # pace edits under the channel limit
        finally:
            self._tasks.pop(key, None)
            if table.status in CLOSED and key not in self._dirty:
                self._latest.pop(key, None)
                self._pinged.pop(key, None)
                self._message.pop(key, None)

    def _message_id(self, table: TableSnapshot) -> int | None:
        return self._message.get(table.table_id, table.table_message_id)

    @staticmethod
    def _awaited_user(table: TableSnapshot) -> int | None:
        """The human whose move the table waits for (they get pinged), if any."""
        public = table.public
        if table.status is not Status.PLAYING or public is None or public.current is None:
            return None
        seat = table.seats[public.current]
        return seat.user_id if seat.computer is None else None

    async def _channel(self, table: TableSnapshot) -> discord.abc.Messageable:
        channel = self.client.get_channel(table.game_channel_id)
        if channel is None:
            channel = await self.client.fetch_channel(table.game_channel_id)
        assert isinstance(channel, discord.abc.Messageable)
        return channel

    async def _picture(self, table: TableSnapshot) -> discord.File:
        words = picture_words(lang(table.locale))  # the table's language, like its text
        # A table as restored at start waits behind every picture someone is waiting for.
        restored = self.manager.unchanged_since_restore(table)
        priority = Priority.BACKGROUND if restored else Priority.INTERACTIVE
        key = table.table_id
        if table.scores is not None:
            scores = partial(render_scores, words=words)
            png = await self.pictures.draw(scores, table.scores, priority=priority, key=key)
            return discord.File(io.BytesIO(png), filename=SCORES_IMAGE)
        assert table.public is not None
        draw = partial(render_table, words=words)
        png = await self.pictures.draw(draw, table.public, priority=priority, key=key)
        return discord.File(io.BytesIO(png), filename=TABLE_IMAGE)

    async def _refresh(self, table: TableSnapshot) -> None:
        file = await self._picture(table)
        layout = table_view(table, image=file.filename)
        channel = await self._channel(table)
        ping = self._awaited_user(table)
        previous = self._message_id(table)
        if previous is not None and (ping is None or ping == self._pinged.get(table.table_id)):
            try:
                await channel.get_partial_message(previous).edit(  # type: ignore[attr-defined]
                    view=layout, attachments=[file]
                )
                return
            except discord.NotFound:
                previous = None  # deleted meanwhile (or by a previous run): post a new one
        mentions = (
            discord.AllowedMentions(users=[discord.Object(ping)], everyone=False, roles=False)
            if ping is not None
            else discord.AllowedMentions.none()
        )
        sent = await channel.send(view=layout, files=[file], allowed_mentions=mentions)
        self._message[table.table_id] = sent.id  # also when the table has just finished
        self._pinged[table.table_id] = ping
        await self.manager.set_table_message(table.table_id, sent.id)
        if previous is not None:
            with contextlib.suppress(discord.HTTPException):  # already gone: nothing to tidy
                await channel.get_partial_message(previous).delete()  # type: ignore[attr-defined]

    async def close(self) -> None:
        """Stop every refresher (at unload)."""
        for task in list(self._tasks.values()):
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)
