"""A finished match as the league records it: the one place results leave the table."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from bot.engine import ScoreView
from bot.storage import MatchPlayer, MatchRecord

from .table import Table


@dataclass(frozen=True, slots=True)
class FinishedRound:
    """A finished round of a table's match, as its recap needs it (taken under the lock)."""

    guild_id: int
    number: int
    record: str  # RoundRecord.to_text()
    names: tuple[str, ...]
    scores: ScoreView  # the scoreboard as it stood after that round


def finished_round(table: Table, number: int) -> FinishedRound | None:
    """Round ``number`` of the table's match once it is over and recorded, else None."""
    match = table.match
    if match is None or not 1 <= number <= len(match.records):
        return None
    text = match.records[number - 1]
    if not text:
        return None
    scores = match.score_view(table.names())
    if number < len(scores.rounds):  # an earlier round: the board as it stood then
        rounds = scores.rounds[:number]
        totals = tuple(map(sum, zip(*rounds, strict=True)))
        scores = dataclasses.replace(
            scores,
            rounds=rounds,
            totals=totals,
            round_winners=scores.round_winners[:number],
            winners=(),
            team_totals=(),
            winner_teams=(),
        )
    return FinishedRound(table.guild_id, number, text, tuple(table.names()), scores)


def team_places(table: Table) -> dict[int, int]:
    """Each seat's place in a team match: its team's (the winners first, then teams with
    somebody still in, by total; ties share one)."""
    match = table.match
    assert match is not None
    teams = match.teams
    totals = match.team_totals()
    won = set(match.winner_teams())
    alive = match.alive_teams()
    lowest = table.rules.scoring.value == "lowest"

    def key(team: int) -> tuple[bool, bool, int]:
        return (team not in won, team not in alive, totals[team] if lowest else -totals[team])

    order = sorted(range(teams), key=key)
    place: dict[int, int] = {}
    for rank, team in enumerate(order, start=1):
        same = rank > 1 and key(order[rank - 2]) == key(team)
        place[team] = place[order[rank - 2]] if same else rank
    return {seat: place[seat % teams] for seat in range(len(table.seats))}


def match_record(table: Table, finished_at: float) -> MatchRecord:
    """Places (ties share one), points, rounds and events of the table's finished match."""
    match = table.match
    assert match is not None
    totals = match.totals
    lowest = table.rules.scoring.value == "lowest"
    order = sorted(
        range(len(table.seats)),
        key=lambda s: (
            s not in match.winners,
            not match.active[s],
            totals[s] if lowest else -totals[s],
        ),
    )
    places: dict[int, int] = {}
    previous: tuple[bool, bool, int] | None = None
    for rank, seat in enumerate(order, start=1):
        key = (seat not in match.winners, not match.active[seat], totals[seat])
        places[seat] = places[order[rank - 2]] if key == previous else rank
        previous = key
    if match.teams:
        places = team_places(table)
    events = [*match.dealer_events, *match.game.events]
    return MatchRecord(
        match_uid=table.table_id,
        guild_id=table.guild_id,
        channel_id=table.game_channel_id,
        edition=table.rules.edition.value,
        scoring=table.rules.scoring.value,
        target=table.rules.target,
        started_at=table.started_at or table.created_at,
        finished_at=finished_at,
        rounds=[list(r) for r in match.rounds],
        events=events,
        players=[
            MatchPlayer(
                user_id=seat.user_id,
                name=seat.name,
                seat=index,
                points=totals[index],
                place=places[index],
                computer=seat.computer is not None,
            )
            for index, seat in enumerate(table.seats)
        ],
        winners=[table.seats[s].user_id for s in match.winners],
        round_winners=list(match.round_winners),
        teams=match.teams,
        house_rules=table.rules.house.to_dict(),  # only the options that differ: {} is official
        round_records=list(match.records),
        tournament_id=table.tournament_id,
    )
