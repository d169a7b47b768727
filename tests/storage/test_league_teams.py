"""Team matches in the league: rated as a match between teams with openskill, every partner of
the winning team counted a win, and a team match of the printed rules still official."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from openskill.models import PlackettLuce

from bot.engine import Edition, Match, RuleSet
from bot.storage import MatchRecord, Storage
from bot.storage.rating import FRESH, rate_teams
from bot.tables.records import match_record
from bot.tables.table import Seat, Status, Table

from .helpers import make_match


def team_match(uid: str = "t1") -> MatchRecord:
    """Seats 0 and 2 (team 0) beat seats 1 and 3 (team 1); users 1..4 in seat order."""
    record = make_match(uid, [(1, 120), (2, 0), (3, 0), (4, 0)])
    places = [1, 2, 1, 2]
    players = [replace(p, place=places[p.seat]) for p in record.players]
    return replace(record, players=players, winners=[1, 3], teams=2)


async def test_a_team_match_is_rated_as_teams(storage: Storage) -> None:
    record = team_match()
    assert await storage.record_match(record)
    stats = [await storage.player_stats(1, u) for u in (1, 2, 3, 4)]
    assert all(stats)
    one, two, three, four = stats
    assert one and two and three and four
    assert one.wins == three.wins == 1 and two.wins == four.wins == 0
    # Partners move together; the openskill team update gives exactly these numbers.
    model = PlackettLuce()
    teams = [[model.rating(), model.rating()], [model.rating(), model.rating()]]
    [[a, c], [b, d]] = model.rate(teams, ranks=[1, 2])
    assert one.mu == pytest.approx(a.mu) and three.mu == pytest.approx(c.mu)
    assert two.mu == pytest.approx(b.mu) and four.mu == pytest.approx(d.mu)
    assert one.mu > 25 > two.mu


def test_rate_teams_groups_players_by_team() -> None:
    after = rate_teams([FRESH] * 4, [0, 1, 0, 1], [1.0, 2.0, 1.0, 2.0])
    assert after[0] == after[2] and after[1] == after[3] and after[0].mu > after[1].mu


def test_a_finished_team_match_gives_team_places_and_winners() -> None:
    rules = RuleSet(Edition.CLASSIC, target=None, teams=2)
    table = Table("t9", 1, 10, 1, rules, seats=[Seat(u, f"p{u}") for u in (1, 2, 3, 4)])
    table.match = Match(rules, 4, random.Random(4))
    table.status = Status.FINISHED
    game = table.match.game
    rng = random.Random(2)
    while not game.over:
        game.apply(rng.choice(game.legal_actions(game.current)))
    table.match.finish_round()
    record = match_record(table, 1_700_000_000.0)
    won = game.winner % 2
    places = {p.seat: p.place for p in record.players}
    assert record.teams == 2 and sorted(record.winners) == sorted((won + 1, won + 3))
    assert places[won] == places[won + 2] == 1 and places[1 - won] == places[3 - won] == 2
    assert record.official
