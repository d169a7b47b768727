"""What a computer seat knows and infers from the public record: the cards it has not seen,
the colors a seat showed it lacks, a hand shown in a challenge, and chances drawn from them."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import NamedTuple, TypeVar

from .cards import (
    CARD_COLOR,
    CARD_INDEX,
    CARD_KINDS,
    COLOR_INDEX,
    IS_WILD,
    WILD_DRAW4,
    Edition,
    edition_deck,
)
from .events import (
    Bounced,
    Challenged,
    ColorChosen,
    Drew,
    EventBase,
    FirstCard,
    Left,
    Passed,
    Played,
    Rotated,
    Swapped,
)
from .game import MATCHES, Event, Game, Phase

T = TypeVar("T")


# What a seat made of one Wild Draw Four of another player (``Knowledge.wd4_reads``): shown
# illegal (a lost challenge, or the culprit later played the color in force before drawing),
# shown legal (a won challenge), or never shown either way.
BLUFF, HONEST, UNSHOWN = 1, 0, 2


@dataclass(slots=True)
class Knowledge:
    """What ``seat`` may infer from public information and its own hand."""

    seat: int
    unseen: list[int]  # every card not in this hand nor in the discard pile, in a fixed order
    # Per seat: (count, excluded kinds): at least ``count`` cards in hand are none of those kinds.
    voids: dict[int, tuple[int, frozenset[int]]] = field(default_factory=dict)
    known: dict[int, Counter[int]] = field(default_factory=dict)  # seen in a challenge reveal
    color_before_last_play: int = -1
    # Per seat: the reads of its Wild Draw Fours this round (BLUFF, HONEST, UNSHOWN), the one
    # still pending excluded.
    wd4_reads: dict[int, list[int]] = field(default_factory=dict)


class Fact(NamedTuple):
    """The fields of one event that a computer seat reads (the others -1 or empty)."""

    kind: type[EventBase]  # the event's own type
    seat: int = -1
    card: int = -1
    color: int = -1  # the color a wild card named, or a color chosen
    target: int = -1
    cards: int = 0  # how many a draw took
    reason: str = ""
    legal: bool = False
    hand: tuple[int, ...] = ()
    starts: bool = False  # a first card that starts the round


def fact(event: Event) -> Fact:
    """The one place that reads the engine's events, as card and color indexes (the most
    frequent kinds tested first: this runs over the whole record at every decision)."""
    kind = type(event)
    if isinstance(event, (Played, Bounced)):
        card = CARD_INDEX[event.card]
        color = event.color
        named = COLOR_INDEX[color] if color is not None and IS_WILD[card] else -1
        return Fact(kind, event.seat, card, named)
    if isinstance(event, Drew):
        return Fact(kind, event.seat, cards=event.count, reason=event.reason)
    if isinstance(event, (Passed, Left)):
        return Fact(kind, event.seat)
    if isinstance(event, FirstCard):
        return Fact(kind, card=CARD_INDEX[event.card], starts=event.effect == "starts")
    if isinstance(event, ColorChosen):
        return Fact(kind, event.seat, color=COLOR_INDEX[event.color])
    if isinstance(event, Challenged):
        hand = tuple(CARD_INDEX[c] for c in event.hand)
        return Fact(kind, event.seat, target=event.target, legal=event.legal, hand=hand)
    if isinstance(event, Swapped):
        return Fact(kind, event.seat, target=event.target)
    return Fact(kind)


def _swap_keys(table: dict[int, T], a: int, b: int) -> None:
    first, second = table.pop(a, None), table.pop(b, None)
    if first is not None:
        table[b] = first
    if second is not None:
        table[a] = second


def _excluded(color: int, top: int) -> frozenset[int]:
    """The kinds a seat could have played on ``top`` with ``color`` in force."""
    if color < 0:
        return frozenset(c for c in range(CARD_KINDS) if IS_WILD[c])
    mask = MATCHES[color * CARD_KINDS + top]
    return frozenset(c for c in range(CARD_KINDS) if mask[c])


class _Draw4Watch:
    """Wild Draw Fours whose legality is not yet shown: seat -> the color in force before it."""

    __slots__ = ("open", "reads")

    def __init__(self) -> None:
        self.open: dict[int, int] = {}
        self.reads: dict[int, list[int]] = {}

    def close(self, seat: int, read: int) -> None:
        if seat in self.open:
            del self.open[seat]
            self.reads.setdefault(seat, []).append(read)

    def see(self, event: Fact, before: int) -> None:
        kind = event.kind
        who = event.seat
        if kind is Challenged:
            self.close(event.target, HONEST if event.legal else BLUFF)
        elif kind in (Played, Bounced) and who in self.open:
            # A card of the color in force before the Draw Four, played before any draw: it was
            # in hand all along.
            if not IS_WILD[event.card] and CARD_COLOR[event.card] == self.open[who]:
                self.close(who, BLUFF)
        elif kind is Drew and who in self.open and event.reason != "challenge":
            self.close(who, UNSHOWN)
        elif kind in (Swapped, Rotated, Left):
            for seat in list(self.open):
                self.close(seat, UNSHOWN)
        if kind is Played and event.card == WILD_DRAW4:
            self.close(who, UNSHOWN)
            self.open[who] = before


def knowledge(game: Game, seat: int) -> Knowledge:
    """Read the public record the way ``seat`` saw it."""
    remaining = Counter(edition_deck(game.edition))
    remaining.subtract(game.hands[seat])
    remaining.subtract(game.discard)
    unseen = [c for c in sorted(remaining) for _ in range(max(remaining[c], 0))]
    info = Knowledge(seat, unseen)
    color = -1
    top = -1
    before = -1
    # A seat that draws at its turn is taken to hold nothing playable (the random policy and
    # most people draw only when stuck); cards drawn since then are unconstrained.
    void_at: dict[int, tuple[frozenset[int], int]] = {}  # seat -> (excluded, drawn since)
    drawer = -1  # a seat that just drew at its turn: what comes next tells about that card
    draw4s = _Draw4Watch()
    for event in map(fact, game.events):
        kind = event.kind
        if drawer >= 0:
            # The drawn card was played (it is gone) or, unless kept by a pass, did not fit
            # either: in both cases it no longer counts as an unconstrained card.
            if not (kind is Passed and event.seat == drawer):
                excluded, since = void_at[drawer]
                void_at[drawer] = (excluded, since - 1)
            drawer = -1
        draw4s.see(event, color)
        if kind in (Played, Bounced):
            card = event.card
            who = event.seat
            before = color
            top = card
            color = event.color if IS_WILD[card] else CARD_COLOR[card]
            known = info.known.get(who)
            if known is not None and known[card] > 0:
                known[card] -= 1
        elif kind is FirstCard:
            if event.starts:
                top = event.card
                color = CARD_COLOR[top]
        elif kind is ColorChosen:
            color = event.color
        elif kind is Drew:
            who = event.seat
            own_turn = event.reason in ("draw", "until_playable")
            if own_turn and who != seat and top >= 0 and event.cards:
                void_at[who] = (_excluded(color, top), 0)
                drawer = who
            if who in void_at:
                excluded, since = void_at[who]
                void_at[who] = (excluded, since + event.cards)
        elif kind is Challenged:
            if event.seat == seat:
                info.known[event.target] = Counter(event.hand)
        elif kind is Left:
            info.known.pop(event.seat, None)
            void_at.pop(event.seat, None)
        elif kind is Swapped:
            # What was known of a hand follows it to its new owner.
            a, b = event.seat, event.target
            _swap_keys(info.known, a, b)
            _swap_keys(void_at, a, b)
        elif kind is Rotated:
            info.known.clear()
            void_at.clear()
    for who, (excluded, since) in void_at.items():
        count = len(game.hands[who]) - since
        if count > 0:
            info.voids[who] = (count, excluded)
    if not game.events and len(game.discard) > 1:
        below = game.discard[-2]
        before = CARD_COLOR[below]
    info.color_before_last_play = before
    if game.phase is Phase.OVER:
        for who in list(draw4s.open):
            draw4s.close(who, UNSHOWN)
    info.wd4_reads = draw4s.reads
    return info


def counts_as_color(edition: Edition, card: int, color: int) -> bool:
    """Does ``card`` in the culprit's hand make a Wild Draw Four on ``color`` illegal."""
    return CARD_COLOR[card] == color or (edition is Edition.SONIC and IS_WILD[card])


def illegal_chance(game: Game, info: Knowledge) -> float:
    """Estimated chance that the pending Wild Draw Four was played holding the color in force."""
    culprit = game.pending_from
    color = info.color_before_last_play
    if culprit < 0 or color < 0:
        return 0.5
    edition = game.edition
    hand_size = len(game.hands[culprit])
    known = info.known.get(culprit, Counter())
    if any(counts_as_color(edition, c, color) and n > 0 for c, n in known.items()):
        return 1.0
    free = hand_size - sum(known.values())
    void = info.voids.get(culprit)
    if void is not None:
        count, excluded = void
        kinds = [c for c in range(CARD_KINDS) if counts_as_color(edition, c, color)]
        if all(c in excluded for c in kinds):
            free -= count
    pool = len(info.unseen)
    hits = sum(1 for c in info.unseen if counts_as_color(edition, c, color))
    clean = 1.0
    for i in range(max(free, 0)):
        if pool - i <= 0:
            break
        clean *= max(pool - hits - i, 0) / (pool - i)
    return 1.0 - clean


def chance_none(game: Game, info: Knowledge, seat: int, fits: tuple[bool, ...]) -> float:
    """Estimated chance that ``seat`` holds no card that ``fits`` (a table by card kind).

    The cards of a hand are taken as independent draws from the cards ``info`` has not seen;
    the part of the hand a draw showed to hold none of some kinds draws from the rest only.
    """
    known = info.known.get(seat)
    if known and any(n > 0 and fits[c] for c, n in known.items()):
        return 0.0
    pool = info.unseen
    if not pool:
        return 0.0
    size = len(game.hands[seat])
    chance = 1.0
    free = size
    void = info.voids.get(seat)
    if void is not None:
        count, excluded = void
        count = min(count, size)
        allowed = [c for c in pool if c not in excluded]
        if allowed:
            misses = sum(1 for c in allowed if not fits[c])
            chance *= (misses / len(allowed)) ** count
        free = size - count
    misses = sum(1 for c in pool if not fits[c])
    return chance * (misses / len(pool)) ** free
