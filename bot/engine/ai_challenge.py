"""Whether to challenge a Wild Draw Four: a judgment from the cards and from the player.

Two things make a Wild Draw Four illegal: the culprit held a card of the color in force, and
chose to play the Draw Four anyway. The cards give ``q``, the chance that the hand held that
color (``ai_memory.illegal_chance``: the unseen cards, the colors it drew on, what a challenge
showed). The player gives ``b``, how often it bluffs when it could: unknown, so it is weighed
over a grid of values with a prior that most players never bluff, and updated by what the table
saw of this player's Wild Draw Fours (this round's, and earlier rounds' through a
``ChallengeRecord``). Then

    P(illegal) = sum over b of  w(b) * q*b / (q*b + 1 - q)

since a player without the color plays the card whenever it likes to, one with the color only
when it bluffs. The challenge is made only when the cards it is expected to gain beat the two
cards it risks: the penalty dodged, the penalty moved to the culprit (worth less with more
players), and the turn kept, against two extra cards when the card was legal.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from .ai_memory import BLUFF, HONEST, UNSHOWN

# How often a player bluffs when it could: the grid, and the prior weight of "never".
BLUFF_RATES: tuple[float, ...] = tuple(i / 10 for i in range(11))
NEVER_BLUFFS = 0.6
# The chance of a held color behind a Wild Draw Four seen earlier (its hand size is not kept).
PAST_HELD = 0.75
# The chance that a bluff nobody challenged shows itself later (the culprit plays the color
# before drawing): an unchallenged Wild Draw Four that never did so hints at honesty.
SHOWS_LATER = 0.5
RISK = 2.0  # the extra cards a lost challenge draws
TURN_VALUE = 1.0  # keeping the turn after a won challenge, in cards


def _illegal_given(q: float, b: float) -> float:
    """P(illegal | the card was played) for hand chance ``q`` and bluff rate ``b``."""
    held = q * b
    total = held + (1.0 - q)
    return held / total if total > 0 else 0.0


def bluff_weights(reads: Iterable[int]) -> list[float]:
    """The weights of ``BLUFF_RATES`` after this player's Wild Draw Fours seen so far."""
    rest = (1.0 - NEVER_BLUFFS) / (len(BLUFF_RATES) - 1)
    weights = [NEVER_BLUFFS if b == 0 else rest for b in BLUFF_RATES]
    for read in reads:
        for i, b in enumerate(BLUFF_RATES):
            bluff = _illegal_given(PAST_HELD, b)
            if read == BLUFF:
                weights[i] *= bluff
            elif read == HONEST:
                weights[i] *= 1.0 - bluff
            elif read == UNSHOWN:
                weights[i] *= 1.0 - SHOWS_LATER * bluff
        total = sum(weights)
        weights = [w / total for w in weights] if total > 0 else weights
    return weights


def illegal_belief(q: float, reads: Sequence[int]) -> float:
    """P(illegal) of a Wild Draw Four from a hand that holds the color with chance ``q``."""
    if q >= 1.0:
        return 1.0
    weights = bluff_weights(reads)
    return sum(w * _illegal_given(q, b) for w, b in zip(weights, BLUFF_RATES, strict=True))


def worth_challenging(p: float, penalty: int, players: int) -> bool:
    """Do the cards a challenge is expected to gain beat the two it risks?"""
    moved = penalty / max(players - 1, 1)  # the culprit's extra cards help against one of them
    gain = penalty + moved + TURN_VALUE
    return p * gain > (1.0 - p) * RISK


class ChallengeRecord:
    """What a seat saw of each player's Wild Draw Fours in earlier rounds of a match.

    Keyed by seat (the seat a player keeps for the match); ``add_round`` after each round.
    """

    __slots__ = ("reads",)

    def __init__(self, reads: Mapping[int, Sequence[int]] | None = None) -> None:
        self.reads: dict[int, list[int]] = {s: list(r) for s, r in (reads or {}).items()}

    def add(self, reads: Mapping[int, Sequence[int]]) -> None:
        """Add one round's reads (``Knowledge.wd4_reads`` of the finished round)."""
        for seat, seen in reads.items():
            self.reads.setdefault(seat, []).extend(seen)

    def of(self, seat: int) -> list[int]:
        return self.reads.get(seat, [])
