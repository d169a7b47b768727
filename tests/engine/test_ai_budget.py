"""Hard's time budget (with a fake clock) and a small seeded win-rate check of the levels."""

from __future__ import annotations

import random

from bot.engine import ai
from bot.engine.cards import Edition
from bot.engine.game import Action, Phase
from bot.engine.simulate import random_policy
from tests.engine.helpers import dealt, position, spare


class FakeClock:
    """Each reading moves time on by ``step`` seconds."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step
        self.readings = 0

    def __call__(self) -> float:
        self.readings += 1
        self.now += self.step
        return self.now


def test_hard_stops_at_its_budget() -> None:
    game = dealt(Edition.CLASSIC, 4)
    clock = FakeClock(0.01)
    action = ai.decide(game, game.current, "hard", random.Random(0), clock, budget_s=0.1)
    assert action in game.legal_actions()
    # One reading to start, one per guess: about budget / step guesses, never many more.
    assert 5 <= clock.readings <= 12


def test_hard_with_no_budget_falls_back_on_its_heuristic() -> None:
    game = dealt(Edition.SONIC, 5)
    clock = FakeClock(1.0)
    hard = ai.decide(game, game.current, "hard", random.Random(3), clock, budget_s=0.5)
    info = ai.knowledge(game, game.current)
    rng = random.Random(3)
    ai.candidates(game, game.current, rng)  # hard draws its candidates' colors first
    style = ai.SHARP if game.players == 2 else ai.SHARP_MANY
    assert hard == ai.heuristic(game, game.current, rng, style, info)


def test_hard_answers_a_forced_move_at_once() -> None:
    game = position([["blue-7", "blue-8"], spare("green", 4, 1)], "red-2")
    clock = FakeClock(0.01)
    assert ai.decide(game, 0, "hard", random.Random(0), clock) == Action(0, "draw")
    assert clock.readings <= 1


def test_hard_respects_its_rollout_cap() -> None:
    game = dealt(Edition.MARIO, 6)
    clock = FakeClock(0.0)  # time never passes: only the cap ends the search
    action = ai.decide(game, game.current, "hard", random.Random(0), clock, max_rollouts=30)
    assert action in game.legal_actions()
    assert clock.readings <= 30


def _wins(level: str, rounds: int) -> int:
    wins = 0
    for index in range(rounds):
        rng = random.Random(index)
        game = dealt(Edition.CLASSIC, 9000 + index)
        while game.phase is not Phase.OVER:
            if game.current == 0:
                game.apply(ai.decide(game, 0, level, rng))
            else:
                random_policy(game, rng)
        wins += game.winner == 0
    return wins


def test_normal_beats_easy_against_random_players() -> None:
    rounds = 600
    easy, normal = _wins("easy", rounds), _wins("normal", rounds)
    assert normal > easy + rounds // 20
    assert normal > rounds * 0.3
