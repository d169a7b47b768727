"""Simulated players for bench/scale.py: they open tables and play by clicks, as people do.

Everything goes through the fake Discord's user simulation (slash commands, button clicks) and
what it shows (public and private messages). Players learn whose turn it is from the table
message, as people do, and open their hand with Show my hand before they play.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tests.e2e.fake_discord import (
        Button,
        FakeChannel,
        FakeDiscord,
        FakeGuild,
        FakeInteraction,
        FakeMessage,
        FakeUser,
    )

TABLES_PER_GUILD = 25
MOVE_ACTIONS = frozenset({"play", "draw", "keep", "accept", "challenge", "color"})
HAND_ACTIONS = MOVE_ACTIONS | {"pick"}
ACTION_LABELS = {"Draw": "draw", "Keep it": "keep", "Accept": "accept", "Challenge": "challenge"}
CB_MESSAGE = 4  # an interaction answered with a message of its own (here: a private refusal)
CB_UPDATE_LATER = 6  # acknowledged only: a bot that keeps one live hand per player edits it
# The longest a table may wait between rounds, with some margin (the bot's own is 30 s), and
# the pause of a flat-out player who found nothing to do.
ROUND_BREAK = 40.0
STALL_PAUSE = 0.25

# ----- figures -----


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 1)


def summary(values: list[float]) -> dict[str, Any]:
    """p50 / p99 / max in milliseconds."""
    return {
        "n": len(values),
        "p50_ms": pct(values, 0.5),
        "p99_ms": pct(values, 0.99),
        "max_ms": round(max(values) * 1000, 1) if values else None,
    }


@dataclass
class Clicks:
    """Server-side latencies of one phase's clicks, seconds."""

    hand_ack: list[float] = field(default_factory=list)
    hand_result: list[float] = field(default_factory=list)
    card_ack: list[float] = field(default_factory=list)
    card_result: list[float] = field(default_factory=list)
    refused: int = 0  # answered with a private message instead of a hand
    failed: int = 0  # not answered in time, or the click could not be made

    def report(self) -> dict[str, Any]:
        return {
            "show_hand": {"ack": summary(self.hand_ack), "result": summary(self.hand_result)},
            "card": {"ack": summary(self.card_ack), "result": summary(self.card_result)},
            "refused": self.refused,
            "failed": self.failed,
        }


# ----- the tables, as players see them -----


@dataclass(eq=False)
class BenchTable:
    """One table the bench opened: where it lives and who sits at it."""

    edition: str
    channel: FakeChannel
    players: list[FakeUser]
    thread: FakeChannel | None = None
    finished: bool = False
    stuck: bool = False  # given up: no move could be made for a long while
    moves: int = 0
    stalls: int = 0
    moved_at: float = field(default_factory=time.monotonic)  # the last move, or the opening
    seen: tuple[int, int] | None = None  # the channel's newest message when we last moved
    last: int | None = None  # the seat of the player who acted last
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def where(self) -> FakeChannel:
        return self.thread or self.channel


def action_of(button: Button) -> str | None:
    """What a button does, from its custom id (``uno:<table>:<version>:<action>...``)."""
    parts = (button.custom_id or "").split(":")
    if len(parts) >= 4 and parts[0] == "uno":
        return parts[3]
    for part in parts[1:]:
        if part in HAND_ACTIONS:
            return part
    return ACTION_LABELS.get(button.label or "")


def version_of(message: FakeMessage) -> int | None:
    """The table version a hand was drawn for (from its buttons), if it says."""
    versions = []
    for button in message.buttons:
        parts = (button.custom_id or "").split(":")
        if len(parts) >= 4 and parts[0] == "uno" and parts[2].isdigit():
            versions.append(int(parts[2]))
    return max(versions) if versions else None


def choices(hand: FakeMessage) -> list[Button]:
    """The enabled buttons of a hand that act in the game."""
    return [b for b in hand.buttons if not b.disabled and action_of(b) in HAND_ACTIONS]


class World:
    """The fake Discord and the servers, channels and members the bench creates on it."""

    def __init__(self, fake: FakeDiscord, seed: int) -> None:
        self.fake = fake
        self.rng = random.Random(seed)
        self.guilds: list[FakeGuild] = []
        self._used = 0
        self._users = 0
        self.tables: list[BenchTable] = []

    async def _guild(self) -> FakeGuild:
        if not self.guilds or self._used >= TABLES_PER_GUILD:
            self.guilds.append(await self.fake.create_guild(f"Bench {len(self.guilds) + 1}"))
            self._used = 0
        self._used += 1
        return self.guilds[-1]

    async def seat(self, edition: str, players: int, own_channel: bool) -> BenchTable:
        guild = await self._guild()
        channel = guild.default_channel
        if own_channel:
            channel = await self.fake.create_channel(guild, f"game-{len(self.tables)}")
        users = []
        for _ in range(players):
            self._users += 1
            users.append(await self.fake.create_member(guild, f"player{self._users}"))
        table = BenchTable(edition, channel, users)
        self.tables.append(table)
        return table

    def live(self) -> list[BenchTable]:
        return [t for t in self.tables if not t.finished and t.thread is not None]


class Players:
    """Simulated people: open lobbies, join, start, open their hands and play."""

    def __init__(self, world: World, timeout: float = 20.0) -> None:
        self.world = world
        self.fake = world.fake
        self.rng = world.rng
        self.timeout = timeout
        # Each player's newest hand message, per table: a bot may bring it up to date in place
        # instead of posting a new one when Show my hand is pressed again.
        self.hands: dict[tuple[int, int], FakeMessage] = {}
        self.stale_waits = 0  # waits for a table message that did not change in time

    # ----- reading the channel -----

    def board(self, table: BenchTable) -> FakeMessage | None:
        """The table message: the newest public message with a picture and a Show my hand or
        Next round (a turn notice has the button but no picture)."""
        for message in reversed(self.fake.channel_messages.get(table.where.id, [])):
            if message.deleted or message.ephemeral_to is not None or not message.attachments:
                continue
            if any(b.label in ("Show my hand", "Next round") for b in message.buttons):
                return message
        return None

    def newest_message(self, table: BenchTable) -> FakeMessage | None:
        """The newest public message in the table's channel."""
        for message in reversed(self.fake.channel_messages.get(table.where.id, [])):
            if not message.deleted and message.ephemeral_to is None:
                return message
        return None

    def newest(self, table: BenchTable) -> tuple[int, int]:
        """The newest public message in the table's channel, and how often it was edited."""
        message = self.newest_message(table)
        return (0, 0) if message is None else (message.id, message.edit_count)

    def event_time(self, message_id: int, since: float) -> float | None:
        """When the fake first wrote ``message_id`` at or after ``since`` (perf_counter).

        The fake stamps its records with its own clock (wall time here): compared on it, and
        the answer given back on perf_counter."""
        shift = self.fake.now() - time.perf_counter()
        found = None
        for event in reversed(self.fake.message_events):
            if event.at < since + shift:
                break
            if event.message_id == message_id:
                found = event.at
        return None if found is None else found - shift

    # ----- lobby -----

    async def open(self, table: BenchTable, single_round: bool = False) -> None:
        """/uno new, everyone joins, the host starts; returns once the table picture is up."""
        fake = self.fake
        host, *others = table.players
        options: dict[str, Any] = {"edition": table.edition}
        if single_round:
            options["length"] = "round"
        itx = await fake.slash(host, table.channel, "uno new", options)
        lobby = (await itx.response(self.timeout)).message
        assert lobby is not None, "no lobby message"
        for user in others:
            await (await fake.click(user, lobby, lobby.button("Join"))).response(self.timeout)
        await (await fake.click(host, lobby, lobby.button("Start"))).response(self.timeout)
        await fake.wait_for(
            lambda: lobby.thread_id is not None or self.board(table) is not None,
            self.timeout,
            "the game to start",
        )
        if lobby.thread_id is not None:
            table.thread = fake.channels[lobby.thread_id]
        else:
            table.thread = table.channel
        board = await fake.wait_for(lambda: self.board(table), self.timeout, "the table message")
        assert board is not None
        await fake.wait_for(lambda: board.attachments, self.timeout, "the table picture")

    # ----- hands -----

    async def show_hand(
        self, table: BenchTable, user: FakeUser, clicks: Clicks, board: FakeMessage | None = None
    ) -> FakeMessage | None:
        """Press Show my hand; the private hand message, or None if refused or finished."""
        fake = self.fake
        for _ in range(4):
            board = board if board is not None and not board.deleted else self.board(table)
            if board is None:
                return None
            found = board.find_buttons("Show my hand", enabled=True)
            if not found:
                return None
            key = (table.where.id, user.id)
            old = self.hands.get(key)
            edits = old.edit_count if old is not None else 0
            try:
                itx = await fake.click(user, board, found[0])
            except AssertionError:  # replaced meanwhile: use the new table message
                board = None
                continue
            hand = await self._hand_answer(itx, clicks, old, edits)
            if hand is not None:
                self.hands[key] = hand
            return hand
        return None

    async def _hand_answer(
        self,
        itx: FakeInteraction,
        clicks: Clicks,
        old: FakeMessage | None = None,
        edits: int = 0,
    ) -> FakeMessage | None:
        try:
            response = await itx.response(self.timeout)
        except AssertionError:
            clicks.failed += 1
            return None
        clicks.hand_ack.append(response.latency)
        if response.type == CB_UPDATE_LATER and old is not None:  # the old hand, brought up to date
            try:
                await self.fake.wait_for(
                    lambda: old.edit_count > edits or itx.followups, self.timeout, "the hand"
                )
            except AssertionError:
                clicks.failed += 1
                return None
            if old.edit_count > edits:
                shown = self.event_time(old.id, itx.dispatched_at)
                if shown is not None:
                    clicks.hand_result.append(shown - itx.dispatched_at)
                return old
        if response.type == CB_MESSAGE:  # answered at once: a hand, or a refusal without buttons
            if response.message is None or not response.message.buttons:
                clicks.refused += 1
                return None
            clicks.hand_result.append(response.latency)
            return response.message
        try:
            hand = await itx.original_message(self.timeout)  # a deferred answer, completed
        except AssertionError:
            clicks.failed += 1
            return None
        shown = self.event_time(hand.id, itx.dispatched_at)
        if shown is not None:
            clicks.hand_result.append(shown - itx.dispatched_at)
        return hand

    async def press(
        self, user: FakeUser, hand: FakeMessage, button: Button, clicks: Clicks
    ) -> FakeMessage | None:
        """Click a hand button and wait for the hand to be redrawn; None if that failed."""
        fake = self.fake
        before = hand.edit_count
        try:
            itx = await fake.click(user, hand, button)
            response = await itx.response(self.timeout)
        except AssertionError:
            clicks.failed += 1
            return None
        clicks.card_ack.append(response.latency)
        if response.type == CB_MESSAGE:
            clicks.refused += 1
            return None
        try:
            await fake.wait_for(
                lambda: hand.edit_count > before or itx.followups, self.timeout, "the hand"
            )
        except AssertionError:
            clicks.failed += 1
            return None
        if hand.edit_count <= before:
            clicks.refused += 1
            return None
        shown = self.event_time(hand.id, itx.dispatched_at)
        if shown is not None:
            clicks.card_result.append(shown - itx.dispatched_at)
        return hand

    # ----- turns -----

    async def _changed(self, table: BenchTable, since: tuple[int, int] | None, wait: float) -> None:
        if since is None or wait <= 0:
            return
        try:
            await self.fake.wait_for(lambda: self.newest(table) != since, wait, "a table change")
        except AssertionError:
            self.stale_waits += 1

    async def _next_round(self, table: BenchTable, board: FakeMessage, clicks: Clicks) -> None:
        found = board.find_buttons("Next round", enabled=True)
        if found:
            with contextlib.suppress(AssertionError):
                itx = await self.fake.click(table.players[0], board, found[0])
                await itx.response(self.timeout)
                clicks.card_ack.append(itx.ack_latency or 0.0)

    async def actor(
        self, table: BenchTable, clicks: Clicks, probe: bool, wait: float
    ) -> tuple[FakeUser, FakeMessage] | None:
        """Who is to play, and their freshly opened hand.

        As people do: wait (up to ``wait`` s) for the table message to change after the last
        move, and let the player it mentions open their hand (if it mentions nobody, players try
        one by one in seat order from the last mover on). With ``probe`` every player opens their
        hand at once instead, without waiting for the table message (flat-out clicking).
        """
        since = table.seen
        for _ in range(3):
            await self._changed(table, since, wait)
            latest = self.newest(table)
            if not probe and since is not None and latest == since:
                continue  # the table message does not show the last move yet: keep waiting
            since = latest
            board = self.board(table)
            if board is None:
                await self._changed(table, latest, wait)
                if self.board(table) is None:
                    table.finished = True
                    return None
                continue
            if board.find_buttons("Next round"):
                await self._next_round(table, board, clicks)
                continue
            if probe:
                found = await self._first(table, table.players, clicks, board, together=True)
            else:
                named = [p for p in table.players if f"<@{p.id}>" in board.text]
                found = await self._first(table, named or self._after_last(table), clicks, board)
            if found is not None:
                return found
            wait = max(wait, 1.0)  # nobody can act yet: let the table move on first
        # The table message never named the right player: ask everyone.
        found = await self._first(table, table.players, clicks, None, together=True)
        if found is None and self.board(table) is None:
            table.finished = True
        return found

    async def _first(
        self,
        table: BenchTable,
        users: list[FakeUser],
        clicks: Clicks,
        board: FakeMessage | None,
        together: bool = False,
    ) -> tuple[FakeUser, FakeMessage] | None:
        """The first of ``users`` whose freshly opened hand can act (all at once if together)."""
        if together:
            hands = await asyncio.gather(*(self.show_hand(table, u, clicks, board) for u in users))
            for user, hand in zip(users, hands, strict=True):
                if hand is not None and choices(hand):
                    return user, hand
            return None
        for user in users:
            hand = await self.show_hand(table, user, clicks, board)
            if hand is not None and choices(hand):
                return user, hand
        return None

    @staticmethod
    def _after_last(table: BenchTable) -> list[FakeUser]:
        """The players in seat order, starting after the one who moved last."""
        start = 0 if table.last is None else table.last + 1
        return table.players[start:] + table.players[:start]

    async def play(
        self, table: BenchTable, user: FakeUser, hand: FakeMessage, clicks: Clicks
    ) -> int:
        """Act on an open hand until the turn passes; the number of moves made (0 or 1...)."""
        table.last = table.players.index(user)
        moves = 0
        for _ in range(6):
            options = choices(hand)
            if not options:
                break
            cards = [b for b in options if action_of(b) in ("play", "pick")]
            if cards:
                button = self.rng.choice(cards)
            else:
                order = ("color", "draw", "keep", "accept", "challenge")
                button = min(options, key=lambda b: order.index(action_of(b) or "challenge"))
            action = action_of(button)
            before = version_of(hand)
            if action in MOVE_ACTIONS:
                table.seen = self.newest(table)
            redrawn = await self.press(user, hand, button, clicks)
            if redrawn is None:
                break
            after = version_of(redrawn)
            if action in MOVE_ACTIONS and (before is None or after is None or after > before):
                moves += 1
            hand = redrawn
        table.moves += moves
        return moves

    async def move(
        self,
        table: BenchTable,
        clicks: Clicks,
        *,
        probe: bool = False,
        wait: float = 5.0,
        not_before: float | None = None,
    ) -> int:
        """One turn at a table (one player at a time per table)."""
        async with table.lock:
            if table.finished:
                return 0
            found = await self.actor(table, clicks, probe, wait)
            made = 0
            if found is not None:
                if not_before is not None:
                    await asyncio.sleep(max(0.0, not_before - time.monotonic()))
                made = await self.play(table, *found, clicks)
            if made:
                table.stalls, table.moved_at = 0, time.monotonic()
                return made
            table.stalls += 1
            # Given up only after a while: between rounds nobody can move until the next round
            # starts (by a click or after ROUND_BREAK), and flat-out players find that out fast.
            if table.stalls >= 5 and time.monotonic() - table.moved_at > ROUND_BREAK:
                table.finished = table.stuck = True
            elif probe:
                await asyncio.sleep(STALL_PAUSE)  # as people would, rather than click on and on
            return 0
