"""The lobby: a new table, seats taken and left, computer players, the house rule, the start."""

from __future__ import annotations

import dataclasses
import random

from bot.engine import Match, RuleSet
from bot.engine.ai import LEVELS
from bot.engine.cards import Edition
from bot.engine.rules import HOUSE_RULE_MAX

from .change import Change
from .commands import Actor
from .names import seat_name
from .notes import TableError, note
from .table import Seat, Status, Table
from .tablelog import LogEntry, entries

MAX_SEATS = 10
MIN_SEATS = 2
COMPUTER_NAMES = ("Ada", "Blaise", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Frances", "Ken")


def new_table(
    table_id: str,
    guild_id: int,
    channel_id: int,
    host: Actor,
    rules: RuleSet,
    *,
    now: float,
    turn_seconds: int | None,
    timeout_limit: int,
    lobby_seconds: float | None,
    computers: str | None,
) -> Table:
    """A lobby with the host seated (turn timer settings come from the server's)."""
    return Table(
        table_id=table_id,
        guild_id=guild_id,
        channel_id=channel_id,
        host_id=host.user_id,
        rules=rules,
        seats=[Seat(host.user_id, seat_name(host.name))],
        created_at=now,
        turn_seconds=turn_seconds,
        timeout_limit=max(1, timeout_limit),
        lobby_deadline=now + lobby_seconds if lobby_seconds else None,
        computers=computers,
    )


def _open(table: Table) -> None:
    if table.status is not Status.LOBBY:
        raise TableError("already_started")


def _host_only(table: Table, actor: Actor) -> None:
    if actor.user_id != table.host_id:
        raise TableError("host_only")


def join(table: Table, actor: Actor) -> Change:
    _open(table)
    if table.seat_of(actor.user_id) is not None:
        raise TableError("already_joined")
    if len(table.seats) >= MAX_SEATS:
        raise TableError("table_full", seats=MAX_SEATS)
    table.seats.append(Seat(actor.user_id, seat_name(actor.name)))
    return Change(note=note("joined"))


def leave(table: Table, actor: Actor) -> Change:
    """Leave the lobby; the host's chair passes on, and an empty lobby closes."""
    _open(table)
    seat = table.seat_of(actor.user_id)
    if seat is None:
        raise TableError("not_in_lobby")
    del table.seats[seat]
    humans = table.humans()
    if not humans:
        table.status = Status.CANCELLED
        return Change(note=note("left_closed"))
    if actor.user_id == table.host_id:
        table.host_id = humans[0]
    return Change(note=note("left"))


def add_computer(table: Table, actor: Actor, level: str) -> Change:
    _open(table)
    _host_only(table, actor)
    if table.computers is None:
        raise TableError("computers_off")
    if len(table.seats) >= MAX_SEATS:
        raise TableError("table_full", seats=MAX_SEATS)
    level = level if level in LEVELS else "normal"
    taken = {s.name for s in table.seats}
    base = next((n for n in COMPUTER_NAMES if f"{n} (bot)" not in taken), "CPU")
    computer_id = -(len(table.seats) + 1)
    table.seats.append(Seat(computer_id, f"{base} (bot)", computer=level))
    return Change(note=note("computer_added", level=level))


def check_house_rule(table: Table, actor: Actor) -> None:
    """Only the host of an open Super Mario lobby writes the Wild Customizable's rule."""
    if table.status is not Status.LOBBY:
        raise TableError("lobby_closed")
    if actor.user_id != table.host_id:
        raise TableError("host_only_rule")


def set_house_rule(table: Table, actor: Actor, text: str) -> Change:
    _open(table)
    _host_only(table, actor)
    if table.rules.edition is not Edition.MARIO:
        raise TableError("no_custom_card")
    text = " ".join(text.split())
    if len(text) > HOUSE_RULE_MAX:
        raise TableError("house_rule_too_long", limit=HOUSE_RULE_MAX)
    table.rules = dataclasses.replace(table.rules, house_rule=text)
    return Change(note=note("house_rule_saved" if text else "house_rule_cleared"))


def check_start(table: Table, actor: Actor) -> None:
    """May ``actor`` start this lobby now (asked before the game's thread is opened)."""
    if table.status is not Status.LOBBY:
        raise TableError("start_closed")
    if actor.user_id != table.host_id:
        raise TableError("host_only_start")
    if len(table.seats) < MIN_SEATS:
        raise TableError("too_few", seats=MIN_SEATS)


def start(table: Table, actor: Actor, thread_id: int | None, seed: int, now: float) -> Change:
    """Deal the first round; the log starts with what the deal turned up."""
    _open(table)
    _host_only(table, actor)
    if len(table.seats) < MIN_SEATS:
        raise TableError("too_few", seats=MIN_SEATS)
    table.seed = seed
    table.match = Match(table.rules, len(table.seats), random.Random(seed))
    table.status = Status.PLAYING
    table.started_at = now
    table.thread_id = thread_id
    table.log.clear()
    table.record(*entries(table.match.game.events))
    return Change()


def cancel(table: Table, actor: Actor) -> Change:
    _open(table)
    _host_only(table, actor)
    table.status = Status.CANCELLED
    return Change(note=note("cancelled"))


def expire(table: Table) -> Change:
    """Nobody started the lobby in time: it closes by itself."""
    _open(table)
    table.status = Status.CANCELLED
    table.record(LogEntry("lobby_expired"))
    return Change()
