"""Immutable pictures of a table taken under its lock: what listeners and presenters work from.

A snapshot is one consistent moment: its status, log, public view and version all belong
together, so a message built from it never contradicts itself. Nothing here refers to the live
``Table``; the public parts hold hand counts only, never cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.engine import (
    Do,
    Game,
    HandView,
    Phase,
    PublicView,
    RuleSet,
    ScoreView,
    hand_view,
    public_view,
)
from bot.engine.cards import CARD_INDEX, WILD_DRAW4, Edition
from bot.engine.penalties import answer_kind
from bot.engine.record import revealed
from bot.engine.review import Award, round_awards, round_plays

from .names import safe_name
from .notes import Note
from .table import Status, Table
from .tablelog import LogLine


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Who sits at a seat: a Discord user, or a computer player (``computer`` is its level)."""

    user_id: int
    name: str
    computer: str | None = None
    team: int | None = None  # the team picked in the lobby (None: any)


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    """The table at one version, as everyone may see it."""

    table_id: str
    guild_id: int
    channel_id: int  # where the lobby was posted
    thread_id: int | None
    host_id: int
    status: Status
    version: int
    rules: RuleSet
    seats: tuple[SeatInfo, ...]
    computers: str | None  # the lobby's default computer level; None: no computers here
    public: PublicView | None  # None until the game starts
    scores: ScoreView | None  # once a round is over
    winners: tuple[int, ...]  # the match's winners, once it is won
    log: tuple[LogLine, ...]
    deadline: float | None  # when the awaited seat's time runs out
    next_round_at: float | None
    lobby_deadline: float | None
    lobby_message_id: int | None
    table_message_id: int | None
    uno_armed: tuple[int, ...]
    # While a penalty waits: how the rules let its target answer (accept, stack, challenge,
    # bounce), whatever they hold; what they can answer with stays in their own hand.
    answers: tuple[str, ...] = ()
    locale: str = "en"  # the language of the table's public messages
    # The table message's bookkeeping (see ``Table``): a post that may have reached Discord,
    # messages to delete, the turn ping now posted.
    post_nonce: str | None = None
    old_messages: tuple[int, ...] = ()
    ping_message_id: int | None = None
    rematch_of: str | None = None  # the finished table this lobby is the rematch of
    # The shuffle made checkable: while a round is played, the SHA-256 commitment of its seed
    # and deck; once it is over, that commitment with the seed it revealed.
    commitment: str | None = None
    revealed_seed: int | None = None
    awards: tuple[Award, ...] = ()  # the finished round's moments worth naming
    tournament_id: str | None = None  # the server tournament this table plays for
    tournament_message_id: int | None = None  # that tournament's standings message
    berserk: tuple[int, ...] = ()  # the seats on half the turn timer (a tournament's berserk)
    berserk_seconds: int | None = None  # their turn time (None: no turn timer)
    round_plays: int = 0  # the cards the finished round saw played (0: nothing to recap)

    @property
    def game_channel_id(self) -> int:
        """Where the table message lives: the thread, or the lobby's channel."""
        return self.thread_id if self.thread_id is not None else self.channel_id

    @property
    def house_rule(self) -> str:
        return self.rules.house_rule

    @property
    def started(self) -> bool:
        return self.public is not None

    def names(self) -> list[str]:
        """The seats' names as people chose them (for pictures and button labels)."""
        return [seat.name for seat in self.seats]

    def safe_names(self) -> list[str]:
        """The seats' names made safe for message text: no markdown, no pings."""
        return [safe_name(seat.name) for seat in self.seats]

    def team_of(self, seat: int) -> int | None:
        """The team a seat plays for once the game started (None without teams)."""
        teams = self.rules.teams
        return seat % teams if teams and self.started else None

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id and seat.computer is None:
                return index
        return None

    @property
    def tournament_link(self) -> str | None:
        """Where a tournament table points its players back to: the standings message, else
        the tournament's channel (None: not a tournament's table)."""
        if self.tournament_id is None:
            return None
        where = f"https://discord.com/channels/{self.guild_id}/{self.channel_id}"
        message = self.tournament_message_id
        return where if message is None else f"{where}/{message}"


@dataclass(frozen=True, slots=True)
class HandSnapshot:
    """One seat's own hand at the snapshot's version, for that player's eyes only."""

    view: HandView
    uno_armed: bool  # the seat calls UNO with its next card

    @property
    def seat(self) -> int:
        return self.view.seat


@dataclass(frozen=True, slots=True)
class Reveal:
    """A challenged Wild Draw Four's hand, for the challenger alone."""

    seat: int  # whose hand it was
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one request did, taken under the table's lock, for the Discord layer to present."""

    table: TableSnapshot
    hand: HandSnapshot | None = None  # the actor's own hand, when they sit at a running game
    note: Note | None = None  # a private note for whoever acted
    reveal: Reveal | None = None
    partners: tuple[Reveal, ...] = ()  # the asker's partners' hands (``ShowPartners``)
    round_over: bool = False
    match_over: bool = False
    changed: bool = False  # False: nothing changed and the version stayed

    @property
    def version(self) -> int:
        return self.table.version


def public_of(table: Table) -> PublicView | None:
    """The table's public view (None before the game starts)."""
    match = table.match
    if match is None:
        return None
    return public_view(
        match.game,
        names=table.names(),
        scores=list(match.totals),
        computers=[s.computer is not None for s in table.seats],
        round_number=match.round_number if not match.round_scored else len(match.rounds),
        target=table.rules.target,
        scoring=table.rules.scoring.value,
        team_scores=match.team_totals(),
    )


def penalty_answers(game: Game) -> tuple[str, ...]:
    """The kinds of answer the rules allow to a pending penalty, asked of the engine."""
    if game.phase is not Phase.RESPOND:
        return ()
    ways = ["accept"]
    if answer_kind(game, WILD_DRAW4) or answer_kind(game, CARD_INDEX["red-draw2"]):
        ways.append("stack")
    if any(action.do == Do.CHALLENGE for action in game.legal_actions()):
        ways.append("challenge")
    if game.edition is Edition.MARIO:  # the Super Star is in Mario's deck alone
        ways.append("bounce")
    return tuple(ways)


def snapshot_of(table: Table) -> TableSnapshot:
    """The table as it stands now (call under its lock)."""
    match = table.match
    over = table.status in (Status.ROUND_OVER, Status.FINISHED)
    return TableSnapshot(
        table_id=table.table_id,
        guild_id=table.guild_id,
        channel_id=table.channel_id,
        thread_id=table.thread_id,
        host_id=table.host_id,
        status=table.status,
        version=table.version,
        rules=table.rules,
        seats=tuple(SeatInfo(s.user_id, s.name, s.computer, s.team) for s in table.seats),
        computers=table.computers,
        locale=table.locale,
        public=public_of(table),
        scores=match.score_view(table.names()) if match is not None and over else None,
        winners=tuple(match.winners) if match is not None else (),
        log=tuple(table.log),
        deadline=table.deadline,
        next_round_at=table.next_round_at,
        lobby_deadline=table.lobby_deadline,
        lobby_message_id=table.lobby_message_id,
        table_message_id=table.table_message_id,
        uno_armed=tuple(table.uno_armed),
        answers=penalty_answers(match.game) if match is not None else (),
        post_nonce=table.post_nonce,
        old_messages=tuple(table.old_messages),
        ping_message_id=table.ping_message_id,
        rematch_of=table.rematch_of,
        tournament_id=table.tournament_id,
        tournament_message_id=table.tournament_message_id,
        **berserk_of(table),
        **shuffle_proof(table, over),
    )


def berserk_of(table: Table) -> dict[str, Any]:
    """The seats that went berserk and their (halved) turn time."""
    seats = tuple(s for s, seat in enumerate(table.seats) if seat.user_id in table.berserk)
    if not seats:
        return {}
    seconds = table.seconds_for(seats[0]) if table.turn_seconds else None
    return {"berserk": seats, "berserk_seconds": seconds}


def shuffle_proof(table: Table, over: bool) -> dict[str, Any]:
    """The commitment shown at the deal; after the round the seed that opens it, and the
    round's awards and plays."""
    match = table.match
    if match is None:
        return {}
    if not over:
        return {"commitment": match.commitment}
    last = match.records[-1] if match.records else ""
    opened = revealed(last) if last else None
    if opened is None:
        return {}
    return {
        "commitment": opened[0],
        "revealed_seed": opened[1],
        "awards": round_awards(last),
        "round_plays": round_plays(last),
    }


def hand_of(table: Table, seat: int) -> HandSnapshot | None:
    """One seat's hand now (None before the game starts)."""
    if table.match is None:
        return None
    view = hand_view(table.match.game, seat, table.seats[seat].name)
    return HandSnapshot(view, seat in table.uno_armed)
