"""Private hands kept current while jump-ins are on: a waiting player sees a jump-in come.

A hand is an ephemeral message that only the interaction that drew it can edit (for 15
minutes). Under jump_in, a player who is not awaited may play at any moment, so each open hand
of such a table is remembered with the means to edit it, and after every change it is redrawn
when a jump-in became possible for it, or when the jump-in it offered is gone. Hands of tables
without jump-ins are never remembered: official tables pay nothing for this.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Protocol

import discord
from discord import ui

from bot.engine import Phase
from bot.i18n import Lang
from bot.tables.commands import Actor, ShowHand
from bot.tables.locks import KeyedLocks
from bot.tables.manager import TableManager
from bot.tables.refusals import TableError
from bot.tables.snapshot import HandSnapshot, Outcome, TableSnapshot
from bot.tables.table import Status

log = logging.getLogger(__name__)

TOKEN_LIFE = 14 * 60.0  # an interaction edits its messages for 15 minutes; keep a margin
CLOSED = (Status.FINISHED, Status.CANCELLED)

Editor = Callable[[ui.LayoutView, discord.File], Awaitable[Any]]


@dataclass(slots=True)
class OpenHand:
    """One player's newest hand message at a table, and how to edit it."""

    edit: Editor
    seat: int
    version: int  # the table version it shows
    jump: bool  # it offers a jump-in
    until: float  # monotonic time its interaction stops editing it
    tongue: Lang  # its player's language


class HandDrawer(Protocol):
    """What open hands need from the clicks' presenter (GameClicks is one)."""

    manager: TableManager
    hands: KeyedLocks[tuple[str, int]]  # (table, user) -> the lock of their hand's edits

    def spawn(self, work: Coroutine[Any, Any, None]) -> None: ...

    async def hand_message(
        self, outcome: Outcome, hand: HandSnapshot, *, tongue: Lang
    ) -> tuple[ui.LayoutView, discord.File]: ...


class OpenHands:
    """The newest hand message of each player at jump-in tables (one per table and player,
    forgotten when the table closes or the message can no longer be edited)."""

    def __init__(self, clicks: HandDrawer) -> None:
        self.clicks = clicks
        self.tables: dict[str, dict[int, OpenHand]] = {}  # table -> user -> their hand message
        self._queued: set[tuple[str, int]] = set()

    def remember(self, outcome: Outcome, user_id: int, edit: Editor, tongue: Lang) -> None:
        """A hand message was just drawn from ``outcome`` for ``user_id``."""
        hand = outcome.hand
        if hand is None or not outcome.table.rules.house.jump_in:
            return
        self.tables.setdefault(outcome.table.table_id, {})[user_id] = OpenHand(
            edit,
            hand.seat,
            outcome.version,
            any(hand.view.jump_in),
            time.monotonic() + TOKEN_LIFE,
            tongue,
        )

    def on_change(self, table: TableSnapshot) -> None:
        """A listener: after a change at a jump-in table, redraw the open hands that may now
        jump in, or that offered a jump-in that is gone (in tasks: listeners must not wait)."""
        hands = self.tables.get(table.table_id)
        if hands is None:
            return
        public = table.public
        if table.status in CLOSED or public is None or not public.house.jump_in:
            del self.tables[table.table_id]
            return
        now = time.monotonic()
        for user_id, hand in list(hands.items()):
            key = (table.table_id, user_id)
            if hand.until < now:
                del hands[user_id]
            elif hand.version < table.version and key not in self._queued:
                may_jump = public.awaiting is Phase.TURN and hand.seat != public.current
                if may_jump or hand.jump:
                    self._queued.add(key)
                    self.clicks.spawn(self._redraw(key))
        if not hands:
            del self.tables[table.table_id]

    def _forget(self, table_id: str, user_id: int) -> None:
        hands = self.tables.get(table_id)
        if hands is not None:
            hands.pop(user_id, None)
            if not hands:
                del self.tables[table_id]

    async def _redraw(self, key: tuple[str, int]) -> None:
        table_id, user_id = key
        self._queued.discard(key)
        async with self.clicks.hands.hold(key):  # never drawn over a click's own result
            hand = self.tables.get(table_id, {}).get(user_id)
            if hand is None:
                return
            try:
                outcome = await self.clicks.manager.act(table_id, Actor(user_id), ShowHand())
            except TableError:
                self._forget(table_id, user_id)
                return
            now = outcome.hand
            if now is None or outcome.version <= hand.version:
                return
            jump = any(now.view.jump_in)
            if not jump and not hand.jump:
                return  # nothing to offer, nothing to take back: the old picture may stay
            layout, file = await self.clicks.hand_message(outcome, now, tongue=hand.tongue)
            try:
                await hand.edit(layout, file)
            except discord.HTTPException:
                log.info("hand of %s at %s can no longer be edited", user_id, table_id)
                self._forget(table_id, user_id)
                return
            hand.version, hand.jump = outcome.version, jump
