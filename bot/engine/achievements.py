"""A player's achievements: a fixed set, earned from their recorded matches and rounds.

docs/league.md lists them. The league gives the results (wins, editions, streaks); the round
records give what only the moves show (catches, the largest penalty taken); the server's
finished tournaments, who ended on a podium.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .cards import Edition
from .errors import RuleError
from .record import RoundRecord
from .review import review

ACHIEVEMENTS = (
    "first_win",
    "every_edition",
    "streak_5",
    "catches_10",
    "stack_12",
    "matches_50",
    "tournament_podium",
)
STREAK = 5
CATCHES = 10
STACK = 12
MATCHES = 50


@dataclass(frozen=True, slots=True)
class Tally:
    """What a player's record adds up to."""

    matches: int
    wins: int
    editions_won: frozenset[str]
    current_streak: int
    best_streak: int
    catches: int
    biggest_take: int  # the most cards taken at once for a penalty
    podiums: int = 0  # finished server tournaments ended on the podium


def streaks(won: Sequence[bool]) -> tuple[int, int]:
    """The current and the best run of wins, in match order."""
    best = run = 0
    for win in won:
        run = run + 1 if win else 0
        best = max(best, run)
    return run, best


def round_tally(record: RoundRecord, seat: int) -> tuple[int, int]:
    """A seat's catches in a round and the largest penalty it took at once (nothing for a
    record that does not replay)."""
    catches = biggest = 0
    try:
        moves = review(record).moves
    except RuleError:
        return 0, 0
    for move in moves:
        for event in move.events:
            kind = event.get("type")
            if kind == "catch" and event.get("seat") == seat:
                catches += 1
            elif kind == "accept" and event.get("seat") == seat:
                biggest = max(biggest, int(event.get("count", 0)))
    return catches, biggest


def tally(
    results: Sequence[tuple[str, bool]],
    rounds: Iterable[tuple[int, RoundRecord]],
    podiums: int = 0,
) -> Tally:
    """Results (edition, won) in match order, the rounds played (seat, record), and the
    tournaments ended on the podium."""
    return tally_of(results, [round_tally(record, seat) for seat, record in rounds], podiums)


def tally_of(
    results: Sequence[tuple[str, bool]], rounds: Sequence[tuple[int, int]], podiums: int = 0
) -> Tally:
    """As ``tally``, from each round's (catches, largest penalty taken) already counted."""
    won = [w for _, w in results]
    current, best = streaks(won)
    catches = sum(caught for caught, _ in rounds)
    biggest = max((took for _, took in rounds), default=0)
    return Tally(
        matches=len(results),
        wins=sum(won),
        editions_won=frozenset(e for e, w in results if w),
        current_streak=current,
        best_streak=best,
        catches=catches,
        biggest_take=biggest,
        podiums=podiums,
    )


def earned(t: Tally) -> dict[str, bool]:
    """Every achievement, earned or not, in ACHIEVEMENTS order."""
    return {
        "first_win": t.wins >= 1,
        "every_edition": {e.value for e in Edition} <= t.editions_won,
        "streak_5": t.best_streak >= STREAK,
        "catches_10": t.catches >= CATCHES,
        "stack_12": t.biggest_take >= STACK,
        "matches_50": t.matches >= MATCHES,
        "tournament_podium": t.podiums >= 1,
    }


def newly_earned(
    results: Sequence[tuple[str, bool]],
    rounds: Sequence[tuple[int, RoundRecord]],
    match_rounds: int,
) -> list[str]:
    """The achievements the newest match earned: earned with it, not without it. ``rounds``
    run newest first, the newest match's ``match_rounds`` rounds at their head."""
    counted = [round_tally(record, seat) for seat, record in rounds]
    after = earned(tally_of(results, counted))
    before = earned(tally_of(results[:-1], counted[match_rounds:]))
    return [key for key in ACHIEVEMENTS if after[key] and not before[key]]
