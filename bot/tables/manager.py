"""The one owner of every table: each request, typed, becomes one outcome taken under the lock.

``act`` is the whole interface of a click: it takes the table's lock, checks the asker and the
version, changes the table (engine actions through ``game.apply`` only), commits it (save, new
version, listeners told) and returns an ``Outcome``: immutable snapshots of the table and of the
asker's hand at that version, and whatever the asker should be told.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from bot.engine import Action, Do, Game, RuleSet
from bot.engine.ai import ChallengeRecord, decide, jump_in

from . import lobby, play, teams
from .autopilot import JUMPING_LEVELS, Autopilot, Brain, ComputerTurn
from .change import Change
from .commands import (
    Actor,
    AddComputer,
    ArmUno,
    Cancel,
    CheckHouseRule,
    CheckHouseRules,
    CheckStart,
    ChoosePreset,
    ChooseTeam,
    Command,
    EndGame,
    Join,
    Kick,
    Leave,
    Look,
    NextRound,
    SetHouseOption,
    SetHouseRule,
    SetPartnersSee,
    SetTeams,
    ShowHand,
    ShowPartners,
    Start,
)
from .records import FinishedRound, finished_round
from .refusals import TableError
from .registry import Listener, TableRegistry, TableStore
from .scheduler import Scheduler
from .snapshot import HandSnapshot, Outcome, TableSnapshot, hand_of, snapshot_of
from .table import Seat, Status, Table
from .tablelog import LogEntry

log = logging.getLogger(__name__)

ROUND_DELAY = 30.0
COMPUTER_DELAY = (1.2, 2.4)


def lobby_link(table: TableSnapshot) -> str:
    """Where a table's lobby message is (the channel, if it was not posted yet)."""
    where = f"https://discord.com/channels/{table.guild_id}/{table.channel_id}"
    if table.lobby_message_id is not None:
        return f"{where}/{table.lobby_message_id}"
    return where


@dataclass(frozen=True, slots=True)
class Located:
    """A table found in a channel, and whether the asker has a seat there."""

    table_id: str
    seated: bool


class TableManager:
    """Owns every table through its registry; every change saved before anyone hears of it."""

    def __init__(
        self,
        storage: TableStore | None,
        *,
        scheduler: Scheduler | None = None,
        rng: random.Random | None = None,
        round_delay: float = ROUND_DELAY,
        computer_delay: tuple[float, float] = COMPUTER_DELAY,
        brain: Brain | None = decide,
    ) -> None:
        self.scheduler = scheduler or Scheduler()
        self.clock = self.scheduler.clock
        self.rng = rng or random.Random()
        self.round_delay = round_delay
        self.registry = TableRegistry(storage, self.clock)
        self.autopilot = Autopilot(self, self.scheduler, self.rng, computer_delay, brain)
        self.registry.subscribe(self.autopilot.on_commit)

    # ----- wiring -----

    @property
    def storage(self) -> TableStore | None:
        return self.registry.storage

    @storage.setter
    def storage(self, storage: TableStore | None) -> None:
        self.registry.storage = storage

    @property
    def tables(self) -> dict[str, Table]:
        """The live tables (for tests and tools: the Discord layer works from snapshots)."""
        return self.registry.tables

    def subscribe(self, listener: Listener) -> None:
        """Hear of every committed change as a snapshot (called under the table's lock: a
        listener must not block; start a task for slow work)."""
        self.registry.subscribe(listener)

    def unsubscribe(self, listener: Listener) -> None:
        self.registry.unsubscribe(listener)

    async def restore(
        self, shard_ids: Collection[int] | None = None, shard_count: int | None = None
    ) -> list[TableSnapshot]:
        """Load the saved tables (all, or those of guilds on these shards); listeners hear of
        each, so timers and messages resume."""
        return await self.registry.restore(shard_ids, shard_count)

    def unchanged_since_restore(self, table: TableSnapshot) -> bool:
        """Whether ``table`` is a snapshot of a table as restored at start, with no change
        since (nobody is waiting to see it: its picture can wait for everyone else's)."""
        return self.registry.restored.get(table.table_id) == table.version

    async def close(self) -> None:
        await self.scheduler.close()

    # ----- lookup -----

    def find_for(self, channel_id: int, user_id: int) -> Located | None:
        """The table a user most likely means in this channel (their own seat first)."""
        table = self.registry.find_for(channel_id, user_id)
        if table is None:
            return None
        return Located(table.table_id, table.seat_of(user_id) is not None)

    def tables_in(self, channel_id: int) -> list[str]:
        """The tables (live or ended) whose lobby or game is in this channel."""
        every = [*self.registry.tables.values(), *self.registry.ended.values()]
        return [t.table_id for t in every if channel_id in (t.channel_id, t.game_channel_id)]

    def in_guild(self, guild_id: int) -> list[TableSnapshot]:
        """The live tables of one server, as snapshots (for its status)."""
        return [snapshot_of(t) for t in self.registry.tables.values() if t.guild_id == guild_id]

    def kickable(self, channel_id: int, host_id: int) -> list[tuple[int, str]]:
        """(user id, name) of the players the host of this channel's table could remove: the
        people still in the game besides the host (computers leave by the lobby's buttons)."""
        table = self.registry.find_for(channel_id, host_id)
        if table is None or table.host_id != host_id:
            return []
        active = table.match.active if table.match is not None else [True] * len(table.seats)
        return [
            (seat.user_id, seat.name)
            for seat, playing in zip(table.seats, active, strict=False)
            if seat.computer is None and seat.user_id != host_id and playing
        ]

    # ----- requests -----

    async def create(
        self,
        table_id: str,
        guild_id: int,
        channel_id: int,
        host: Actor,
        rules: RuleSet,
        *,
        threads: bool,
        turn_seconds: int | None = None,
        timeout_limit: int = 3,
        lobby_seconds: float | None = None,
        computers: str | None = "normal",
        seats: Sequence[Seat] = (),
        rematch_of: str | None = None,
        locale: str = "en",
        tournament_id: str | None = None,
        berserk: Sequence[int] = (),
        tournament_message_id: int | None = None,
    ) -> Outcome:
        """Open a lobby with the host seated; without threads, one game per channel.
        ``locale``: the language its public messages speak (the server's).

        A rematch (``rematch_of``: the finished table) seats ``seats`` again, and opens only
        once, and not while another lobby waits in the channel. A tournament's table names its
        ``tournament_id`` (its match is recorded as the tournament's), the users on half the
        turn timer (``berserk``) and the tournament's message its scoreboard points back to."""
        async with self.registry.hold(table_id):
            if rematch_of is not None:
                if (opened := self.rematch_for(rematch_of)) is not None:
                    raise TableError("rematch_open", link=lobby_link(opened))
                if any(
                    t.channel_id == channel_id and t.status is Status.LOBBY
                    for t in self.registry.tables.values()
                ):
                    raise TableError("rematch_busy")
            if not threads and any(
                t.thread_id is None for t in self.registry.in_channel(channel_id)
            ):
                raise TableError("channel_busy")
            if table_id in self.registry.tables:
                raise TableError("exists")
            if computers is None:  # computers were turned off since: humans only
                seats = [seat for seat in seats if seat.computer is None]
            table = lobby.new_table(
                table_id,
                guild_id,
                channel_id,
                host,
                rules,
                now=self.clock(),
                turn_seconds=turn_seconds,
                timeout_limit=timeout_limit,
                lobby_seconds=lobby_seconds,
                computers=computers,
                seats=seats,
                rematch_of=rematch_of,
                locale=locale,
                tournament_id=tournament_id,
                berserk=berserk,
                tournament_message_id=tournament_message_id,
            )
            return Outcome(await self.registry.commit(table), changed=True)

    def rematch_for(self, table_id: str) -> TableSnapshot | None:
        """The live rematch of the finished table ``table_id``, if one was opened."""
        for table in self.registry.tables.values():
            if table.rematch_of == table_id:
                return snapshot_of(table)
        return None

    async def act(
        self, table_id: str, actor: Actor, command: Command, version: int | None = None
    ) -> Outcome:
        """Do what ``actor`` asks at this table; ``version`` None skips the out-of-date check.

        A refusal raises ``TableError`` with nothing changed; its ``current`` holds the table
        (and the asker's hand) as they stand, so the asker can be shown the present state.
        """
        async with self.registry.hold(table_id):
            try:
                table = self.registry.get(table_id)
                change = self._dispatch(table, actor, command, version)
                return await self._finish(table, actor.user_id, change)
            except TableError as exc:
                live = self.registry.tables.get(table_id)
                if live is not None and exc.current is None:
                    exc.current = self._outcome(live, actor.user_id, snapshot_of(live), None)
                raise

    async def hands_of(
        self, table_id: str, user_ids: Collection[int]
    ) -> tuple[TableSnapshot, dict[int, HandSnapshot | None]] | None:
        """The table and these players' own hands as they stand now (None for a player no
        longer in the game), in one look under the lock; None when the table is gone."""
        async with self.registry.hold(table_id):
            table = self.registry.tables.get(table_id)
            if table is None:
                return None
            hands: dict[int, HandSnapshot | None] = {}
            for user_id in user_ids:
                seat = table.active_seat_of(user_id)
                hands[user_id] = hand_of(table, seat) if seat is not None else None
            return snapshot_of(table), hands

    async def finished_round(self, table_id: str, number: int) -> FinishedRound | None:
        """Round ``number`` of a table's match, over and recorded, while the table is here
        (playing, between rounds or ended and not yet forgotten); else None."""
        async with self.registry.hold(table_id):
            table = self.registry.tables.get(table_id) or self.registry.ended.get(table_id)
            return finished_round(table, number) if table is not None else None

    async def set_lobby_message(self, table_id: str, message_id: int) -> bool:
        """Remember the lobby message's id, saved under the table's lock (same version)."""
        return await self.registry.save_message_id(table_id, lobby=message_id)

    async def set_table_message(self, table_id: str, message_id: int) -> bool:
        """Remember the table message's id, saved under the table's lock (same version)."""
        return await self.registry.save_message_id(table_id, table=message_id)

    # ----- the table message's bookkeeping (saved at the same version) -----

    async def begin_table_post(self, table_id: str, fresh_nonce: str) -> str | None:
        """The nonce to post the next table message with, saved before the post: the pending
        one if a post may already have reached Discord, else ``fresh_nonce``. None when the
        table is gone or the save failed (then nothing may be posted)."""
        nonce: list[str] = []

        def change(table: Table) -> None:
            table.post_nonce = table.post_nonce or fresh_nonce
            nonce.append(table.post_nonce)

        return nonce[0] if await self.registry.save_messages(table_id, change) else None

    async def table_posted(self, table_id: str, message_id: int) -> tuple[int, ...]:
        """The post went through: it is the table message now, and the one before it (unless
        the same) joins the messages to delete. Returns the messages to delete now."""
        old: list[int] = []

        def change(table: Table) -> None:
            before = table.table_message_id
            if before is not None and before != message_id and before not in table.old_messages:
                table.old_messages.append(before)
            table.table_message_id = message_id
            table.post_nonce = None
            old.extend(table.old_messages)

        await self.registry.save_messages(table_id, change)
        return tuple(old)

    async def set_ping_message(self, table_id: str, message_id: int | None) -> bool:
        """Remember the turn ping now posted (None: none); the one before joins the messages
        to delete."""

        def change(table: Table) -> None:
            old = table.ping_message_id
            if old is not None and old != message_id and old not in table.old_messages:
                table.old_messages.append(old)
            table.ping_message_id = message_id

        return await self.registry.save_messages(table_id, change)

    async def messages_deleted(self, table_id: str, message_ids: Collection[int]) -> bool:
        """These of the table's messages (old ones, or its turn ping) are gone: nothing of
        them is left to delete (one save)."""

        def change(table: Table) -> None:
            table.old_messages = [m for m in table.old_messages if m not in message_ids]
            if table.ping_message_id in message_ids:
                table.ping_message_id = None

        return await self.registry.save_messages(table_id, change)

    async def forget_ended(self, table_id: str) -> bool:
        """An ended table's end is shown: drop it (its match is recorded first)."""
        return await self.registry.forget_ended(table_id)

    async def close_lost(self, table_id: str) -> bool:
        """The table's channel or thread is gone: close it, unrecorded, and free its players."""
        return await self.registry.drop(table_id) is not None

    # ----- the one dispatch -----

    def _dispatch(
        self, table: Table, actor: Actor, command: Command, version: int | None
    ) -> Change | None:
        """Apply ``command`` to the live table; None when it only asks to look."""
        now, delay = self.clock(), self.round_delay
        match command:
            case Look():
                return None
            case Join():
                return lobby.join(table, actor)
            case AddComputer(level=level):
                return lobby.add_computer(table, actor, level)
            case CheckHouseRule():
                lobby.check_house_rule(table, actor)
                return None
            case SetHouseRule(text=text):
                return lobby.set_house_rule(table, actor, text)
            case CheckHouseRules():
                lobby.check_house_rules(table, actor)
                return None
            case ChoosePreset(name=name):
                return lobby.choose_preset(table, actor, name)
            case SetHouseOption(name=name, value=value):
                return lobby.set_house_option(table, actor, name, value)
            case SetTeams(count=count):
                return teams.set_teams(table, actor, count)
            case SetPartnersSee(on=on):
                return teams.set_partners_see(table, actor, on)
            case ChooseTeam(team=team):
                return teams.choose_team(table, actor, team)
            case CheckStart():
                lobby.check_start(table, actor)
                return None
            case Start(thread_id=thread_id):
                return lobby.start(table, actor, thread_id, self.rng.getrandbits(63), now)
            case Cancel():
                return lobby.cancel(table, actor)
            case Leave() if table.status is Status.LOBBY:
                return lobby.leave(table, actor)
            case Kick(user_id=user_id):
                return play.kick(table, actor, user_id, now=now, delay=delay)
            case EndGame():
                return play.end(table, actor)
        seat = play.player_seat(table, actor.user_id)
        if version is not None and version != table.version:
            raise play.stale_click(table, seat, command, version)
        match command:
            case Action():
                return play.by_player(table, seat, command, now=now, delay=delay)
            case ArmUno():
                return play.arm_uno(table, seat, now=now, delay=delay)
            case NextRound():
                return play.next_round(table)
            case Leave():
                entry = LogEntry("left_game", seat=seat)
                return play.remove(table, seat, entry, now=now, delay=delay)
            case ShowHand():
                return None
            case ShowPartners():
                return teams.partner_hands(table, seat)
        raise TableError("broken_button")

    async def _finish(self, table: Table, user_id: int | None, change: Change | None) -> Outcome:
        """Commit a change (a no-op keeps the version) and take the outcome under the lock."""
        if change is not None and change.changed:
            snapshot = await self.registry.commit(table)
        else:
            snapshot = snapshot_of(table)
        return self._outcome(table, user_id, snapshot, change)

    @staticmethod
    def _outcome(
        table: Table, user_id: int | None, snapshot: TableSnapshot, change: Change | None
    ) -> Outcome:
        seat = table.active_seat_of(user_id) if user_id is not None else None
        change = change or Change(changed=False)
        return Outcome(
            table=snapshot,
            hand=hand_of(table, seat) if seat is not None else None,
            note=change.note,
            reveal=change.reveal,
            partners=change.partners,
            round_over=change.round_over,
            match_over=change.match_over,
            changed=change.changed,
        )

    # ----- what the autopilot drives (each under the table's lock) -----

    async def _run_timer(
        self, table_id: str, status: Status, step: Callable[[Table], Change | None]
    ) -> None:
        """A timer's change, if the table still waits for it (``step`` None: not yet)."""
        async with self.registry.hold(table_id):
            table = self.registry.tables.get(table_id)
            if table is None or table.status is not status:
                return
            change = step(table)
            if change is not None:
                await self._commit_for_timer(table, change)

    def _time_out(self, table: Table) -> Change | None:
        now = self.clock()
        if table.match is None or table.deadline is None or now < table.deadline:
            return None
        return play.time_out(table, now=now, delay=self.round_delay)

    async def _commit_for_timer(self, table: Table, change: Change) -> None:
        try:
            await self._finish(table, None, change)
        except TableError:
            live = self.registry.tables.get(table.table_id)
            if live is None:
                return  # let go: another process wrote it (the registry logged why)
            # Not saved, so rolled back: arm the timers again from what is saved.
            self.autopilot.on_commit(snapshot_of(live))
            raise

    async def expire_lobby(self, table_id: str) -> None:
        await self._run_timer(table_id, Status.LOBBY, lobby.expire)

    async def auto_next_round(self, table_id: str) -> None:
        await self._run_timer(table_id, Status.ROUND_OVER, play.next_round)

    async def time_out(self, table_id: str) -> None:
        await self._run_timer(table_id, Status.PLAYING, self._time_out)

    async def computer_turn(self, table_id: str) -> ComputerTurn | None:
        """A private copy of the round for the computer whose turn it is, or None."""
        async with self.registry.hold(table_id):
            table = self.registry.tables.get(table_id)
            if table is None or table.match is None or table.status is not Status.PLAYING:
                return None
            seat = table.match.game.current
            level = table.seats[seat].computer if seat >= 0 else None
            if level is None:
                return None
            match = table.match
            game = Game.from_dict(match.game.to_dict())
            record = ChallengeRecord(match.challenges.reads)
            seed = table.seed ^ table.version
            sees = table.rules.partners_see and table.rules.teams > 0
            return ComputerTurn(table.version, seat, level, game, seed, record, sees)

    async def computer_move(self, table_id: str, turn: ComputerTurn, action: Action) -> None:
        """Play what the computer decided, unless the table moved on meanwhile."""
        async with self.registry.hold(table_id):
            table = self.registry.tables.get(table_id)
            if table is None or table.version != turn.version or table.match is None:
                return  # someone acted meanwhile; the new state re-armed the timer
            try:
                change = play.apply_action(
                    table, turn.seat, action, now=self.clock(), delay=self.round_delay
                )
            except TableError as exc:
                log.warning("computer move %s refused: %s", action, exc.message)
                return
            await self._commit_for_timer(table, change)

    async def computer_catch(self, table_id: str, seat: int, target: int) -> None:
        """A computer catches a player who forgot UNO, if they still can be caught."""
        async with self.registry.hold(table_id):
            table = self.registry.tables.get(table_id)
            if table is None or table.match is None or table.status is not Status.PLAYING:
                return
            if table.match.game.catchable() != target:
                return
            action = Action(seat, Do.CATCH, target=target)
            change = play.apply_action(
                table, seat, action, now=self.clock(), delay=self.round_delay
            )
            await self._commit_for_timer(table, change)

    async def computer_jump_in(self, table_id: str, version: int) -> None:
        """Normal and hard computers jump in now if they want to, through the same check as a
        click: nothing happens if anyone moved since ``version`` (first come, first served)."""
        async with self.registry.hold(table_id):
            table = self.registry.tables.get(table_id)
            if table is None or table.version != version or table.match is None:
                return
            if table.status is not Status.PLAYING:
                return
            game = table.match.game
            rng = random.Random(table.seed ^ table.version)
            seat = game.current
            for _ in range(game.n - 1):  # in turn order from the awaited seat
                seat = (seat + game.direction) % game.n
                level = table.seats[seat].computer
                if level not in JUMPING_LEVELS or not game.active[seat]:
                    continue
                action = jump_in(game, seat, level, rng)
                if action is not None:
                    change = play.apply_action(
                        table, seat, action, now=self.clock(), delay=self.round_delay
                    )
                    await self._commit_for_timer(table, change)
                    return
