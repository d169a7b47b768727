"""League rating math, pure: openskill's Plackett-Luce update, its ordinal and the shown scale.

Every player has a skill estimate mu and an uncertainty sigma (a new player: 25 and 25/3).
A match updates them from the finishing order. Leaderboards sort by openskill's *ordinal*,
mu - 3 sigma, a rating the player is very likely to be at least as good as; it starts at 0
and is negative for a new player who loses.

People see the **display rating**, the ordinal rescaled with openskill's own ``alpha`` and
``target``::

    display = round(DISPLAY_TARGET + DISPLAY_ALPHA * (mu - 3 * sigma))
            = round(1000 + 20 * ordinal)

A new player shows 1000. The ordinal cannot go much below -25 (mu stays above 0 in practice,
sigma never exceeds 25/3), so the display rating stays above 500: never negative. Winning
raises mu, and every rated match lowers sigma, so a regular player climbs above 1000 as the
estimate firms up. Until a player has PROVISIONAL_MATCHES rated matches the rating is
*provisional*: it moves a lot and says little yet.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from openskill.models import PlackettLuce

MODEL = PlackettLuce()

ORDINAL_Z = 3.0  # the ordinal's sigmas below mu (openskill's default)
DISPLAY_ALPHA = 20.0  # display points per point of ordinal
DISPLAY_TARGET = 1000.0  # a new player's display rating
PROVISIONAL_MATCHES = 5  # rated matches before a rating stops being provisional


class Skill(NamedTuple):
    """A player's rating: openskill's mu and sigma, and the ordinal it gave for them."""

    mu: float
    sigma: float
    ordinal: float


def skill(mu: float, sigma: float) -> Skill:
    """The Skill of (mu, sigma), its ordinal computed by openskill."""
    return Skill(mu, sigma, float(MODEL.rating(mu, sigma).ordinal(ORDINAL_Z)))


FRESH = skill(MODEL.mu, MODEL.sigma)  # a new player's rating


def rate(skills: Sequence[Skill], ranks: Sequence[float]) -> list[Skill]:
    """Plackett-Luce update of one player per team from the finishing order (ties share)."""
    teams = [[MODEL.rating(s.mu, s.sigma)] for s in skills]
    rated = MODEL.rate(teams, ranks=list(ranks))
    return [Skill(t[0].mu, t[0].sigma, float(t[0].ordinal(ORDINAL_Z))) for t in rated]


def rate_teams(
    skills: Sequence[Skill], teams: Sequence[int], ranks: Sequence[float]
) -> list[Skill]:
    """Plackett-Luce update of a match between teams: ``teams[i]`` is player i's team and
    ``ranks[i]`` its team's place; each player's rating moves with the team's result."""
    order = sorted(set(teams))
    members = [[i for i, t in enumerate(teams) if t == team] for team in order]
    rated = MODEL.rate(
        [[MODEL.rating(skills[i].mu, skills[i].sigma) for i in group] for group in members],
        ranks=[min(ranks[i] for i in group) for group in members],
    )
    out = list(skills)
    for group, ratings in zip(members, rated, strict=True):
        for i, r in zip(group, ratings, strict=True):
            out[i] = Skill(r.mu, r.sigma, float(r.ordinal(ORDINAL_Z)))
    return out


def display_rating(ordinal: float) -> int:
    """The rating people see for an openskill ordinal: round(1000 + 20 * ordinal).

    This is openskill's ``rating.ordinal(z=3, alpha=DISPLAY_ALPHA, target=DISPLAY_TARGET)``
    (alpha * ordinal + target); it is applied to the stored ordinal because building an
    openskill rating object for every line of a leaderboard would cost more than the query.
    """
    return round(DISPLAY_TARGET + DISPLAY_ALPHA * ordinal)


def provisional(rated_matches: int) -> bool:
    """True while a player has too few rated matches for the rating to settle."""
    return rated_matches < PROVISIONAL_MATCHES
