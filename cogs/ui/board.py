"""Keeps each table message up to date from snapshots: one paced edit per change, a fresh
message before the old one ages, a short ping for a player who keeps the table waiting.

Requests per move: the table message is edited in place (one request). Its text always names
whose turn it is, and a player's live hand lights up by itself (an interaction edit, outside
the channel's limits). Only a player whose hand no longer follows the game (``hand_follows``)
gets a turn notice, once the table has waited ``ping_after`` seconds for them: a message that
mentions them, with a Show my hand button, deleted when the turn moves on. Every write to a
channel goes through its ``ChannelPacer`` (at most 5 in any 5 s). A message near Discord's age
limit for edits is never edited: the table moves to a fresh message (posted with a nonce saved
beforehand, then the old one deleted), so a crash or a retried post leaves one live message.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import secrets
import time
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import Any

import discord

from bot.crashpoints import crash_point
from bot.engine import Phase
from bot.i18n import Lang, lang
from bot.i18n.pictures import picture_words
from bot.pictures import PictureQueue, Priority
from bot.render import render_scores, render_table
from bot.tables.manager import TableManager
from bot.tables.snapshot import TableSnapshot
from bot.tables.table import Status

from .ids import PREFIX
from .pacer import ChannelPacer, Clock, Sleep
from .table import SCORES_IMAGE, TABLE_IMAGE, notice_view, table_view

log = logging.getLogger(__name__)

CLOSED = (Status.FINISHED, Status.CANCELLED)
PING_AFTER = 20.0  # seconds a table waits for a human before their ping is posted
# Pings are spread bot-wide: the tables restored at a start begin to wait together, and their
# pings would otherwise all fall due in one second, far past the bot's 50 requests a second.
PINGS_PER_SECOND = 10.0
# Discord refuses edits to a message older than an hour once it took many edits: a table
# message is replaced well before that.
MAX_MESSAGE_AGE = 50 * 60.0
RETRIES = 3  # attempts of one refresh before it waits for the next change
RETRY_DELAY = 2.0  # seconds before a failed refresh is tried again (doubled each time)
HISTORY_LIMIT = 50  # messages read back when a restarted table looks for its strays
UNKNOWN_CHANNEL, MISSING_ACCESS, OLD_MESSAGE = 10003, 50001, 30046

Turn = tuple[int, int, int, int, Phase]  # the awaited user, the round, both piles, the ask


class LostChannel(Exception):
    """The table's channel or thread is gone, or the bot may no longer see it."""


def channel_lost(exc: discord.HTTPException) -> bool:
    """404 Unknown Channel or 403 Missing Access: nothing can be shown there any more."""
    return (isinstance(exc, discord.NotFound) and exc.code == UNKNOWN_CHANNEL) or (
        isinstance(exc, discord.Forbidden) and exc.code == MISSING_ACCESS
    )


def ping_text(user_id: int, tongue: Lang) -> str:
    """The late ping, in the table's language."""
    _ = tongue.gettext
    return _("{player}, the UNO table is waiting for your move.").format(player=f"<@{user_id}>")


class TableBoard:
    """One refresher task per table; a burst of snapshots collapses into one paced edit.

    It hears of changes as snapshots (a manager listener) and never sees the live table.
    """

    def __init__(
        self,
        client: discord.Client,
        manager: TableManager,
        min_interval: float = 1.0,
        pictures: PictureQueue | None = None,
        *,
        pacer: ChannelPacer | None = None,
        clock: Clock = time.time,
        sleep: Sleep = asyncio.sleep,
        ping_after: float | None = PING_AFTER,
        pings_per_second: float = PINGS_PER_SECOND,
        max_age: float = MAX_MESSAGE_AGE,
    ) -> None:
        self.client = client
        self.manager = manager
        self.pictures = pictures if pictures is not None else PictureQueue()
        self.min_interval = min_interval
        self.pacer = pacer if pacer is not None else ChannelPacer(sleep=sleep)
        self.clock = clock  # wall time, to tell a message's age from its id
        self.sleep = sleep
        self.ping_after = ping_after
        self.ping_spacing = 1.0 / pings_per_second
        self._next_ping = float("-inf")  # pacer clock: when the next ping may fall due
        self.max_age = max_age
        manager.registry.keep_ended = True  # ended tables stay stored until shown here
        self._latest: dict[str, TableSnapshot] = {}
        self._shown: dict[str, int] = {}  # the version the table message shows
        self._dirty: set[str] = set()
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._message: dict[str, int] = {}  # the table message this board posted last
        self._turn: dict[str, Turn] = {}  # the turn each table awaits a human for
        self._ping: dict[str, tuple[int, Turn | None]] = {}  # the ping posted, for which turn
        self._ping_due: dict[str, Turn] = {}  # a ping to post for this turn
        self._last: dict[str, float] = {}  # when each table's last refresh began (pacer clock)
        self._restored: set[str] = set()  # first seen with messages left from before a start
        self._lost: set[str] = set()  # tables being closed because their channel is gone
        self._holds: dict[str, int] = {}  # tables whose clicks are being acknowledged
        self._free: dict[str, asyncio.Event] = {}  # set when a table's last hold ends
        # The audience's cheers for a table, shown on its message (set by the presenter).
        self.cheers: Callable[[str], str] = lambda _table_id: ""
        # Whether a player's live hand still follows the game at a table: then it shows the
        # turn, and no notice is posted for it.
        self.hand_follows: Callable[[str, int], bool] = lambda table_id, user_id: False

    # ----- hearing of changes -----

    def on_change(self, table: TableSnapshot) -> None:
        """A listener: show the newest snapshot of a started table."""
        key = table.table_id
        if key in self._lost:
            if table.status in CLOSED:  # the close of a table whose channel is gone
                self._lost.discard(key)
                self._forget(key)
            return
        if not table.started:
            return
        if key not in self._latest and (
            table.post_nonce or table.old_messages or table.ping_message_id
        ):
            self._restored.add(key)  # messages a previous run may have left behind
        if key not in self._latest and table.ping_message_id is not None:
            # A ping goes when its turn does, so one saved with the table is for the turn the
            # table was saved at: kept, and that player is not pinged again after a restart.
            self._ping[key] = (table.ping_message_id, _turn_of(table))
        self._watch_turn(table)
        self.request(table)

    def latest(self, table_id: str) -> TableSnapshot | None:
        """The newest snapshot of a table this board shows, if any."""
        return self._latest.get(table_id)

    def redraw(self, table_id: str) -> None:
        """Show the table's newest snapshot again (something beside it changed: its cheers),
        paced like any change."""
        latest = self._latest.get(table_id)
        if latest is not None:
            self._shown.pop(table_id, None)
            self.request(latest)

    def request(self, table: TableSnapshot) -> None:
        """Ask for the table message to show ``table`` (or a newer snapshot) soon."""
        key = table.table_id
        latest = self._latest.get(key)
        if latest is None or table.version >= latest.version:
            self._latest[key] = table
        self._dirty.add(key)
        if key not in self._tasks:
            task = asyncio.get_running_loop().create_task(self._run(key))
            self._tasks[key] = task
            task.add_done_callback(_report)

    def _watch_turn(self, table: TableSnapshot) -> None:
        """Start the ping clock when the table begins to wait for a human."""
        key = table.table_id
        turn = _turn_of(table)
        if turn == self._turn.get(key):
            return
        self.manager.scheduler.cancel(f"{key}:ping")
        self._ping_due.pop(key, None)
        if turn is None:
            self._turn.pop(key, None)
            return
        self._turn[key] = turn
        if self.ping_after is not None:
            when = self.manager.scheduler.clock() + self.ping_after
            self.manager.scheduler.schedule(f"{key}:ping", when, lambda: self._ping_now(key, turn))

    async def _ping_now(self, key: str, turn: Turn) -> None:
        """The table has waited long enough for this turn: the refresher posts the ping, in
        its turn among the pings falling due at the same time."""
        now = self.pacer.clock()
        at = max(now, self._next_ping)
        self._next_ping = at + self.ping_spacing
        if at > now:
            await self.sleep(at - now)
        latest = self._latest.get(key)
        if latest is None or self._turn.get(key) != turn:
            return
        self._ping_due[key] = turn
        self.request(latest)

    async def channel_gone(self, channel_id: int) -> None:
        """A channel or thread was deleted: close the started tables that lived there."""
        for table_id in self.manager.tables_in(channel_id):
            if table_id in self._latest:
                await self._close_lost(table_id)

    # ----- the clicks' priority -----

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

    # ----- the refresher -----

    async def _run(self, key: str) -> None:
        """Show the newest snapshot until none is waiting; an error is logged and the refresh
        tried again (a few times, then at the next change)."""
        failures = 0
        try:
            while key in self._dirty:
                try:
                    await self._refresh_once(key)
                    failures = 0
                except asyncio.CancelledError:
                    raise
                except LostChannel:
                    await self._close_lost(key)
                    return
                except Exception:
                    failures += 1
                    log.exception("could not refresh table %s (attempt %d)", key, failures)
                    if failures < RETRIES:
                        self._dirty.add(key)
                        await self.sleep(RETRY_DELAY * 2 ** (failures - 1))
                        continue
        finally:
            self._tasks.pop(key, None)
            table = self._latest.get(key)
            if table is not None and table.status in CLOSED and key not in self._dirty:
                self._forget(key)

    async def _refresh_once(self, key: str) -> None:
        while key in self._holds:
            await self._free[key].wait()
        # At most one refresh per table per min_interval: a burst of changes collapses.
        if (last := self._last.get(key)) is not None:
            wait = last + self.min_interval - self.pacer.clock()
            if wait > 0:
                await self.sleep(wait)
        # Wait for a free write slot before choosing the snapshot: the newest one goes out.
        await self.pacer.ready(self._latest[key].game_channel_id)
        while key in self._holds:
            await self._free[key].wait()
        self._dirty.discard(key)
        self._last[key] = self.pacer.clock()
        table = self._latest[key]
        channel = await self._channel(table)
        if key in self._restored:
            await self._tidy_restored(table, channel)
        if self._shown.get(key) != table.version:
            await self._draw(table, channel)
            self._shown[key] = table.version
        await self._update_ping(table, channel)
        if table.status in CLOSED and key not in self._dirty:
            await self.manager.forget_ended(key)

    async def _channel(self, table: TableSnapshot) -> discord.abc.Messageable:
        channel = self.client.get_channel(table.game_channel_id)
        if channel is None:
            try:
                channel = await self.client.fetch_channel(table.game_channel_id)
            except discord.HTTPException as exc:
                if channel_lost(exc):
                    raise LostChannel from exc
                raise
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
        draw = partial(
            render_table, words=words, berserk=table.berserk, seconds=table.berserk_seconds
        )
        png = await self.pictures.draw(draw, table.public, priority=priority, key=key)
        return discord.File(io.BytesIO(png), filename=TABLE_IMAGE)

    async def _draw(self, table: TableSnapshot, channel: discord.abc.Messageable) -> None:
        """Edit the table message in place, or move the table to a fresh message when there
        is none, it was deleted, or it is too old to edit."""
        file = await self._picture(table)
        layout = table_view(table, image=file.filename, cheers=self.cheers(table.table_id))
        message_id = self._message_id(table)
        pending = table.table_id in self._restored and table.post_nonce  # redo that post
        if message_id is not None and not self._too_old(message_id) and not pending:
            message = channel.get_partial_message(message_id)  # type: ignore[attr-defined]
            try:
                await self._write(table, message.edit(view=layout, attachments=[file]))
                return
            except discord.NotFound as exc:
                if exc.code == UNKNOWN_CHANNEL:
                    raise LostChannel from exc
            except discord.HTTPException as exc:
                if exc.code != OLD_MESSAGE:
                    raise
            file.reset()
        await self._post(table, channel, layout, file)

    async def _post(
        self,
        table: TableSnapshot,
        channel: discord.abc.Messageable,
        layout: discord.ui.LayoutView,
        file: discord.File,
    ) -> None:
        """Post the table as a fresh message, then delete the ones before it. The nonce is
        saved first, so a post retried (by discord.py after a 5xx, or after a restart) comes
        back as the same message instead of a second one."""
        key = table.table_id
        nonce = await self.manager.begin_table_post(key, str(secrets.randbits(63)))
        if nonce is None:
            return  # gone meanwhile, or the nonce could not be saved: post nothing
        sent = await self._write(
            table,
            channel.send(
                view=layout,
                files=[file],
                nonce=nonce,
                allowed_mentions=discord.AllowedMentions.none(),
            ),
        )
        crash_point("table-posted")
        self._message[key] = sent.id
        old = await self.manager.table_posted(key, sent.id)
        if key in self._restored:
            await self._delete_strays(table, channel, keep=sent.id)
        await self._delete(table, channel, old)

    async def _update_ping(self, table: TableSnapshot, channel: discord.abc.Messageable) -> None:
        """Delete a ping whose turn is over; post the one that fell due."""
        key = table.table_id
        posted = self._ping.get(key)
        turn = self._turn.get(key)
        if posted is not None and (posted[1] is None or posted[1] != turn):
            await self._delete(table, channel, [posted[0]])
            del self._ping[key]
        due = self._ping_due.pop(key, None)
        if due is None or due != turn or key in self._ping or table.status is not Status.PLAYING:
            return
        if self.hand_follows(key, due[0]):
            return  # their live hand shows the turn: no notice, no request
        mentions = discord.AllowedMentions(
            users=[discord.Object(due[0])], everyone=False, roles=False
        )
        tongue = lang(table.locale)
        view = notice_view(table, tongue)
        sent = await self._write(
            table, channel.send(ping_text(due[0], tongue), view=view, allowed_mentions=mentions)
        )
        view.stop()  # its button is a dynamic item: nothing to keep
        self._ping[key] = (sent.id, due)
        await self.manager.set_ping_message(key, sent.id)

    async def _tidy_restored(self, table: TableSnapshot, channel: discord.abc.Messageable) -> None:
        """After a start: delete the messages a previous run had begun to replace; a post it may
        have made is redone with the same nonce by ``_draw`` (which then looks for strays)."""
        if table.old_messages:
            await self._delete(table, channel, table.old_messages)
        if not table.post_nonce:
            self._restored.discard(table.table_id)

    async def _delete_strays(
        self, table: TableSnapshot, channel: discord.abc.Messageable, keep: int
    ) -> None:
        """Delete this table's other messages among the channel's recent ones: posts of a
        previous run whose answer never arrived (read once, after a restart)."""
        self._restored.discard(table.table_id)
        if not isinstance(channel, discord.abc.Messageable) or self.client.user is None:
            return
        mine = f"{PREFIX}{table.table_id}:"
        strays = []
        async for message in channel.history(limit=HISTORY_LIMIT):
            if message.id == keep or message.author.id != self.client.user.id:
                continue
            if any(cid.startswith(mine) for cid in _custom_ids(message.components)):
                strays.append(message.id)
        await self._delete(table, channel, strays)

    async def _delete(
        self, table: TableSnapshot, channel: discord.abc.Messageable, ids: Iterable[int]
    ) -> None:
        """Delete these messages (gone already counts as deleted), then save that they are
        gone (old messages, or the turn ping)."""
        done = []
        for message_id in ids:
            message = channel.get_partial_message(message_id)  # type: ignore[attr-defined]
            try:
                await self._write(table, message.delete())
            except discord.NotFound as exc:
                if exc.code == UNKNOWN_CHANNEL:
                    raise LostChannel from exc
            done.append(message_id)
        if done:
            await self.manager.messages_deleted(table.table_id, done)

    async def _write(self, table: TableSnapshot, request: Any) -> Any:
        """One paced write to the table's channel; a lost channel becomes ``LostChannel``."""
        try:
            async with self.pacer.slot(table.game_channel_id):
                return await request
        except discord.HTTPException as exc:
            if channel_lost(exc):
                raise LostChannel from exc
            raise
        finally:
            request.close()  # never awaited when the pacer was cancelled

    async def _close_lost(self, key: str) -> None:
        log.warning("table %s: its channel is gone or hidden; the table is closed", key)
        self._lost.add(key)
        self._dirty.discard(key)
        if not await self.manager.close_lost(key):
            self._lost.discard(key)
            self._forget(key)

    # ----- bookkeeping -----

    def _message_id(self, table: TableSnapshot) -> int | None:
        return self._message.get(table.table_id, table.table_message_id)

    def _too_old(self, message_id: int) -> bool:
        created = discord.utils.snowflake_time(message_id).timestamp()
        return self.clock() - created >= self.max_age

    def _forget(self, key: str) -> None:
        self.manager.scheduler.cancel(f"{key}:ping")
        self._latest.pop(key, None)
        self._shown.pop(key, None)
        self._message.pop(key, None)
        self._turn.pop(key, None)
        self._ping.pop(key, None)
        self._ping_due.pop(key, None)
        self._last.pop(key, None)
        self._restored.discard(key)

    async def close(self) -> None:
        """Stop every refresher (at unload)."""
        for key in list(self._turn):
            self.manager.scheduler.cancel(f"{key}:ping")
        for task in list(self._tasks.values()):
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)


def _turn_of(table: TableSnapshot) -> Turn | None:
    """The turn the table waits for a human on (None: nobody human is awaited). Any card
    moved starts a new turn, so a player who just moved is not pinged for their next turn."""
    public = table.public
    if table.status is not Status.PLAYING or public is None or public.current is None:
        return None
    seat = table.seats[public.current]
    if seat.computer is not None:
        return None
    return (
        seat.user_id,
        public.round_number,
        public.draw_pile,
        public.discard_pile,
        public.awaiting,
    )


def _custom_ids(components: Iterable[Any]) -> Iterator[str]:
    """Every custom id in a message's components, at any depth."""
    for component in components:
        custom_id = getattr(component, "custom_id", None)
        if isinstance(custom_id, str):
            yield custom_id
        yield from _custom_ids(getattr(component, "children", None) or ())
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield from _custom_ids((accessory,))


def _report(task: asyncio.Task[None]) -> None:
    """A refresher must never end silently: anything that escaped it is logged."""
    if not task.cancelled() and task.exception() is not None:
        log.error("table refresher failed", exc_info=task.exception())
