"""Rendering benchmark: CPU milliseconds, PNG bytes and peak RSS per picture, as JSON.

Each measurement runs in a fresh worker process. ``--against DIR`` measures another checkout of
the project (an older commit, say) in the same run: the two alternate, repetition after
repetition, so both see the same machine. Every figure is the median over the repetitions of
each worker's median.

``--language CODE`` draws this checkout's pictures with that language's words (German: ``de``),
as a server speaking it sees them; the ``--against`` checkout draws English.

Cases: the fixed sample views (``bot/render/samples.py``), one picture over and over, and a
``mixed`` case per picture kind that cycles through 300 different views (random names, seats,
cards and editions), as a busy bot with many tables sees them.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]


def _worker(
    root: Path, runs: int, edition_name: str, rss_only: bool, language: str | None = None
) -> dict[str, Any]:
    """Measure the renderer of the checkout at ``root`` (run in its own process)."""
    sys.path.insert(0, str(root))
    from functools import partial

    from bot.engine.cards import COLORS, Edition
    from bot.engine.phase import Phase
    from bot.engine.snapshot import HandView, PublicView, SeatView
    from bot.render import render_hand, render_scores, render_table

    if language is not None:
        from bot.i18n import lang
        from bot.i18n.pictures import picture_words

        words = picture_words(lang(language))
        render_table = partial(render_table, words=words)
        render_hand = partial(render_hand, words=words)
        render_scores = partial(render_scores, words=words)
    from bot.render.art import edition_cards
    from bot.render.samples import sample_hand, sample_scores, sample_table

    edition = Edition(edition_name)
    rng = random.Random(2024)
    letters = "abcdefghijklmnopqrstuvwxyzäöüéèçñøł "
    names = [
        "".join(rng.choice(letters) for _ in range(rng.randint(3, 18))).strip().title() or "X"
        for _ in range(1000)
    ]

    def mixed_table(i: int) -> PublicView:
        ed = list(Edition)[i % 3]
        players = rng.randint(2, 10)
        deck = edition_cards(ed)
        base = sample_table(players, ed, rng.choice([*COLORS, None]))
        seats = tuple(
            replace(s, name=rng.choice(names), cards=rng.randint(1, 15)) for s in base.seats
        )
        return replace(
            base,
            seats=seats,
            recent=tuple(rng.choice(deck) for _ in range(5)),
            discard_pile=rng.randint(5, 60),
            draw_pile=rng.randint(0, 80),
            direction=rng.choice((1, -1)),
            current=rng.randrange(players),
            pending=None,
        )

    def mixed_hand(i: int) -> HandView:
        ed = list(Edition)[i % 3]
        deck = edition_cards(ed)
        count = rng.choice([1, 3, 5, 7, 7, 7, 8, 9, 10, 12, 15, 20])
        cards = tuple(sorted(rng.choice(deck) for _ in range(count)))
        return HandView(
            edition=ed,
            seat=0,
            name=rng.choice(names),
            cards=cards,
            playable=tuple(rng.random() < 0.4 for _ in cards),
            awaiting=Phase.TURN,
            color=rng.choice(COLORS),
        )

    tables = [mixed_table(i) for i in range(300)]
    hands = [mixed_hand(i) for i in range(300)]
    _ = SeatView  # the views above are built from the checkout's own dataclasses

    if rss_only:
        start = time.perf_counter()
        for ed in Edition:
            for players in range(2, 11):
                render_table(sample_table(players, ed))
            for cards in range(0, 61, 3):
                render_hand(sample_hand(cards, ed))
            for players in (2, 4, 10):
                render_scores(sample_scores(players, ed))
        for view in tables:
            render_table(view)
        for hand in hands:
            render_hand(hand)
        out: dict[str, Any] = {
            "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
            "seconds": round(time.perf_counter() - start, 2),
        }
        try:
            from bot.render import cache_totals  # type: ignore[attr-defined]

            totals = cache_totals()
            out["cache_mib"] = round(totals.bytes / 2**20, 2)
            out["cache_bound_mib"] = round(totals.max_bytes / 2**20, 2)
        except ImportError:
            pass
        return out

    cycle = {"table": 0, "hand": 0}

    def next_table() -> bytes:
        cycle["table"] += 1
        return render_table(tables[cycle["table"] % len(tables)])

    def next_hand() -> bytes:
        cycle["hand"] += 1
        return render_hand(hands[cycle["hand"] % len(hands)])

    cases: dict[str, Callable[[], bytes]] = {
        "table_10": lambda: render_table(sample_table(10, edition)),
        "table_4": lambda: render_table(sample_table(4, edition)),
        "table_2": lambda: render_table(sample_table(2, edition)),
        "hand_7": lambda: render_hand(sample_hand(7, edition)),
        "hand_40": lambda: render_hand(sample_hand(40, edition)),
        "scores": lambda: render_scores(sample_scores(4, edition)),
        "mixed_table": next_table,
        "mixed_hand": next_hand,
    }
    # Warm up: every edition's palettes and the mixed views' cards, as a running bot has them.
    for view in tables:
        render_table(view)
    for hand in hands:
        render_hand(hand)
    results: dict[str, Any] = {}
    for name, fn in cases.items():
        data = fn()
        cpu, wall = [], []
        for _ in range(runs):
            c0, w0 = time.thread_time(), time.perf_counter()
            data = fn()
            cpu.append((time.thread_time() - c0) * 1000)
            wall.append((time.perf_counter() - w0) * 1000)
        results[name] = {
            "cpu_ms": round(statistics.median(cpu), 3),
            "wall_ms": round(statistics.median(wall), 3),
            "bytes": len(data),
        }
    return results


def _spawn(
    root: Path, runs: int, edition: str, rss: bool, language: str | None = None
) -> dict[str, Any]:
    cmd = [sys.executable, __file__, "--worker", str(root), "--runs", str(runs)]
    cmd += ["--edition", edition] + (["--rss"] if rss else [])
    cmd += ["--language", language] if language else []
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def _median(reports: list[dict[str, Any]]) -> dict[str, Any]:
    """Per case and figure, the median over the repetitions."""
    first = reports[0]
    out: dict[str, Any] = {}
    for key, value in first.items():
        if isinstance(value, dict):
            out[key] = _median([r[key] for r in reports])
        else:
            out[key] = round(statistics.median(r[key] for r in reports), 3)
    return out


def main() -> None:
    """Print the benchmark as JSON."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=200, help="renders per case and worker")
    parser.add_argument("--reps", type=int, default=5, help="workers per checkout, alternating")
    parser.add_argument("--edition", default="classic", choices=["classic", "sonic", "mario"])
    parser.add_argument("--against", type=Path, help="another checkout to measure alongside")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--rss", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--language", help="this checkout draws in this language (e.g. de)")
    args = parser.parse_args()
    if args.worker:
        work = _worker(args.worker, args.runs, args.edition, args.rss, args.language)
        print(json.dumps(work))
        return
    roots = {"after": HERE} if args.against is None else {"before": args.against, "after": HERE}
    times: dict[str, list[dict[str, Any]]] = {side: [] for side in roots}
    rss: dict[str, list[dict[str, Any]]] = {side: [] for side in roots}
    for rep in range(args.reps):
        order = list(roots.items())
        if rep % 2:
            order.reverse()
        for side, root in order:
            language = args.language if side == "after" else None
            times[side].append(_spawn(root, args.runs, args.edition, False, language))
            rss[side].append(_spawn(root, 1, args.edition, True, language))
    report: dict[str, Any] = {
        "edition": args.edition,
        "runs": args.runs,
        "reps": args.reps,
        "python": sys.version.split()[0],
        "language": args.language or "en",
    }
    for side in roots:
        report[side] = {"pictures": _median(times[side]), "all_editions": _median(rss[side])}
    if "before" in report:
        before, after = report["before"]["pictures"], report["after"]["pictures"]
        report["cpu_speedup"] = {
            case: round(before[case]["cpu_ms"] / after[case]["cpu_ms"], 2) for case in after
        }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
