"""Database rows into typed records, the column lists both backends select in that order, and
the values (and a statement) both backends write."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import asdict
from typing import Any, Protocol, cast

from .ledger import house_rules_from, house_rules_json
from .models import (
    ALL_TIME,
    EDITIONS,
    FORMER_PLAYER_NAME,
    Edition,
    GuildSettings,
    LeaderboardRow,
    MatchDetail,
    MatchSummary,
    PlayerResult,
    PlayerStats,
    RoundSummary,
    ScoringName,
    Season,
    TournamentMatch,
    TournamentRecord,
)
from .rating import display_rating


class Row(Protocol):
    """A sqlite3 tuple or an asyncpg Record: both index, slice and unpack by position."""

    def __getitem__(self, index: Any, /) -> Any: ...
    def __iter__(self) -> Iterator[Any]: ...
    def __len__(self) -> int: ...


TOURNAMENT_COLUMNS = (
    "tournament_id, guild_id, channel_id, kind, state, version, opened_at, finished_at"
)


def tournament_upsert(marks: str) -> str:
    """Insert a tournament, or replace an older version of it (``marks``: the backend's eight
    placeholders for ``tournament_params``); nothing changes when the stored one is as new."""
    return f"""
INSERT INTO tournaments ({TOURNAMENT_COLUMNS}) VALUES ({marks})
ON CONFLICT (tournament_id) DO UPDATE SET
    channel_id = excluded.channel_id, state = excluded.state, version = excluded.version,
    finished_at = excluded.finished_at
WHERE excluded.version > tournaments.version
"""


def tournament_params(r: TournamentRecord) -> tuple[Any, ...]:
    """A tournament's values in TOURNAMENT_COLUMNS order."""
    return (
        *(r.tournament_id, r.guild_id, r.channel_id, r.kind),
        *(r.state, r.version, r.opened_at, r.finished_at),
    )


# A tournament's matches, one row per seat: by number, then by place (ties in seat order).
TOURNAMENT_MATCH_COLUMNS = "m.number, m.match_uid, p.user_id"


def tournament_from(row: Row) -> TournamentRecord:
    """A tournaments row (TOURNAMENT_COLUMNS)."""
    uid, guild, channel, kind, state, version, opened, finished = row
    return TournamentRecord(
        str(uid), int(guild), int(channel), str(kind), str(state), int(version), opened, finished
    )


def tournament_forgetting(state: str, user_id: int) -> str | None:
    """A stored tournament's state with this member's entrant name replaced by the former
    player's (their id stays: the standings and placings are keyed by it); None when the
    member is not named in it."""
    data: dict[str, Any] = json.loads(state)
    named = [e for e in data.get("entrants", []) if e[0] == user_id and e[1] != FORMER_PLAYER_NAME]
    for entrant in named:
        entrant[1] = FORMER_PLAYER_NAME
    return json.dumps(data, separators=(",", ":")) if named else None


def tournament_state(row: TournamentRecord) -> dict[str, Any]:
    """A stored tournament's record as its layer saved it (``finished`` from the row)."""
    state: dict[str, Any] = json.loads(row.state)
    state["finished"] = row.finished_at is not None
    state["finished_at"] = row.finished_at
    return state


def tournament_matches_from(rows: Iterable[Row]) -> list[TournamentMatch]:
    """TOURNAMENT_MATCH_COLUMNS rows into one TournamentMatch per match, in their order."""
    found: dict[int, TournamentMatch] = {}
    for number, uid, user_id in rows:
        match = found.setdefault(int(number), TournamentMatch(int(number), str(uid), []))
        match.placings.append(int(user_id))
    return list(found.values())


# Each sort walks its own index, so a page never sorts a whole server.
LEADERBOARD_ORDER: dict[str, str] = {
    "rating": "s.ordinal DESC, s.user_id",
    "wins": "s.wins DESC, s.ordinal DESC, s.user_id",
    "points": "s.points DESC, s.ordinal DESC, s.user_id",
}

SETTINGS_COLUMNS = (
    "edition, scoring, target, turn_seconds, timeout_action, timeouts_before_removal, "
    "lobby_minutes, computers_allowed, computer_level, computers_rated, rate_house_rules, "
    "house_rules, language, tournaments_open"
)
RESULT_COLUMNS = (
    "seat, user_id, name, points, place, computer, winner, rating_before, rating_after, team"
)
DETAIL_COLUMNS = (
    "number, match_uid, guild_id, channel_id, season, edition, scoring, target, started_at, "
    "finished_at, rounds, round_winners, events, house_rules, teams, tournament_id"
)
BOARD_COLUMNS = "s.user_id, COALESCE(n.name, ''), s.matches, s.wins, s.points, s.ordinal, s.rated"
STATS_COLUMNS = (
    "s.matches, s.wins, s.points, s.rounds_won, s.best_round, s.mu, s.sigma, s.ordinal, "
    "COALESCE(n.name, ''), s.matches_classic, s.matches_sonic, s.matches_mario, s.rated, "
    "s.team_matches, s.team_wins"
)
EXPORT_STANDING_COLUMNS = (
    "s.season, s.official_only, s.user_id, COALESCE(n.name, ''), s.matches, s.wins, s.points, "
    "s.rounds_won, s.best_round, s.matches_classic, s.matches_sonic, s.matches_mario, s.mu, "
    "s.sigma, s.ordinal, s.rated, s.team_matches, s.team_wins"
)
EXPORT_MATCH_COLUMNS = (
    "match_id, number, match_uid, season, channel_id, edition, scoring, target, started_at, "
    "finished_at, rounds, round_winners, events, house_rules, teams, tournament_id"
)
_EXPORT_STANDING_KEYS = (
    "season",
    "official_only",
    "user_id",
    "name",
    "matches",
    "wins",
    "points",
    "rounds_won",
    "best_round",
    *(f"matches_{edition}" for edition in EDITIONS),
    "mu",
    "sigma",
    "rating",
    "rated_matches",
    "team_matches",
    "team_wins",
)


def scope(season: int | None) -> int:
    """The standings season key: the season number, or ALL_TIME for None."""
    if season is None:
        return ALL_TIME
    if season < 1:
        raise ValueError("seasons are numbered from 1; use None for all time")
    return season


def check_page(sort: str, offset: int, limit: int) -> str:
    """The ORDER BY of a leaderboard sort; ValueError for a bad sort or page."""
    order = LEADERBOARD_ORDER.get(sort)
    if order is None:
        raise ValueError(f"unknown leaderboard sort {sort!r}")
    if offset < 0 or limit < 1:
        raise ValueError("offset must be >= 0 and limit >= 1")
    return order


def settings_params(s: GuildSettings) -> tuple[Any, ...]:
    """A GuildSettings as the guild_settings row (guild_id first, SETTINGS_COLUMNS after)."""
    return (
        s.guild_id,
        s.edition,
        s.scoring,
        s.target,
        s.turn_seconds,
        s.timeout_action,
        s.timeouts_before_removal,
        s.lobby_minutes,
        bool(s.computers_allowed),
        s.computer_level,
        bool(s.computers_rated),
        bool(s.rate_house_rules),
        house_rules_json(s.house_rules),
        s.language,
        bool(s.tournaments_open),
    )


def settings_from(guild_id: int, row: Row | None) -> GuildSettings:
    """A guild_settings row (SETTINGS_COLUMNS), or the defaults when there is none."""
    if row is None:
        return GuildSettings(guild_id)
    return GuildSettings(
        guild_id=guild_id,
        edition=row[0],
        scoring=row[1],
        target=row[2],
        turn_seconds=row[3],
        timeout_action=row[4],
        timeouts_before_removal=row[5],
        lobby_minutes=row[6],
        computers_allowed=bool(row[7]),
        computer_level=row[8],
        computers_rated=bool(row[9]),
        rate_house_rules=bool(row[10]),
        house_rules=house_rules_from(row[11]),
        language=row[12],
        tournaments_open=bool(row[13]),
    )


def season_from(guild_id: int, row: Row | None) -> Season:
    """A seasons row (season, name, started_at, ended_at); None is the implicit season 1."""
    if row is None:
        return Season(guild_id, 1, None, None, None)
    return Season(guild_id, int(row[0]), row[1], row[2], row[3])


def result_from(row: Row) -> PlayerResult:
    """A match_players row in RESULT_COLUMNS order."""
    return PlayerResult(
        user_id=row[1],
        name=row[2],
        seat=row[0],
        points=row[3],
        place=row[4],
        computer=bool(row[5]),
        winner=bool(row[6]),
        rating_before=row[7],
        rating_after=row[8],
        team=row[9],
    )


def board_row(rank: int, row: Row) -> LeaderboardRow:
    """A leaderboard line from BOARD_COLUMNS (and anything after them)."""
    user_id, name, matches, wins, points, ordinal, rated = row[:7]
    win_rate = wins / matches if matches else 0.0
    return LeaderboardRow(rank, user_id, name, matches, wins, win_rate, points, ordinal, rated)


def stats_from(
    guild_id: int, user_id: int, season: int | None, official_only: bool, row: Row, ahead: int
) -> PlayerStats:
    """A player's standing from STATS_COLUMNS and the number of players ranked above."""
    matches, wins, points, rounds_won, best_round, mu, sigma, ordinal, name = row[:9]
    rated = row[12]
    return PlayerStats(
        guild_id=guild_id,
        user_id=user_id,
        name=name,
        season=season,
        rank=ahead + 1,
        matches=matches,
        wins=wins,
        win_rate=wins / matches if matches else 0.0,
        points=points,
        rounds_won=rounds_won,
        best_round=best_round,
        rating=ordinal,
        mu=mu,
        sigma=sigma,
        favourite_edition=favourite((row[9], row[10], row[11])),
        rated_matches=rated,
        official_only=official_only,
        team_matches=row[13],
        team_wins=row[14],
    )


def favourite(counts: tuple[int, int, int]) -> Edition | None:
    """The edition with the most matches (earlier in EDITIONS on a tie), None if none."""
    best = max(counts, default=0)
    if best <= 0:
        return None
    return EDITIONS[counts.index(best)]


def summary_from(row: Row, seats: list[PlayerResult]) -> MatchSummary:
    """A history line: (number, season, edition, scoring, started, finished, rounds, rules,
    teams, tournament)."""
    number, season, edition, scoring, started, finished, rounds, rules, teams, tournament = row
    return MatchSummary(
        number=number,
        season=season,
        edition=edition,
        scoring=scoring,
        finished_at=finished,
        duration=finished - started,
        rounds=rounds,
        players=len(seats),
        winners=[p for p in seats if p.winner],
        house_rules=house_rules_from(rules),
        teams=teams,
        tournament_id=tournament,
    )


def detail_from(row: Row, players: list[PlayerResult]) -> MatchDetail:
    """A match in DETAIL_COLUMNS order with its seats."""
    (number, uid, guild, channel, season, edition, scoring, target, started, finished) = row[:10]
    rounds: list[list[int]] = json.loads(row[10])
    went_out: list[int | None] = json.loads(row[11])
    totals = [0] * max((len(points) for points in rounds), default=0)
    summaries = []
    for index, points in enumerate(rounds):
        totals = [total + value for total, value in zip(totals, points, strict=False)]
        winner = went_out[index] if index < len(went_out) else None
        summaries.append(RoundSummary(index + 1, list(points), list(totals), winner))
    return MatchDetail(
        number=number,
        match_uid=uid,
        guild_id=guild,
        channel_id=channel,
        season=season,
        edition=cast(Edition, edition),
        scoring=cast(ScoringName, scoring),
        target=target,
        started_at=started,
        finished_at=finished,
        players=players,
        rounds=summaries,
        events=json.loads(row[12]),
        house_rules=house_rules_from(row[13]),
        teams=row[14],
        tournament_id=row[15],
    )


def export_document(
    guild_id: int,
    now: float,
    settings: GuildSettings,
    seasons: list[Row],
    names: list[Row],
    standings: list[Row],
    matches: list[Row],
    seats: list[Row],
    tournaments: list[Row],
) -> dict[str, Any]:
    """Everything of one server as JSON-ready data, from rows read in one snapshot.

    Matches are EXPORT_MATCH_COLUMNS rows; seats are (match_id, RESULT_COLUMNS...) rows. The
    internal match_id only joins them: the document numbers matches as the server does.
    Tournaments are TOURNAMENT_COLUMNS rows, given as their layer saved them.
    """
    by_match: dict[int, list[dict[str, Any]]] = {}
    for seat in seats:
        by_match.setdefault(seat[0], []).append(asdict(result_from(seat[1:])))
    documents = []
    for match in matches:
        documents.append(
            {
                "match_id": match[1],
                "match_uid": match[2],
                "season": match[3],
                "channel_id": match[4],
                "edition": match[5],
                "scoring": match[6],
                "target": match[7],
                "started_at": match[8],
                "finished_at": match[9],
                "rounds": json.loads(match[10]),
                "round_winners": json.loads(match[11]),
                "events": json.loads(match[12]),
                "house_rules": house_rules_from(match[13]),
                "teams": match[14],
                "tournament_id": match[15],  # null: an ordinary match
                "players": by_match.get(match[0], []),
            }
        )
    standing_documents = []
    for row in standings:
        document = dict(zip(_EXPORT_STANDING_KEYS, row, strict=True))
        document["official_only"] = bool(document["official_only"])
        document["display_rating"] = display_rating(document["rating"])
        standing_documents.append(document)
    return {
        "guild_id": guild_id,
        "exported_at": now,
        "settings": asdict(settings),
        "seasons": [asdict(season_from(guild_id, s)) for s in seasons]
        or [asdict(season_from(guild_id, None))],
        "players": [{"user_id": row[0], "name": row[1]} for row in names],
        "standings": standing_documents,
        "matches": documents,
        "tournaments": [tournament_state(tournament_from(row)) for row in tournaments],
    }
