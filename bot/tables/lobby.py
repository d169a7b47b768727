"""The lobby: a new table, seats taken and left, computer players, the house rule, the start."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from bot.engine import HouseRules, Match, RuleSet
from bot.engine.ai import LEVELS
from bot.engine.cards import Edition, edition_deck
from bot.engine.rules import HOUSE_RULE_MAX

from .change import Change
from .commands import Actor
from .house_words import for_edition
from .names import seat_name
from .notes import note
from .refusals import TableError
from .table import Seat, Status, Table
from .tablelog import LogEntry, entries
from .teams import arranged, check_teams

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
    seats: Sequence[Seat] = (),
    rematch_of: str | None = None,
    locale: str = "en",
    tournament_id: str | None = None,
    berserk: Sequence[int] = (),
    tournament_message_id: int | None = None,
) -> Table:
    """A lobby with the host seated (turn timer settings come from the server's); a rematch
    keeps the finished match's ``seats`` in their order, the host among them."""
    house = for_edition(rules.house, rules.edition)
    taken = [
        Seat(host.user_id, seat_name(host.name))
        if seat.user_id == host.user_id and seat.computer is None
        else Seat(seat.user_id, seat.name, seat.computer)
        for seat in seats[:MAX_SEATS]
    ]
    # A tournament's table of computers alone is hosted by one of them (already seated).
    if not any(seat.user_id == host.user_id for seat in taken):
        taken.insert(0, Seat(host.user_id, seat_name(host.name)))
    return Table(
        table_id=table_id,
        guild_id=guild_id,
        channel_id=channel_id,
        host_id=host.user_id,
        rules=dataclasses.replace(rules, house=house),
        seats=taken[:MAX_SEATS],
        rematch_of=rematch_of,
        created_at=now,
        turn_seconds=turn_seconds,
        timeout_limit=max(1, timeout_limit),
        lobby_deadline=now + lobby_seconds if lobby_seconds else None,
        computers=computers,
        locale=locale,
        tournament_id=tournament_id,
        berserk=list(berserk),
        tournament_message_id=tournament_message_id,
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
    return Change(note=note("computer_added", level=note(f"level.{level}")))


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


def check_house_rules(table: Table, actor: Actor) -> None:
    """Only the host of an open lobby chooses the house rules."""
    if table.status is not Status.LOBBY:
        raise TableError("lobby_closed")
    if actor.user_id != table.host_id:
        raise TableError("host_only_house_rules")


def _set_house(table: Table, house: HouseRules) -> Change:
    if house == table.rules.house:
        return Change(changed=False, note=note("house_rules_saved"))
    table.rules = dataclasses.replace(table.rules, house=house)
    return Change(note=note("house_rules_saved"))


def choose_preset(table: Table, actor: Actor, name: str) -> Change:
    """The host picks a preset; it replaces every option."""
    check_house_rules(table, actor)
    try:
        house = HouseRules.preset(name)
    except ValueError:
        raise TableError("bad_house_option") from None
    return _set_house(table, for_edition(house, table.rules.edition))


def set_house_option(table: Table, actor: Actor, name: str, value: bool | int | str) -> Change:
    """The host changes one option (the Wild Customizable's effect only in Super Mario)."""
    check_house_rules(table, actor)
    if name == "custom_effect" and table.rules.edition is not Edition.MARIO:
        raise TableError("no_custom_card")
    try:
        house = table.rules.house.with_option(name, value)
    except (ValueError, TypeError):
        raise TableError("bad_house_option") from None
    return _set_house(table, house)


def _check_deal(table: Table) -> None:
    """The deck must hold the deal: hand_size cards to each seat, and one to turn up."""
    size = table.rules.house.hand_size
    if size * len(table.seats) + 1 > len(edition_deck(table.rules.edition)):
        raise TableError("deal_too_big", cards=size, seats=len(table.seats))


def check_start(table: Table, actor: Actor) -> None:
    """May ``actor`` start this lobby now (asked before the game's thread is opened)."""
    if table.status is not Status.LOBBY:
        raise TableError("start_closed")
    if actor.user_id != table.host_id:
        raise TableError("host_only_start")
    if len(table.seats) < MIN_SEATS:
        raise TableError("too_few", seats=MIN_SEATS)
    _check_deal(table)
    check_teams(table)


def start(table: Table, actor: Actor, thread_id: int | None, seed: int, now: float) -> Change:
    """Deal the first round; the log starts with what the deal turned up."""
    _open(table)
    _host_only(table, actor)
    if len(table.seats) < MIN_SEATS:
        raise TableError("too_few", seats=MIN_SEATS)
    _check_deal(table)
    check_teams(table)
    table.seats = arranged(table.seats, table.rules.teams)
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
