"""Agreement benchmark: how often easy, normal and hard computer players agree with the hard
player's judgement, over seeded simulated rounds (the figure /uno history shows each player).

Run: .venv/bin/python bench/agreement.py [--rounds 1000] [--rollouts 24] [--seed 1]
[--independent-hard] [--hard-rollouts N] [--ceiling] [--progress 10]; prints JSON (with
--progress, the figures so far on stderr every that many rounds, so a run cut short still tells).

Each round seats one computer player of each level (their seats rotating with the seed) and is
played headless (bot/engine/playout.py); then every turn decision of every seat is judged by
bot/engine/review.py's ``agreement``, as /uno history does for people (``--rollouts``: the
judge's search). By default the hard seat plays as the judge's reference does, with the very
seeds the judge uses (``ai.reference``), so it agrees with itself at every decision: that shows
the judge is consistent, nothing about hard. ``--independent-hard`` seeds the hard seat's
search apart from the judge's (the same search and budget, ``--hard-rollouts`` to change it):
the honest measure. ``--ceiling`` also asks a second judge, seeded apart from the first, at
every decision, and reports how often the two judges agree: what a player who always chose as
the judge's search does could score at most against it (its own noise). Everything is seeded
and no search is stopped by a clock, so a run prints the same figures on any machine.
Reported: per level the decisions, the agreed ones and the share, whether the shares rank
easy < normal < hard, with each share's 95 % margin, and the time playing and judging took.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Collection
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import RuleSet, ai
from bot.engine.cards import Edition
from bot.engine.playout import play_match
from bot.engine.record import RoundRecord, apply_recorded
from bot.engine.review import DECISIONS, HARD_ROLLOUTS, agreement, same_choice

LEVELS = ("easy", "normal", "hard")
EDITIONS = (Edition.CLASSIC, Edition.SONIC, Edition.MARIO)
HARD_SALT = 0x5EED_4A2D  # the independent hard seat's seeds, apart from the judge's
JUDGE_SALT = 0x0C0F_FEE5  # the second judge's seeds, apart from both


def judges_agree(
    record: RoundRecord, seats: Collection[int], rollouts: int
) -> dict[int, tuple[int, int]]:
    """Per seat: its turn decisions, and at how many two differently seeded judges agree."""
    asked = {seat: [0, 0] for seat in seats}
    game = record.new_game()
    for number, action in enumerate(record.actions, start=1):
        seat = action.seat
        tally = asked.get(seat)
        if tally is not None and action.do in DECISIONS and game.current == seat and not game.over:
            first = ai.reference(game, seat, record.seed, number, rollouts)
            second = ai.reference(game, seat, record.seed ^ JUDGE_SALT, number, rollouts)
            tally[0] += 1
            tally[1] += same_choice(first, second)
        apply_recorded(game, action)
    return {seat: (made, agreed) for seat, (made, agreed) in asked.items()}


def margin(agreed: int, made: int) -> float:
    """The 95 % margin of a share (normal approximation; decisions are not quite independent,
    so read it as a lower bound)."""
    if not made:
        return 0.0
    share = agreed / made
    return round(1.96 * math.sqrt(share * (1 - share) / made), 4)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument(
        "--rollouts", type=int, default=HARD_ROLLOUTS, help="the judge's search, in rollouts"
    )
    parser.add_argument("--hard-rollouts", type=int, help="the hard seat's (default: the judge's)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--independent-hard", action="store_true")
    parser.add_argument("--ceiling", action="store_true")
    parser.add_argument("--progress", type=int, default=0)
    args = parser.parse_args()
    hard_rollouts = args.hard_rollouts or args.rollouts
    made = dict.fromkeys(LEVELS, 0)
    agreed = dict.fromkeys(LEVELS, 0)
    ceiling_made = ceiling_agreed = 0
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
            hard_rollouts=hard_rollouts,
            hard_reference=True,
            hard_salt=HARD_SALT if args.independent_hard else 0,
        )
        play_s += time.perf_counter() - start
        start = time.perf_counter()
        record = RoundRecord.from_text(match.records[0])
        for seat, result in agreement(record, range(3), rollouts=args.rollouts).items():
            made[levels[seat]] += result.decisions
            agreed[levels[seat]] += result.agreed
        if args.ceiling:
            for both, same in judges_agree(record, range(3), args.rollouts).values():
                ceiling_made += both
                ceiling_agreed += same
        judge_s += time.perf_counter() - start
        if args.progress and (index + 1) % args.progress == 0:
            judges = [ceiling_agreed, ceiling_made]
            so_far = {"rounds_so_far": index + 1, "agreed": agreed, "decisions": made}
            print(json.dumps({**so_far, "judges": judges}), file=sys.stderr, flush=True)
    judged = (ceiling_agreed, ceiling_made)
    print(json.dumps(summary(args, hard_rollouts, made, agreed, judged, (play_s, judge_s))))


def summary(
    args: argparse.Namespace,
    hard_rollouts: int,
    made: dict[str, int],
    agreed: dict[str, int],
    judges: tuple[int, int],
    times: tuple[float, float],
) -> dict[str, object]:
    """The figures a run prints."""
    shares = {level: round(agreed[level] / made[level], 4) for level in LEVELS}
    out: dict[str, object] = {
        "rounds": args.rounds,
        "judge_rollouts": args.rollouts,
        "hard_rollouts": hard_rollouts,
        "hard_shares_the_judges_seeds": not args.independent_hard,
        "decisions": made,
        "agreed": agreed,
        "agreement": shares,
        "margin_95": {level: margin(agreed[level], made[level]) for level in LEVELS},
        "ranks_easy_normal_hard": shares["easy"] < shares["normal"] < shares["hard"],
        "play_s": round(times[0], 1),
        "judge_s": round(times[1], 1),
        "judge_ms_per_round": round(1000 * times[1] / args.rounds, 1),
    }
    if args.ceiling:
        same, both = judges
        out["judges_agree"] = round(same / both, 4) if both else 0.0
        out["judges_agree_margin_95"] = margin(same, both)
    return out


if __name__ == "__main__":
    main()
