"""Random rounds as a hypothesis state machine: every edition, 2 to 10 players, random house
rules, with the invariants checked after every step and at the end of every round."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from bot.engine import OPTIONS, Action, Edition, Game, HouseRules, RuleError
from bot.engine.cards import CARD_KINDS, CARD_POINTS, edition_deck, shuffle
from bot.engine.events import Caught, Forfeit, RoundOver
from tests.engine.helpers import all_cards

FINISH_CAP = 50_000  # actions to finish a round in teardown (rounds end long before)


@st.composite
def house_rules(draw: st.DrawFn) -> HouseRules:
    """Any mix of options; each one stays at its default half of the time."""
    values: dict[str, Any] = {}
    for option in OPTIONS:
        if draw(st.booleans()):
            values[option.name] = draw(st.sampled_from(option.choices))
    return HouseRules(**values)


def is_live(machine: RoundMachine) -> bool:
    return not machine.game.over


class RoundMachine(RuleBasedStateMachine):
    """One round driven by legal actions, jump-ins, UNO calls, catches, leaves and junk."""

    game: Game
    rng: random.Random
    deck: Counter[int]
    left: int

    @initialize(
        edition=st.sampled_from(list(Edition)),
        players=st.integers(2, 10),
        house=house_rules(),
        seed=st.integers(0, 2**32 - 1),
    )
    def deal(self, edition: Edition, players: int, house: HouseRules, seed: int) -> None:
        deck = edition_deck(edition)
        most = (len(deck) - 1) // players
        if house.hand_size > most:
            house = house.with_option("hand_size", most)
        self.rng = random.Random(seed)
        shuffle(deck, self.rng)
        dealer = self.rng.randrange(players)
        self.game = Game(edition, players, dealer, deck, random.Random(seed), house=house)
        self.deck = Counter(edition_deck(edition))
        self.left = 0

    def step(self) -> None:
        """One action as a lively table takes it: mostly plays, sometimes a jump-in."""
        game = self.game
        rng = self.rng
        if game.house.jump_in and rng.random() < 0.2:
            seat = rng.randrange(game.n)
            jumps = game.legal_actions(seat)
            if jumps and seat != game.current:
                self.apply(rng.choice(jumps))
                return
        legal = game.legal_actions()
        plays = [a for a in legal if a.do == "play"]
        action = rng.choice(plays if plays and rng.random() < 0.85 else legal)
        if action.do == "play" and rng.random() < 0.3:  # forget (or needlessly add) UNO
            action = Action(
                action.seat, "play", action.card, action.color, not action.uno, action.target
            )
        self.apply(action)

    def apply(self, action: Action) -> None:
        try:
            self.game.apply(action)
        except RuleError as exc:  # a legal action is never rejected
            raise AssertionError(f"{action} was listed as legal: {exc.code}") from exc

    @precondition(is_live)
    @rule(pick=st.integers(0, 2**16))
    def take_a_legal_action(self, pick: int) -> None:
        legal = self.game.legal_actions()
        self.apply(legal[pick % len(legal)])

    @precondition(is_live)
    @rule(steps=st.integers(1, 60))
    def play_on(self, steps: int) -> None:
        for _ in range(steps):
            if self.game.over:
                return
            self.step()
            assert all_cards(self.game) == self.deck

    @precondition(is_live)
    @rule(seat=st.integers(0, 9))
    def jump_in(self, seat: int) -> None:
        game = self.game
        seat %= game.n
        jumps = game.legal_actions(seat)
        if seat == game.current:
            return
        if not game.house.jump_in or game.awaiting != "turn":
            assert jumps == []
        for action in jumps:
            assert action.card == game.discard[-1] and action.do == "play"
        if jumps:
            self.apply(jumps[self.rng.randrange(len(jumps))])

    @precondition(is_live)
    @rule(seat=st.integers(0, 9), whom=st.integers(0, 9))
    def catch(self, seat: int, whom: int) -> None:
        game = self.game
        seat, target = seat % game.n, whom % game.n
        if seat == target or not game.active[seat]:
            return
        catchable = game.catchable()
        before = len(game.hands[target])
        events = game.apply(Action(seat, "catch", target=target))
        grew = len(game.hands[target]) - before
        if catchable == target:
            assert isinstance(events[0], Caught) and 0 <= grew <= game.house.uno_penalty
            assert game.catchable() == -1
        else:
            assert events == [] and grew == 0

    @precondition(is_live)
    @rule(seat=st.integers(0, 9))
    def call_uno(self, seat: int) -> None:
        game = self.game
        seat %= game.n
        if game.active[seat] and len(game.hands[seat]) == 1:
            game.apply(Action(seat, "call_uno"))
            assert game.uno_flags()[seat] and game.catchable() != seat

    @precondition(lambda self: is_live(self) and self.left < 2)
    @rule(seat=st.integers(0, 9))
    def leave(self, seat: int) -> None:
        game = self.game
        live = [s for s in range(game.n) if game.active[s]]
        game.leave(live[seat % len(live)])
        self.left += 1

    @precondition(is_live)
    @rule(
        seat=st.integers(0, 9),
        do=st.sampled_from(["play", "draw", "pass", "accept", "challenge", "choose_color", "x"]),
        card=st.integers(0, CARD_KINDS - 1),
        color=st.sampled_from([None, 0, 3, 7]),
        aim=st.sampled_from([None, 0, 1, 2, 11, -1]),
    )
    def try_anything(
        self, seat: int, do: str, card: int, color: int | None, aim: int | None
    ) -> None:
        game = self.game
        before = game.to_dict()
        try:
            game.apply(Action(seat % game.n, do, card, color, False, aim))
        except RuleError:
            assert game.to_dict() == before, "a rejected action changes nothing"

    @invariant()
    def every_card_is_accounted_for(self) -> None:
        assert all_cards(self.game) == self.deck

    @invariant()
    def the_round_always_has_a_way_forward(self) -> None:
        game = self.game
        if game.over:
            assert game.legal_actions() == [] and game.current == -1
            return
        assert game.legal_actions(), "legal actions never run out while the round is on"
        assert game.active[game.current]
        assert (game.penalty > 0) == (game.awaiting == "respond")
        for seat, hand in enumerate(game.hands):
            assert game.active[seat] or not hand
            assert not game.called[seat] or len(hand) <= 1

    def check_the_end(self) -> None:
        """One winner; the round scores the cards left in the other hands (none on a forfeit)."""
        game = self.game
        assert game.over, "the round ends"
        n = game.n
        assert 0 <= game.winner < n and game.active[game.winner]
        assert game.awaiting == "round_over" and game.points is not None
        if isinstance(game.events[-1], Forfeit):
            assert game.points == [0] * n and game.players == 1
            return
        assert game.hands[game.winner] == []
        left = sum(CARD_POINTS[c] for hand in game.hands for c in hand)
        assert game.points == [left if s == game.winner else 0 for s in range(n)]
        ends = [e for e in game.events if isinstance(e, RoundOver)]
        assert ends == [RoundOver(winner=game.winner, points=left)]

    @precondition(lambda self: self.game.over)
    @rule(
        edition=st.sampled_from(list(Edition)),
        players=st.integers(2, 10),
        house=house_rules(),
        seed=st.integers(0, 2**32 - 1),
    )
    def next_round(self, edition: Edition, players: int, house: HouseRules, seed: int) -> None:
        self.check_the_end()
        self.deal(edition, players, house, seed)

    def teardown(self) -> None:
        if not hasattr(self, "game"):
            return
        for _ in range(FINISH_CAP):
            if self.game.over:
                break
            self.step()
            assert all_cards(self.game) == self.deck
        self.check_the_end()


RoundMachine.TestCase.settings = settings(
    max_examples=300,
    stateful_step_count=25,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
test_random_rounds_keep_every_invariant = RoundMachine.TestCase
