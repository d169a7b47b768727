"""Live updates for the open pages: the fake's changes (messages, channels, rejected calls,
failed interactions) pushed over a WebSocket as they happen, never polled.

Changes are noted as they come and sent once per turn of the event loop, each message
rendered once; every page has a bounded queue, and a page that falls behind is told to load
its channel again instead of growing the queue."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import itertools
import re
from collections import deque
from dataclasses import dataclass, field

from aiohttp import web

from bot.playground.render import PageRenderer
from bot.playground.world import PlaygroundWorld
from fake_discord import FakeInteraction, FakeMessage
from fake_discord.constants import ITX_APPLICATION_COMMAND, ITX_MODAL_SUBMIT, JSON
from fake_discord.errors import RecordedError
from fake_discord.watch import (
    CallRejected,
    Change,
    ChannelChanged,
    InteractionFailed,
    MessageChanged,
)

QUEUE_SIZE = 256  # events waiting for one page; past that it reloads instead
KEPT_NOTICES = 50  # notices a page sees when it opens
_TOKEN_IN_PATH = re.compile(r"(/(?:interactions|webhooks)/\d+/)[^/?]+")


@dataclass(eq=False)
class Page:
    """One open page: whose eyes it looks through, and what waits to be sent to it."""

    user_id: int
    queue: asyncio.Queue[JSON] = field(default_factory=lambda: asyncio.Queue(QUEUE_SIZE))

    def push(self, event: JSON) -> None:
        try:
            self.queue.put_nowait(event)
        except asyncio.QueueFull:
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait({"type": "resync"})


class LiveHub:
    """Watches the fake and fans its changes out to the open pages."""

    def __init__(self, world: PlaygroundWorld, renderer: PageRenderer) -> None:
        self.world = world
        self.renderer = renderer
        self.pages: set[Page] = set()
        self.notices: deque[JSON] = deque(maxlen=KEPT_NOTICES)
        self._notice_ids = itertools.count(1)
        self._messages: dict[int, FakeMessage] = {}
        self._channels = False
        self._scheduled = False
        self._sockets: set[web.WebSocketResponse] = set()
        self._unwatch = world.fake.watch(self._on_change)

    # ----- from the fake -----

    def _on_change(self, change: Change) -> None:
        if isinstance(change, MessageChanged):
            if change.message.guild_id == self.world.guild.id:
                self._messages[change.message.id] = change.message
        elif isinstance(change, ChannelChanged):
            self._channels = True
        elif isinstance(change, CallRejected):
            self._notice(rejected_notice(change.error))
        elif isinstance(change, InteractionFailed):
            self._notice(failed_notice(self.world, change.interaction))
        self._schedule()

    def _notice(self, what: JSON) -> None:
        notice = {**what, "id": next(self._notice_ids), "at": dt.datetime.now(dt.UTC).isoformat()}
        self.notices.append(notice)
        for page in self.pages:
            page.push({"type": "notice", "notice": notice})

    def _schedule(self) -> None:
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._scheduled = False
        messages, self._messages = self._messages, {}
        if self._channels:
            self._channels = False
            event: JSON = {"type": "channels", "channels": self.renderer.channels()}
            for page in self.pages:
                page.push(event)
        for msg in messages.values():
            viewers = [p for p in self.pages if msg.ephemeral_to in (None, p.user_id)]
            if not viewers:
                continue
            update: JSON = {"type": "message", "message": self.renderer.message(msg)}
            for page in viewers:
                page.push(update)

    # ----- to the pages -----

    async def serve(self, request: web.Request, user_id: int) -> web.WebSocketResponse:
        """One page's socket, for one person: what changes, as it changes, until it closes.
        (Another person means another socket.)"""
        ws = web.WebSocketResponse(heartbeat=30.0)
        page = Page(user_id)
        self.pages.add(page)  # before the handshake: nothing between it and a first load is lost
        self._sockets.add(ws)
        try:
            await ws.prepare(request)
            sender = asyncio.create_task(self._send(ws, page))
            try:
                async for _frame in ws:
                    pass  # the page only listens
            finally:
                sender.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await sender
        finally:
            self.pages.discard(page)
            self._sockets.discard(ws)
        return ws

    async def _send(self, ws: web.WebSocketResponse, page: Page) -> None:
        while not ws.closed:
            event = await page.queue.get()
            try:
                await ws.send_json(event)
            except ConnectionError:
                return

    async def close(self) -> None:
        """Stop watching and close every page's socket."""
        self._unwatch()
        for ws in list(self._sockets):
            await ws.close(code=1001, message=b"playground stopping")


def rejected_notice(error: RecordedError) -> JSON:
    """A call the fake refused, in the words Discord would answer with."""
    where = f"{error.method} {_short_path(error.path)}"
    if error.status == 429:
        return {
            "kind": "rate-limit",
            "title": "Rate limited: the bot sent too much too fast",
            "detail": [f"{where}: {error.message}"],
        }
    return {
        "kind": "rejected",
        "title": f"Discord would refuse this: {error.status} {error.message}",
        "detail": [where, *error.details],
    }


def failed_notice(world: PlaygroundWorld, itx: FakeInteraction) -> JSON:
    """An interaction the bot did not answer in time."""
    who = world.user_name(itx.user.id) or itx.user.username
    if itx.type == ITX_APPLICATION_COMMAND:
        what = f"/{itx.command_name}"
    elif itx.type == ITX_MODAL_SUBMIT:
        what = "a form"
    else:
        what = _component_label(itx)
    seconds = f"{world.fake.ack_timeout:g}"
    return {
        "kind": "failed",
        "title": "This interaction failed",
        "detail": [f"The bot did not answer {who}'s {what} within {seconds} s."],
    }


def _component_label(itx: FakeInteraction) -> str:
    custom_id = (itx.payload.get("data") or {}).get("custom_id")
    source = itx.source_message
    if source is not None:
        for button in source.buttons:
            if button.custom_id == custom_id and button.label:
                return f"click on “{button.label}”"
    return "choice"


def _short_path(path: str) -> str:
    """The path without interaction tokens (secret on Discord, and meaningless to a reader)."""
    return _TOKEN_IN_PATH.sub(r"\1…", path)
