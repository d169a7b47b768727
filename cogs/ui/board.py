"""Keeps each table message up to date: coalesced edits, and a fresh message to ping a new turn."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging

import discord

from bot.render import render_scores, render_table
from bot.tables.manager import Outcome, TableManager
from bot.tables.table import Status, Table

from .table import SCORES_IMAGE, TABLE_IMAGE, scores_text, table_view

log = logging.getLogger(__name__)


class TableBoard:
    """One refresher per table: bursts of changes collapse into one edit per interval."""

    def __init__(self, client: discord.Client, manager: TableManager, min_interval: float = 1.0):
        self.client = client
        self.manager = manager
        self.min_interval = min_interval
        self._latest: dict[str, Table] = {}
        self._dirty: set[str] = set()
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._pinged: dict[str, int | None] = {}
        manager.listeners.append(self.on_change)

    async def on_change(self, table: Table, outcome: Outcome) -> None:
        if table.status is Status.LOBBY:
            return
        if table.status is Status.CANCELLED and table.table_message_id is None:
            return
        self.request(table)

    def restored(self, table: Table) -> None:
        """Refresh a table reloaded at start in place: its player was already pinged."""
        if table.match is not None and table.status is Status.PLAYING:
            seat = table.seats[table.match.game.current]
            self._pinged[table.table_id] = seat.user_id if seat.computer is None else None
        self.request(table)

    def request(self, table: Table) -> None:
        """Ask for the table message to show ``table`` as it is now (or soon after)."""
        key = table.table_id
        self._latest[key] = table
        self._dirty.add(key)
        if key not in self._tasks:
            task = asyncio.get_running_loop().create_task(self._run(key))
            self._tasks[key] = task

    async def settle(self) -> None:
        """Wait until every requested refresh is done (tests and shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def _run(self, key: str) -> None:
        try:
            while key in self._dirty:
                self._dirty.discard(key)
                table = self._latest[key]
                try:
                    await self._refresh(table)
                except discord.HTTPException:
                    log.exception("could not refresh table %s", key)
                if key in self._dirty and self.min_interval:
                    await asyncio.sleep(self.min_interval)  # pace edits under the channel limit
        finally:
            self._tasks.pop(key, None)
            if table.status in (Status.FINISHED, Status.CANCELLED):
                self._latest.pop(key, None)
                self._pinged.pop(key, None)

    async def _channel(self, table: Table) -> discord.abc.Messageable:
        channel = self.client.get_channel(table.game_channel_id)
        if channel is None:
            channel = await self.client.fetch_channel(table.game_channel_id)
        assert isinstance(channel, discord.abc.Messageable)
        return channel

    async def _refresh(self, table: Table) -> None:
        if table.match is None:
            return
        view = self.manager.public(table)
        files: list[discord.File] = []
        over = table.status in (Status.ROUND_OVER, Status.FINISHED)
        if over:
            board = table.match.score_view(table.names())
            png = await asyncio.to_thread(render_scores, board)
            files.append(discord.File(io.BytesIO(png), filename=SCORES_IMAGE))
            image = SCORES_IMAGE
        else:
            png = await asyncio.to_thread(render_table, view)
            files.append(discord.File(io.BytesIO(png), filename=TABLE_IMAGE))
            image = TABLE_IMAGE
        layout = table_view(table, view, image=image, deadline=table.deadline)
        if over:
            layout.children[0].add_item(discord.ui.TextDisplay(scores_text(table)))  # type: ignore[attr-defined]
        channel = await self._channel(table)
        current = view.current
        ping: int | None = None
        if table.status is Status.PLAYING and current is not None:
            seat = table.seats[current]
            ping = seat.user_id if seat.computer is None else None
        previous = table.table_message_id
        if previous is not None and (ping is None or ping == self._pinged.get(table.table_id)):
            try:
                message = channel.get_partial_message(previous)  # type: ignore[attr-defined]
                await message.edit(view=layout, attachments=files)
                return
            except discord.NotFound:
                previous = None  # deleted meanwhile (or by a previous run): post a new one
        mentions = (
            discord.AllowedMentions(users=[discord.Object(ping)], everyone=False, roles=False)
            if ping is not None
            else discord.AllowedMentions.none()
        )
        sent = await channel.send(view=layout, files=files, allowed_mentions=mentions)
        await self.manager.set_table_message(table.table_id, sent.id)
        table.table_message_id = sent.id  # also when the table has just finished
        self._pinged[table.table_id] = ping
        if previous is not None:
            with contextlib.suppress(discord.HTTPException):  # already gone: nothing to tidy
                await channel.get_partial_message(previous).delete()  # type: ignore[attr-defined]

    async def close(self) -> None:
        for task in list(self._tasks.values()):
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)
