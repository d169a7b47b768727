"""Everything that happens by itself: turn timers, lobby expiry, the next round, computer players.

The autopilot listens to committed snapshots, as the table message does, and (re)arms one timer
per table and kind from each. A timer's job acts through the manager like a click, under the
table's lock, and re-checks that the moment it waited for is still there.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from bot.engine import Action, Game, Phase
from bot.engine.ai import ChallengeRecord

from .scheduler import Scheduler
from .snapshot import TableSnapshot
from .table import Status

KINDS = ("computer", "next", "turn", "lobby", "catch", "jump")
CATCHING_LEVELS = ("normal", "hard")  # easy computers never catch a forgotten UNO
JUMPING_LEVELS = ("normal", "hard")  # nor jump in


class Brain(Protocol):
    """A computer player's decision: ``bot.engine.ai.decide`` or a stand-in for tests."""

    def __call__(
        self,
        game: Game,
        seat: int,
        level: str,
        rng: random.Random,
        *,
        record: ChallengeRecord,
        partners_see: bool,
    ) -> Action: ...


@dataclass(frozen=True, slots=True)
class ComputerTurn:
    """What a computer player decides from: a private copy of the round, never the live one."""

    version: int
    seat: int
    level: str
    game: Game
    seed: int
    record: ChallengeRecord  # the match's earlier rounds' Wild Draw Fours, a private copy
    partners_see: bool = False  # the seat may look at its partners' hands


class Driven(Protocol):
    """What the autopilot asks of the manager (each call takes the table's lock)."""

    async def expire_lobby(self, table_id: str) -> None: ...
    async def auto_next_round(self, table_id: str) -> None: ...
    async def time_out(self, table_id: str) -> None: ...
    async def computer_turn(self, table_id: str) -> ComputerTurn | None: ...
    async def computer_move(self, table_id: str, turn: ComputerTurn, action: Action) -> None: ...
    async def computer_catch(self, table_id: str, seat: int, target: int) -> None: ...
    async def computer_jump_in(self, table_id: str, version: int) -> None: ...


class Autopilot:
    """One timer per (table, kind); the newest snapshot decides which are armed."""

    def __init__(
        self,
        tables: Driven,
        scheduler: Scheduler,
        rng: random.Random,
        computer_delay: tuple[float, float],
        brain: Brain | None,
    ) -> None:
        self.tables = tables
        self.scheduler = scheduler
        self.rng = rng
        self.computer_delay = computer_delay
        self.brain = brain

    def on_commit(self, table: TableSnapshot) -> None:
        """Re-arm the table's timers from its newest snapshot (a listener)."""
        key = table.table_id
        if table.status in (Status.FINISHED, Status.CANCELLED):
            self.disarm(key)
            return
        self.scheduler.cancel(f"{key}:computer")
        self.scheduler.cancel(f"{key}:next")
        if table.status is not Status.LOBBY:
            self.scheduler.cancel(f"{key}:lobby")
        if table.status is not Status.PLAYING:
            self.scheduler.cancel(f"{key}:turn")
            self.scheduler.cancel(f"{key}:catch")
            self.scheduler.cancel(f"{key}:jump")
        if table.status is Status.LOBBY and table.lobby_deadline is not None:
            self._at(key, "lobby", table.lobby_deadline, lambda: self.tables.expire_lobby(key))
        elif table.status is Status.ROUND_OVER and table.next_round_at is not None:
            self._at(key, "next", table.next_round_at, lambda: self.tables.auto_next_round(key))
        elif table.status is Status.PLAYING and table.public is not None:
            if table.deadline is not None:
                self._at(key, "turn", table.deadline, lambda: self.tables.time_out(key))
            else:
                self.scheduler.cancel(f"{key}:turn")
            self._arm_catch(table)
            self._arm_jump(table)
            seat = table.public.current
            if seat is not None and table.seats[seat].computer is not None and self.brain:
                low, high = self.computer_delay
                when = self.scheduler.clock() + self.rng.uniform(low, high)
                self._at(key, "computer", when, lambda: self._computer_turn(key))

    def disarm(self, table_id: str) -> None:
        for kind in KINDS:
            self.scheduler.cancel(f"{table_id}:{kind}")

    def _at(self, key: str, kind: str, when: float, job: Callable[[], Awaitable[None]]) -> None:
        self.scheduler.schedule(f"{key}:{kind}", when, job)

    def _arm_catch(self, table: TableSnapshot) -> None:
        """Normal and hard computers catch a player who forgot UNO, after a human-like pause."""
        key = f"{table.table_id}:catch"
        public = table.public
        assert public is not None
        target = next((s.seat for s in public.seats if s.catchable), None)
        catchers = [
            s
            for s, seat in enumerate(table.seats)
            if seat.computer in CATCHING_LEVELS and s != target and public.seats[s].active
        ]
        if target is None or not catchers:
            self.scheduler.cancel(key)
            return
        if self.scheduler.pending(key):
            return
        # Quicker than a computer's own move, so a catch lands before that move closes the window.
        low, _ = self.computer_delay
        when = self.scheduler.clock() + self.rng.uniform(low / 2, low)
        catcher = catchers[0]
        self.scheduler.schedule(
            key, when, lambda: self.tables.computer_catch(table.table_id, catcher, target)
        )

    def _arm_jump(self, table: TableSnapshot) -> None:
        """Under jump_in, normal and hard computers are asked after each change whether they
        jump in, after a human-like pause (quicker than a computer's own move)."""
        key = f"{table.table_id}:jump"
        public = table.public
        assert public is not None
        if not public.house.jump_in or public.awaiting is not Phase.TURN:
            self.scheduler.cancel(key)
            return
        jumpers = [
            s
            for s, seat in enumerate(table.seats)
            if seat.computer in JUMPING_LEVELS and s != public.current and public.seats[s].active
        ]
        if not jumpers:
            self.scheduler.cancel(key)
            return
        low, _ = self.computer_delay
        when = self.scheduler.clock() + self.rng.uniform(low / 2, low)
        table_id, version = table.table_id, table.version
        self.scheduler.schedule(key, when, lambda: self.tables.computer_jump_in(table_id, version))

    async def _computer_turn(self, table_id: str) -> None:
        turn = await self.tables.computer_turn(table_id)
        if turn is None or self.brain is None:
            return
        rng = random.Random(turn.seed)
        action = await asyncio.to_thread(
            self.brain,
            turn.game,
            turn.seat,
            turn.level,
            rng,
            record=turn.record,
            partners_see=turn.partners_see,
        )
        await self.tables.computer_move(table_id, turn, action)
