"""A round's state at the bottom of the engine: its fields and the primitives every rule uses.

``RoundState`` holds what a round is (saved fields) and what follows from its options (derived
fields, recomputed at a restore). The rule modules (``deal``, ``turn``, ``penalties``,
``house_effects``, ``leaving``, ``legality``, ``stalemate``) change it only through its fields
and the public primitives here; ``game.Game`` puts the rules together over it. A save is the
saved fields, each by its own codec, so saving and restoring follow from the field list.
"""

from __future__ import annotations

import base64
import random
import struct
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, Self

from . import errors
from .cards import CARD_KINDS, CARD_POINTS, IS_WILD, NO_COLOR, WILD_DRAW4, Edition, shuffle
from .events import RoundEvent, RoundOver, drew, read_all, reshuffled, write_all
from .house import OFFICIAL, HouseRules
from .phase import AWAITING, MATCHES, OFFICIAL_LOOKUPS, SWAP, Phase, lookups

Event = RoundEvent


def rng_to_json(rng: random.Random) -> list[Any]:
    """A generator's state, JSON-ready: its 625 words packed in base64 (3.3 KB of text, where
    the words as JSON numbers took 7 KB and most of the time of saving a table)."""
    version, internal, gauss = rng.getstate()
    packed = base64.b64encode(struct.pack(f"<{len(internal)}I", *internal)).decode("ascii")
    return [version, packed, gauss]


def rng_from_json(data: list[Any]) -> random.Random:
    """A generator in the state ``rng_to_json`` saved (or an older save's list of numbers)."""
    version, internal, gauss = data
    if isinstance(internal, str):
        raw = base64.b64decode(internal)
        words: tuple[int, ...] = struct.unpack(f"<{len(raw) // 4}I", raw)
    else:
        words = tuple(int(w) for w in internal)
    rng = random.Random()
    rng.setstate((version, words, gauss))
    return rng


@dataclass(frozen=True, slots=True)
class Saved:
    """How one field goes into a save and comes back out of it."""

    dump: Callable[[Any], Any]
    load: Callable[[Any], Any]
    key: str = ""  # the save's key when it is not the field's name
    part: int = -1  # the field's place in a list that several fields share under ``key``
    # What a save from before the field existed holds instead (given the save).
    missing: Callable[[dict[str, Any]], Any] | None = None


def _saved(
    dump: Callable[[Any], Any],
    load: Callable[[Any], Any],
    key: str = "",
    part: int = -1,
    missing: Callable[[dict[str, Any]], Any] | None = None,
) -> dict[str, Saved]:
    """A field's metadata saying how it is saved."""
    return {"saved": Saved(dump, load, key, part, missing)}


def _ints(values: list[int]) -> list[int]:
    return [int(v) for v in values]


def _bools(values: list[bool]) -> list[bool]:
    return [bool(v) for v in values]


def _hands(hands: list[list[int]]) -> list[list[int]]:
    return [[int(c) for c in hand] for hand in hands]


def _points(points: list[int] | None) -> list[int] | None:
    return list(points) if points is not None else None


def _house_json(house: HouseRules) -> dict[str, Any]:
    return house.to_dict()


def _house(data: dict[str, Any] | None) -> HouseRules:
    return HouseRules.parse(data or {})


INT = _saved(int, int)
INTS = _saved(list, _ints)
BOOLS = _saved(list, _bools)


def _penalty_before_stacking(data: dict[str, Any]) -> int:
    # Saved before stacking existed: the pending card's own count.
    if int(data["phase"]) != Phase.RESPOND:
        return 0
    return 4 if int(data["pending"][0]) == WILD_DRAW4 else 2


@dataclass(slots=True, eq=False, init=False, repr=False)
class RoundState:
    """A round's state; seats are fixed, and a seat that left stays in place, inactive."""

    edition: Edition = field(metadata=_saved(lambda e: e.value, Edition))
    n: int = field(metadata=INT)  # seats, left ones included
    active: list[bool] = field(metadata=BOOLS)
    dealer: int = field(metadata=INT)
    house_rule: str = field(metadata=_saved(str, str))  # the Wild Customizable's written rule
    hands: list[list[int]] = field(metadata=_saved(_hands, _hands))
    # Top at the end, so drawing is pop().
    draw_pile: list[int] = field(metadata=INTS)
    discard: list[int] = field(metadata=INTS)
    color: int = field(metadata=INT)  # NO_COLOR while a wild card turned up first waits
    direction: int = field(metadata=INT)
    phase: Phase = field(metadata=_saved(int, lambda p: Phase(int(p))))
    current: int = field(metadata=INT)  # the awaited seat, -1 once the round is over
    drawn: int = field(metadata=INT)  # the card just drawn that may be played, or -1
    called: list[bool] = field(metadata=BOOLS)
    exposed: int = field(metadata=INT)  # the seat that may be caught for a missed UNO, or -1
    pending_card: int = field(metadata=_saved(int, int, "pending", 0))
    pending_from: int = field(metadata=_saved(int, int, "pending", 1))
    pending_legal: bool = field(metadata=_saved(bool, bool, "pending", 2))
    pending_hand: list[int] = field(metadata=INTS)  # a wild-draw4 author's, for a challenge
    winner: int = field(metadata=INT)
    points: list[int] | None = field(metadata=_saved(_points, _points))
    rng: random.Random = field(metadata=_saved(rng_to_json, rng_from_json))
    events: list[Event] = field(metadata=_saved(write_all, read_all))
    house: HouseRules = field(metadata=_saved(_house_json, _house, missing=lambda _: {}))
    penalty: int = field(metadata=_saved(int, int, missing=_penalty_before_stacking))
    teams: int = field(metadata=_saved(int, int, missing=lambda _: 0))  # 0: no teams (``teams``)
    # Derived from the fields above (``configure`` and ``load``), never saved.
    players: int = field()  # active seats
    effects: tuple[int, ...] = field()
    restrict: bool = field()  # do plays need the options' checks
    plain_draw: bool = field()  # are draws plain
    plain_play: bool = field()  # may every matching card be played with no seat named

    def configure(self, house: HouseRules) -> None:
        """Set the house rules and the lookups derived from them (at the deal or a restore)."""
        self.house = house
        edition = self.edition
        if house is not OFFICIAL:
            derived = lookups(edition, house)
        elif edition is Edition.CLASSIC:  # identity tests: cheaper than hashing at every deal
            derived = OFFICIAL_LOOKUPS[0]
        else:
            derived = OFFICIAL_LOOKUPS[1 if edition is Edition.SONIC else 2]
        self.effects, self.restrict, self.plain_draw, self.plain_play = derived

    # ----- seats -----

    def next_seat(self, seat: int) -> int:
        """The next active seat after ``seat`` in the current direction."""
        n = self.n
        step = self.direction
        seat = (seat + step) % n
        if self.players == n:
            return seat
        active = self.active
        while not active[seat]:
            seat = (seat + step) % n
        return seat

    def swap_targets(self, seat: int) -> list[int]:
        """The seats ``seat`` may name to swap hands with: every other active seat."""
        return [s for s in range(self.n) if s != seat and self.active[s]]

    def valid_target(self, seat: int, target: int | None) -> bool:
        """Is ``target`` a seat that ``seat`` may swap hands with."""
        return (
            target is not None and 0 <= target < self.n and target != seat and self.active[target]
        )

    def check_turn(self, seat: int) -> None:
        """Raise the RuleError for a turn action by ``seat`` when it is not its turn."""
        if self.phase is Phase.OVER:
            raise errors.not_allowed("round_over")
        if not self.active[seat]:
            raise errors.not_allowed("left_game")
        if seat != self.current:
            raise errors.not_your_turn()

    # ----- piles -----

    def reshuffle(self) -> None:
        """The discards under the top card become the draw pile, shuffled."""
        discard = self.discard
        if len(discard) < 2:
            return
        top = discard.pop()
        shuffle(discard, self.rng)
        self.draw_pile.extend(discard)
        self.discard = [top]
        self.events.append(reshuffled(len(self.draw_pile)))

    def draw_cards(self, seat: int, count: int, reason: str) -> int:
        """Seat draws up to ``count`` cards (fewer only when no card is left anywhere)."""
        pile = self.draw_pile
        hand = self.hands[seat]
        if len(pile) > count:  # the usual case, without the loop: cards come off the top
            if count == 1:
                hand.append(pile.pop())
            else:
                hand += pile[: -count - 1 : -1]
                del pile[-count:]
            got = count
        else:
            got = 0
            while got < count:
                if not pile:
                    self.reshuffle()
                    pile = self.draw_pile
                    if not pile:
                        break
                hand.append(pile.pop())
                got += 1
        if len(hand) > 1:
            self.called[seat] = False
        self.events.append(drew(seat, got, reason))
        return got

    def draw_round(self, seat: int, reason: str) -> None:
        """Every other player draws one card, in turn order from the next player."""
        other = self.next_seat(seat)
        while other != seat:
            self.draw_cards(other, 1, reason)
            other = self.next_seat(other)

    # ----- queries -----

    @property
    def awaiting(self) -> str:
        return AWAITING[self.phase]

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    def top(self) -> int:
        return self.discard[-1]

    def can_play(self, card: int) -> bool:
        """Does ``card`` match the top card and color in force."""
        if self.color < 0:
            return IS_WILD[card]
        return MATCHES[self.color * CARD_KINDS + self.discard[-1]][card]

    def needs_target(self, card: int) -> bool:
        """Does a play of ``card`` name a seat to swap with (unless it is the last card)."""
        return self.effects[card] >= SWAP

    def catchable(self) -> int:
        """The seat that may be caught for not calling UNO right now, or -1."""
        seat = self.exposed
        if seat >= 0 and self.phase is not Phase.OVER and len(self.hands[seat]) == 1:
            return -1 if self.called[seat] else seat
        return -1

    def uno_flags(self) -> list[bool]:
        """Per seat: holds one card and has called UNO for it."""
        return [len(h) == 1 and c for h, c in zip(self.hands, self.called, strict=True)]

    # ----- changes every rule shares -----

    def close_window(self, seat: int) -> None:
        """A turn action by ``seat`` ends another player's chance to be caught."""
        if self.exposed != seat:
            self.exposed = -1

    def end_response(self) -> None:
        """No penalty is pending any more."""
        self.phase = Phase.TURN
        self.pending_card = -1
        self.pending_from = -1
        self.pending_hand = []
        self.penalty = 0

    def win(self, seat: int) -> None:
        """``seat`` went out: the round is over and scored."""
        self.phase = Phase.OVER
        self.winner = seat
        self.current = -1
        self.exposed = -1
        total = sum(CARD_POINTS[c] for hand in self.hands for c in hand)
        self.points = [total if s == seat else 0 for s in range(self.n)]
        self.events.append(RoundOver(seat, total))

    # ----- a fresh round, a copy, a save -----

    def start(
        self,
        edition: Edition,
        players: int,
        dealer: int,
        deck: list[int],
        rng: random.Random,
        active: list[bool],
        house_rule: str,
        house: HouseRules,
        teams: int = 0,
    ) -> None:
        """Every field of a round about to be dealt from ``deck`` (index 0 is the top)."""
        self.edition = edition
        self.teams = teams
        self.n = players
        self.active = active
        self.players = sum(active)
        self.dealer = dealer
        self.rng = rng
        self.house_rule = house_rule
        self.configure(house)
        self.hands = [[] for _ in range(players)]
        self.draw_pile = deck[::-1]
        self.discard = []
        self.color = NO_COLOR
        self.direction = 1
        self.phase = Phase.TURN
        self.current = dealer
        self.drawn = -1
        self.called = [False] * players
        self.exposed = -1
        self.pending_card = -1
        self.pending_from = -1
        self.pending_legal = True
        self.pending_hand = []
        self.penalty = 0
        self.winner = -1
        self.points = None
        self.events = []

    def copy(self, rng: random.Random) -> Self:
        """An independent copy with its own generator and no events."""
        state = type(self).__new__(type(self))
        for name in FIELDS:
            setattr(state, name, getattr(self, name))
        state.active = self.active[:]
        state.hands = [h[:] for h in self.hands]
        state.draw_pile = self.draw_pile[:]
        state.discard = self.discard[:]
        state.called = self.called[:]
        state.pending_hand = self.pending_hand[:]
        state.points = self.points[:] if self.points is not None else None
        state.events = []
        state.rng = rng
        return state

    def to_dict(self) -> dict[str, Any]:
        """Everything needed to resume the round exactly, JSON-ready."""
        data: dict[str, Any] = {}
        for name, saved in SAVED:
            value = saved.dump(getattr(self, name))
            if saved.part < 0:
                data[saved.key or name] = value
            else:
                data.setdefault(saved.key, []).append(value)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        """Rebuild a round saved by ``to_dict`` (a save from before house rules plays them
        by the printed rules)."""
        state = cls.__new__(cls)
        for name, saved in SAVED:
            key = saved.key or name
            if key in data:
                raw = data[key] if saved.part < 0 else data[key][saved.part]
            elif saved.missing is not None:
                raw = saved.missing(data)
            else:
                raise KeyError(key)
            setattr(state, name, saved.load(raw))
        state.players = sum(state.active)
        state.configure(state.house)
        return state


FIELDS: tuple[str, ...] = tuple(f.name for f in fields(RoundState))
SAVED: tuple[tuple[str, Saved], ...] = tuple(
    (f.name, f.metadata["saved"]) for f in fields(RoundState) if "saved" in f.metadata
)
