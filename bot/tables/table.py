"""A table: the seats (Discord users or computers), the match, its messages and its version."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import orjson

from bot.engine import Match, RuleSet
from bot.engine.game import Phase

from .tablelog import LogLine, dump_line, keep_last, load_line

MOVES_KEPT = 4  # recent turn moves a table remembers, to tell a lost race from a stale click
BERSERK_FLOOR = 5  # seconds: half a turn timer is never shorter


@dataclass(frozen=True, slots=True)
class Move:
    """A turn action taken at ``version`` (before it was committed): by ``seat``, on the turn
    of ``turn_of`` (another seat's for a jump-in)."""

    version: int
    seat: int
    turn_of: int


class Status(StrEnum):
    """Where a table is in its life."""

    LOBBY = "lobby"
    PLAYING = "playing"
    ROUND_OVER = "round_over"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(slots=True)
class Seat:
    """Who sits at a seat: a Discord user, or a computer player (``computer`` is its level)."""

    user_id: int
    name: str
    computer: str | None = None
    team: int | None = None  # the team picked in the lobby (None: the bot seats them)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "user_id": self.user_id,
            "name": self.name,
            "computer": self.computer,
        }
        if self.team is not None:
            data["team"] = self.team
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        team = data.get("team")
        return cls(
            int(data["user_id"]),
            str(data["name"]),
            data.get("computer"),
            int(team) if isinstance(team, int) else None,
        )


@dataclass(slots=True)
class Table:
    """All the state of one game; only the TableManager changes it, under the table's lock."""

    table_id: str
    guild_id: int
    channel_id: int  # where the lobby was posted
    host_id: int
    rules: RuleSet
    seats: list[Seat] = field(default_factory=list)
    status: Status = Status.LOBBY
    version: int = 1
    thread_id: int | None = None  # the game's thread, when the bot could open one
    lobby_message_id: int | None = None
    table_message_id: int | None = None
    match: Match | None = None
    seed: int = 0
    log: list[LogLine] = field(default_factory=list)
    uno_armed: list[int] = field(default_factory=list)  # seats calling UNO with their next play
    deadline: float | None = None  # when the awaited seat's time runs out (turn timers)
    timeouts: dict[int, int] = field(default_factory=dict)  # seat -> timeouts in a row
    created_at: float = 0.0
    started_at: float | None = None
    next_round_at: float | None = None
    recorded: bool = False
    turn_seconds: int | None = None  # None: no turn timer
    timeout_limit: int = 3  # timeouts in a row before a player is removed
    timer_key: str | None = None  # what the running deadline waits for (seat, phase, round)
    lobby_deadline: float | None = None  # an unstarted lobby closes by itself then
    computers: str | None = "normal"  # the default computer level; None: no computers here
    locale: str = "en"  # the language of its public messages (the server's, when it opened)
    # The table message's bookkeeping, saved before and after each post so that a restart
    # knows every message a table may have left behind:
    post_nonce: str | None = None  # a post that may have reached Discord under this nonce
    old_messages: list[int] = field(default_factory=list)  # posted by the table, to delete
    ping_message_id: int | None = None  # the "your turn" ping now posted, if any
    rematch_of: str | None = None  # the finished table this lobby is the rematch of
    tournament_id: str | None = None  # the server tournament this table plays for
    berserk: list[int] = field(default_factory=list)  # users on half the turn timer
    tournament_message_id: int | None = None  # the tournament's standings message, if posted
    # Not saved: after a restart nobody can be racing a click drawn before it.
    moves: list[Move] = field(default_factory=list)

    @property
    def game_channel_id(self) -> int:
        """Where the table message lives: the thread, or the lobby's channel."""
        return self.thread_id if self.thread_id is not None else self.channel_id

    def seat_of(self, user_id: int) -> int | None:
        """The seat of a Discord user at this table, or None."""
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id and seat.computer is None:
                return index
        return None

    def active_seat_of(self, user_id: int) -> int | None:
        """The seat of a user still playing (not left), or None."""
        seat = self.seat_of(user_id)
        if seat is None:
            return None
        if self.match is not None and not self.match.active[seat]:
            return None
        return seat

    def names(self) -> list[str]:
        """The seats' names as people chose them (for pictures and button labels)."""
        return [seat.name for seat in self.seats]

    def humans(self) -> list[int]:
        return [seat.user_id for seat in self.seats if seat.computer is None]

    def record(self, *lines: LogLine) -> None:
        """Add entries to the table's recent actions."""
        keep_last(self.log, lines)

    def refresh_deadline(self, now: float) -> None:
        """A fresh deadline whenever the game waits for someone new (saved with the table)."""
        match = self.match
        if self.turn_seconds is None or match is None or self.status is not Status.PLAYING:
            self.deadline = None
            self.timer_key = None
            return
        game = match.game
        seat = game.current
        if seat < 0 or self.seats[seat].computer is not None:
            self.deadline = None
            self.timer_key = None
            return
        key = f"{match.round_number}:{seat}:{int(game.phase)}:{len(game.events)}"
        if game.phase is Phase.DRAWN:
            # Drawing does not restart the clock: the same turn goes on.
            key = self.timer_key or key
        if key != self.timer_key:
            self.timer_key = key
            self.deadline = now + self.seconds_for(seat)

    def seconds_for(self, seat: int) -> int:
        """A seat's turn time: half for a player who went berserk in a tournament."""
        seconds = self.turn_seconds or 0
        if self.seats[seat].user_id in self.berserk:
            return max(BERSERK_FLOOR, seconds // 2)
        return seconds

    def remember_move(self, move: Move) -> None:
        """Keep the last few turn moves (what a click that lost a race is told)."""
        self.moves.append(move)
        del self.moves[:-MOVES_KEPT]

    def bump(self) -> int:
        """A new version: every button drawn before this one is out of date."""
        self.version += 1
        return self.version

    def to_record(self) -> str:
        """The whole table as JSON text, for the storage (saved at every change: orjson writes
        it in a tenth of the time of the json module; json only for what orjson refuses)."""
        record: dict[str, Any] = {
            "table_id": self.table_id,
            "guild_id": self.guild_id,
            "channel_id": self.channel_id,
            "host_id": self.host_id,
            "rules": self.rules.to_dict(),
            "seats": [s.to_dict() for s in self.seats],
            "status": self.status.value,
            "version": self.version,
            "thread_id": self.thread_id,
            "lobby_message_id": self.lobby_message_id,
            "table_message_id": self.table_message_id,
            "match": self.match.to_dict() if self.match is not None else None,
            "seed": self.seed,
            "log": [dump_line(line) for line in self.log],
            "uno_armed": self.uno_armed,
            "deadline": self.deadline,
            "timeouts": {str(k): v for k, v in self.timeouts.items()},
            "created_at": self.created_at,
            "started_at": self.started_at,
            "next_round_at": self.next_round_at,
            "recorded": self.recorded,
            "turn_seconds": self.turn_seconds,
            "timeout_limit": self.timeout_limit,
            "timer_key": self.timer_key,
            "lobby_deadline": self.lobby_deadline,
            "computers": self.computers,
            "locale": self.locale,
            "post_nonce": self.post_nonce,
            "old_messages": self.old_messages,
            "ping_message_id": self.ping_message_id,
            "rematch_of": self.rematch_of,
            "tournament_id": self.tournament_id,
            "berserk": self.berserk,
            "tournament_message_id": self.tournament_message_id,
        }
        try:
            return orjson.dumps(record).decode()
        except orjson.JSONEncodeError:  # an integer past 64 bits, say
            return json.dumps(record, separators=(",", ":"))

    @classmethod
    def from_record(cls, text: str) -> Table:
        """Rebuild a table saved by ``to_record``."""
        try:
            data = orjson.loads(text)
        except orjson.JSONDecodeError:  # what only json wrote (an integer past 64 bits)
            data = json.loads(text)
        match = data.get("match")
        return cls(
            table_id=str(data["table_id"]),
            guild_id=int(data["guild_id"]),
            channel_id=int(data["channel_id"]),
            host_id=int(data["host_id"]),
            rules=RuleSet.from_dict(data["rules"]),
            seats=[Seat.from_dict(s) for s in data["seats"]],
            status=Status(data["status"]),
            version=int(data["version"]),
            thread_id=data.get("thread_id"),
            lobby_message_id=data.get("lobby_message_id"),
            table_message_id=data.get("table_message_id"),
            match=Match.from_dict(match) if match is not None else None,
            seed=int(data.get("seed", 0)),
            log=[load_line(line) for line in data.get("log", [])],
            uno_armed=[int(s) for s in data.get("uno_armed", [])],
            deadline=data.get("deadline"),
            timeouts={int(k): int(v) for k, v in data.get("timeouts", {}).items()},
            created_at=float(data.get("created_at", 0.0)),
            started_at=data.get("started_at"),
            next_round_at=data.get("next_round_at"),
            recorded=bool(data.get("recorded", False)),
            turn_seconds=data.get("turn_seconds"),
            timeout_limit=int(data.get("timeout_limit", 3)),
            timer_key=data.get("timer_key"),
            lobby_deadline=data.get("lobby_deadline"),
            computers=data.get("computers", "normal"),
            locale=str(data.get("locale", "en")),
            post_nonce=data.get("post_nonce"),
            old_messages=[int(m) for m in data.get("old_messages", [])],
            ping_message_id=data.get("ping_message_id"),
            rematch_of=data.get("rematch_of"),
            tournament_id=data.get("tournament_id"),
            berserk=[int(u) for u in data.get("berserk", [])],
            tournament_message_id=data.get("tournament_message_id"),
        )
