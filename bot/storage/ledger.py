"""What recording a match writes, worked out without a database (the same for both backends).

A backend locks the server's league, reads the context and the players' current ratings, asks
plan_match for the rows, and writes them in the same transaction.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from . import rating
from .models import ALL_TIME, EDITIONS, HouseRules, MatchPlayer, MatchRecord

# (season, official_only, user_id): the key of a standings row within one server.
StandingKey = tuple[int, bool, int]
SeatRow = tuple[int, int, str, int, int, bool, bool, float | None, float | None, int | None]
StandingRow = tuple[
    int, int, bool, int, int, int, int, int, int, int, int, float, float, float, int, int, int
]


@dataclass(frozen=True, slots=True)
class LeagueContext:
    """What the server's league says before the match is counted."""

    season: int  # the season the match counts toward
    computers_rated: bool
    rate_house_rules: bool
    # Official-only standings have rows of their own (the server has house-ruled matches).
    split: bool


@dataclass(frozen=True, slots=True)
class MatchWrites:
    """The rows a recorded match adds or changes."""

    # (seat, user, name, points, place, computer, winner, before, after, team or None)
    seats: list[SeatRow]
    # (guild, season, official_only, user, won, points, rounds_won, best_round, matches per
    # edition..., mu, sigma, ordinal, rated, team match, team win): added to a player's row of
    # that scope.
    standings: list[StandingRow]
    names: list[tuple[int, int, str]]  # (guild, user, latest name)
    # (guild, season, official_only, players): players new to a scope's standings, added to
    # its count (a leaderboard's total is then one lookup, not a count of its rows).
    newcomers: list[tuple[int, int, bool, int]]


def validate_match(record: MatchRecord) -> None:
    """Reject malformed records before they reach the database (programming errors)."""
    if not record.players:
        raise ValueError("a match needs players")
    if record.edition not in EDITIONS:
        raise ValueError(f"unknown edition {record.edition!r}")
    if record.scoring not in ("standard", "lowest"):
        raise ValueError(f"unknown scoring {record.scoring!r}")
    seats = [p.seat for p in record.players]
    users = [p.user_id for p in record.players]
    if len(set(seats)) != len(seats) or len(set(users)) != len(users):
        raise ValueError("seats and user ids must be unique within a match")
    width = max(seats) + 1
    if any(len(points) < width for points in record.rounds):
        raise ValueError("every round needs points for every seat")
    if not set(record.winners) <= set(users):
        raise ValueError("winners must be players of the match")
    if record.round_winners is not None and len(record.round_winners) != len(record.rounds):
        raise ValueError("round_winners needs one entry per round")
    if record.teams not in (0, 2, 3, 4, 5):
        raise ValueError(f"unknown team count {record.teams!r}")
    house_rules_json(record.house_rules)


def house_rules_json(rules: HouseRules) -> str:
    """House-rule options as stored: a JSON object with sorted keys ({} = official)."""
    if isinstance(rules, dict) and not rules:
        return "{}"
    if not isinstance(rules, Mapping):
        raise ValueError("house rules must map option names to values")
    for name, value in rules.items():
        if not isinstance(name, str) or not name:
            raise ValueError(f"a house-rule option needs a name, not {name!r}")
        if not isinstance(value, bool | int | str):
            raise ValueError(f"house rule {name!r} must be true/false, a number or a word")
    return json.dumps(dict(rules), sort_keys=True, separators=(",", ":"))


def house_rules_from(text: str) -> dict[str, object]:
    """Stored house-rule options back as a dict."""
    if text == "{}":  # the official rules: most matches, no parsing needed
        return {}
    rules: object = json.loads(text)
    if not isinstance(rules, dict):
        raise ValueError("stored house rules are not a JSON object")
    return rules


def round_winners(record: MatchRecord) -> list[int | None]:
    """Who went out each round: as given, else the sole top scorer (standard) or lowest."""
    if record.round_winners is not None:
        return list(record.round_winners)
    winners: list[int | None] = []
    for points in record.rounds:
        if not points:
            winners.append(None)
            continue
        best = max(points) if record.scoring == "standard" else min(points)
        seats = [seat for seat, value in enumerate(points) if value == best]
        decisive = len(seats) == 1 and (record.scoring != "standard" or best > 0)
        winners.append(seats[0] if decisive else None)
    return winners


def ranked_players(record: MatchRecord, computers_rated: bool) -> list[MatchPlayer]:
    """The seats that get standings: people, and computers if the server rates them."""
    return [p for p in record.players if computers_rated or not p.computer]


def scopes(record: MatchRecord, context: LeagueContext) -> list[tuple[int, bool]]:
    """The (season, official_only) standings a match counts toward."""
    found = [(context.season, False), (ALL_TIME, False)]
    if record.official and context.split:
        found += [(context.season, True), (ALL_TIME, True)]
    return found


def plan_match(
    record: MatchRecord,
    context: LeagueContext,
    current: Mapping[StandingKey, rating.Skill],
    went_out: list[int | None] | None = None,
) -> MatchWrites:
    """The seat rows, standings changes and names of a match.

    current holds the rating of every standings row the players already have in the match's
    scopes (a row missing from it is a newcomer's); went_out is round_winners(record), if the
    caller has it already.

    Ratings move in official-rules standings for official matches only. The ordinary standings
    follow the same ratings unless the server also rates house-ruled matches.
    """
    guild = record.guild_id
    ranked = ranked_players(record, context.computers_rated)
    ranks = [float(p.place) for p in ranked]
    # The side each ranked player is rated with: their team, or themselves.
    sides = [p.seat % record.teams if record.teams else i for i, p in enumerate(ranked)]
    counted = scopes(record, context)
    rateable = record.official or context.rate_house_rules
    # Scopes holding the same ratings get the same update, computed once (in a server's first
    # season every scope holds the same numbers, and the update is a third of the cost).
    updated: dict[tuple[rating.Skill, ...], list[rating.Skill]] = {}
    after: dict[StandingKey, rating.Skill] = {}
    rated_in: dict[tuple[int, bool], bool] = {}
    for season, official_only in counted:
        before = tuple(
            current.get((season, official_only, p.user_id), rating.FRESH) for p in ranked
        )
        rated = len(set(sides)) >= 2 and (official_only or rateable)
        rated_in[season, official_only] = rated
        if rated and before not in updated and record.teams:
            updated[before] = rating.rate_teams(before, sides, ranks)
        elif rated and before not in updated:
            updated[before] = rating.rate(before, ranks)
        new = updated[before] if rated else before
        for player, value in zip(ranked, new, strict=True):
            after[season, official_only, player.user_id] = value

    winners = set(record.winners)
    if went_out is None:
        went_out = round_winners(record)
    standard = record.scoring == "standard"
    classic, sonic, mario = (int(edition == record.edition) for edition in EDITIONS)
    in_team = int(record.teams > 0)
    ranked_ids = {p.user_id for p in ranked}
    seats: list[SeatRow] = []
    standings: list[StandingRow] = []
    for p in record.players:
        won = p.user_id in winners
        seat_before: float | None = None
        seat_after: float | None = None
        if p.user_id in ranked_ids and rateable:
            key = (context.season, False, p.user_id)
            seat_before = current.get(key, rating.FRESH).ordinal
            seat_after = after[key].ordinal
        team = p.seat % record.teams if record.teams else None
        seats.append(
            (p.seat, p.user_id, p.name, p.points, p.place, p.computer, won, seat_before,
             seat_after, team)
        )  # fmt: skip
        if p.user_id not in ranked_ids:
            continue
        rounds_won = sum(1 for seat in went_out if seat == p.seat)
        best_round = max((points[p.seat] for points in record.rounds), default=0)
        best_round = max(best_round, 0) if standard else 0
        for season, official_only in counted:
            mu, sigma, ordinal = after[season, official_only, p.user_id]
            standings.append(
                (guild, season, official_only, p.user_id, int(won), p.points, rounds_won,
                 best_round, classic, sonic, mario, mu, sigma, ordinal,
                 int(rated_in[season, official_only]), in_team, int(won) * in_team)
            )  # fmt: skip
    newcomers: list[tuple[int, int, bool, int]] = []
    for season, official_only in counted:
        joined = sum(1 for p in ranked if (season, official_only, p.user_id) not in current)
        if joined:
            newcomers.append((guild, season, official_only, joined))
    return MatchWrites(
        seats=seats,
        standings=standings,
        names=[(guild, p.user_id, p.name) for p in record.players],
        newcomers=newcomers,
    )
