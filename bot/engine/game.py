"""One round of UNO: the rules put together over the round's state.

docs/rules.md states the rules. ``Game`` is a ``RoundState`` (``state``: the fields and the
primitives every rule uses) with the rules on top: ``apply`` looks the action's rule up in
``RULES``; the rules live in ``deal`` (the deal and the first card), ``turn`` (play, draw,
pass, color, UNO, catch), ``penalties`` (a pending draw penalty and its answers, stacking
included), ``house_effects`` (the other house rules), ``leaving``, ``legality`` (what a seat may
do now) and ``stalemate``. None of them imports this module. Actions are validated completely
before anything changes, so a rejected action (``RuleError``) leaves the round untouched. Each
applied action appends events (the frozen types of ``events``) to ``self.events``; they are
the game's record.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from . import errors, leaving, legality, penalties, stalemate, turn
from . import teams as team_rules
from .action import Action, Do
from .cards import Edition
from .deal import deal
from .house import OFFICIAL, HouseRules
from .phase import AWAITING, DRAWN, MATCHES, OVER, RESPOND, TURN, Phase
from .state import Event, RoundState

# Re-exported: callers name the round's phases, actions and the match table through this module.
__all__ = [
    "AWAITING",
    "DRAWN",
    "MATCHES",
    "OVER",
    "RESPOND",
    "TURN",
    "Action",
    "Do",
    "Event",
    "Game",
    "Phase",
]

HAND_SIZE = 7
MIN_PLAYERS = 2
MAX_PLAYERS = 10


def _play(state: RoundState, action: Action) -> None:
    if action.card is None:
        raise errors.bad_action("say_card")
    turn.play(state, action.seat, action.card, action.color, action.uno, action.target)


def _choose_color(state: RoundState, action: Action) -> None:
    turn.choose_color(state, action.seat, -1 if action.color is None else action.color)


def _catch(state: RoundState, action: Action) -> None:
    if action.target is None:
        raise errors.bad_action("say_target")
    turn.catch(state, action.seat, action.target)


# Each action's rule, given an action whose seat is at the table while the round goes on.
RULES: dict[Do, Callable[[RoundState, Action], object]] = {
    Do.PLAY: _play,
    Do.DRAW: lambda state, action: turn.draw(state, action.seat),
    Do.PASS: lambda state, action: turn.pass_turn(state, action.seat),
    Do.ACCEPT: lambda state, action: penalties.accept(state, action.seat),
    Do.CHALLENGE: lambda state, action: penalties.challenge(state, action.seat),
    Do.CHOOSE_COLOR: _choose_color,
    Do.CALL_UNO: lambda state, action: turn.call_uno(state, action.seat),
    Do.CATCH: _catch,
    Do.LEAVE: lambda state, action: leaving.leave(state, action.seat),
}


class Game(RoundState):
    """A round in progress. Seats are fixed; a seat that left stays in place, inactive."""

    __slots__ = ()

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
        teams: int = 0,
    ) -> None:
        """Deal from ``deck`` (index 0 is the top) and turn up the first card; ``teams`` teams
        of alternating seats (0: none) must fit the seats (``teams.fits``)."""
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError("a round needs 2 to 10 players")
        seats = list(active) if active is not None else [True] * players
        if sum(seats) < MIN_PLAYERS or len(seats) != players:
            raise ValueError("a round needs at least 2 active seats")
        if not seats[dealer]:
            raise ValueError("the dealer must be an active seat")
        if not team_rules.fits(teams, players):
            raise ValueError(f"{teams} teams need {team_rules.counts_text(teams)} players")
        self.start(edition, players, dealer, deck, rng, seats, house_rule, house or OFFICIAL, teams)
        deal(self)

    def apply(self, action: Action) -> list[Event]:
        """Apply one action; returns its events (empty for a catch or UNO call that changes
        nothing), or raises RuleError with nothing changed."""
        start = len(self.events)
        if not 0 <= action.seat < self.n:
            raise errors.bad_action("no_such_seat")
        if self.phase is OVER:
            raise errors.not_allowed("round_over")
        rule = RULES.get(action.do)
        if rule is None:
            raise errors.bad_action("unknown_action", action=repr(action.do))
        rule(self, action)
        return self.events[start:]

    # The rules as methods, bound without wrappers: the policies and the AI call them in
    # their hot loops.
    play = turn.play
    draw = turn.draw
    pass_turn = turn.pass_turn
    choose_color = turn.choose_color
    call_uno = turn.call_uno
    catch = turn.catch
    accept = penalties.accept
    challenge = penalties.challenge
    leave = leaving.leave
    playable = legality.playable
    legal_actions = legality.legal_actions

    def end_if_stalled(self) -> int | None:
        """End the round if nobody can finish it (``stalemate``); the winner's seat, or None."""
        if self.phase is OVER or not stalemate.stalled(self):
            return None
        return stalemate.end_stalled(self)

    def clone(self, rng: random.Random | None = None) -> Game:
        """An independent copy for look-ahead; it never touches this round's generator."""
        return self.copy(rng if rng is not None else random.Random(0))
