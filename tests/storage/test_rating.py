"""The rating math and the match ledger, without a database."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from openskill.models import PlackettLuce

from bot.storage import rating
from bot.storage.ledger import LeagueContext, plan_match, scopes
from bot.storage.models import ALL_TIME

from .helpers import make_match


def test_ratings_come_from_openskill() -> None:
    model = PlackettLuce()
    a, b = model.rating(), model.rating(mu=30.0, sigma=4.0)
    [[want_a], [want_b]] = model.rate([[a], [b]], ranks=[2, 1])
    got = rating.rate([rating.skill(a.mu, a.sigma), rating.skill(b.mu, b.sigma)], [2.0, 1.0])
    assert got == [
        rating.Skill(want_a.mu, want_a.sigma, want_a.ordinal()),
        rating.Skill(want_b.mu, want_b.sigma, want_b.ordinal()),
    ]
    assert rating.skill(model.mu, model.sigma) == rating.FRESH


def test_the_display_rating_is_openskills_ordinal_rescaled() -> None:
    rng = random.Random(3)
    model = PlackettLuce()
    for _ in range(200):
        mu, sigma = rng.uniform(-5, 60), rng.uniform(0.5, 25 / 3)
        ordinal = model.rating(mu, sigma).ordinal()
        scaled = model.rating(mu, sigma).ordinal(
            rating.ORDINAL_Z, rating.DISPLAY_ALPHA, rating.DISPLAY_TARGET
        )
        assert rating.display_rating(ordinal) == round(scaled)
    assert rating.display_rating(rating.FRESH.ordinal) == 1000


def test_display_ratings_stay_positive_for_the_worst_record() -> None:
    skills = [rating.FRESH, rating.FRESH]
    for _ in range(200):  # the same player loses every match
        skills = rating.rate(skills, [2.0, 1.0])
        skills[1] = rating.FRESH
    loser = skills[0]
    assert loser.ordinal < 0 < rating.display_rating(loser.ordinal)


@pytest.mark.parametrize(("matches", "provisional"), [(0, True), (4, True), (5, False)])
def test_provisional_until_enough_matches(matches: int, provisional: bool) -> None:
    assert rating.provisional(matches) is provisional


def test_scopes_of_a_match() -> None:
    official = make_match("m", [(1, 100), (2, 0)])
    house = replace(make_match("h", [(1, 100), (2, 0)]), house_rules={"jump_in": True})
    plain = LeagueContext(season=3, computers_rated=False, rate_house_rules=False, split=False)
    split = LeagueContext(season=3, computers_rated=False, rate_house_rules=False, split=True)
    assert scopes(official, plain) == [(3, False), (ALL_TIME, False)]
    assert scopes(official, split) == [(3, False), (ALL_TIME, False), (3, True), (ALL_TIME, True)]
    assert scopes(house, split) == [(3, False), (ALL_TIME, False)]


def test_a_plan_rates_each_scope_from_its_own_ratings() -> None:
    record = make_match("m", [(1, 100), (2, 0)])
    context = LeagueContext(season=2, computers_rated=False, rate_house_rules=False, split=True)
    strong = rating.skill(35.0, 3.0)
    current = {(ALL_TIME, False, 1): strong, (ALL_TIME, True, 1): strong}
    writes = plan_match(record, context, current)
    by_scope = {(row[1], row[2], row[3]): row for row in writes.standings}
    assert len(writes.standings) == 8
    expected = rating.rate([strong, rating.FRESH], [1.0, 2.0])
    assert by_scope[ALL_TIME, False, 1][11:14] == tuple(expected[0])
    fresh = rating.rate([rating.FRESH, rating.FRESH], [1.0, 2.0])
    assert by_scope[2, True, 1][11:14] == tuple(fresh[0])
    assert all(row[14] == 1 for row in writes.standings)  # every scope was rated
    assert [seat[7:9] for seat in writes.seats] == [
        (rating.FRESH.ordinal, fresh[0].ordinal),
        (rating.FRESH.ordinal, fresh[1].ordinal),
    ]
