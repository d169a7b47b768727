"""What a round records, as frozen types: one per kind of event.

The engine records every event as one of these (``RoundState.events``, a match's
``dealer_events``). The saved record and the scenario command's ``events`` are their
``to_json`` dicts, keys in each kind's field order; ``read`` types a saved dict back at a
restore. An event is a value, so one instance may stand for all equal ones: the kinds a round
records by the hundred come from ``shared`` constructors (``played``, ``drew``, ``skipped``,
...), which hand out the instance made before for equal fields. A hit of their ``lru_cache``
costs less than a dict literal, where a new frozen instance costs about four times one
(docs/performance.md). docs/rules.md lists the events and their fields.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any, ClassVar, ParamSpec, TypeVar, cast


@dataclass(frozen=True, slots=True)
class EventBase:
    """Fields common to no event: each kind adds its own and names its ``type``."""

    TYPE: ClassVar[str] = ""
    __match_args__: ClassVar[tuple[str, ...]] = ()  # each kind's fields, in the record's order

    def to_json(self) -> dict[str, Any]:
        """The event as the record holds it (fields left at None are absent)."""
        data: dict[str, Any] = {"type": self.TYPE}
        for name in self.__match_args__:
            value = getattr(self, name)
            if value is not None:
                data[name] = list(value) if type(value) is tuple else value
        return data


@dataclass(frozen=True, slots=True)
class Dealt(EventBase):
    TYPE: ClassVar[str] = "deal"
    dealer: int
    cards: int  # each hand's size


@dataclass(frozen=True, slots=True)
class FirstCard(EventBase):
    TYPE: ClassVar[str] = "first_card"
    card: str
    effect: str  # starts, ignored (sonic: an action card covered) or returned (a wild-draw4)


@dataclass(frozen=True, slots=True)
class Played(EventBase):
    TYPE: ClassVar[str] = "play"
    seat: int
    card: str
    color: str | None = None  # the color named with a wild card
    house_rule: str | None = None  # a Wild Customizable's written rule, played plain


@dataclass(frozen=True, slots=True)
class Bounced(EventBase):
    """A Super Star sent a pending penalty back to ``target`` (the color it named first, as
    the record writes them)."""

    TYPE: ClassVar[str] = "bounce"
    seat: int
    card: str
    color: str
    target: int


@dataclass(frozen=True, slots=True)
class Drew(EventBase):
    TYPE: ClassVar[str] = "draw"
    seat: int
    count: int
    # draw, until_playable, draw2, draw4, challenge, bounce, catch, victory_lap or custom
    reason: str


@dataclass(frozen=True, slots=True)
class Passed(EventBase):
    TYPE: ClassVar[str] = "pass"
    seat: int


@dataclass(frozen=True, slots=True)
class Skipped(EventBase):
    TYPE: ClassVar[str] = "skip"
    seat: int


@dataclass(frozen=True, slots=True)
class Reversed(EventBase):
    TYPE: ClassVar[str] = "reverse"
    direction: int


@dataclass(frozen=True, slots=True)
class ColorChosen(EventBase):
    """The color of a wild card turned up first."""

    TYPE: ClassVar[str] = "color"
    seat: int
    color: str


@dataclass(frozen=True, slots=True)
class UnoCalled(EventBase):
    TYPE: ClassVar[str] = "uno"
    seat: int


@dataclass(frozen=True, slots=True)
class Caught(EventBase):
    TYPE: ClassVar[str] = "catch"
    seat: int
    target: int


@dataclass(frozen=True, slots=True)
class Accepted(EventBase):
    TYPE: ClassVar[str] = "accept"
    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class Challenged(EventBase):
    TYPE: ClassVar[str] = "challenge"
    seat: int
    target: int
    legal: bool
    hand: tuple[str, ...]  # the challenged hand, shown to the challenger only


@dataclass(frozen=True, slots=True)
class Stacked(EventBase):
    TYPE: ClassVar[str] = "stack"
    seat: int
    target: int
    total: int


@dataclass(frozen=True, slots=True)
class Swapped(EventBase):
    TYPE: ClassVar[str] = "swap"
    seat: int
    target: int


@dataclass(frozen=True, slots=True)
class Rotated(EventBase):
    TYPE: ClassVar[str] = "rotate"
    direction: int


@dataclass(frozen=True, slots=True)
class JumpedIn(EventBase):
    TYPE: ClassVar[str] = "jump_in"
    seat: int
    turn_of: int


@dataclass(frozen=True, slots=True)
class CustomEffectDone(EventBase):
    """A Wild Customizable's enforced effect (``house.CustomEffect``'s value)."""

    TYPE: ClassVar[str] = "custom_effect"
    seat: int
    effect: str


@dataclass(frozen=True, slots=True)
class PlayAgain(EventBase):
    TYPE: ClassVar[str] = "play_again"
    seat: int


@dataclass(frozen=True, slots=True)
class Reshuffled(EventBase):
    TYPE: ClassVar[str] = "reshuffle"
    cards: int  # the new draw pile's


@dataclass(frozen=True, slots=True)
class Left(EventBase):
    TYPE: ClassVar[str] = "leave"
    seat: int
    returned: int  # cards shuffled back into the pile


@dataclass(frozen=True, slots=True)
class RoundOver(EventBase):
    TYPE: ClassVar[str] = "round_over"
    winner: int
    points: int


@dataclass(frozen=True, slots=True)
class Forfeit(EventBase):
    """Everyone else left: the one seat still playing wins, scoring nothing."""

    TYPE: ClassVar[str] = "forfeit"
    winner: int


@dataclass(frozen=True, slots=True)
class Stalled(EventBase):
    """Nobody could finish the round: ``winner`` held the fewest card points."""

    TYPE: ClassVar[str] = "stalled"
    winner: int


@dataclass(frozen=True, slots=True)
class DealerDraw(EventBase):
    """A match's high-card draw for the first dealer (seat, as a string, to card)."""

    TYPE: ClassVar[str] = "dealer_draw"
    cards: Mapping[str, str]

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "cards": dict(self.cards)}


@dataclass(frozen=True, slots=True)
class DealerChosen(EventBase):
    TYPE: ClassVar[str] = "dealer"
    seat: int
    how: str


RoundEvent = (
    Dealt
    | FirstCard
    | Played
    | Bounced
    | Drew
    | Passed
    | Skipped
    | Reversed
    | ColorChosen
    | UnoCalled
    | Caught
    | Accepted
    | Challenged
    | Stacked
    | Swapped
    | Rotated
    | JumpedIn
    | CustomEffectDone
    | PlayAgain
    | Reshuffled
    | Left
    | RoundOver
    | Forfeit
    | Stalled
    | DealerDraw
    | DealerChosen
)

KINDS: dict[str, type[RoundEvent]] = {
    kind.TYPE: kind
    for kind in (
        Dealt,
        FirstCard,
        Played,
        Bounced,
        Drew,
        Passed,
        Skipped,
        Reversed,
        ColorChosen,
        UnoCalled,
        Caught,
        Accepted,
        Challenged,
        Stacked,
        Swapped,
        Rotated,
        JumpedIn,
        CustomEffectDone,
        PlayAgain,
        Reshuffled,
        Left,
        RoundOver,
        Forfeit,
        Stalled,
        DealerDraw,
        DealerChosen,
    )
}

_TUPLES = frozenset({"hand"})

P = ParamSpec("P")
E = TypeVar("E", bound=EventBase)
SHARED = 4096  # distinct events each shared constructor remembers


def shared(kind: Callable[P, E]) -> Callable[P, E]:
    """``kind``'s constructor, handing out the instance it made before for equal fields."""
    return cast("Callable[P, E]", lru_cache(maxsize=SHARED)(kind))


# The events of every turn; the rarer ones (the deal, a challenge's hand, the round's end, a
# Wild Customizable's written rule, ...) are made as they come.
played = shared(Played)
drew = shared(Drew)
skipped = shared(Skipped)
reversed_ = shared(Reversed)
uno_called = shared(UnoCalled)
passed = shared(Passed)
accepted = shared(Accepted)
stacked = shared(Stacked)
reshuffled = shared(Reshuffled)
swapped = shared(Swapped)
rotated = shared(Rotated)
jumped_in = shared(JumpedIn)
custom_effect_done = shared(CustomEffectDone)
play_again = shared(PlayAgain)


def read(data: Mapping[str, Any]) -> RoundEvent:
    """The typed event of one recorded dict; ValueError for a type no round records."""
    kind = KINDS.get(str(data.get("type")))
    if kind is None:
        raise ValueError(f"unknown event type {data.get('type')!r}")
    values: dict[str, Any] = {
        item.name: tuple(data[item.name]) if item.name in _TUPLES else data[item.name]
        for item in fields(kind)
        if item.name in data
    }
    return kind(**values)


def read_all(events: Iterable[Mapping[str, Any]]) -> list[RoundEvent]:
    """The typed events of a record, in order."""
    return [read(data) for data in events]


def write_all(events: Iterable[RoundEvent]) -> list[dict[str, Any]]:
    """A record's events as the saved JSON holds them, in order."""
    return [event.to_json() for event in events]
