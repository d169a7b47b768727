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
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import ui

from bot.tables.commands import Actor, ShowHand
from bot.tables.notes import TableError
from bot.tables.snapshot import Outcome, TableSnapshot
from bot.tables.table import Status

if TYPE_CHECKING:
    from .clicks import GameClicks

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


class OpenHands:
    """The newest hand message of each player at jump-in tables (one per table and player)."""

    def __init__(self, clicks: GameClicks) -> None:
        self.clicks = clicks
        self.hands: dict[tuple[str, int], OpenHand] = {}
        self._queued: set[tuple[str, int]] = set()

    def remember(self, outcome: Outcome, user_id: int, edit: Editor) -> None:
        """A hand message was just drawn from ``outcome`` for ``user_id``."""
        hand = outcome.hand
        if hand is None or not outcome.table.rules.house.jump_in:
            return
        self.hands[(outcome.table.table_id, user_id)] = OpenHand(
            edit,
            hand.seat,
            outcome.version,
            any(hand.view.jump_in),
            time.monotonic() + TOKEN_LIFE,
        )

    def on_change(self, table: TableSnapshot) -> None:
        """A listener: after a change at a jump-in table, redraw the open hands that may now
        jump in, or that offered a jump-in that is gone (in tasks: listeners must not wait)."""
        key = table.table_id
        mine = [k for k in self.hands if k[0] == key]
        if not mine:
            return
        public = table.public
        if table.status in CLOSED or public is None or not public.house.jump_in:
            for k in mine:
                del self.hands[k]
            return
        now = time.monotonic()
        for k in mine:
            hand = self.hands[k]
            if hand.until < now:
                del self.hands[k]
            elif hand.version < table.version and k not in self._queued:
                may_jump = public.awaiting == "turn" and hand.seat != public.current
                if may_jump or hand.jump:
                    self._queued.add(k)
                    self.clicks.spawn(self._redraw(k))

    async def _redraw(self, key: tuple[str, int]) -> None:
        table_id, user_id = key
        self._queued.discard(key)
        async with self.clicks.hands.hold(key):  # never drawn over a click's own result
            hand = self.hands.get(key)
            if hand is None:
                return
            try:
                outcome = await self.clicks.manager.act(table_id, Actor(user_id), ShowHand())
            except TableError:
                self.hands.pop(key, None)
                return
            now = outcome.hand
            if now is None or outcome.version <= hand.version:
                return
            jump = any(now.view.jump_in)
            if not jump and not hand.jump:
                return  # nothing to offer, nothing to take back: the old picture may stay
            layout, file = await self.clicks.hand_message(outcome, now)
            try:
                await hand.edit(layout, file)
            except discord.HTTPException:
                log.info("hand of %s at %s can no longer be edited", user_id, table_id)
                self.hands.pop(key, None)
                return
            hand.version, hand.jump = outcome.version, jump
