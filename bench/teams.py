"""Team play: two hard computers as partners against two normal ones, as JSON.

Run: python bench/teams.py [--rounds 400] [--rollouts 100] [--edition classic] [--seed 1]
     [--compare] [--first 0] [--progress]

Four seats, two teams (seat s on team s mod 2, partners opposite). Seats 0 and 2 play hard,
seats 1 and 3 normal; a round is the hard team's when either partner goes out. The dealer
rotates with the round number, every round is seeded from (seed, round number), and hard's
Monte Carlo is bounded by a number of rollouts rather than by time, so a run is repeatable.
With ``--compare`` the same rounds are also played without teams (``solo``: hard counts only its
own win, and a partner's win is scored for the hard pair all the same), to show what playing for
the team adds.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from typing import Any

from bot.engine import ai
from bot.engine.cards import Edition, edition_deck, shuffle
from bot.engine.game import Game, Phase

SEATS = 4
TEAMS = 2
LEVELS = ("hard", "normal", "hard", "normal")


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (round(centre - half, 4), round(centre + half, 4))


def play_round(
    edition: Edition, index: int, seed: int, rollouts: int, teams: int, see: bool = False
) -> int:
    """One round; returns the winning seat. ``teams`` 0 plays the same seats without teams."""
    rng = random.Random(f"{seed}:{edition.value}:{index}")
    deck = edition_deck(edition)
    shuffle(deck, rng)
    game = Game(
        edition, SEATS, index % SEATS, deck, random.Random(rng.getrandbits(32)), teams=teams
    )
    steps = 0
    while game.phase is not Phase.OVER and steps < 2000:
        seat = game.current
        game.apply(
            ai.decide(
                game,
                seat,
                LEVELS[seat],
                rng,
                budget_s=1e9,
                max_rollouts=rollouts,
                partners_see=see and teams > 0,
            )
        )
        for other in range(SEATS):
            extra = ai.out_of_turn(game, other, LEVELS[other], rng)
            if extra is not None:
                game.apply(extra)
        if game.end_if_stalled() is not None:
            break
        steps += 1
    return game.winner


def main() -> None:
    """Print one JSON object: the hard team's wins over the rounds, with and without teams."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=400)
    parser.add_argument("--rollouts", type=int, default=100, help="hard's rollouts a decision")
    parser.add_argument("--edition", default="classic", choices=[e.value for e in Edition])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--compare", action="store_true", help="also play without teams")
    parser.add_argument("--first", type=int, default=0, help="the first round's number")
    parser.add_argument(
        "--progress", action="store_true", help="each round's winner to stderr as it ends"
    )
    parser.add_argument(
        "--partners-see", action="store_true", help="partners may look at each other's hands"
    )
    args = parser.parse_args()
    edition = Edition(args.edition)
    result: dict[str, Any] = {
        "edition": edition.value,
        "rounds": args.rounds,
        "first": args.first,
        "rollouts": args.rollouts,
        "seats": list(LEVELS),
        "partners_see": args.partners_see,
    }
    for name, teams in (("team", TEAMS), ("solo", 0))[: 2 if args.compare else 1]:
        start = time.perf_counter()
        wins = 0
        for index in range(args.first, args.first + args.rounds):
            winner = play_round(edition, index, args.seed, args.rollouts, teams, args.partners_see)
            wins += winner >= 0 and winner % TEAMS == 0  # the hard team: seats 0 and 2
            if args.progress:
                # A run cut short still counts: every round's winner, as it ends.
                print(json.dumps({name: index, "winner": winner}), file=sys.stderr, flush=True)
        result[name] = {
            "hard_team_wins": wins,
            "win_rate": round(wins / args.rounds, 4) if args.rounds else None,
            "ci95": wilson(wins, args.rounds),
            "seconds": round(time.perf_counter() - start, 1),
        }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
