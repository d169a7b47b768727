"""Outside UNO agents playing inside this engine, under its rules, for bench/ai_arena.py.

Each adapter shows its agent the round the way that agent's own game would (its card names, its
idea of which moves are legal, its questions) and turns the answer into an engine ``Action``.
Where the agent's game has no such decision (rlcard has no challenge, and plays a drawn card by
itself), the adapter does what that game does. Outside agents always call UNO with their
second-to-last card: neither game has the call, and a forgotten call is not what is measured.

- ``rlcard``: rlcard 1.2's rule agent ``uno-rule-v1`` (``UNORuleAgentV1``), fed rlcard's raw
  state. In rlcard a Wild Draw Four is legal only when nothing else is, so it never bluffs.
- ``uno-game``: the PyPI package uno-game's ``ComputerPlayer`` (plays from the playable color
  whose cards are worth least, highest points first; names the color worth least; answers the
  challenge question with a coin). Where it would name "wild" (and in uno-game ask again for ever)
  it names its least-worth colored color instead.
- ``bluffer``: the normal player, except that it plays a Wild Draw Four whenever it holds one and
  holds the color in force, i.e. it bluffs whenever it can.
- ``honest``: the normal player, except that it never bluffs: a Wild Draw Four goes down only
  when the hand holds no card of the color in force.
"""

from __future__ import annotations

import copy
import random
from typing import Any, Protocol

from bot.engine import ai
from bot.engine.action import Do
from bot.engine.cards import (
    CARD_COLOR,
    CARD_POINTS,
    CARD_RANK,
    COLORS,
    DRAW2,
    IS_WILD,
    REVERSE,
    SKIP,
    WILD,
)
from bot.engine.cards import WILD_DRAW4 as WD4
from bot.engine.game import Action, Game, Phase


class Agent(Protocol):
    """Something that plays a seat: ``act`` is called whenever the round awaits that seat."""

    name: str

    def act(self, game: Game, seat: int, rng: random.Random) -> Action: ...


def _calls(game: Game, seat: int) -> bool:
    return len(game.hands[seat]) == 2


# ----- rlcard 1.2: the rule agent uno-rule-v1 -----

_RL_COLOR = {i: name[0] for i, name in enumerate(COLORS)}  # red yellow green blue -> r y g b
_RL_COLOR_INDEX = {letter: i for i, letter in _RL_COLOR.items()}
_RL_TRAIT = {SKIP: "skip", REVERSE: "reverse", DRAW2: "draw_2"}


def _rl_trait(card: int) -> str:
    if card == WD4:
        return "wild_draw_4"
    if IS_WILD[card]:
        return "wild"
    rank = CARD_RANK[card]
    return _RL_TRAIT.get(rank, str(rank))


def _rl_hand(hand: list[int]) -> list[str]:
    # rlcard's deck holds one wild card of each kind per color letter; the letter means nothing
    # until the card is played, and the rule agent reads it only from a hand of wild cards alone.
    names = []
    for i, card in enumerate(hand):
        letter = _RL_COLOR[i % 4] if IS_WILD[card] else _RL_COLOR[CARD_COLOR[card]]
        names.append(f"{letter}-{_rl_trait(card)}")
    return names


def _rl_options(card: int) -> list[str]:
    """The action strings rlcard offers for ``card`` (a wild card once per color)."""
    if IS_WILD[card]:
        return [f"{letter}-{_rl_trait(card)}" for letter in "rgby"]
    return [f"{_RL_COLOR[CARD_COLOR[card]]}-{_rl_trait(card)}"]


def rl_legal(hand: list[int], top: int, color: int) -> list[str]:
    """rlcard's ``get_legal_actions``: matching cards and wilds; a Wild Draw Four only when
    nothing else is legal; else draw."""
    legal: list[str] = []
    fours: list[str] = []
    for card in dict.fromkeys(hand):
        if card == WD4:
            fours = _rl_options(card)
        elif (
            IS_WILD[card]
            or CARD_COLOR[card] == color
            or (not IS_WILD[top] and CARD_RANK[card] == CARD_RANK[top])
        ):
            legal += _rl_options(card)
    legal = list(dict.fromkeys(legal)) or fours
    return legal or ["draw"]


def _rl_card(hand: list[int], name: str) -> tuple[int, int | None]:
    """The engine card (and named color) of an rlcard action string."""
    letter, trait = name.split("-", 1)
    if trait == "wild_draw_4":
        return WD4, _RL_COLOR_INDEX[letter]
    if trait == "wild":
        return WILD, _RL_COLOR_INDEX[letter]
    for card in hand:
        if (
            not IS_WILD[card]
            and CARD_COLOR[card] == _RL_COLOR_INDEX[letter]
            and _rl_trait(card) == trait
        ):
            return card, None
    raise ValueError(f"rlcard chose {name!r}, which is not in hand")


class RLCardRule:
    """rlcard 1.2's ``UNORuleAgentV1`` on this engine (its randomness: numpy's global state,
    which the arena seeds for every game)."""

    name = "rlcard"

    def __init__(self) -> None:
        from rlcard.models.uno_rule_models import UNORuleAgentV1

        self.agent = UNORuleAgentV1()

    def _step(self, game: Game, seat: int, legal: list[str]) -> str:
        hand = game.hands[seat]
        top = game.discard[-1]
        target = f"{_RL_COLOR[game.color]}-{_rl_trait(top)}" if game.color >= 0 else "r-wild"
        obs: dict[str, Any] = {
            "hand": _rl_hand(hand),
            "target": target,
            "played_cards": [],
            "legal_actions": legal,
            "num_cards": [len(h) for h in game.hands],
        }
        return str(self.agent.step({"raw_obs": obs, "raw_legal_actions": legal}))

    def act(self, game: Game, seat: int, rng: random.Random) -> Action:
        phase = game.phase
        hand = game.hands[seat]
        if phase is Phase.COLOR:
            return Action(seat, Do.CHOOSE_COLOR, color=rng.randrange(4))  # rlcard: a random color
        if phase is Phase.RESPOND:
            return Action(seat, Do.ACCEPT)  # rlcard has no challenge and no stacking
        if phase is Phase.DRAWN:
            # rlcard plays a drawn card by itself when it is wild or of the color in force.
            card = game.drawn
            if not (IS_WILD[card] or CARD_COLOR[card] == game.color):
                return Action(seat, Do.PASS)
            choice = self._step(game, seat, _rl_options(card))
            played, color = _rl_card(hand, choice)
            return Action(seat, Do.PLAY, played, color, _calls(game, seat))
        choice = self._step(game, seat, rl_legal(hand, game.discard[-1], game.color))
        if choice == "draw":
            return Action(seat, Do.DRAW)
        played, color = _rl_card(hand, choice)
        return Action(seat, Do.PLAY, played, color, _calls(game, seat))


# ----- the PyPI package uno-game: ComputerPlayer -----


class UnoGameComputer:
    """uno-game 1.1's ``ComputerPlayer`` on this engine."""

    name = "uno-game"

    def __init__(self) -> None:
        import uno

        self.uno = uno
        self.player = uno.ComputerPlayer(card_count=0)
        colors = [uno.RED, uno.YELLOW, uno.GREEN, uno.BLUE]  # this engine's color order
        self.colors = colors
        ranks = [*(str(n) for n in range(10)), "SKIP", "REVERSE", "DRAW2"]
        self.cards: dict[int, Any] = {WILD: uno.WILD_CARD, WD4: uno.WILD_DRAW4}
        for c, color in enumerate(colors):
            for r, rank in enumerate(ranks):
                self.cards[c * 13 + r] = getattr(uno, f"{color.name.upper()}_{rank}")
        self.kinds = {id(card): kind for kind, card in self.cards.items()}

    def _current(self, game: Game) -> Any:
        top = game.discard[-1]
        card = self.cards[top]
        if IS_WILD[top]:
            # uno-game keeps a copy of a played wild card with the color it was given.
            card = copy.copy(card)
            card.color = self.colors[game.color]
        return card

    def _name_color(self, hand: list[int], rng: random.Random) -> int:
        self.player.hand = [self.cards[c] for c in hand if not IS_WILD[c]]
        if not self.player.hand:
            return rng.randrange(4)
        return self.colors.index(self.player.choose_color(self.player.hand))

    def _play(self, game: Game, seat: int, card: int, rng: random.Random) -> Action:
        hand = list(game.hands[seat])
        hand.remove(card)
        color = self._name_color(hand, rng) if IS_WILD[card] else None
        return Action(seat, Do.PLAY, card, color, _calls(game, seat))

    def act(self, game: Game, seat: int, rng: random.Random) -> Action:
        phase = game.phase
        hand = game.hands[seat]
        if phase is Phase.COLOR:
            return Action(seat, Do.CHOOSE_COLOR, color=self._name_color(hand, rng))
        if phase is Phase.RESPOND:
            if game.pending_card == WD4 and rng.random() < 0.5:  # Player._ask's coin for a bool
                return Action(seat, Do.CHALLENGE)
            return Action(seat, Do.ACCEPT)
        if phase is Phase.DRAWN:
            return self._play(game, seat, game.drawn, rng)  # it plays whenever it can
        self.player.hand = [self.cards[c] for c in hand]
        current = self._current(game)
        if not self.player.can_play(current):
            return Action(seat, Do.DRAW)
        chosen = self.player._play(current)
        return self._play(game, seat, self.kinds[id(chosen)], rng)


# ----- opponents of this engine's own -----


class Level:
    """One of this engine's computer levels (``sharp``: hard's heuristic without rollouts)."""

    def __init__(self, level: str, budget_s: float = ai.DEFAULT_BUDGET_S, rollouts: int = 0):
        self.name = level
        self.budget_s = budget_s
        self.rollouts = rollouts or ai.DEFAULT_MAX_ROLLOUTS

        self.record: ai.ChallengeRecord | None = None  # set by the arena for each game

    def act(self, game: Game, seat: int, rng: random.Random) -> Action:
        if self.name == "sharp":
            return ai.heuristic(game, seat, rng, ai.SHARP, None, self.record)
        return ai.decide(
            game,
            seat,
            self.name,
            rng,
            budget_s=self.budget_s,
            max_rollouts=self.rollouts,
            record=self.record,
        )


class Bluffer:
    """Normal, but a Wild Draw Four goes down whenever it is in hand and would be a bluff."""

    name = "bluffer"

    def act(self, game: Game, seat: int, rng: random.Random) -> Action:
        hand = game.hands[seat]
        if (
            game.phase is Phase.TURN
            and WD4 in hand
            and any(CARD_COLOR[c] == game.color for c in hand)
            and len(hand) > 1
        ):
            return Action(seat, Do.PLAY, WD4, ai.best_color(hand, rng, WD4), _calls(game, seat))
        return ai.decide(game, seat, "normal", rng)


def _bluff(game: Game, seat: int, card: int | None) -> bool:
    """Would playing ``card`` now be an illegal Wild Draw Four?"""
    hand = game.hands[seat]
    return card == WD4 and any(c != WD4 and CARD_COLOR[c] == game.color for c in hand)


class Honest:
    """Normal, but a Wild Draw Four never goes down as a bluff (another card does instead)."""

    name = "honest"

    def act(self, game: Game, seat: int, rng: random.Random) -> Action:
        action = ai.decide(game, seat, "normal", rng)
        if action.do != Do.PLAY or not _bluff(game, seat, action.card):
            return action
        if game.phase is Phase.DRAWN:
            return Action(seat, Do.PASS)
        # Holding the color in force, the hand has a card that fits: the highest in points.
        fits = [c for c in game.playable(seat) if c != WD4]
        card = max(fits, key=lambda c: (CARD_POINTS[c], -c))
        color = ai.best_color(game.hands[seat], rng, card) if IS_WILD[card] else None
        return Action(seat, Do.PLAY, card, color, _calls(game, seat))


OUTSIDE = {"rlcard": RLCardRule, "uno-game": UnoGameComputer}


def make(name: str, budget_s: float = ai.DEFAULT_BUDGET_S, rollouts: int = 0) -> Agent:
    """An agent by the name the arena's command line uses."""
    if name in OUTSIDE:
        return OUTSIDE[name]()
    if name == "bluffer":
        return Bluffer()
    if name == "honest":
        return Honest()
    if name in (*ai.LEVELS, "sharp"):
        return Level(name, budget_s, rollouts)
    raise ValueError(f"unknown agent {name!r}")
