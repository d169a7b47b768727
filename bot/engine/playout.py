"""Whole matches played headless by computer players, as a table plays them: UNO calls now and
then forgotten, catches, players leaving, stalemates ended. Tests and benchmarks of recorded
rounds use it; every change goes through ``Match.apply`` and ``Match.leave``, so it is recorded.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from . import ai
from .action import Action
from .match import Match
from .rules import RuleSet

ROUND_ACTIONS_CAP = 5_000  # a round still going after this many actions is abandoned


def play_match(
    rules: RuleSet,
    levels: Sequence[str],
    seed: int,
    *,
    forget_uno: float = 0.1,
    leave: float = 0.002,
    max_rounds: int = 20,
    hard_rollouts: int = 40,
    hard_reference: bool = False,
    hard_salt: int = 0,
) -> Match:
    """A match between computer players at ``levels``, seeded; returns it finished (or after
    ``max_rounds``). ``forget_uno``: how often a play leaving one card forgets the UNO call;
    ``leave``: the chance per action that a seat leaves (never below two players);
    ``hard_rollouts``: the hard players' search, in rollouts per decision; ``hard_reference``:
    the hard players decide as the reference judging decisions does (``ai.reference``), their
    searches seeded as its, XOR ``hard_salt``: 0 shares the judge's very seeds, another value
    makes a search of the same kind and strength that the judge does not share."""
    rng = random.Random(seed)
    match = Match(rules, len(levels), random.Random(rng.getrandbits(64)))
    while True:
        game = match.game
        for _ in range(ROUND_ACTIONS_CAP):
            if game.over:
                break
            _step(match, levels, rng, forget_uno, leave, hard_rollouts, hard_reference, hard_salt)
        if not game.over:
            return match  # a round nobody ends (should not happen): give up on the match
        if not match.round_scored:
            match.finish_round()
        if match.over or len(match.rounds) >= max_rounds:
            return match
        match.next_round()


def _step(
    match: Match,
    levels: Sequence[str],
    rng: random.Random,
    forget_uno: float,
    leave: float,
    hard_rollouts: int,
    hard_reference: bool = False,
    hard_salt: int = 0,
) -> None:
    """One thing happening at the table: a seat leaving, an out-of-turn call, or a move."""
    game = match.game
    if rng.random() < leave and game.players > 2:
        seat = rng.choice([s for s in range(game.n) if game.active[s]])
        match.leave(seat)
        _settle(match)
        return
    for seat in range(game.n):
        if game.active[seat] and not game.over:
            other = ai.out_of_turn(game, seat, levels[seat], rng)
            if other is not None and (other.do != "call_uno" or rng.random() > forget_uno):
                match.apply(other)
                _settle(match)
    if game.over:
        return
    if game.house.jump_in and rng.random() < 0.5:
        for seat in range(game.n):
            if game.active[seat] and seat != game.current:
                jump = ai.jump_in(game, seat, levels[seat], rng)
                if jump is not None:
                    match.apply(jump)
                    _settle(match)
                    return
    seat = game.current
    log = match.log
    if hard_reference and levels[seat] == "hard" and log is not None:
        number = log.size + 1  # as the round's record will number this action
        action = ai.reference(game, seat, log.seed ^ hard_salt, number, hard_rollouts)
    else:
        action = ai.decide(game, seat, levels[seat], rng, max_rollouts=hard_rollouts)
    if action.uno and rng.random() < forget_uno:
        action = Action(action.seat, action.do, action.card, action.color, False, action.target)
    match.apply(action)
    _settle(match)


def _settle(match: Match) -> None:
    """What the table does after each change: end a round nobody can finish."""
    match.game.end_if_stalled()
