"""Agreement benchmark: how often easy, normal and hard computer players agree with the hard
player's judgement, over seeded simulated rounds (the figure /uno history shows each player).

Run: .venv/bin/python bench/agreement.py [--rounds 1000] [--rollouts 400] [--seed 1]
[--independent-hard] [--hard-rollouts N] [--ceiling] [--progress 10]; prints JSON (with
--progress, the counts so far on stderr every that many rounds, so a run cut short still tells).
``--combine PART...`` prints the figures of earlier runs' outputs taken together (a long run
split into parts over consecutive seeds: ``--seed`` is the first round's seed).

Each round seats one computer player of each level (their seats rotating with the seed) and is
played headless (bot/engine/playout.py); then every turn decision of every seat is judged by
bot/engine/review.py's ``agreement``, as /uno history does for people (``--rollouts``: the
judge's search): agreed when it is the judge's move or one its search cannot tell from it
(``review.as_good``), exact when it is the judge's very move. By default the hard seat plays as
the judge's reference does, with the very seeds the judge uses (``ai.reference``), so it agrees
with itself at every decision: that shows the judge is consistent, nothing about hard.
``--independent-hard`` seeds the hard seat's search apart from the judge's (the same search and
budget, ``--hard-rollouts`` to change it): the honest measure. ``--ceiling`` also asks a second
judge, seeded apart from the first, at every decision, and reports how often the first counts
the second's move as agreed (and how often the two made the very same move). Everything is
seeded and no search is stopped by a clock, so a run prints the same figures on any machine.
Reported: per level the decisions, the agreed and exact ones and their shares, whether the
agreement ranks easy < normal < hard, each share's 95 % margin, and the time playing and
judging took.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Collection
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import RuleSet, ai
from bot.engine.cards import Edition
from bot.engine.playout import play_match
from bot.engine.record import RoundRecord
from bot.engine.review import HARD_ROLLOUTS, agreement, as_good, decisions, same_choice

LEVELS = ("easy", "normal", "hard")
EDITIONS = (Edition.CLASSIC, Edition.SONIC, Edition.MARIO)
HARD_SALT = 0x5EED_4A2D  # the independent hard seat's seeds, apart from the judge's
JUDGE_SALT = 0x0C0F_FEE5  # the second judge's seeds, apart from both


def judges_agree(
    record: RoundRecord, seats: Collection[int], rollouts: int
) -> dict[int, tuple[int, int, int]]:
    """Per seat: its turn decisions, at how many a second judge seeded apart makes a move the
    first judge counts as agreement, and at how many the two make the very same move."""
    asked = {seat: [0, 0, 0] for seat in seats}
    for number, game, action in decisions(record, asked):
        first = ai.reference_search(game, action.seat, record.seed, number, rollouts)
        second = ai.reference(game, action.seat, record.seed ^ JUDGE_SALT, number, rollouts)
        tally = asked[action.seat]
        tally[0] += 1
        tally[1] += as_good(second, first)
        tally[2] += same_choice(second, first.choice)
    return {seat: (made, agreed, exact) for seat, (made, agreed, exact) in asked.items()}


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
    parser.add_argument("--seed", type=int, default=1, help="the first round's seed")
    parser.add_argument("--independent-hard", action="store_true")
    parser.add_argument("--ceiling", action="store_true")
    parser.add_argument("--progress", type=int, default=0)
    parser.add_argument(
        "--combine",
        nargs="+",
        metavar="PART",
        help="print the figures of these runs' JSON outputs taken together, and run nothing",
    )
    args = parser.parse_args()
    if args.combine:
        print(json.dumps(combine([json.loads(Path(p).read_text()) for p in args.combine])))
        return
    hard_rollouts = args.hard_rollouts or args.rollouts
    tally = Tally()
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
            tally.add(levels[seat], result.decisions, result.agreed, result.exact)
        if args.ceiling:
            for counts in judges_agree(record, range(3), args.rollouts).values():
                tally.add("judges", *counts)
        judge_s += time.perf_counter() - start
        if args.progress and (index + 1) % args.progress == 0:
            so_far = {"rounds_so_far": index + 1, **tally.counts()}
            print(json.dumps(so_far), file=sys.stderr, flush=True)
    run = {
        "rounds": args.rounds,
        "first_seed": args.seed,
        "judge_rollouts": args.rollouts,
        "hard_rollouts": hard_rollouts,
        "hard_shares_the_judges_seeds": not args.independent_hard,
        "play_s": round(play_s, 1),
        "judge_s": round(judge_s, 1),
    }
    print(json.dumps(summary(run, tally, args.ceiling)))


class Tally:
    """Decisions, agreed ones and exact matches, per level (and for the two judges)."""

    def __init__(self) -> None:
        self.made: dict[str, int] = dict.fromkeys((*LEVELS, "judges"), 0)
        self.agreed = dict(self.made)
        self.exact = dict(self.made)

    def add(self, who: str, made: int, agreed: int, exact: int) -> None:
        """Count one seat's decisions in a round."""
        self.made[who] += made
        self.agreed[who] += agreed
        self.exact[who] += exact

    def counts(self) -> dict[str, dict[str, int]]:
        """The raw counts, as a run prints them."""
        return {"decisions": self.made, "agreed": self.agreed, "exact": self.exact}


def shares(agreed: dict[str, int], made: dict[str, int]) -> dict[str, float]:
    """Each level's share."""
    return {
        level: round(agreed[level] / made[level], 4) if made[level] else 0.0 for level in LEVELS
    }


def summary(run: dict[str, Any], tally: Tally, ceiling: bool) -> dict[str, Any]:
    """The figures a run prints: ``run``'s settings and times, then the counts and shares."""
    made, agreed, exact = tally.made, tally.agreed, tally.exact
    share = shares(agreed, made)
    out: dict[str, Any] = {
        **run,
        **tally.counts(),
        "agreement": share,
        "margin_95": {level: margin(agreed[level], made[level]) for level in LEVELS},
        "ranks_easy_normal_hard": share["easy"] < share["normal"] < share["hard"],
        "exact_agreement": shares(exact, made),
        "exact_margin_95": {level: margin(exact[level], made[level]) for level in LEVELS},
        "judge_ms_per_round": round(1000 * run["judge_s"] / run["rounds"], 1),
    }
    if ceiling:
        both = made["judges"]
        out["judges_agree"] = round(agreed["judges"] / both, 4) if both else 0.0
        out["judges_agree_margin_95"] = margin(agreed["judges"], both)
        out["judges_agree_exactly"] = round(exact["judges"] / both, 4) if both else 0.0
    return out


def combine(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures of several runs of the same settings over different rounds, as one run."""
    tally = Tally()
    for part in parts:
        for who in tally.made:
            tally.add(
                who,
                part["decisions"].get(who, 0),
                part["agreed"].get(who, 0),
                part["exact"].get(who, 0),
            )
    first = parts[0]
    run = {
        "rounds": sum(p["rounds"] for p in parts),
        "first_seeds": [p["first_seed"] for p in parts],
        **{
            k: first[k] for k in ("judge_rollouts", "hard_rollouts", "hard_shares_the_judges_seeds")
        },
        "play_s": round(sum(p["play_s"] for p in parts), 1),
        "judge_s": round(sum(p["judge_s"] for p in parts), 1),
    }
    return summary(run, tally, "judges_agree" in first)


if __name__ == "__main__":
    main()
