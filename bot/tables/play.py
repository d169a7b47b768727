"""The game at a table: every engine action through ``game.apply``, rounds, leaving, timeouts.

These functions change the live table under its lock and say what they did (a ``Change``);
they never save or tell anyone (the manager commits). A refusal raises ``TableError`` before
anything changes: the engine validates an action completely before applying it.
"""

from __future__ import annotations

import dataclasses
import random

from bot.engine import Action, Do, Event, RuleError
from bot.engine.ai import timeout_action
from bot.engine.events import Challenged
from bot.engine.game import Phase
from bot.i18n import refusals

from .change import Change
from .commands import Actor
from .names import safe_name
from .notes import note
from .refusals import StaleClick, TableError
from .snapshot import Reveal
from .table import Move, Status, Table
from .tablelog import LogEntry, entries

# The engine actions that take a turn (a catch or an UNO call does not): a click on one of
# these that lost a race is told what came first.
TURN_ACTIONS = frozenset({Do.PLAY, Do.DRAW, Do.PASS, Do.ACCEPT, Do.CHALLENGE, Do.CHOOSE_COLOR})


def player_seat(table: Table, user_id: int) -> int:
    """The seat of a user still playing at this started table, or a polite refusal."""
    seat = table.seat_of(user_id)
    if seat is None:
        raise TableError("not_seated")
    if table.match is None or table.status is Status.LOBBY:
        raise TableError("not_started")
    if not table.match.active[seat]:
        raise TableError("you_left")
    return seat


def apply_action(table: Table, seat: int, action: Action, *, now: float, delay: float) -> Change:
    """One engine action by ``seat`` (its own click, a computer's move or a timeout's choice).

    An action that changes nothing (a catch too late, a repeated UNO call) leaves the table and
    its version alone.
    """
    match = table.match
    assert match is not None
    if table.status is not Status.PLAYING:
        raise round_over(table)
    game = match.game
    uno = action.uno or (action.do == Do.PLAY and seat in table.uno_armed)
    turn_of = game.current
    try:
        events = match.apply(dataclasses.replace(action, seat=seat, uno=uno))
    except RuleError as exc:
        text, params = refusals.template(exc)
        raise TableError("rule", text=text, code=exc.code, **params) from None
    if action.do == Do.CALL_UNO:
        message = note("uno")
    elif action.do == Do.CATCH:
        count = game.house.uno_penalty
        message = (
            (note("caught", count=count) if count else note("caught_free"))
            if events
            else note("catch_missed")
        )
    else:
        message = None
    if not events:
        return Change(changed=False, note=message)
    if action.do in TURN_ACTIONS:
        table.remember_move(Move(table.version, seat, turn_of))
    return after_events(table, events, Change(note=message), now=now, delay=delay)


def after_events(
    table: Table, events: list[Event], change: Change, *, now: float, delay: float
) -> Change:
    """Log what the engine did, forget stale UNO calls, reveal a challenge, close a round."""
    match = table.match
    assert match is not None
    game = match.game
    table.uno_armed = [s for s in table.uno_armed if len(game.hands[s]) == 2]
    for event in events:
        if isinstance(event, Challenged):
            change.reveal = Reveal(event.target, event.hand)
    lowest = table.rules.scoring.value == "lowest"
    table.record(*(scored_lowest(e) if lowest else e for e in entries(events)))
    winner = game.end_if_stalled()
    if winner is not None:
        points = game.points[winner] if game.points is not None and not lowest else None
        table.record(LogEntry("stalled", seat=winner, count=points))
    if game.over:
        close_round(table, change, now=now, delay=delay)
    return change


def scored_lowest(entry: LogEntry) -> LogEntry:
    """Under lowest scoring the one who went out scores nothing (the others add their own
    cards, shown with the scores): the log names who went out without the others' points."""
    if entry.kind == "round_over":
        return LogEntry("went_out", seat=entry.seat)
    return entry


def by_player(table: Table, seat: int, action: Action, *, now: float, delay: float) -> Change:
    """A player's own click: as ``apply_action``, and a player back at their turn is no longer
    counted as timing out."""
    game = table.match.game if table.match is not None else None
    # A jump-in shows the player is back as much as a move on their own turn does.
    back = game is not None and (
        action.do == Do.PLAY or (action.do != Do.CATCH and seat == game.current)
    )
    change = apply_action(table, seat, action, now=now, delay=delay)
    if back and change.changed:
        table.timeouts.pop(seat, None)  # the count of timeouts in a row starts over
    return change


def arm_uno(table: Table, seat: int, *, now: float, delay: float) -> Change:
    """With two cards on one's turn the UNO call goes out with the next play; otherwise the
    button calls UNO at once."""
    match = table.match
    assert match is not None
    if table.status is not Status.PLAYING:
        raise round_over(table)
    game = match.game
    # On one's turn, or out of turn with a card to jump in with.
    may_play = game.current == seat or bool(game.legal_actions(seat))
    if len(game.hands[seat]) != 2 or not may_play:
        return apply_action(table, seat, Action(seat, Do.CALL_UNO), now=now, delay=delay)
    if seat in table.uno_armed:
        table.uno_armed.remove(seat)
        return Change(note=note("uno_withdrawn"))
    table.uno_armed.append(seat)
    return Change(note=note("uno_armed"))


def close_round(table: Table, change: Change, *, now: float, delay: float) -> None:
    """Score the round; the match is won, or the next round comes after ``delay``."""
    match = table.match
    assert match is not None
    if not match.round_scored:
        match.finish_round()
    change.round_over = True
    table.uno_armed.clear()
    if match.over:
        table.status = Status.FINISHED
        change.match_over = True
        table.record(LogEntry("match_won", seats=tuple(match.winners)))
    else:
        table.status = Status.ROUND_OVER
        table.next_round_at = now + delay


def next_round(table: Table) -> Change:
    """Deal the next round (the button, or the timer after the scoreboard)."""
    match = table.match
    assert match is not None
    if table.status is not Status.ROUND_OVER:
        raise TableError("next_started")
    game = match.next_round()
    table.status = Status.PLAYING
    table.next_round_at = None
    table.record(LogEntry("round_begins", count=match.round_number), *entries(game.events))
    return Change()


def remove(table: Table, seat: int, entry: LogEntry, *, now: float, delay: float) -> Change:
    """A seat leaves a running match; its cards go back into the draw pile."""
    match = table.match
    assert match is not None
    start = len(match.game.events)
    match.leave(seat)
    table.record(entry)
    change = Change(note=note("left"))
    if match.over:
        close_round(table, change, now=now, delay=delay)
        return change
    if table.status is Status.PLAYING:
        return after_events(table, match.game.events[start:], change, now=now, delay=delay)
    return change


def kick(table: Table, host: Actor, user_id: int, *, now: float, delay: float) -> Change:
    """The host removes a player, from the lobby or from the running game."""
    if host.user_id != table.host_id:
        raise TableError("host_only")
    if user_id == host.user_id:
        raise TableError("kick_self")
    seat = table.seat_of(user_id)
    if seat is None:
        raise TableError("kick_not_seated")
    if table.status is Status.LOBBY:
        del table.seats[seat]
        return Change(note=note("removed_from_lobby"))
    assert table.match is not None
    if not table.match.active[seat]:
        raise TableError("kick_already_left")
    return remove(table, seat, LogEntry("kicked", seat=seat), now=now, delay=delay)


def end(table: Table, actor: Actor) -> Change:
    """End a game early (host or server manager); an unfinished match is not recorded."""
    if actor.user_id != table.host_id and not actor.manager:
        raise TableError("end_not_allowed")
    table.status = Status.CANCELLED
    table.record(LogEntry("ended_early"))
    return Change(note=note("ended"))


def stale_click(table: Table, seat: int, action: object, version: int) -> StaleClick:
    """The refusal of a click drawn at ``version``: when its turn action lost a race to a move
    made right after that version (a jump-in, or a move a jump-in came too late for), it says
    who came first."""
    if isinstance(action, Action) and action.do in TURN_ACTIONS:
        first = next((m for m in table.moves if m.version == version), None)
        if first is not None and first.seat != seat:
            name = safe_name(table.seats[first.seat].name)
            if first.turn_of == seat and first.seat != first.turn_of:
                return StaleClick("turn_taken", name=name)
            if action.do == Do.PLAY and seat != first.turn_of:
                return StaleClick("jump_in_too_late", name=name)
    return StaleClick()


def time_out(table: Table, *, now: float, delay: float) -> Change:
    """The awaited player's time ran out: their safest choice, or removal after N in a row."""
    match = table.match
    assert match is not None
    game = match.game
    seat = game.current
    count = table.timeouts.get(seat, 0) + 1
    if count >= table.timeout_limit:
        table.timeouts[seat] = 0
        entry = LogEntry("removed_for_timeouts", seat=seat, count=count)
        return remove(table, seat, entry, now=now, delay=delay)
    table.timeouts[seat] = count
    table.record(LogEntry("timed_out", seat=seat))
    rng = random.Random(table.seed ^ table.version)
    change = apply_action(table, seat, timeout_action(game, seat, rng), now=now, delay=delay)
    if game.phase is Phase.DRAWN and game.current == seat and table.status is Status.PLAYING:
        # The timeout ends the turn: a drawn card is kept, or played where it must be.
        action = timeout_action(game, seat, rng)
        change = apply_action(table, seat, action, now=now, delay=delay)
    return Change(note=change.note, round_over=change.round_over, match_over=change.match_over)


def round_over(table: Table) -> TableError:
    """The refusal while a round is over: it names when the next one starts, as Discord shows it."""
    if table.next_round_at is None:
        return TableError("round_over_wait")
    return TableError("round_over_until", when=f"<t:{int(table.next_round_at)}:R>")
