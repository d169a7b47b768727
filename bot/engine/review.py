"""A recorded round looked back on: its moves one by one with their events, and its key moments.

A replay steps through these; the scoreboard's awards read them too. Events are read here only,
through ``_kind`` and ``_get``, so a change of the events' form touches one place.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .action import Action
from .game import Event, Game
from .record import RoundRecord, apply_recorded

# What makes a move worth jumping to, in the order the replay's list names them.
MOMENT_KINDS = (
    "wild_draw4",
    "challenge",
    "stack",
    "penalty",
    "catch",
    "swap",
    "jump_in",
    "leave",
    "went_out",
)
BIG_DRAW = 4  # a draw of this many cards or more is a key moment


def _kind(event: Event | Mapping[str, Any]) -> str:
    return str(event.get("type", ""))


def _get(event: Event | Mapping[str, Any], name: str, default: Any = None) -> Any:
    return event.get(name, default)


@dataclass(frozen=True, slots=True)
class Move:
    """One recorded action (``number`` counts from 1) and the events it caused."""

    number: int
    action: Action
    events: tuple[Event, ...]
    hand_sizes: tuple[int, ...]  # every seat's card count after it


@dataclass(frozen=True, slots=True)
class Moment:
    """A move worth jumping to and why."""

    number: int
    kind: str  # one of MOMENT_KINDS
    seat: int
    count: int = 0  # cards drawn or penalty size, where that is the point


@dataclass(frozen=True, slots=True)
class ReviewedRound:
    """A round replayed once, move by move."""

    record: RoundRecord
    deal: tuple[Event, ...]  # the deal's own events (the first card turned up ...)
    moves: tuple[Move, ...]
    final: Game

    @property
    def total(self) -> int:
        """How many moves the round had."""
        return len(self.moves)

    def game_at(self, number: int) -> Game:
        """The round after its first ``number`` moves (0: as dealt)."""
        return self.record.replay(max(0, min(number, self.total)))

    def moments(self) -> list[Moment]:
        """The round's key moments, in the order they happened."""
        found: list[Moment] = []
        for move in self.moves:
            found.extend(_moments(move))
        return found


def review(record: RoundRecord) -> ReviewedRound:
    """Replay ``record`` once, keeping each move's events."""
    game = record.new_game()
    deal = tuple(game.events)
    moves: list[Move] = []
    for number, action in enumerate(record.actions, start=1):
        start = len(game.events)
        apply_recorded(game, action)
        sizes = tuple(len(hand) for hand in game.hands)
        moves.append(Move(number, action, tuple(game.events[start:]), sizes))
    return ReviewedRound(record, deal, tuple(moves), game)


def _moments(move: Move) -> list[Moment]:
    out: list[Moment] = []
    for event in move.events:
        kind = _kind(event)
        seat = int(_get(event, "seat", move.action.seat))
        if kind == "play" and _get(event, "card") == "wild-draw4":
            out.append(Moment(move.number, "wild_draw4", seat))
        elif kind == "challenge":
            out.append(Moment(move.number, "challenge", seat))
        elif kind == "stack":
            out.append(Moment(move.number, "stack", seat, int(_get(event, "total", 0))))
        elif kind == "draw" and int(_get(event, "count", 0)) >= BIG_DRAW:
            out.append(Moment(move.number, "penalty", seat, int(_get(event, "count", 0))))
        elif kind == "catch":
            out.append(Moment(move.number, "catch", seat))
        elif kind in ("swap", "jump_in", "leave"):
            out.append(Moment(move.number, kind, seat))
        elif kind in ("round_over", "stalled", "forfeit"):
            out.append(Moment(move.number, "went_out", int(_get(event, "winner", seat))))
    return out
