"""Agreement benchmark: how often easy, normal and hard computer players agree with the hard
player's judgement, over seeded simulated rounds (the figure /uno history shows each player).

Run: .venv/bin/python bench/agreement.py [--rounds 1000] [--rollouts 24] [--seed 1]
[--independent-hard]; prints JSON.

Each round seats one computer player of each level (their seats rotating with the seed) and is
played headless (bot/engine/playout.py); then every turn decision of every seat is judged by
bot/engine/review.py's ``agreement``, as /uno history does for people. The hard seat plays as
the judge's reference does (``ai.reference``: its search seeded by the round and the move), so
it must agree with itself at every decision; ``--independent-hard`` lets it search with the
table's own generator instead, which measures how much the reference's search disagrees with
another run of itself. Reported: per level the
decisions, the agreed ones and the share, whether the shares rank easy < normal < hard, and the
time judging took.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import RuleSet
from bot.engine.cards import Edition
from bot.engine.playout import play_match
from bot.engine.record import RoundRecord
from bot.engine.review import HARD_ROLLOUTS, agreement

LEVELS = ("easy", "normal", "hard")
EDITIONS = (Edition.CLASSIC, Edition.SONIC, Edition.MARIO)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument(
        "--rollouts", type=int, default=HARD_ROLLOUTS, help="the judge's and hard players' search"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--independent-hard", action="store_true")
    args = parser.parse_args()
    made = dict.fromkeys(LEVELS, 0)
    agreed = dict.fromkeys(LEVELS, 0)
    play_s = judge_s = 0.0
    for index in range(args.rounds):
        seed = args.seed + index
        shift = seed % 3
        levels = [LEVELS[(s + shift) % 3] for s in range(3)]
        rules = RuleSet(edition=EDITIONS[seed % 3], target=None)
        start = time.perf_counter()
        match = play_match(
            rules,
            levels,
            seed,
            forget_uno=0.0,
            leave=0.0,
            max_rounds=1,
            hard_rollouts=args.rollouts,
            hard_reference=not args.independent_hard,
        )
        play_s += time.perf_counter() - start
        start = time.perf_counter()
        record = RoundRecord.from_text(match.records[0])
        for seat, result in agreement(record, range(3), rollouts=args.rollouts).items():
            made[levels[seat]] += result.decisions
            agreed[levels[seat]] += result.agreed
        judge_s += time.perf_counter() - start
    shares = {level: round(agreed[level] / made[level], 4) for level in LEVELS}
    print(
        json.dumps(
            {
                "rounds": args.rounds,
                "judge_rollouts": args.rollouts,
                "hard_plays_reference": not args.independent_hard,
                "decisions": made,
                "agreed": agreed,
                "agreement": shares,
                "ranks_easy_normal_hard": shares["easy"] < shares["normal"] < shares["hard"],
                "play_s": round(play_s, 1),
                "judge_s": round(judge_s, 1),
                "judge_ms_per_round": round(1000 * judge_s / args.rounds, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
