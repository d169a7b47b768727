"""The one owner of every table: lobbies, actions, rounds, timers and computer players.

Every change goes through ``_commit``: under the table's lock the change is applied, the table is
saved, and only then does anyone hear of it. If the save fails, the table goes back to what was
last saved and the player is told to try again, so no acknowledged action is ever lost.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Protocol

from bot.engine import Event, Match, RuleError, RuleSet, hand_view, public_view
from bot.engine.ai import LEVELS
from bot.engine.cards import CARD_COLOR, CARD_INDEX, COLOR_INDEX, COLORS, Edition
from bot.engine.game import Phase
from bot.engine.rules import HOUSE_RULE_MAX
from bot.engine.snapshot import HandView, PublicView
from bot.storage import MatchPlayer, MatchRecord, StorageError, TableRecord

from .narrate import narrate, safe_name, seat_name
from .scheduler import Scheduler
from .table import Seat, Status, Table

log = logging.getLogger(__name__)

MAX_SEATS = 10
MIN_SEATS = 2
ROUND_DELAY = 30.0
COMPUTER_DELAY = (1.2, 2.4)
COMPUTER_NAMES = ("Ada", "Blaise", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Frances", "Ken")


class TableError(Exception):
    """A request the table refuses; the message is safe and friendly to show the user."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class StaleClick(TableError):
    """A click on buttons drawn for an older state of the table."""

    def __init__(self) -> None:
        super().__init__("That was an old button: here is your current hand.")


class TableStore(Protocol):
    """What the manager needs from storage (bot.storage.Storage provides it)."""

    async def save_table(self, record: TableRecord) -> None: ...
    async def delete_table(self, table_id: str) -> bool: ...
    async def load_tables(self) -> list[TableRecord]: ...
    async def touch_table(self, record: TableRecord) -> bool: ...
    async def record_match(self, record: MatchRecord, table_id: str | None = None) -> bool: ...


@dataclass(slots=True)
class Outcome:
    """What a change did, for the Discord layer to present."""

    table: Table
    events: list[Event] = field(default_factory=list)
    reply: str | None = None  # a private note for whoever acted
    reveal: tuple[str, ...] | None = None  # a challenged hand, for the challenger's eyes only
    round_over: bool = False
    match_over: bool = False


Listener = Callable[[Table, Outcome], Awaitable[None]]
ComputerBrain = Callable[[Match, int, str, random.Random], tuple[str, str | None]]


class TableManager:
    """Owns every table; one asyncio.Lock per table; every change saved before it is told."""

    def __init__(
        self,
        storage: TableStore | None,
        *,
        scheduler: Scheduler | None = None,
        rng: random.Random | None = None,
        round_delay: float = ROUND_DELAY,
        computer_delay: tuple[float, float] = COMPUTER_DELAY,
        brain: ComputerBrain | None = None,
    ) -> None:
        self.storage = storage
        self.scheduler = scheduler or Scheduler()
        self.clock = self.scheduler.clock
        self.rng = rng or random.Random()
        self.round_delay = round_delay
        self.computer_delay = computer_delay
        self.brain = brain
        self.tables: dict[str, Table] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._saved: dict[str, str] = {}
        self.listeners: list[Listener] = []

    # ----- lookup -----

    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise TableError("This game has ended or no longer exists.")
        return table

    def in_channel(self, channel_id: int) -> list[Table]:
        """Tables whose game runs in, or whose lobby was posted in, this channel."""
        return [
            t
            for t in self.tables.values()
            if t.game_channel_id == channel_id
            or (t.thread_id is None and t.channel_id == channel_id)
        ]

    def find_for(self, channel_id: int, user_id: int) -> Table | None:
        """The table a user most likely means in this channel (their own seat first)."""
        here = [t for t in self.tables.values() if channel_id in (t.game_channel_id, t.channel_id)]
        mine = [t for t in here if t.seat_of(user_id) is not None]
        for group in (mine, here):
            exact = [t for t in group if t.game_channel_id == channel_id]
            if exact:
                return exact[-1]
            if group:
                return group[-1]
        return None

    def _lock(self, table_id: str) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    # ----- persistence -----

    async def restore(self) -> list[Table]:
        """Load every saved table and re-arm its timers (at start)."""
        if self.storage is None:
            return []
        restored = []
        for record in await self.storage.load_tables():
            try:
                table = Table.from_record(record.state)
            except (ValueError, KeyError, TypeError):
                log.exception("could not restore table %s", record.table_id)
                continue
            self.tables[table.table_id] = table
            self._saved[table.table_id] = record.state
            restored.append(table)
            self._arm(table)
        return restored

    async def _save(self, table: Table) -> None:
        text = table.to_record()
        if self.storage is not None:
            await self.storage.save_table(
                TableRecord(
                    table_id=table.table_id,
                    guild_id=table.guild_id,
                    channel_id=table.game_channel_id,
                    version=table.version,
                    state=text,
                    updated_at=self.clock(),
                )
            )
        self._saved[table.table_id] = text

    def _rollback(self, table_id: str) -> None:
        saved = self._saved.get(table_id)
        if saved is None:
            self.tables.pop(table_id, None)
        else:
            self.tables[table_id] = Table.from_record(saved)

    async def _commit(self, table: Table, outcome: Outcome) -> Outcome:
        """Save the changed table (or record the finished match), then tell the listeners."""
        table.bump()
        self._set_deadline(table)
        try:
            if table.status is Status.FINISHED and table.match is not None:
                await self._record(table)
            elif table.status is Status.CANCELLED:
                if self.storage is not None:
                    await self.storage.delete_table(table.table_id)
            else:
                await self._save(table)
        except StorageError:
            log.exception("could not save table %s", table.table_id)
            self._rollback(table.table_id)
            raise TableError(
                "Could not save the game, so nothing changed. Please try again."
            ) from None
        if table.status in (Status.FINISHED, Status.CANCELLED):
            self.tables.pop(table.table_id, None)
            self._saved.pop(table.table_id, None)
            self._disarm(table)
        else:
            self._arm(table)
        for listener in self.listeners:
            try:
                await listener(table, outcome)
            except Exception:
                log.exception("table listener failed for %s", table.table_id)
        return outcome

    async def set_table_message(self, table_id: str, message_id: int) -> None:
        """Remember the table message's id (same version: open hands stay valid)."""
        async with self._lock(table_id):
            table = self.tables.get(table_id)
            if table is None or table.table_message_id == message_id:
                return
            table.table_message_id = message_id
            text = table.to_record()
            if self.storage is not None:
                try:
                    await self.storage.touch_table(
                        TableRecord(
                            table.table_id,
                            table.guild_id,
                            table.game_channel_id,
                            table.version,
                            text,
                            self.clock(),
                        )
                    )
                except StorageError:
                    log.warning("could not save the message id of table %s", table_id)
                    return
            self._saved[table_id] = text

    # ----- the lobby -----

    async def create(
        self,
        table_id: str,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        rules: RuleSet,
        *,
        threads: bool,
        turn_seconds: int | None = None,
        timeout_limit: int = 3,
        lobby_seconds: float | None = None,
        computers: str | None = "normal",
    ) -> Table:
        """Open a lobby with the host seated (turn timer settings come from the server's)."""
        if not threads and any(t.thread_id is None for t in self.in_channel(channel_id)):
            raise TableError(
                "A game is already open in this channel. Finish it first, or start one in "
                "another channel (I need permission to create threads to host several here)."
            )
        if table_id in self.tables:
            raise TableError("That game already exists.")
        table = Table(
            table_id=table_id,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            rules=rules,
            seats=[Seat(host_id, seat_name(host_name))],
            created_at=self.clock(),
            turn_seconds=turn_seconds,
            timeout_limit=max(1, timeout_limit),
            lobby_deadline=self.clock() + lobby_seconds if lobby_seconds else None,
            computers=computers,
        )
        async with self._lock(table_id):
            self.tables[table_id] = table
            try:
                await self._commit(table, Outcome(table))
            except TableError:
                self.tables.pop(table_id, None)
                raise
        return table

    async def lobby_action(
        self, table_id: str, user_id: int, name: str, action: str, arg: str | None = None
    ) -> Outcome:
        """Join, leave, add a computer, set the house rule, start or cancel a lobby."""
        async with self._lock(table_id):
            table = self.get(table_id)
            if table.status is not Status.LOBBY:
                raise TableError("This game has already started.")
            outcome = Outcome(table)
            if action == "join":
                if table.seat_of(user_id) is not None:
                    raise TableError("You are already in this game.")
                if len(table.seats) >= MAX_SEATS:
                    raise TableError("The table is full (10 players).")
                table.seats.append(Seat(user_id, seat_name(name)))
                outcome.reply = "You joined the game."
            elif action == "leave":
                seat = table.seat_of(user_id)
                if seat is None:
                    raise TableError("You are not in this game.")
                del table.seats[seat]
                outcome.reply = "You left the game."
                humans = table.humans()
                if not humans:
                    table.status = Status.CANCELLED
                    outcome.reply = "You left, and the empty game was closed."
                elif user_id == table.host_id:
                    table.host_id = humans[0]
            elif action == "computer":
                self._host_only(table, user_id)
                if table.computers is None:
                    raise TableError("Computer players are turned off on this server.")
                if len(table.seats) >= MAX_SEATS:
                    raise TableError("The table is full (10 players).")
                level = arg if arg in LEVELS else "normal"
                taken = {s.name for s in table.seats}
                base = next((n for n in COMPUTER_NAMES if f"{n} (bot)" not in taken), "CPU")
                computer_id = -(len(table.seats) + 1)
                table.seats.append(Seat(computer_id, f"{base} (bot)", computer=level))
                outcome.reply = f"Added a {level} computer player."
            elif action == "rule":
                self._host_only(table, user_id)
                if table.rules.edition is not Edition.MARIO:
                    raise TableError("Only UNO Super Mario has the Wild Customizable card.")
                text = " ".join((arg or "").split())
                if len(text) > HOUSE_RULE_MAX:
                    raise TableError(f"The house rule can be at most {HOUSE_RULE_MAX} characters.")
                table.rules = RuleSet(
                    table.rules.edition, table.rules.scoring, table.rules.target, text
                )
                outcome.reply = "House rule saved." if text else "House rule cleared."
            elif action == "start":
                self._host_only(table, user_id)
                if len(table.seats) < MIN_SEATS:
                    raise TableError("At least 2 players are needed to start.")
                table.seed = self.rng.getrandbits(63)
                table.match = Match(table.rules, len(table.seats), random.Random(table.seed))
                table.status = Status.PLAYING
                table.started_at = self.clock()
                table.thread_id = int(arg) if arg else None
                outcome.events = list(table.match.game.events)
                table.log.clear()
                for line in narrate(outcome.events, table.safe_names()):
                    table.note(line)
            elif action == "cancel":
                self._host_only(table, user_id)
                table.status = Status.CANCELLED
                outcome.reply = "The game was cancelled."
            else:
                raise TableError("Unknown lobby action.")
            return await self._commit(table, outcome)

    @staticmethod
    def _host_only(table: Table, user_id: int) -> None:
        if user_id != table.host_id:
            raise TableError("Only the host can do that.")

    # ----- the game -----

    def public(self, table: Table) -> PublicView:
        """The table's public view (the renderer's and the table message's input)."""
        match = table.match
        assert match is not None
        return public_view(
            match.game,
            names=table.names(),
            scores=list(match.totals),
            computers=[s.computer is not None for s in table.seats],
            round_number=match.round_number if not match.round_scored else len(match.rounds),
            target=table.rules.target,
            scoring=table.rules.scoring.value,
        )

    def hand(self, table: Table, seat: int) -> HandView:
        """One seat's hand view."""
        assert table.match is not None
        return hand_view(table.match.game, seat, table.seats[seat].name)

    def seated(self, table_id: str, user_id: int) -> tuple[Table, int]:
        """The table and the user's seat there, or a polite refusal."""
        table = self.get(table_id)
        seat = table.seat_of(user_id)
        if seat is None:
            raise TableError("You are not playing at this table.")
        if table.match is None or table.status is Status.LOBBY:
            raise TableError("The game has not started yet.")
        if not table.match.active[seat]:
            raise TableError("You have left this game.")
        return table, seat

    async def act(
        self, table_id: str, user_id: int, version: int | None, action: str, arg: str | None = None
    ) -> Outcome:
        """A seated player's action; ``version`` None skips the out-of-date check."""
        async with self._lock(table_id):
            table, seat = self.seated(table_id, user_id)
            if version is not None and version != table.version:
                raise StaleClick()
            return await self._apply(table, seat, action, arg)

    async def _apply(
        self, table: Table, seat: int, action: str, arg: str | None, *, own: bool = True
    ) -> Outcome:
        match = table.match
        assert match is not None
        back = own and action != "catch" and seat == match.game.current
        if action == "next":
            return await self._next_round(table)
        if table.status is not Status.PLAYING:
            raise TableError("The round is over: the next one starts soon.")
        game = match.game
        outcome = Outcome(table)
        start = len(game.events)
        try:
            if action == "play":
                card, color = _parse_play(arg)
                uno = seat in table.uno_armed
                game.play(seat, card, color, uno)
            elif action == "draw":
                game.draw(seat)
            elif action == "keep":
                game.pass_turn(seat)
            elif action == "accept":
                game.accept(seat)
            elif action == "challenge":
                game.challenge(seat)
            elif action == "color":
                game.choose_color(seat, _parse_color(arg))
            elif action == "uno":
                if len(game.hands[seat]) == 2 and game.current == seat:
                    # Arm the call: it goes out with the play of the next-to-last card.
                    if seat in table.uno_armed:
                        table.uno_armed.remove(seat)
                        outcome.reply = "UNO call withdrawn."
                    else:
                        table.uno_armed.append(seat)
                        outcome.reply = "You will call UNO with your next card."
                    return await self._commit(table, outcome)
                game.call_uno(seat)
                outcome.reply = "UNO!"
            elif action == "catch":
                target = _parse_seat(arg, len(table.seats))
                if not game.catch(seat, target):
                    outcome.reply = "Too late, or they were safe: nothing happens."
            else:
                raise TableError("Unknown action.")
        except RuleError as exc:
            raise TableError(exc.message) from None
        if back:
            table.timeouts.pop(seat, None)  # the player is back: the count starts over
        return await self._after_action(table, outcome, start)

    async def _after_action(self, table: Table, outcome: Outcome, start: int) -> Outcome:
        match = table.match
        assert match is not None
        game = match.game
        outcome.events = game.events[start:]
        table.uno_armed = [s for s in table.uno_armed if len(game.hands[s]) == 2]
        for event in outcome.events:
            if event.get("type") == "challenge":
                outcome.reveal = tuple(event.get("hand", ()))
        for line in narrate(outcome.events, table.safe_names()):
            table.note(line)
        if game.over:
            self._close_round(table, outcome)
        return await self._commit(table, outcome)

    def _close_round(self, table: Table, outcome: Outcome) -> None:
        match = table.match
        assert match is not None
        if not match.round_scored:
            match.finish_round()
        outcome.round_over = True
        table.uno_armed.clear()
        if match.over:
            table.status = Status.FINISHED
            outcome.match_over = True
            winners = " and ".join(f"**{safe_name(table.seats[s].name)}**" for s in match.winners)
            table.note(f"{winners} won the match!")
        else:
            table.status = Status.ROUND_OVER
            table.next_round_at = self.clock() + self.round_delay

    async def _next_round(self, table: Table) -> Outcome:
        match = table.match
        assert match is not None
        if table.status is not Status.ROUND_OVER:
            raise TableError("The next round has already started.")
        game = match.next_round()
        table.status = Status.PLAYING
        table.next_round_at = None
        outcome = Outcome(table, events=list(game.events))
        table.note(f"Round {match.round_number} begins")
        for line in narrate(outcome.events, table.safe_names()):
            table.note(line)
        return await self._commit(table, outcome)

    async def next_round(self, table_id: str) -> Outcome:
        """Deal the next round (the button, or the timer after the scoreboard)."""
        async with self._lock(table_id):
            return await self._next_round(self.get(table_id))

    async def leave(self, table_id: str, user_id: int) -> Outcome:
        """A player leaves a running game; their cards go back into the draw pile."""
        async with self._lock(table_id):
            table, seat = self.seated(table_id, user_id)
            return await self._remove(
                table, seat, f"**{safe_name(table.seats[seat].name)}** left the game"
            )

    async def kick(self, table_id: str, host_id: int, user_id: int) -> Outcome:
        """The host removes a player."""
        async with self._lock(table_id):
            table = self.get(table_id)
            self._host_only(table, host_id)
            if user_id == host_id:
                raise TableError("Use /uno leave to leave your own game.")
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("That member is not playing at this table.")
            if table.status is Status.LOBBY:
                del table.seats[seat]
                return await self._commit(table, Outcome(table, reply="Removed from the lobby."))
            assert table.match is not None
            if not table.match.active[seat]:
                raise TableError("That player has already left.")
            name = safe_name(table.seats[seat].name)
            return await self._remove(table, seat, f"**{name}** was removed by the host")

    async def _remove(self, table: Table, seat: int, line: str) -> Outcome:
        match = table.match
        assert match is not None
        start = len(match.game.events)
        match.leave(seat)
        table.note(line)
        outcome = Outcome(table, reply="You left the game.")
        if match.over:
            outcome.events = match.game.events[start:]
            self._close_round(table, outcome)
            return await self._commit(table, outcome)
        if table.status is Status.PLAYING:
            return await self._after_action(table, outcome, start)
        return await self._commit(table, outcome)

    async def end(self, table_id: str, user_id: int, *, admin: bool) -> Outcome:
        """End a game early (host or server manager); an unfinished match is not recorded."""
        async with self._lock(table_id):
            table = self.get(table_id)
            if user_id != table.host_id and not admin:
                raise TableError("Only the host or a server manager can end this game.")
            table.status = Status.CANCELLED
            table.note("The game was ended early")
            return await self._commit(table, Outcome(table, reply="The game was ended."))

    # ----- the league hand-off -----

    def match_record(self, table: Table) -> MatchRecord:
        """The finished match as the league records it (the one place results leave the table)."""
        match = table.match
        assert match is not None
        totals = match.totals
        lowest = table.rules.scoring.value == "lowest"
        order = sorted(
            range(len(table.seats)),
            key=lambda s: (
                s not in match.winners,
                not match.active[s],
                totals[s] if lowest else -totals[s],
            ),
        )
        places: dict[int, int] = {}
        previous: tuple[bool, bool, int] | None = None
        for rank, seat in enumerate(order, start=1):
            key = (seat not in match.winners, not match.active[seat], totals[seat])
            places[seat] = places[order[rank - 2]] if key == previous else rank
            previous = key
        events = [*match.dealer_events, *match.game.events]
        return MatchRecord(
            match_uid=table.table_id,
            guild_id=table.guild_id,
            channel_id=table.game_channel_id,
            edition=table.rules.edition.value,
            scoring=table.rules.scoring.value,
            target=table.rules.target,
            started_at=table.started_at or table.created_at,
            finished_at=self.clock(),
            rounds=[list(r) for r in match.rounds],
            events=events,
            players=[
                MatchPlayer(
                    user_id=seat.user_id,
                    name=seat.name,
                    seat=index,
                    points=totals[index],
                    place=places[index],
                    computer=seat.computer is not None,
                )
                for index, seat in enumerate(table.seats)
            ],
            winners=[table.seats[s].user_id for s in match.winners],
            round_winners=list(match.round_winners),
        )

    async def _record(self, table: Table) -> None:
        if self.storage is not None:
            await self.storage.record_match(self.match_record(table), table.table_id)
        table.recorded = True

    # ----- timers and computer players -----

    def _arm(self, table: Table) -> None:
        key = table.table_id
        self.scheduler.cancel(f"{key}:computer")
        self.scheduler.cancel(f"{key}:next")
        if table.status is not Status.LOBBY:
            self.scheduler.cancel(f"{key}:lobby")
        if table.status is not Status.PLAYING:
            self.scheduler.cancel(f"{key}:turn")
        if table.status is Status.LOBBY and table.lobby_deadline is not None:
            self.scheduler.schedule(f"{key}:lobby", table.lobby_deadline, self._lobby_expiry(key))
        elif table.status is Status.ROUND_OVER and table.next_round_at is not None:
            self.scheduler.schedule(f"{key}:next", table.next_round_at, self._auto_next(key))
        elif table.status is Status.PLAYING and table.match is not None:
            if table.deadline is not None:
                self.scheduler.schedule(f"{key}:turn", table.deadline, self._turn_timeout(key))
            else:
                self.scheduler.cancel(f"{key}:turn")
            self._arm_computer_catch(table)
            seat = table.match.game.current
            if seat >= 0 and table.seats[seat].computer is not None and self.brain is not None:
                low, high = self.computer_delay
                when = self.clock() + self.rng.uniform(low, high)
                self.scheduler.schedule(f"{key}:computer", when, self._computer_turn(key))

    def _set_deadline(self, table: Table) -> None:
        """A fresh deadline whenever the game waits for someone new (saved with the table)."""
        match = table.match
        if table.turn_seconds is None or match is None or table.status is not Status.PLAYING:
            table.deadline = None
            table.timer_key = None
            return
        game = match.game
        seat = game.current
        if seat < 0 or table.seats[seat].computer is not None:
            table.deadline = None
            table.timer_key = None
            return
        key = f"{match.round_number}:{seat}:{int(game.phase)}:{len(game.events)}"
        if game.phase is Phase.DRAWN:
            # Drawing does not restart the clock: the same turn goes on.
            key = table.timer_key or key
        if key != table.timer_key:
            table.timer_key = key
            table.deadline = self.clock() + table.turn_seconds

    def _turn_timeout(self, table_id: str) -> Callable[[], Awaitable[None]]:
        async def job() -> None:
            async with self._lock(table_id):
                table = self.tables.get(table_id)
                if table is None or table.match is None or table.deadline is None:
                    return
                if self.clock() < table.deadline or table.status is not Status.PLAYING:
                    return
                await self._time_out(table)

        return job

    async def _time_out(self, table: Table) -> None:
        """The awaited player's time ran out: their safest choice, through the usual path."""
        match = table.match
        assert match is not None
        game = match.game
        seat = game.current
        name = safe_name(table.seats[seat].name)
        count = table.timeouts.get(seat, 0) + 1
        if count >= table.timeout_limit:
            table.timeouts[seat] = 0
            await self._remove(table, seat, f"**{name}** was removed after {count} timeouts")
            return
        table.timeouts[seat] = count
        table.note(f"**{name}** ran out of time")
        if game.phase is Phase.TURN:
            start = len(game.events)
            game.draw(seat)
            if game.awaiting == "drawn":
                game.pass_turn(seat)
            await self._after_action(table, Outcome(table), start)
        elif game.phase is Phase.DRAWN:
            await self._apply(table, seat, "keep", None, own=False)
        elif game.phase is Phase.RESPOND:
            await self._apply(table, seat, "accept", None, own=False)
        else:
            hand = game.hands[seat]
            counts = [sum(1 for c in hand if CARD_COLOR[c] == k) for k in range(4)]
            color = COLORS[counts.index(max(counts))]
            await self._apply(table, seat, "color", color, own=False)

    def _arm_computer_catch(self, table: Table) -> None:
        """Normal and hard computers catch a player who forgot UNO, after a human-like pause."""
        key = f"{table.table_id}:catch"
        assert table.match is not None
        target = table.match.game.catchable()
        catchers = [
            s
            for s, seat in enumerate(table.seats)
            if seat.computer in ("normal", "hard") and s != target and table.match.active[s]
        ]
        if target < 0 or not catchers:
            self.scheduler.cancel(key)
            return
        if self.scheduler.pending(key):
            return
        # Quicker than a computer's own move, so a catch lands before that move closes the window.
        low, _ = self.computer_delay
        when = self.clock() + self.rng.uniform(low / 2, low)
        self.scheduler.schedule(
            key, when, self._computer_catch(table.table_id, catchers[0], target)
        )

    def _computer_catch(
        self, table_id: str, seat: int, target: int
    ) -> Callable[[], Awaitable[None]]:
        async def job() -> None:
            async with self._lock(table_id):
                table = self.tables.get(table_id)
                if table is None or table.match is None or table.status is not Status.PLAYING:
                    return
                if table.match.game.catchable() == target:
                    await self._apply(table, seat, "catch", str(target), own=False)

        return job

    def _disarm(self, table: Table) -> None:
        for kind in ("computer", "next", "turn", "lobby", "catch"):
            self.scheduler.cancel(f"{table.table_id}:{kind}")

    def _lobby_expiry(self, table_id: str) -> Callable[[], Awaitable[None]]:
        async def job() -> None:
            async with self._lock(table_id):
                table = self.tables.get(table_id)
                if table is not None and table.status is Status.LOBBY:
                    table.status = Status.CANCELLED
                    table.note("The lobby closed: nobody started the game in time")
                    await self._commit(table, Outcome(table))

        return job

    def _auto_next(self, table_id: str) -> Callable[[], Awaitable[None]]:
        async def job() -> None:
            async with self._lock(table_id):
                table = self.tables.get(table_id)
                if table is not None and table.status is Status.ROUND_OVER:
                    await self._next_round(table)

        return job

    def _computer_turn(self, table_id: str) -> Callable[[], Awaitable[None]]:
        async def job() -> None:
            table = self.tables.get(table_id)
            if table is None or table.match is None or self.brain is None:
                return
            seat = table.match.game.current
            if seat < 0 or table.seats[seat].computer is None:
                return
            level = table.seats[seat].computer or "normal"
            version = table.version
            snapshot = Match.from_dict(table.match.to_dict())  # the brain never sees the live game
            rng = random.Random(table.seed ^ version)
            action, arg = await asyncio.to_thread(self.brain, snapshot, seat, level, rng)
            async with self._lock(table_id):
                table = self.tables.get(table_id)
                if table is None or table.version != version or table.match is None:
                    return  # someone acted meanwhile; the new state re-arms the timer
                if action == "uno_play":
                    table.uno_armed.append(seat)
                    action = "play"
                try:
                    await self._apply(table, seat, action, arg)
                except TableError as exc:
                    log.warning("computer move %s %s refused: %s", action, arg, exc.message)

        return job

    async def close(self) -> None:
        await self.scheduler.close()


def _parse_play(arg: str | None) -> tuple[int, int | None]:
    """``<index>.<code>[.<color>]`` from a button: the card and the chosen color."""
    parts = (arg or "").split(".")
    if len(parts) < 2 or parts[1] not in CARD_INDEX:
        raise TableError("That card button is broken; open your hand again.")
    color = COLOR_INDEX.get(parts[2]) if len(parts) > 2 else None
    return CARD_INDEX[parts[1]], color


def _parse_color(arg: str | None) -> int:
    if arg not in COLOR_INDEX:
        raise TableError("Choose red, yellow, green or blue.")
    return COLOR_INDEX[arg]


def _parse_seat(arg: str | None, seats: int) -> int:
    try:
        seat = int(arg or "")
    except ValueError:
        raise TableError("Nobody to catch.") from None
    if not 0 <= seat < seats:
        raise TableError("Nobody to catch.")
    return seat
