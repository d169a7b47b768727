"""One round of UNO as a state machine: the deal, the first card, turns, penalties and UNO calls.

Every rule of ``shared/rules/RULINGS.md`` lives here. Actions are validated completely before
anything changes, so a rejected action (``RuleError``) leaves the round untouched. Each applied
action appends events (plain dicts with a ``type``) to ``self.events``; they are the game's record.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from . import errors
from .cards import (
    CARD_COLOR,
    CARD_KINDS,
    CARD_POINTS,
    CARD_RANK,
    CODES,
    COLORS,
    DRAW2,
    IS_NUMBER,
    IS_WILD,
    NO_COLOR,
    REVERSE,
    SKIP,
    WILD_CUSTOM,
    WILD_DRAW4,
    WILD_SUPER_STAR,
    WILD_VICTORY_LAP,
    Edition,
    shuffle,
)

HAND_SIZE = 7
MIN_PLAYERS = 2
MAX_PLAYERS = 10

Event = dict[str, Any]


class Phase(IntEnum):
    """What the round waits for."""

    TURN = 0  # play or draw
    DRAWN = 1  # play the card just drawn, or pass
    RESPOND = 2  # the target of a draw2 or wild-draw4 answers
    COLOR = 3  # name the color of a wild card turned up first
    OVER = 4


AWAITING: tuple[str, ...] = ("turn", "drawn", "respond", "color", "round_over")
TURN, DRAWN, RESPOND, COLOR, OVER = Phase.TURN, Phase.DRAWN, Phase.RESPOND, Phase.COLOR, Phase.OVER

# What a played card does, looked up once per play instead of a chain of comparisons.
PLAIN, SKIP_NEXT, TURN_BACK, DRAW_TWO, DRAW_FOUR, LAP = range(6)
EFFECT: tuple[int, ...] = tuple(
    DRAW_FOUR
    if card == WILD_DRAW4
    else LAP
    if card == WILD_VICTORY_LAP
    else PLAIN
    if IS_WILD[card] or CARD_RANK[card] < 10
    else {SKIP: SKIP_NEXT, REVERSE: TURN_BACK, DRAW2: DRAW_TWO}[CARD_RANK[card]]
    for card in range(CARD_KINDS)
)

# MATCHES[color * CARD_KINDS + top][card]: may ``card`` go on ``top`` with ``color`` in force.
MATCHES: tuple[tuple[bool, ...], ...] = tuple(
    tuple(
        IS_WILD[card] or CARD_COLOR[card] == color or CARD_RANK[card] == CARD_RANK[top]
        for card in range(CARD_KINDS)
    )
    for color in range(len(COLORS))
    for top in range(CARD_KINDS)
)


@dataclass(frozen=True, slots=True)
class Action:
    """One player action, as the scenario contract spells it."""

    seat: int
    do: str
    card: int | None = None
    color: int | None = None
    uno: bool = False
    target: int | None = None


class Game:
    """A round in progress. Seats are fixed; a seat that left stays in place, inactive."""

    __slots__ = (
        "active",
        "called",
        "color",
        "current",
        "dealer",
        "direction",
        "discard",
        "draw_pile",
        "drawn",
        "edition",
        "events",
        "exposed",
        "hands",
        "house_rule",
        "n",
        "pending_card",
        "pending_from",
        "pending_hand",
        "pending_legal",
        "phase",
        "players",
        "points",
        "rng",
        "winner",
    )

    def __init__(
        self,
        edition: Edition,
        players: int,
        dealer: int,
        deck: list[int],
        rng: random.Random,
        active: list[bool] | None = None,
        house_rule: str = "",
    ) -> None:
        """Deal from ``deck`` (index 0 is the top) and turn up the first card."""
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError("a round needs 2 to 10 players")
        self.edition = edition
        self.n = players
        self.active = list(active) if active is not None else [True] * players
        self.players = sum(self.active)
        if self.players < MIN_PLAYERS or len(self.active) != players:
            raise ValueError("a round needs at least 2 active seats")
        if not self.active[dealer]:
            raise ValueError("the dealer must be an active seat")
        self.dealer = dealer
        self.rng = rng
        self.house_rule = house_rule
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.draw_pile: list[int] = deck[::-1]  # top at the end, so drawing is pop()
        self.discard: list[int] = []
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
        self.pending_hand: list[int] = []
        self.winner = -1
        self.points: list[int] | None = None
        self.events: list[Event] = []
        self._deal()

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

    # ----- the deal and the first card -----

    def _deal(self) -> None:
        pile = self.draw_pile
        hands = self.hands
        order = []
        seat = self.dealer
        for _ in range(self.players):
            seat = self.next_seat(seat)
            order.append(seat)
        if len(pile) < HAND_SIZE * self.players + 1:
            raise ValueError("the deck is too small to deal")
        for _ in range(HAND_SIZE):
            for seat in order:
                hands[seat].append(pile.pop())
        self.events.append({"type": "deal", "dealer": self.dealer, "cards": HAND_SIZE})
        self._turn_up_first()

    def _turn_up_first(self) -> None:
        pile = self.draw_pile
        discard = self.discard
        events = self.events
        left = self.next_seat(self.dealer)
        card = pile.pop()
        if self.edition is Edition.SONIC:
            while not IS_NUMBER[card]:
                discard.append(card)
                events.append({"type": "first_card", "card": CODES[card], "effect": "ignored"})
                if not pile:
                    self._reshuffle()
                card = pile.pop()
        else:
            while card == WILD_DRAW4:
                pile.insert(self.rng.randrange(len(pile) + 1), card)
                events.append({"type": "first_card", "card": CODES[card], "effect": "returned"})
                card = pile.pop()
        discard.append(card)
        self.color = CARD_COLOR[card]
        rank = CARD_RANK[card]
        events.append({"type": "first_card", "card": CODES[card], "effect": "starts"})
        self.current = left
        if IS_WILD[card]:
            self.phase = Phase.COLOR
        elif rank == DRAW2:
            self._draw(left, 2, "draw2")
            events.append({"type": "skip", "seat": left})
            self.current = self.next_seat(left)
        elif rank == SKIP:
            events.append({"type": "skip", "seat": left})
            self.current = self.next_seat(left)
        elif rank == REVERSE:
            self.direction = -1
            events.append({"type": "reverse", "direction": -1})
            self.current = self.dealer

    # ----- piles -----

    def _reshuffle(self) -> None:
        discard = self.discard
        if len(discard) < 2:
            return
        top = discard.pop()
        shuffle(discard, self.rng)
        self.draw_pile.extend(discard)
        self.discard = [top]
        self.events.append({"type": "reshuffle", "cards": len(self.draw_pile)})

    def _draw(self, seat: int, count: int, reason: str) -> int:
        """Seat draws up to ``count`` cards (fewer only when no card is left anywhere)."""
        pile = self.draw_pile
        hand = self.hands[seat]
        got = 0
        while got < count:
            if not pile:
                self._reshuffle()
                pile = self.draw_pile
                if not pile:
                    break
            hand.append(pile.pop())
            got += 1
        if len(hand) > 1:
            self.called[seat] = False
        self.events.append({"type": "draw", "seat": seat, "count": got, "reason": reason})
        return got

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

    def playable(self, seat: int) -> list[int]:
        """The cards ``seat`` could play right now (with repeats, in hand order)."""
        if seat != self.current:
            return []
        phase = self.phase
        if phase is TURN:
            mask = MATCHES[self.color * CARD_KINDS + self.discard[-1]]
            return [c for c in self.hands[seat] if mask[c]]
        if phase is Phase.DRAWN:
            return [self.drawn]
        if phase is Phase.RESPOND:
            return [c for c in self.hands[seat] if c == WILD_SUPER_STAR]
        return []

    def legal_actions(self) -> list[Action]:
        """Every turn action the awaited seat may take (wild plays once per color)."""
        phase = self.phase
        seat = self.current
        if phase is Phase.OVER:
            return []
        if phase is Phase.COLOR:
            return [Action(seat, "choose_color", color=c) for c in range(4)]
        actions: list[Action] = []
        hand = self.hands[seat]
        calls = len(hand) == 2
        for card in dict.fromkeys(self.playable(seat)):
            if IS_WILD[card]:
                actions += [Action(seat, "play", card, c, calls) for c in range(4)]
            else:
                actions.append(Action(seat, "play", card, None, calls))
        if phase is Phase.TURN:
            actions.append(Action(seat, "draw"))
        elif phase is Phase.DRAWN:
            actions.append(Action(seat, "pass"))
        else:
            actions.append(Action(seat, "accept"))
            if self.pending_card == WILD_DRAW4:
                actions.append(Action(seat, "challenge"))
        return actions

    def catchable(self) -> int:
        """The seat that may be caught for not calling UNO right now, or -1."""
        seat = self.exposed
        if seat >= 0 and self.phase is not OVER and len(self.hands[seat]) == 1:
            return -1 if self.called[seat] else seat
        return -1

    def uno_flags(self) -> list[bool]:
        """Per seat: holds one card and has called UNO for it."""
        return [len(h) == 1 and c for h, c in zip(self.hands, self.called, strict=True)]

    # ----- actions -----

    def apply(self, action: Action) -> list[Event]:
        """Apply one action; returns its events, or raises RuleError with nothing changed."""
        start = len(self.events)
        do = action.do
        seat = action.seat
        if not 0 <= seat < self.n:
            raise errors.bad_action("That seat is not at this table.")
        if self.phase is OVER:
            raise errors.not_allowed("The round is over.")
        if do == "play":
            if action.card is None:
                raise errors.bad_action("Say which card to play.")
            self.play(seat, action.card, action.color, action.uno)
        elif do == "draw":
            self.draw(seat)
        elif do == "pass":
            self.pass_turn(seat)
        elif do == "accept":
            self.accept(seat)
        elif do == "challenge":
            self.challenge(seat)
        elif do == "choose_color":
            self.choose_color(seat, -1 if action.color is None else action.color)
        elif do == "call_uno":
            self.call_uno(seat)
        elif do == "catch":
            if action.target is None:
                raise errors.bad_action("Say whom to catch.")
            self.catch(seat, action.target)
        else:
            raise errors.bad_action(f"Unknown action {do!r}.")
        return self.events[start:]

    def _check_turn(self, seat: int) -> None:
        if self.phase is OVER:
            raise errors.not_allowed("The round is over.")
        if not self.active[seat]:
            raise errors.not_allowed("You have left this game.")
        if seat != self.current:
            raise errors.not_your_turn()

    def _close_window(self, seat: int) -> None:
        # Another player's turn action ends the chance to catch a missed UNO call.
        if self.exposed != seat:
            self.exposed = -1

    def play(self, seat: int, card: int, color: int | None = None, uno: bool = False) -> None:
        """Play ``card``; ``color`` names the color for wild cards; ``uno`` calls UNO with it."""
        phase = self.phase
        if seat != self.current or phase is OVER:
            self._check_turn(seat)
        hand = self.hands[seat]
        # Validate everything before changing anything (the checks run in the contract's order).
        if phase is TURN:
            if card not in hand:
                raise errors.not_in_hand()
            if not MATCHES[self.color * CARD_KINDS + self.discard[-1]][card]:
                raise errors.cannot_play()
        elif phase is DRAWN:
            if card not in hand:
                raise errors.not_in_hand()
            if card != self.drawn:
                raise errors.wrong_card()
        elif phase is RESPOND:
            if card != WILD_SUPER_STAR:
                raise errors.not_allowed(
                    "Accept the penalty"
                    + (", challenge it" if self.pending_card == WILD_DRAW4 else "")
                    + (" or bounce it with a Super Star." if self.edition is Edition.MARIO else ".")
                )
            if card not in hand:
                raise errors.not_in_hand()
        else:
            raise errors.not_allowed("First choose the color of the card turned up.")
        wild = IS_WILD[card]
        if wild and (color is None or not 0 <= color < 4) and len(hand) > 1:
            raise errors.bad_color()
        # Valid: from here on the round changes.
        if self.exposed != seat:
            self.exposed = -1
        prev_color = self.color
        hand.remove(card)
        self.discard.append(card)
        events = self.events
        if wild:
            if color is not None and 0 <= color < 4:
                self.color = color
            event: Event = {"type": "play", "seat": seat, "card": CODES[card]}
            event["color"] = COLORS[self.color]
            if card == WILD_CUSTOM and self.house_rule:
                event["house_rule"] = self.house_rule
        else:
            self.color = CARD_COLOR[card]
            event = {"type": "play", "seat": seat, "card": CODES[card]}
        self.drawn = -1
        if len(hand) == 1:
            self.called[seat] = uno
            if not uno:
                self.exposed = seat
        if phase is RESPOND:
            self._bounce(seat, hand, event, uno)
            return
        events.append(event)
        if len(hand) == 1 and uno:
            events.append({"type": "uno", "seat": seat})
        effect = EFFECT[card]
        n = self.n
        nxt = (seat + self.direction) % n if self.players == n else self.next_seat(seat)
        if not hand:
            # The last card's draws still happen, with no challenge and no bounce.
            if effect == DRAW_TWO:
                self._draw(nxt, 2, "draw2")
            elif effect == DRAW_FOUR:
                self._draw(nxt, 4, "draw4")
            elif effect == LAP:
                self._victory_lap(seat)
            self._win(seat)
            return
        self.phase = TURN
        if effect == PLAIN:
            self.current = nxt
        elif effect == SKIP_NEXT:
            events.append({"type": "skip", "seat": nxt})
            self.current = self.next_seat(nxt)
        elif effect == TURN_BACK:
            if self.players == 2:
                events.append({"type": "skip", "seat": nxt})
                self.current = seat
            else:
                self.direction = -self.direction
                events.append({"type": "reverse", "direction": self.direction})
                self.current = self.next_seat(seat)
        elif effect == DRAW_TWO:
            if self.edition is Edition.MARIO:
                self._await_response(seat, nxt, card, True)
            else:
                self._draw(nxt, 2, "draw2")
                events.append({"type": "skip", "seat": nxt})
                self.current = self.next_seat(nxt)
        elif effect == DRAW_FOUR:
            self._await_response(seat, nxt, card, self._draw4_legal(hand, prev_color))
        else:  # wild-victory-lap
            self._victory_lap(seat)
            self.current = nxt

    def _bounce(self, seat: int, hand: list[int], event: Event, uno: bool) -> None:
        """A Super Star played by the target sends the penalty back to whoever played it."""
        event["type"] = "bounce"
        event["target"] = self.pending_from
        self.events.append(event)
        if len(hand) == 1 and uno:
            self.events.append({"type": "uno", "seat": seat})
        penalty = 4 if self.pending_card == WILD_DRAW4 else 2
        if self.active[self.pending_from]:  # a penalty's author who left draws nothing
            self._draw(self.pending_from, penalty, "bounce")
        self._end_response()
        if not hand:
            self._win(seat)
            return
        self.current = self.next_seat(seat)

    def _draw4_legal(self, hand: list[int], prev_color: int) -> bool:
        if self.edition is Edition.SONIC:
            return not any(CARD_COLOR[c] == prev_color or IS_WILD[c] for c in hand)
        return not any(CARD_COLOR[c] == prev_color for c in hand)

    def _await_response(self, seat: int, target: int, card: int, legal: bool) -> None:
        self.phase = Phase.RESPOND
        self.current = target
        self.pending_card = card
        self.pending_from = seat
        self.pending_legal = legal
        self.pending_hand = list(self.hands[seat]) if card == WILD_DRAW4 else []

    def _victory_lap(self, seat: int) -> None:
        other = self.next_seat(seat)
        while other != seat:
            self._draw(other, 1, "victory_lap")
            other = self.next_seat(other)

    def _win(self, seat: int) -> None:
        self.phase = Phase.OVER
        self.winner = seat
        self.current = -1
        self.exposed = -1
        total = sum(CARD_POINTS[c] for hand in self.hands for c in hand)
        self.points = [total if s == seat else 0 for s in range(self.n)]
        self.events.append({"type": "round_over", "winner": seat, "points": total})

    def draw(self, seat: int) -> None:
        """Draw one card instead of playing; a playable one may then be played at once."""
        if seat != self.current or self.phase is OVER:
            self._check_turn(seat)
        if self.phase is not TURN:
            raise errors.not_allowed(
                "You already drew: play the card you drew or keep it."
                if self.phase is Phase.DRAWN
                else "You cannot draw now."
            )
        if self.exposed != seat:
            self.exposed = -1
        if self._draw(seat, 1, "draw") and self.can_play(self.hands[seat][-1]):
            self.phase = DRAWN
            self.drawn = self.hands[seat][-1]
        else:
            self.current = self.next_seat(seat)

    def pass_turn(self, seat: int) -> None:
        """Keep the playable card just drawn and end the turn."""
        self._check_turn(seat)
        if self.phase is not Phase.DRAWN:
            raise errors.not_allowed("You can only pass after drawing a playable card.")
        self._close_window(seat)
        self.phase = Phase.TURN
        self.drawn = -1
        self.events.append({"type": "pass", "seat": seat})
        self.current = self.next_seat(seat)

    def accept(self, seat: int) -> None:
        """Take the pending draw2 or wild-draw4 penalty and lose the turn."""
        self._check_turn(seat)
        if self.phase is not Phase.RESPOND:
            raise errors.not_allowed("There is no penalty to accept.")
        self._close_window(seat)
        count = 4 if self.pending_card == WILD_DRAW4 else 2
        self.events.append({"type": "accept", "seat": seat, "count": count})
        self._draw(seat, count, "draw4" if count == 4 else "draw2")
        self._end_response()
        self.current = self.next_seat(seat)

    def _end_response(self) -> None:
        self.phase = Phase.TURN
        self.pending_card = -1
        self.pending_from = -1
        self.pending_hand = []

    def challenge(self, seat: int) -> None:
        """Challenge a wild-draw4: the loser of the challenge draws."""
        self._check_turn(seat)
        if self.phase is not Phase.RESPOND or self.pending_card != WILD_DRAW4:
            raise errors.not_allowed("Only a Wild Draw Four can be challenged.")
        self._close_window(seat)
        culprit = self.pending_from
        legal = self.pending_legal
        self.events.append(
            {
                "type": "challenge",
                "seat": seat,
                "target": culprit,
                "legal": legal,
                "hand": [CODES[c] for c in self.pending_hand],  # shown to the challenger only
            }
        )
        self._end_response()
        if legal:
            self._draw(seat, 6, "challenge")
            self.current = self.next_seat(seat)
        else:
            if self.active[culprit]:  # a culprit who left draws nothing
                self._draw(culprit, 4, "challenge")
            self.current = seat

    def choose_color(self, seat: int, color: int) -> None:
        """Name the color of a wild card turned up first."""
        self._check_turn(seat)
        if self.phase is not Phase.COLOR:
            raise errors.not_allowed("There is no color to choose now.")
        if not 0 <= color < 4:
            raise errors.bad_color()
        self._close_window(seat)
        self.color = color
        self.phase = Phase.TURN
        self.events.append({"type": "color", "seat": seat, "color": COLORS[color]})

    def call_uno(self, seat: int) -> None:
        """Call UNO while holding exactly one card; repeating it changes nothing."""
        if self.phase is Phase.OVER:
            raise errors.not_allowed("The round is over.")
        if not self.active[seat]:
            raise errors.not_allowed("You have left this game.")
        if len(self.hands[seat]) != 1:
            raise errors.not_allowed("Call UNO when you hold exactly one card.")
        if self.called[seat]:
            return
        self.called[seat] = True
        if self.exposed == seat:
            self.exposed = -1
        self.events.append({"type": "uno", "seat": seat})

    def catch(self, seat: int, target: int) -> bool:
        """Catch ``target`` for a missed UNO call; too late or safe means no effect, no cost."""
        if self.phase is Phase.OVER:
            raise errors.not_allowed("The round is over.")
        if not 0 <= target < self.n:
            raise errors.bad_action("That seat is not at this table.")
        if not self.active[seat]:
            raise errors.not_allowed("You have left this game.")
        if target == seat:
            raise errors.not_allowed("You cannot catch yourself.")
        if self.catchable() != target:
            return False
        self.exposed = -1
        self.events.append({"type": "catch", "seat": seat, "target": target})
        self._draw(target, 2, "catch")
        return True

    def leave(self, seat: int) -> None:
        """Seat leaves: its hand is shuffled into the draw pile and play goes on without it."""
        if not 0 <= seat < self.n or not self.active[seat]:
            raise errors.not_allowed("That player is not in this round.")
        if self.phase is Phase.OVER:
            self.active[seat] = False
            self.players -= 1
            return
        pile = self.draw_pile
        rng = self.rng
        for card in self.hands[seat]:
            pile.insert(rng.randrange(len(pile) + 1), card)
        returned = len(self.hands[seat])
        self.hands[seat] = []
        self.called[seat] = False
        self.events.append({"type": "leave", "seat": seat, "returned": returned})
        # Work out who goes next before the seat disappears from the rotation.
        was_current = self.current == seat
        following = self.next_seat(seat)
        self.active[seat] = False
        self.players -= 1
        if self.exposed == seat:
            self.exposed = -1
        if self.players == 1:
            self.phase = Phase.OVER
            self.winner = following
            self.current = -1
            self.exposed = -1
            self.points = [0] * self.n
            self.events.append({"type": "forfeit", "winner": following})
            return
        # A penalty whose author left still stands: its target answers as usual (a challenge is
        # judged on the hand recorded at the play); only what would fall back on the author lapses.
        if was_current:
            if self.phase is not Phase.COLOR:
                self._end_response()
                self.drawn = -1
            self.current = following

    def clone(self, rng: random.Random | None = None) -> Game:
        """An independent copy for look-ahead; it never touches this round's generator."""
        game = Game.__new__(Game)
        for name in Game.__slots__:
            setattr(game, name, getattr(self, name))
        game.active = self.active[:]
        game.hands = [h[:] for h in self.hands]
        game.draw_pile = self.draw_pile[:]
        game.discard = self.discard[:]
        game.called = self.called[:]
        game.pending_hand = self.pending_hand[:]
        game.points = self.points[:] if self.points is not None else None
        game.events = []
        game.rng = rng if rng is not None else random.Random(0)
        return game

    # ----- persistence -----

    def to_dict(self) -> dict[str, Any]:
        """Everything needed to resume the round exactly, JSON-ready."""
        state = self.rng.getstate()
        return {
            "edition": self.edition.value,
            "n": self.n,
            "active": list(self.active),
            "dealer": self.dealer,
            "house_rule": self.house_rule,
            "hands": [list(h) for h in self.hands],
            "draw_pile": list(self.draw_pile),
            "discard": list(self.discard),
            "color": self.color,
            "direction": self.direction,
            "phase": int(self.phase),
            "current": self.current,
            "drawn": self.drawn,
            "called": list(self.called),
            "exposed": self.exposed,
            "pending": [self.pending_card, self.pending_from, self.pending_legal],
            "pending_hand": list(self.pending_hand),
            "winner": self.winner,
            "points": list(self.points) if self.points is not None else None,
            "rng": [state[0], list(state[1]), state[2]],
            "events": list(self.events),  # a copy: a saved state must not change with the game
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """Rebuild a round saved by ``to_dict``."""
        game = cls.__new__(cls)
        game.edition = Edition(data["edition"])
        game.n = int(data["n"])
        game.active = [bool(a) for a in data["active"]]
        game.players = sum(game.active)
        game.dealer = int(data["dealer"])
        game.house_rule = str(data["house_rule"])
        game.hands = [[int(c) for c in h] for h in data["hands"]]
        game.draw_pile = [int(c) for c in data["draw_pile"]]
        game.discard = [int(c) for c in data["discard"]]
        game.color = int(data["color"])
        game.direction = int(data["direction"])
        game.phase = Phase(int(data["phase"]))
        game.current = int(data["current"])
        game.drawn = int(data["drawn"])
        game.called = [bool(c) for c in data["called"]]
        game.exposed = int(data["exposed"])
        game.pending_card = int(data["pending"][0])
        game.pending_from = int(data["pending"][1])
        game.pending_legal = bool(data["pending"][2])
        game.pending_hand = [int(c) for c in data["pending_hand"]]
        game.winner = int(data["winner"])
        game.points = list(data["points"]) if data["points"] is not None else None
        rng = random.Random()
        version, internal, gauss = data["rng"]
        rng.setstate((version, tuple(internal), gauss))
        game.rng = rng
        game.events = list(data["events"])
        return game
