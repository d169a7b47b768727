"""Computer players against outside UNO agents, in duplicate 2-player classic rounds, as JSON.

Run (the outside agents are optional dev dependencies: pip install -e '.[arena]'):

    python bench/ai_arena.py --deals 1000 --levels easy,normal,hard --against rlcard,uno-game
    python bench/ai_arena.py --deals 500 --levels normal --against bluffer,honest   # challenges

Every deal is played twice with the seats swapped (our level in seat 0, then in seat 1, the
same deck, dealer seat 0, the same seeds): a lucky hand counts for both sides, so the win rate's
par is 50 % and the noise of the deal mostly cancels. Deal ``i`` is seeded from
(``--seed``, ``i``): a run is repeatable and may be split over processes (``--jobs``), or
over runs (``--first``: deals ``first`` to ``first + deals - 1``; the runs' figures combine
from their ``deals``, ``win_rate`` and ``score_sd``, the per-deal standard deviation). Each game
is a classic round under the official rules; ``games = 2 * deals``.

The 95 % interval is taken over deals (a deal scores 0, ½ or 1), which respects the pairing.
``challenges`` counts the Wild Draw Fours played on our seat, how many were bluffs, how many we
challenged, and how many of those we lost (the card was legal: 2 extra cards) or won.
A match lasts ``--match`` deals: what our seat saw of the opponent's Wild Draw Fours (shown
bluffs, shown legal, never shown) carries over between its rounds, as at a table, and is
forgotten at the next match. Hard runs with ``--hard-budget`` seconds and at most
``--hard-rollouts`` rollouts per decision; a rollout cap (rather than the clock) keeps its
strength the same on a busy machine.

``--peek hands`` (or ``all``) is a bound, not a player: hard's guesses of the hidden cards are
replaced by the opponent's real hand (``all``: and the draw pile in its real order), to show
what knowing them would be worth to its search. The bot's players never peek.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # arena_agents beside this file

import arena_agents

from bot.engine import ai, ai_challenge
from bot.engine.cards import WILD_DRAW4, Edition, edition_deck, shuffle
from bot.engine.game import Game, Phase

# What the challenge counts of a matchup hold (see the module's docstring).
CHALLENGE_KEYS = (
    "wd4_on_us",
    "bluffs_on_us",
    "challenged",
    "lost_challenges",
    "won_challenges",
    "our_wd4",
    "our_bluffs",
    "our_bluffs_caught",
)
STEP_CAP = 5000  # actions; a round still running then counts as won by nobody


def _seed_outside(seed: str) -> None:
    """The outside agents draw from numpy's and Python's global generators."""
    value = random.Random(seed).getrandbits(32)
    random.seed(value)
    try:
        import numpy

        numpy.random.seed(value)
    except ImportError:
        pass


def play_game(
    ours: arena_agents.Agent,
    theirs: arena_agents.Agent,
    deck: list[int],
    seat: int,
    seed: str,
    seen: list[int],
) -> dict[str, Any]:
    """One classic 2-player round, our agent in ``seat``; what happened, as counts. ``seen``:
    what our seat read of the opponent's Wild Draw Fours earlier in the match (extended)."""
    if isinstance(ours, arena_agents.Level):
        ours.record = ai.ChallengeRecord({1 - seat: seen})
    game = Game(Edition.CLASSIC, 2, 0, deck, random.Random(f"{seed}:engine"))
    rngs = {seat: random.Random(f"{seed}:ours"), 1 - seat: random.Random(f"{seed}:theirs")}
    _seed_outside(f"{seed}:outside")
    agents = {seat: ours, 1 - seat: theirs}
    times: list[float] = []
    cpu_times: list[float] = []  # the same decisions in CPU time: a busy machine's waits left out
    stats = dict.fromkeys(CHALLENGE_KEYS, 0)
    steps = 0
    while game.phase is not Phase.OVER and steps < STEP_CAP:
        current = game.current
        respond_wd4 = game.phase is Phase.RESPOND and game.pending_card == WILD_DRAW4
        start = time.perf_counter()
        cpu = time.thread_time()
        action = agents[current].act(game, current, rngs[current])
        if current == seat:
            times.append(time.perf_counter() - start)
            cpu_times.append(time.thread_time() - cpu)
        if respond_wd4 and current == seat:
            stats["wd4_on_us"] += 1
            stats["bluffs_on_us"] += not game.pending_legal
            if action.do == "challenge":
                stats["challenged"] += 1
                stats["lost_challenges" if game.pending_legal else "won_challenges"] += 1
        if respond_wd4 and current != seat and not game.pending_legal and action.do == "challenge":
            stats["our_bluffs_caught"] += 1
        game.apply(action)
        if action.do == "play" and action.card == WILD_DRAW4 and current == seat:
            stats["our_wd4"] += 1
            stats["our_bluffs"] += game.phase is Phase.RESPOND and not game.pending_legal
        steps += 1
        # Our level calls UNO and catches as it would at a table; outside agents call with
        # their play (see arena_agents).
        if game.phase is not Phase.OVER and isinstance(ours, arena_agents.Level):
            extra = ai.out_of_turn(
                game, seat, ours.name if ours.name in ai.LEVELS else "hard", rngs[seat]
            )
            if extra is not None:
                game.apply(extra)
    seen += ai.knowledge(game, seat).wd4_reads.get(1 - seat, [])
    return {
        "won": game.winner == seat,
        "lost": game.winner == 1 - seat,
        "times": times,
        "cpu_times": cpu_times,
        **stats,
    }


def play_deals(args: tuple[str, str, float, int, int, int, int, int]) -> list[dict[str, Any]]:
    """Deals ``first .. first+count-1``, each twice with the seats swapped; a match (what our
    seat remembers of the opponent's bluffs) lasts ``match`` deals."""
    level, against, budget, rollouts, seed, first, count, match = args
    ours = arena_agents.make(level, budget, rollouts)
    theirs = arena_agents.make(against)
    base = edition_deck(Edition.CLASSIC)
    out = []
    seen: list[int] = []
    for index in range(first, first + count):
        if index % match == 0:
            seen = []
        deck = base[:]
        shuffle(deck, random.Random(f"{seed}:{index}"))
        pair = [play_game(ours, theirs, deck, s, f"{seed}:{index}:{s}", seen) for s in (0, 1)]
        out.append({"pair": pair})
    return out


def _score(pair: list[dict[str, Any]]) -> float:
    """A deal's score for our level: 1 for both games won, ½ for one (an unfinished game ½)."""
    return sum(g["won"] + 0.5 * (not g["won"] and not g["lost"]) for g in pair) / 2


def _progress(level: str, against: str, first: int, done: list[dict[str, Any]]) -> None:
    """One line on stderr per part played: its deals' scores (runs cut short still count)."""
    scores = [_score(r["pair"]) for r in done]
    line = {"level": level, "against": against, "first": first, "scores": scores}
    print(json.dumps(line), file=sys.stderr, flush=True)


def interval(scores: list[float]) -> tuple[float, float]:
    """The 95 % normal interval of a mean of per-deal scores."""
    n = len(scores)
    if n < 2:
        return (0.0, 1.0)
    mean = statistics.fmean(scores)
    half = 1.96 * statistics.stdev(scores) / math.sqrt(n)
    return (round(max(0.0, mean - half), 4), round(min(1.0, mean + half), 4))


def matchup(level: str, against: str, deals: int, args: argparse.Namespace) -> dict[str, Any]:
    """Our ``level`` against ``against`` over ``deals`` duplicate deals."""
    match = args.match
    # One process plays one match a part, so a long run shows its progress as it goes.
    chunks = max(1, min(args.jobs * 4, deals)) if args.jobs > 1 else math.ceil(deals / match)
    size = math.ceil(deals / chunks / match) * match  # parts hold whole matches
    first_deal = args.first
    parts = [
        (
            level,
            against,
            args.hard_budget,
            args.hard_rollouts,
            args.seed,
            first,
            min(size, first_deal + deals - first),
            match,
        )
        for first in range(first_deal, first_deal + deals, size)
    ]
    start = time.perf_counter()
    if args.jobs > 1 and len(parts) > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            results = [r for part in pool.map(play_deals, parts) for r in part]
    else:
        results = []
        for part in parts:
            done = play_deals(part)
            results += done
            _progress(level, against, part[5], done)
    seconds = time.perf_counter() - start
    games = [g for r in results for g in r["pair"]]
    scores = [_score(r["pair"]) for r in results]
    wins = sum(g["won"] for g in games)
    times = sorted(t for g in games for t in g["times"])
    cpu = sorted(t for g in games for t in g["cpu_times"])
    p99 = times[min(len(times) - 1, math.ceil(0.99 * len(times)) - 1)] if times else 0.0
    cpu99 = cpu[min(len(cpu) - 1, math.ceil(0.99 * len(cpu)) - 1)] if cpu else 0.0
    challenges = {k: sum(g[k] for g in games) for k in CHALLENGE_KEYS}
    return {
        "level": level,
        "against": against,
        "deals": deals,
        "games": len(games),
        "wins": wins,
        "unfinished": sum(not g["won"] and not g["lost"] for g in games),
        "first_deal": first_deal,
        "win_rate": round(statistics.fmean(scores), 4) if scores else None,
        "ci95": interval(scores),
        "score_sd": round(statistics.stdev(scores), 4) if len(scores) > 1 else None,
        "challenges": challenges,
        "decisions": len(times),
        "ms_median": round(statistics.median(times) * 1000, 3) if times else None,
        "ms_p99": round(p99 * 1000, 3),
        "cpu_ms_p99": round(cpu99 * 1000, 3),
        "seconds": round(seconds, 1),
    }


def peek(mode: str) -> None:
    """Let hard's search play on the real hidden cards (``hands`` or ``all``; ``none``: not)."""
    if mode == "none":
        return

    def truth(game: Game, info: ai.Knowledge, rng: random.Random) -> Game:
        world = game.clone(random.Random(rng.getrandbits(32)))
        if mode == "hands":
            pile = world.draw_pile[:]
            shuffle(pile, rng)
            world.draw_pile = pile
        return world

    ai.determinize = truth


def main() -> None:
    """Print one JSON object with every matchup."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=1000, help="each played twice")
    parser.add_argument("--hard-deals", type=int, default=0, help="deals for hard (0: --deals)")
    parser.add_argument("--levels", default="easy,normal,hard")
    parser.add_argument("--against", default="rlcard,uno-game")
    parser.add_argument("--hard-budget", type=float, default=ai.DEFAULT_BUDGET_S)
    parser.add_argument("--hard-rollouts", type=int, default=ai.DEFAULT_MAX_ROLLOUTS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--match", type=int, default=4, help="deals that one match lasts")
    parser.add_argument(
        "--first", type=int, default=0, help="the first deal (a multiple of --match)"
    )
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--never-bluffs",
        type=float,
        default=ai_challenge.NEVER_BLUFFS,
        help="the challenge's prior weight on a player who never bluffs (to compare priors)",
    )
    parser.add_argument(
        "--peek",
        choices=("none", "hands", "all"),
        default="none",
        help="a bound: hard's search sees the real hidden cards (the module's docstring)",
    )
    args = parser.parse_args()
    peek(args.peek)
    if args.first % args.match:
        parser.error("--first must be a multiple of --match: a match starts there")
    ai_challenge.NEVER_BLUFFS = args.never_bluffs
    runs = []
    for level in args.levels.split(","):
        deals = args.hard_deals if level == "hard" and args.hard_deals else args.deals
        for against in args.against.split(","):
            runs.append(matchup(level, against, deals, args))
    result = {
        "format": "duplicate 2-player classic rounds",
        "seed": args.seed,
        "hard_budget_s": args.hard_budget,
        "hard_rollouts": args.hard_rollouts,
        "match_deals": args.match,
        "jobs": args.jobs,
        "never_bluffs": args.never_bluffs,
        "peek": args.peek,
        "par": 0.5,
        "runs": runs,
    }
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
