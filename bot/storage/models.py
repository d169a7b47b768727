"""Typed records the storage layer takes and returns; no SQL and no driver types here."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from .rating import display_rating, provisional

Edition = Literal["classic", "sonic", "mario"]
ScoringName = Literal["standard", "lowest"]
LeaderboardSort = Literal["rating", "wins", "points"]

EDITIONS: tuple[Edition, ...] = ("classic", "sonic", "mario")
ALL_TIME = 0  # the season number under which all-time standings are kept
FORMER_PLAYER_ID = 0
FORMER_PLAYER_NAME = "Former player"

# House-rule option name -> value (true/false, a whole number or a word) for the options that
# differ from the printed rules; empty means the official rules. Storage returns plain dicts.
HouseRules = Mapping[str, object]


@dataclass(frozen=True, slots=True)
class TableRecord:
    """A live table as the table layer serialised it; the version only goes up."""

    table_id: str
    guild_id: int
    channel_id: int
    version: int
    state: str  # JSON text owned by the table layer
    updated_at: float


@dataclass(frozen=True, slots=True)
class MatchPlayer:
    """One seat of a finished match."""

    user_id: int
    name: str
    seat: int
    points: int  # final total
    place: int  # 1 = winner; ties share a place
    computer: bool = False


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A finished match as the table layer hands it over; match_uid makes recording idempotent."""

    match_uid: str
    guild_id: int
    channel_id: int
    edition: Edition
    scoring: ScoringName
    target: int | None
    started_at: float
    finished_at: float
    rounds: list[list[int]]  # per round, per seat: points added that round
    events: list[dict[str, Any]]
    players: list[MatchPlayer]
    winners: list[int]  # user ids
    # Per round, the seat that went out (None: nobody); derived from the points when omitted.
    round_winners: list[int | None] | None = None
    # The house-rule options the match was played with; empty means the official rules.
    house_rules: HouseRules = field(default_factory=dict)
    # Teams (seat s on team s mod teams; 0: none): a team match is rated as teams.
    teams: int = 0
    # Per round, its record as the engine replays it (bot/engine/record.py); "" for a round
    # that was not recorded.
    round_records: list[str] = field(default_factory=list)
    tournament_id: str | None = None  # the server tournament it was played in, if any

    @property
    def official(self) -> bool:
        """True when the match was played by the printed rules."""
        return not self.house_rules


@dataclass(frozen=True, slots=True)
class Season:
    """A league season of one server; season 1 exists implicitly (started_at None)."""

    guild_id: int
    number: int
    name: str | None
    started_at: float | None
    ended_at: float | None


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    """One line of a leaderboard page."""

    rank: int
    user_id: int
    name: str
    matches: int
    wins: int
    win_rate: float
    points: int
    rating: float  # openskill ordinal (mu - 3 sigma): the sort key
    rated_matches: int = 0  # matches that changed this rating

    @property
    def display_rating(self) -> int:
        """The rating to show people: 1000 for a new player (see bot/storage/rating.py)."""
        return display_rating(self.rating)

    @property
    def provisional(self) -> bool:
        """True while too few rated matches make the rating mean much yet."""
        return provisional(self.rated_matches)


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    """A page of a leaderboard and the number of ranked players in all."""

    guild_id: int
    season: int | None  # None: all time
    sort: LeaderboardSort
    offset: int
    total: int
    rows: list[LeaderboardRow]
    official_only: bool = False  # counts and ratings from official-rules matches only


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One member's standing in a season or all time."""

    guild_id: int
    user_id: int
    name: str
    season: int | None  # None: all time
    rank: int  # by rating
    matches: int
    wins: int
    win_rate: float
    points: int
    rounds_won: int
    best_round: int  # most points in one round of a standard-scoring match
    rating: float
    mu: float
    sigma: float
    favourite_edition: Edition | None
    rated_matches: int = 0
    official_only: bool = False  # counts and ratings from official-rules matches only
    team_matches: int = 0  # matches played in a team (counted in matches too)
    team_wins: int = 0  # the team matches their team won (counted in wins too)

    @property
    def display_rating(self) -> int:
        """The rating to show people: 1000 for a new player (see bot/storage/rating.py)."""
        return display_rating(self.rating)

    @property
    def provisional(self) -> bool:
        """True while too few rated matches make the rating mean much yet."""
        return provisional(self.rated_matches)


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """A seat of a recorded match as stored, with its rating change when rated."""

    user_id: int
    name: str
    seat: int
    points: int
    place: int
    computer: bool
    winner: bool
    rating_before: float | None  # season ordinal; None when the seat was not rated
    rating_after: float | None
    team: int | None = None  # the seat's team in a team match (seat mod teams)

    @property
    def display_before(self) -> int | None:
        """The rating before the match on the scale shown to people."""
        return None if self.rating_before is None else display_rating(self.rating_before)

    @property
    def display_after(self) -> int | None:
        """The rating after the match on the scale shown to people."""
        return None if self.rating_after is None else display_rating(self.rating_after)


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """A line of the match history."""

    number: int  # the server's own match number: 1, 2, 3...
    season: int
    edition: Edition
    scoring: ScoringName
    finished_at: float
    duration: float
    rounds: int
    players: int
    winners: list[PlayerResult]
    house_rules: HouseRules = field(default_factory=dict)  # empty: official rules
    teams: int = 0  # 0: every player for themselves
    tournament_id: str | None = None  # played in this server tournament

    @property
    def match_id(self) -> int:
        """The server's match number (what match_detail takes)."""
        return self.number


@dataclass(frozen=True, slots=True)
class RoundSummary:
    """One round of a match: points added per seat, running totals and who went out."""

    number: int
    points: list[int]
    totals: list[int]
    winner_seat: int | None


@dataclass(frozen=True, slots=True)
class MatchDetail:
    """Everything recorded about one match."""

    number: int  # the server's own match number
    match_uid: str
    guild_id: int
    channel_id: int
    season: int
    edition: Edition
    scoring: ScoringName
    target: int | None
    started_at: float
    finished_at: float
    players: list[PlayerResult]  # by seat
    rounds: list[RoundSummary]
    events: list[dict[str, Any]]
    house_rules: HouseRules = field(default_factory=dict)  # empty: official rules
    teams: int = 0  # 0: every player for themselves
    tournament_id: str | None = None  # played in this server tournament

    @property
    def match_id(self) -> int:
        """The server's match number."""
        return self.number

    @property
    def official(self) -> bool:
        """True when the match was played by the printed rules."""
        return not self.house_rules

    @property
    def duration(self) -> float:
        """Seconds from the deal to the last card."""
        return self.finished_at - self.started_at

    @property
    def winners(self) -> list[PlayerResult]:
        """The players who won the match."""
        return [p for p in self.players if p.winner]


@dataclass(frozen=True, slots=True)
class PlayerHistory:
    """A member's recorded matches and rounds: what their profile is drawn from."""

    guild_id: int
    user_id: int
    name: str
    # Per match, oldest first: its edition, whether they won, their season rating after it
    # (the ordinal; None when the match did not rate them).
    results: list[tuple[Edition, bool, float | None]]
    rounds: list[tuple[int, str]]  # (their seat, round record) of their newest rounds


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    """A server tournament as stored: its state is JSON text owned by the tournament layer."""

    tournament_id: str
    guild_id: int
    channel_id: int
    kind: str  # "arena" or "knockout"
    state: str
    version: int
    opened_at: float
    finished_at: float | None  # None while it runs


@dataclass(frozen=True, slots=True)
class TournamentMatch:
    """A recorded match of a tournament: its number and uid, its players by place."""

    number: int
    match_uid: str
    placings: list[int]


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A server's defaults for new tables and the league."""

    guild_id: int
    edition: Edition = "classic"
    scoring: ScoringName = "standard"
    target: int | None = 500
    turn_seconds: int | None = None  # None: no turn timer
    timeout_action: str = "draw_pass"
    timeouts_before_removal: int = 3
    lobby_minutes: int = 15
    computers_allowed: bool = True
    computer_level: str = "normal"
    computers_rated: bool = False
    rate_house_rules: bool = False  # False: only official-rules matches change ratings
    house_rules: HouseRules = field(default_factory=dict)  # new tables' options; empty: official
    language: str | None = None  # public messages' language; None: the server's Discord locale
    tournaments_open: bool = False  # anyone may open a tournament (else Manage Server only)
