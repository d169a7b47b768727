"""One live hand per player per table: the newest private hand the bot drew for a player follows
the game, so nobody needs a Refresh.

A hand is an ephemeral message that only the interaction that drew it can change, for 15
minutes. Each drawn hand is remembered per table and player with that means. After every
committed change the table's players' hands are looked at once (a burst of changes is looked at
once, at its newest state), and a live hand is redrawn in place only when what its player holds
or may do changed: their turn began or ended, cards came or went, they are asked to answer a
penalty or to choose, a jump-in opened or closed for them. A waiting player's hand is never
redrawn because someone else moved. Redraws hold the player's hand lock, as clicks do, and never
draw an older version over a newer one.

A new hand (Show my hand) retires the live one through its own interaction, so each player has
at most one hand with live buttons. A retired hand is never edited again: a click made on it
before it went away is still applied, and answered on the live hand (see ``replaced``). At a
round's end every hand is closed to a line saying what happened (and drawn again when the next
round deals); at the match's end, closed for good. A hand its interaction can no longer change
(or that is gone) is forgotten: the player's turn notice then carries a Show my hand button
instead (see ``TableBoard``). Shortly before Discord stops the edits, the hand is
closed to a line pointing at Show my hand, so it never offers buttons that would be refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine, Hashable
from dataclasses import dataclass, replace
from typing import Any, Protocol

import discord
from discord import ui

from bot.i18n import Lang
from bot.tables.locks import KeyedLocks
from bot.tables.manager import TableManager
from bot.tables.narrate import narrate
from bot.tables.notes import note
from bot.tables.snapshot import HandSnapshot, Outcome, TableSnapshot
from bot.tables.table import Status
from cogs.ui.table import scores_text, status_line

log = logging.getLogger(__name__)

# An interaction changes its messages for 15 minutes; a hand stops following the game a little
# before, so its last edit (closing it) still goes through.
TOKEN_LIFE = 14 * 60.0
CLOSED = (Status.FINISHED, Status.CANCELLED)
ENDINGS = ("round_over", "went_out", "stalled")  # log lines that tell how a round ended
# How many of a player's retired hands are remembered, so a click still arriving from one is
# known for what it is (a player can only reach the last few before they go away).
RETIRED_KEPT = 8


@dataclass(slots=True)
class HandMessage:
    """A private hand message and the calls that change it through its own interaction."""

    message_id: int | None
    edit: Callable[..., Awaitable[Any]]  # edit(view=..., attachments=[...])
    delete: Callable[[], Awaitable[Any]]

    @classmethod
    def of_interaction(
        cls, interaction: discord.Interaction[Any], message_id: int | None
    ) -> HandMessage:
        """The message an interaction's answer posted or edited."""
        return cls(
            message_id, interaction.edit_original_response, interaction.delete_original_response
        )

    @classmethod
    def of_followup(cls, message: discord.WebhookMessage) -> HandMessage:
        return cls(message.id, message.edit, message.delete)

    def same(self, other: HandMessage) -> bool:
        return self.message_id is not None and self.message_id == other.message_id


@dataclass(slots=True)
class LiveHand:
    """A player's live hand at a table: what it shows and until when it can be changed."""

    message: HandMessage
    version: int  # the table version it shows
    concern: Hashable  # what its player held and might do then (``concern_of``)
    until: float  # scheduler time its interaction stops following the game
    tongue: Lang
    closed: bool = False  # closed to a line at a round's end (drawn again at the next deal)
    retired: tuple[int, ...] = ()  # ids of the hands this one replaced, newest first


def concern_of(hand: HandSnapshot) -> Hashable:
    """What a hand's player holds and may do: its view without what merely reports the others'
    moves (the top card, the color and their counts), which only matter to whoever may play."""
    view = hand.view
    if any(view.playable):  # their turn, or a jump-in: the cards lit up depend on the top card
        return (view, hand.uno_armed)
    return (replace(view, top=None, color=None, other_counts=()), hand.uno_armed)


def end_line(table: TableSnapshot, tongue: Lang) -> str:
    """What a closed hand says at a round's or match's end: who went out, the scores, and when
    the next round starts (or who won)."""
    names = table.safe_names()
    lines = []
    ending = next((e for e in reversed(table.log) if getattr(e, "kind", "") in ENDINGS), None)
    if ending is not None:
        lines.append(narrate(ending, names, tongue))
    if table.scores is not None:
        lines.append(scores_text(table, tongue))
    if table.public is not None:
        lines.append(status_line(table, tongue))
    return "\n".join(line for line in lines if line) or note("game_over").render(tongue)


def closed_view(text: str) -> ui.LayoutView:
    """A hand message closed to a line: no picture, no buttons."""
    view = ui.LayoutView(timeout=None)
    view.add_item(ui.Container[Any](ui.TextDisplay(text)))
    return view


class HandDrawer(Protocol):
    """What live hands need from the clicks' presenter (GameClicks is one)."""

    manager: TableManager
    hands: KeyedLocks[tuple[str, int]]  # (table, user) -> the lock of their hand's edits

    async def hand_message(
        self, outcome: Outcome, hand: HandSnapshot, *, tongue: Lang
    ) -> tuple[ui.LayoutView, discord.File]: ...


class LiveHands:
    """The live hand of each player, per table (at most one per player), kept current."""

    def __init__(self, clicks: HandDrawer) -> None:
        self.clicks = clicks
        self.clock = clicks.manager.scheduler.clock
        self.tables: dict[str, dict[int, LiveHand]] = {}  # table -> user -> their live hand
        self._waiting: dict[str, TableSnapshot] = {}  # the newest change not yet looked at
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._retiring: set[asyncio.Task[None]] = set()
        self.redraws = 0  # hands redrawn for changes (not clicks), for the benches

    # ----- what the clicks tell -----

    def remember(
        self, outcome: Outcome, user_id: int, message: HandMessage, tongue: Lang, *, closed: bool
    ) -> None:
        """A hand message was just drawn from ``outcome`` for ``user_id`` (``closed``: as the
        round's end line): it is their live hand now, and the one before it is retired."""
        table = outcome.table
        if table.status in CLOSED or (outcome.hand is None and not closed):
            self.forget(table.table_id, user_id)
            return
        hands = self.tables.setdefault(table.table_id, {})
        old = hands.get(user_id)
        retired: tuple[int, ...] = ()
        if old is not None:
            retired = old.retired
            if not old.message.same(message):
                self._spawn(self._retire(old))
                if old.message.message_id is not None:
                    retired = (old.message.message_id, *retired)[:RETIRED_KEPT]
        concern = concern_of(outcome.hand) if outcome.hand is not None else None
        until = self.clock() + TOKEN_LIFE
        hands[user_id] = LiveHand(message, outcome.version, concern, until, tongue, closed, retired)
        self.clicks.manager.scheduler.schedule(
            _expiry_key(table.table_id, user_id),
            until,
            lambda: self._expire(table.table_id, user_id, message),
        )

    def replaced(self, table_id: str, user_id: int, message_id: int | None) -> bool:
        """Whether ``message_id`` is a hand of this player that a newer one retired (it is
        being deleted, or is gone): a click from it is answered on the live hand."""
        hand = self.tables.get(table_id, {}).get(user_id)
        return hand is not None and message_id is not None and message_id in hand.retired

    async def show(
        self,
        outcome: Outcome,
        user_id: int,
        view: ui.LayoutView,
        file: discord.File | None = None,
        *,
        closed: bool,
    ) -> None:
        """Draw a click's answer on the player's live hand (the click came from a hand it
        replaced). The caller holds the player's hand lock."""
        table = outcome.table
        live = self.tables.get(table.table_id, {}).get(user_id)
        if live is None or live.version > outcome.version:
            return  # gone, or it shows a newer state already
        if not await self._try(live, view, file):
            self.forget(table.table_id, user_id)
            return
        if table.status in CLOSED or (outcome.hand is None and not closed):
            self.forget(table.table_id, user_id)
            return
        live.version = outcome.version
        live.concern = concern_of(outcome.hand) if outcome.hand is not None else None
        live.closed = closed

    def gone(self, table_id: str, user_id: int, message_id: int | None) -> None:
        """Discord no longer knows this hand message: forget it if it was the live hand."""
        hand = self.tables.get(table_id, {}).get(user_id)
        if hand is not None and message_id is not None and hand.message.message_id == message_id:
            self.forget(table_id, user_id)

    def follows(self, table_id: str, user_id: int) -> bool:
        """Whether this player's live hand still follows the game (the bot can change it)."""
        hand = self.tables.get(table_id, {}).get(user_id)
        return hand is not None and hand.until > self.clock()

    def forget(self, table_id: str, user_id: int) -> None:
        hands = self.tables.get(table_id)
        if hands is None or hands.pop(user_id, None) is None:
            return
        self.clicks.manager.scheduler.cancel(_expiry_key(table_id, user_id))
        if not hands:
            del self.tables[table_id]

    # ----- hearing of changes -----

    def on_change(self, table: TableSnapshot) -> None:
        """A listener: look at the table's live hands soon (in a task: listeners run under the
        table's lock and must not wait); a burst of changes is looked at once."""
        if table.table_id not in self.tables:
            return
        waiting = self._waiting.get(table.table_id)
        if waiting is None or table.version >= waiting.version:
            self._waiting[table.table_id] = table
        if table.table_id not in self._tasks:
            task = asyncio.get_running_loop().create_task(self._follow(table.table_id))
            self._tasks[table.table_id] = task
            task.add_done_callback(_report)

    async def settle(self) -> None:
        """Wait until every change heard of is shown in the hands (tests and shutdown)."""
        while self._tasks or self._retiring:
            await asyncio.gather(*self._tasks.values(), *self._retiring, return_exceptions=True)

    async def close(self) -> None:
        for task in [*self._tasks.values(), *self._retiring]:
            task.cancel()
        await asyncio.gather(*self._tasks.values(), *self._retiring, return_exceptions=True)
        for table_id, hands in list(self.tables.items()):
            for user_id in list(hands):
                self.forget(table_id, user_id)

    async def _follow(self, table_id: str) -> None:
        try:
            while (table := self._waiting.pop(table_id, None)) is not None:
                await self._catch_up(table)
        finally:
            del self._tasks[table_id]

    async def _catch_up(self, table: TableSnapshot) -> None:
        """Bring the table's live hands to what ``table`` (or a newer state) shows them."""
        hands = self.tables.get(table.table_id)
        if not hands:
            return
        if table.status in CLOSED or table.status is Status.ROUND_OVER:
            ending = [self._close(table, user_id) for user_id in list(hands)]
            await asyncio.gather(*ending)
            if table.status in CLOSED:
                self.tables.pop(table.table_id, None)
            return
        looked = await self.clicks.manager.hands_of(table.table_id, list(hands))
        if looked is None:
            return
        now, seen = looked
        if now.status is not Status.PLAYING:
            self.on_change(now)  # ended meanwhile: its own look follows
            return
        await asyncio.gather(*(self._redraw(now, user_id, seen[user_id]) for user_id in seen))

    async def _redraw(self, table: TableSnapshot, user_id: int, hand: HandSnapshot | None) -> None:
        key = (table.table_id, user_id)
        async with self.clicks.hands.hold(key):  # never drawn over a click's own result
            live = self.tables.get(table.table_id, {}).get(user_id)
            if live is None or live.version >= table.version:
                return  # gone, or a click drew this state or a newer one meanwhile
            if hand is None:  # they left or were removed
                self.forget(*key)
                await self._try(live, closed_view(note("not_seated").render(live.tongue)))
                return
            concern = concern_of(hand)
            if not live.closed and concern == live.concern:
                live.version = table.version  # nothing for them: the old picture may stay
                return
            outcome = Outcome(table=table, hand=hand)
            view, file = await self.clicks.hand_message(outcome, hand, tongue=live.tongue)
            if await self._try(live, view, file):
                live.version, live.concern, live.closed = table.version, concern, False
                self.redraws += 1
            else:
                self.forget(*key)

    async def _close(self, table: TableSnapshot, user_id: int) -> None:
        """Close a hand to the round's or match's end line (once a round)."""
        key = (table.table_id, user_id)
        async with self.clicks.hands.hold(key):
            live = self.tables.get(table.table_id, {}).get(user_id)
            if live is None or (live.closed and live.version >= table.version):
                return
            view = closed_view(end_line(table, live.tongue))
            if await self._try(live, view):
                live.version, live.closed = table.version, True
                if table.status in CLOSED:
                    self.forget(*key)
            else:
                self.forget(*key)

    @staticmethod
    async def _try(live: LiveHand, view: ui.LayoutView, file: discord.File | None = None) -> bool:
        """One edit of a live hand; False when Discord no longer lets the bot change it."""
        try:
            await live.message.edit(view=view, attachments=[file] if file is not None else [])
        except discord.HTTPException as exc:
            log.info("a live hand can no longer be changed (%s)", exc.status)
            return False
        return True

    async def _retire(self, old: LiveHand) -> None:
        """An older hand is retired through its own interaction when a new one is drawn."""
        with contextlib.suppress(discord.HTTPException):  # too old or gone: its buttons
            await old.message.delete()  # answer with a fresh hand

    async def _expire(self, table_id: str, user_id: int, message: HandMessage) -> None:
        """The hand's interaction is about to stop: close it to a line pointing at Show my
        hand, so it never offers buttons Discord would refuse, and forget it."""
        key = (table_id, user_id)
        async with self.clicks.hands.hold(key):
            live = self.tables.get(table_id, {}).get(user_id)
            if live is None or live.message is not message:
                return
            self.forget(table_id, user_id)
            await self._try(live, closed_view(note("hand_asleep").render(live.tongue)))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._retiring.add(task)
        task.add_done_callback(self._retiring.discard)


def _expiry_key(table_id: str, user_id: int) -> str:
    return f"{table_id}:hand:{user_id}"


def _report(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("live hands failed", exc_info=task.exception())
