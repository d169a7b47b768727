"""One round of UNO as a state machine: turns, plays, draws and UNO calls.

docs/rules.md states the rules. ``apply`` is the one way from an action to its effect. Around
this module: ``deal`` (the deal and the first card), ``legality`` (what a seat may do now),
``penalties`` (a pending draw penalty and its answers, stacking included), ``house_effects`` (the
other house rules), ``leaving`` and ``saving``. Actions are validated completely before anything
changes, so a rejected action (``RuleError``) leaves the round untouched. Each applied action
appends events (plain dicts with a ``type``) to ``self.events``; they are the game's record.
"""

from __future__ import annotations

import random
from typing import Any

from bot.i18n.markers import N_

from . import errors, house_effects, leaving, legality, penalties, saving
from .action import Action
from .cards import (
    CARD_COLOR,
    CARD_KINDS,
    CARD_POINTS,
    CODES,
    COLORS,
    IS_WILD,
    NO_COLOR,
    WILD_CUSTOM,
    Edition,
    shuffle,
)
from .deal import deal
from .house import OFFICIAL, HouseRules
from .phase import (
    ANSWER_TWO,
    AWAITING,
    DRAW_FOUR,
    DRAW_TWO,
    DRAWN,
    LAP,
    MATCHES,
    OFFICIAL_LOOKUPS,
    OVER,
    PLAIN,
    RESPOND,
    ROTATE,
    SKIP_NEXT,
    SWAP,
    TURN,
    TURN_BACK,
    Phase,
    lookups,
)

# Re-exported: callers name the round's phases, actions and the match table through this module.
__all__ = ["AWAITING", "DRAWN", "MATCHES", "OVER", "RESPOND", "TURN", "Action", "Game", "Phase"]

HAND_SIZE = 7
MIN_PLAYERS = 2
MAX_PLAYERS = 10

Event = dict[str, Any]


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
        "effects",
        "events",
        "exposed",
        "hands",
        "house",
        "house_rule",
        "n",
        "penalty",
        "pending_card",
        "pending_from",
        "pending_hand",
        "pending_legal",
        "phase",
        "plain_draw",
        "plain_play",
        "players",
        "points",
        "restrict",
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
        house: HouseRules | None = None,
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
        self.configure(house or OFFICIAL)
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
        self.penalty = 0
        self.winner = -1
        self.points: list[int] | None = None
        self.events: list[Event] = []
        deal(self)

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

    # ----- the deal and the first card -----

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

    def needs_target(self, card: int) -> bool:
        """Does a play of ``card`` name a seat to swap with (unless it is the last card)."""
        return self.effects[card] >= SWAP

    playable = legality.playable
    legal_actions = legality.legal_actions

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
        """Apply one action; returns its events (empty for a catch or UNO call that changes
        nothing), or raises RuleError with nothing changed."""
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
            self.play(seat, action.card, action.color, action.uno, action.target)
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
            raise errors.bad_action("Unknown action {action}.", action=repr(do))
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

    def valid_target(self, seat: int, target: int | None) -> bool:
        """Is ``target`` a seat that ``seat`` may swap hands with."""
        return (
            target is not None and 0 <= target < self.n and target != seat and self.active[target]
        )

    def play(
        self,
        seat: int,
        card: int,
        color: int | None = None,
        uno: bool = False,
        target: int | None = None,
    ) -> None:
        """Play ``card``; ``color`` names the color for wild cards; ``uno`` calls UNO with it;
        ``target`` names the seat a 7 (seven_o) or a swap_hands Wild Customizable swaps with.
        By a seat that is not awaited, while jump_in is on, it is a jump-in."""
        phase = self.phase
        if seat != self.current or phase is OVER:
            if phase is TURN and self.house.jump_in and 0 <= seat < self.n:
                house_effects.check_jump_in(self, seat, card, target)
                # Valid: the jumper's turn replaces the current one (the checks below pass).
                self.events.append({"type": "jump_in", "seat": seat, "turn_of": self.current})
                self.current = seat
            else:
                self._check_turn(seat)
        hand = self.hands[seat]
        # Validate everything before changing anything (the checks run in the contract's order).
        if phase is TURN:
            try:
                where = hand.index(card)  # found once, removed by position below
            except ValueError:
                raise errors.not_in_hand() from None
            if not MATCHES[self.color * CARD_KINDS + self.discard[-1]][card]:
                raise errors.cannot_play()
            if self.restrict and not house_effects.allowed(self, seat, card):
                raise house_effects.forbidden(self, seat, card)
        elif phase is DRAWN:
            if card not in hand:
                raise errors.not_in_hand()
            if card != self.drawn:
                raise errors.wrong_card()
            where = hand.index(card)
        elif phase is RESPOND:
            penalties.play_answer(self, seat, card, color, uno)
            return
        else:
            raise errors.not_allowed("First choose the color of the card turned up.")
        wild = IS_WILD[card]
        if wild and (color is None or not 0 <= color < 4) and len(hand) > 1:
            raise errors.bad_color()
        effect = self.effects[card]
        if effect >= SWAP and len(hand) > 1 and not self.valid_target(seat, target):
            raise errors.bad_action("Name another player to swap hands with.")
        # Valid: from here on the round changes.
        if self.exposed != seat:
            self.exposed = -1
        prev_color = self.color
        del hand[where]
        self.discard.append(card)
        events = self.events
        if wild:
            if color is not None and 0 <= color < 4:
                self.color = color
            event: Event = {"type": "play", "seat": seat, "card": CODES[card]}
            event["color"] = COLORS[self.color]
            if card == WILD_CUSTOM and self.house_rule and effect == PLAIN:
                event["house_rule"] = self.house_rule
        else:
            self.color = CARD_COLOR[card]
            event = {"type": "play", "seat": seat, "card": CODES[card]}
        if phase is DRAWN:
            self.drawn = -1
        events.append(event)
        left = len(hand)
        if left == 1:
            self.called[seat] = uno
            if uno:
                events.append({"type": "uno", "seat": seat})
            else:
                self.exposed = seat
        n = self.n
        nxt = (seat + self.direction) % n if self.players == n else self.next_seat(seat)
        if not left:
            # The last card's draws still happen, with no challenge and no bounce.
            if effect in (DRAW_TWO, ANSWER_TWO):
                self._draw(nxt, 2, "draw2")
            elif effect == DRAW_FOUR:
                self._draw(nxt, 4, "draw4")
            elif effect == LAP:
                self.draw_round(seat, "victory_lap")
            elif effect >= ROTATE:
                house_effects.last_card(self, seat, effect, nxt)
            self.win(seat)
            return
        if phase is not TURN:
            self.phase = TURN
        if effect == PLAIN:
            self.current = nxt
        elif effect == SKIP_NEXT:
            events.append({"type": "skip", "seat": nxt})
            self.current = self.next_seat(nxt)
        elif effect == TURN_BACK:
            self.direction = -self.direction
            events.append({"type": "reverse", "direction": self.direction})
            if self.players == 2:
                # With two players a Reverse also acts as a Skip: the same player goes again.
                events.append({"type": "skip", "seat": nxt})
                self.current = seat
            else:
                self.current = self.next_seat(seat)
        elif effect == DRAW_TWO:
            self._draw(nxt, 2, "draw2")
            events.append({"type": "skip", "seat": nxt})
            self.current = self.next_seat(nxt)
        elif effect == ANSWER_TWO:
            penalties.await_answer(self, seat, nxt, card, True, 2)
        elif effect == DRAW_FOUR:
            legal = penalties.draw4_legal(self.edition, hand, prev_color)
            penalties.await_answer(self, seat, nxt, card, legal, 4)
        elif effect == LAP:
            self.draw_round(seat, "victory_lap")
            self.current = nxt
        else:
            house_effects.resolve(self, seat, effect, nxt, target)

    def draw_round(self, seat: int, reason: str) -> None:
        """Every other player draws one card, in turn order from the next player."""
        other = self.next_seat(seat)
        while other != seat:
            self._draw(other, 1, reason)
            other = self.next_seat(other)

    def win(self, seat: int) -> None:
        """``seat`` went out: the round is over and scored."""
        self.phase = Phase.OVER
        self.winner = seat
        self.current = -1
        self.exposed = -1
        total = sum(CARD_POINTS[c] for hand in self.hands for c in hand)
        self.points = [total if s == seat else 0 for s in range(self.n)]
        self.events.append({"type": "round_over", "winner": seat, "points": total})

    def draw(self, seat: int) -> None:
        """Draw one card instead of playing; a playable one may then be played at once."""
        phase = self.phase
        if seat != self.current or phase is not TURN:
            self._check_turn(seat)
            raise errors.not_allowed(
                N_("You already drew: play the card you drew or keep it.")
                if phase is Phase.DRAWN
                else N_("You cannot draw now.")
            )
        if not self.plain_draw:
            house_effects.draw(self, seat)
            return
        if self.exposed != seat:
            self.exposed = -1
        pile = self.draw_pile
        if not pile:
            if self._draw(seat, 1, "draw") and self.can_play(self.hands[seat][-1]):
                self.phase = DRAWN
                self.drawn = self.hands[seat][-1]
            else:
                self.current = self.next_seat(seat)
            return
        # One card from a pile that holds some: _draw's loop inlined (a hot path).
        card = pile.pop()
        self.hands[seat].append(card)
        self.called[seat] = False  # the hand now holds two cards or more
        self.events.append({"type": "draw", "seat": seat, "count": 1, "reason": "draw"})
        if MATCHES[self.color * CARD_KINDS + self.discard[-1]][card]:
            self.phase = DRAWN
            self.drawn = card
        elif self.players == self.n:
            self.current = (seat + self.direction) % self.n
        else:
            self.current = self.next_seat(seat)

    def pass_turn(self, seat: int) -> None:
        """Keep the playable card just drawn and end the turn."""
        self._check_turn(seat)
        if self.phase is not Phase.DRAWN:
            raise errors.not_allowed("You can only pass after drawing a playable card.")
        if self.house.must_play:
            raise errors.not_allowed("At this table a playable drawn card must be played.")
        self._close_window(seat)
        self.phase = Phase.TURN
        self.drawn = -1
        self.events.append({"type": "pass", "seat": seat})
        self.current = self.next_seat(seat)

    # Bound as methods without a wrapper: accepting is on the engine's hot path.
    accept = penalties.accept
    challenge = penalties.challenge

    def end_response(self) -> None:
        """No penalty is pending any more."""
        self.phase = Phase.TURN
        self.pending_card = -1
        self.pending_from = -1
        self.pending_hand = []
        self.penalty = 0

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
        count = self.house.uno_penalty
        if count:  # a penalty of 0 still makes the catch count, but draws nothing
            self._draw(target, count, "catch")
        return True

    leave = leaving.leave

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
        return saving.game_to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """Rebuild a round saved by ``to_dict`` (a save from before house rules plays them
        by the printed rules)."""
        game = cls.__new__(cls)
        saving.restore_game(game, data)
        return game
