"""Server tournaments as pure data: who waits, who plays where, what each finish scores.

Nothing here awaits, reads a clock or draws a random number: every moment is given (``now``)
and every shuffle is seeded, so a tournament is a function of its requests. Standings are
always recounted from the finished tables' placings, never kept as a running total.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

PLACE_POINTS = (4, 2, 1)
MIN_TABLE = 3
MAX_TABLE = 4
ADVANCE = 2
STREAK_TO_DOUBLE = 2
BERSERK_BONUS = 1
TEAM_TABLE = 4  # a team table: two teams of two, partners opposite
TEAM_SIZE = 2


class Kind(Enum):
    ARENA = "arena"
    KNOCKOUT = "knockout"


class TournamentError(Exception):
    """A refused tournament request, named by a key (texts live with the languages)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True, slots=True)
class Entrant:
    user_id: int
    name: str
    computer: str | None = None


@dataclass(frozen=True, slots=True)
class Finish:
    """One finished tournament table: its players in finishing order."""

    table_id: str
    placings: tuple[int, ...]
    berserk: frozenset[int] = frozenset()
    finished_at: float = 0.0
    round: int = 0
    # Each player's place (0: first) where partners share their team's; empty: by order.
    places: tuple[int, ...] = ()

    def place_of(self, index: int) -> int:
        """The place of the player at ``index`` of the placings."""
        return self.places[index] if index < len(self.places) else index


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    user_id: int
    name: str
    points: int
    games: int
    wins: int
    on_fire: bool


def table_sizes(count: int, *, least: int = MIN_TABLE, most: int = MAX_TABLE) -> list[int]:
    """How to seat ``count`` players at tables of ``least``..``most`` seating as many as
    possible, the tables as even as can be (largest first); empty when fewer than ``least``."""
    if count < least:
        return []
    tables = -(-count // most)
    if tables * least > count:
        tables = count // least
    seated = min(count, tables * most)
    base, extra = divmod(seated, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def game_points(place: int, *, berserk: bool, streak: int) -> int:
    """What one finish scores: 4/2/1 for the first three, doubled after two wins in a row,
    and a berserk winner one more."""
    points = PLACE_POINTS[place] if place < len(PLACE_POINTS) else 0
    if streak >= STREAK_TO_DOUBLE:
        points *= 2
    if berserk and place == 0:
        points += BERSERK_BONUS
    return points


def standings(entrants: Mapping[int, Entrant], finishes: Iterable[Finish]) -> list[Standing]:
    """Everyone's points recounted from the finishes in order, best first (ties by wins, then
    fewer games, then who joined first); ranks shared by equal points."""
    points = dict.fromkeys(entrants, 0)
    games = dict.fromkeys(entrants, 0)
    wins = dict.fromkeys(entrants, 0)
    streak = dict.fromkeys(entrants, 0)
    for finish in finishes:
        for index, user_id in enumerate(finish.placings):
            if user_id not in points:
                continue
            place = finish.place_of(index)
            berserk = user_id in finish.berserk
            points[user_id] += game_points(place, berserk=berserk, streak=streak[user_id])
            games[user_id] += 1
            if place == 0:
                wins[user_id] += 1
                streak[user_id] += 1
            else:
                streak[user_id] = 0
    order = list(entrants)
    ranked = sorted(order, key=lambda u: (-points[u], -wins[u], games[u], order.index(u)))
    result: list[Standing] = []
    for index, user_id in enumerate(ranked):
        rank = index + 1
        if result and result[-1].points == points[user_id]:
            rank = result[-1].rank
        result.append(
            Standing(
                rank,
                user_id,
                entrants[user_id].name,
                points[user_id],
                games[user_id],
                wins[user_id],
                streak[user_id] >= STREAK_TO_DOUBLE,
            )
        )
    return result


@dataclass(slots=True)
class Tournament:
    """One tournament's whole state (saved as a record, like a table)."""

    tournament_id: str
    kind: Kind
    guild_id: int
    channel_id: int
    host_id: int
    opened_at: float
    ends_at: float | None = None  # an arena's end; a knockout ends with its final
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    entrants: dict[int, Entrant] = field(default_factory=dict)
    waiting: dict[int, float] = field(default_factory=dict)  # user id -> waiting since
    berserk: set[int] = field(default_factory=set)  # asked for at their next table
    tables: dict[str, tuple[int, ...]] = field(default_factory=dict)  # live tables
    finishes: list[Finish] = field(default_factory=list)
    drawn: bool = False  # a knockout's entries are closed: its first round may be drawn
    started: bool = False  # a knockout's first round was seated
    round: int = 0
    byes: list[int] = field(default_factory=list)  # advanced without playing this round
    requeue: list[tuple[int, ...]] = field(default_factory=list)  # knockout tables to seat again
    pairs: list[tuple[int, ...]] = field(default_factory=list)  # a team knockout's teams, drawn
    opened: int = 0  # tables ever opened (numbers them)
    closed: bool = False
    standings_message_id: int | None = None
    version: int = 0

    # ----- asking -----

    def playing(self, user_id: int) -> str | None:
        """The tournament table a player sits at, if any."""
        for table_id, players in self.tables.items():
            if user_id in players:
                return table_id
        return None

    def standings(self) -> list[Standing]:
        return standings(self.entrants, self.finishes)

    @property
    def teams(self) -> int:
        """Teams at every table (2: two teams of two, each scoring its place), or 0."""
        return int(self.options.get("teams", 0))

    def team_of(self, user_id: int) -> tuple[int, ...]:
        """A team knockout player's team as drawn (the player alone before the draw)."""
        return next((p for p in self.pairs if user_id in p), (user_id,))

    def over(self, now: float) -> bool:
        """No more tables will open."""
        if self.closed:
            return True
        if self.kind is Kind.ARENA:
            return self.ends_at is not None and now >= self.ends_at
        return self.final_played()

    def finished(self, now: float) -> bool:
        """Over, and no table of it is still playing: the podium may be shown."""
        return self.over(now) and not self.tables

    def podium(self) -> list[Standing]:
        if self.kind is Kind.KNOCKOUT:
            return self.knockout_podium()
        return [s for s in self.standings() if s.games > 0][:3]

    # ----- entering -----

    def join(self, entrant: Entrant, now: float) -> None:
        if self.over(now):
            raise TournamentError("tournament_over")
        if self.kind is Kind.KNOCKOUT and self.drawn:
            raise TournamentError("tournament_started")
        if entrant.user_id in self.waiting or self.playing(entrant.user_id) is not None:
            raise TournamentError("tournament_joined")
        if self.kind is Kind.KNOCKOUT and entrant.user_id in self.entrants:
            raise TournamentError("tournament_joined")
        self.entrants.setdefault(entrant.user_id, entrant)
        self.waiting[entrant.user_id] = now

    def leave(self, user_id: int) -> None:
        """Stop waiting (an arena keeps the points; a knockout player withdraws)."""
        if user_id not in self.waiting:
            raise TournamentError("tournament_not_waiting")
        del self.waiting[user_id]
        self.berserk.discard(user_id)
        if self.kind is Kind.KNOCKOUT:
            if self.drawn:
                raise TournamentError("tournament_started")
            del self.entrants[user_id]

    def close_entries(self) -> None:
        """A knockout's host starts it: no more entrants, the first round is drawn (with
        teams, its teams first: partners drawn at random from an even field)."""
        if self.kind is not Kind.KNOCKOUT or self.drawn:
            raise TournamentError("tournament_started")
        if self.teams:
            if len(self.waiting) < TEAM_TABLE:
                raise TournamentError("tournament_too_few_teams")
            if len(self.waiting) % TEAM_SIZE:
                raise TournamentError("tournament_odd_players")
            self._draw_teams()
        elif len(self.waiting) < MIN_TABLE:
            raise TournamentError("tournament_too_few")
        self.drawn = True

    def _draw_teams(self) -> None:
        """Partners at random from the entrants in joining order (the seed's own draw, apart
        from each round's)."""
        field_ = sorted(self.waiting, key=lambda u: (self.waiting[u], u))
        random.Random(self.seed).shuffle(field_)
        self.pairs = [tuple(field_[i : i + TEAM_SIZE]) for i in range(0, len(field_), TEAM_SIZE)]

    def go_berserk(self, user_id: int) -> None:
        if self.kind is not Kind.ARENA:
            raise TournamentError("tournament_no_berserk")
        if user_id not in self.waiting:
            raise TournamentError("tournament_not_waiting")
        self.berserk.add(user_id)

    # ----- seating -----

    def pair(self, now: float) -> list[tuple[int, ...]]:
        """The tables to open now: an arena seats whoever waits longest, in tables of 3 or 4;
        a knockout draws its next round once the previous one is over."""
        if self.over(now):
            return []
        if self.kind is Kind.ARENA:
            return self._pair_arena()
        return self._pair_knockout()

    def _pair_arena(self) -> list[tuple[int, ...]]:
        """Tables in waiting order, each with a person at it: computers never play alone (as
        many tables as there are people waiting, one person swapped in where needed)."""
        queue = sorted(self.waiting, key=lambda u: (self.waiting[u], u))
        people = [u for u in queue if self.entrants[u].computer is None]
        least, most = (TEAM_TABLE, TEAM_TABLE) if self.teams else (MIN_TABLE, MAX_TABLE)
        tables = min(len(table_sizes(len(queue), least=least, most=most)), len(people))
        if tables == 0:
            return []
        seated = min(len(queue), tables * most)
        base, extra = divmod(seated, tables)
        groups: list[list[int]] = []
        at = 0
        for size in [base + 1] * extra + [base] * (tables - extra):
            groups.append(queue[at : at + size])
            at += size
        human = self._is_person
        rest = queue[at:]
        for group in groups:
            if any(human(u) for u in group):
                continue
            # The longest-waiting person not seated yet, else one from a table with two.
            donor = rest if any(human(u) for u in rest) else None
            if donor is None:
                donor = next(g for g in reversed(groups) if sum(human(u) for u in g) > 1)
            person = next(u for u in (rest if donor is rest else reversed(donor)) if human(u))
            donor[donor.index(person)], group[-1] = group[-1], person
        return [tuple(g) for g in groups]

    def _is_person(self, user_id: int) -> bool:
        return self.entrants[user_id].computer is None

    def _pair_knockout(self) -> list[tuple[int, ...]]:
        if self.requeue:
            return list(self.requeue)
        if self.tables:
            return []
        if not self.started:
            field_ = sorted(self.waiting, key=lambda u: (self.waiting[u], u))
            if len(field_) < MIN_TABLE or not self.drawn:
                return []
        else:
            field_ = self.advancing()
        rng = random.Random(self.seed ^ (self.round + 1))
        if self.teams:
            return self._pair_teams(field_, rng)
        rng.shuffle(field_)
        if len(field_) <= MAX_TABLE:
            return [tuple(field_)]
        sizes = table_sizes(len(field_))
        groups, at = [], 0
        for size in sizes:
            groups.append(tuple(field_[at : at + size]))
            at += size
        return groups

    def _pair_teams(self, field_: Sequence[int], rng: random.Random) -> list[tuple[int, ...]]:
        """A team knockout's round: its teams drawn two by two, each table seated partners
        opposite (the team drawn first on the first seat); with an odd count one team has a
        bye, never one that had a bye while another team has not."""
        going = set(field_)
        teams = [p for p in self.pairs if p[0] in going]
        rng.shuffle(teams)
        played = {p: sum(p[0] in done.placings for done in self.finishes) for p in teams}
        teams.sort(key=lambda p: played[p])  # stable: the bye goes to one that played most
        groups: list[tuple[int, ...]] = []
        for at in range(0, len(teams) - 1, 2):
            first, second = sorted(teams[at : at + 2], key=self.pairs.index)
            groups.append(tuple(u for seat in zip(first, second, strict=True) for u in seat))
        return groups

    def seat(self, table_id: str, players: Sequence[int]) -> None:
        """A table of this tournament opened for these waiting players."""
        if self.kind is Kind.KNOCKOUT and tuple(players) in self.requeue:
            self.requeue.remove(tuple(players))
        elif self.kind is Kind.KNOCKOUT and not self.tables:
            seated = [u for p in self.pending_seats() for u in p]
            if not self.started:
                self.started = True
            self.round += 1
            field_ = self.advancing() if self.round > 1 else list(self.waiting)
            self.byes = [u for u in field_ if u not in seated]
            for user_id in self.byes:
                self.waiting.pop(user_id, None)
        for user_id in players:
            if self.playing(user_id) is not None:
                raise TournamentError("tournament_seated_twice")
            self.waiting.pop(user_id, None)
        self.tables[table_id] = tuple(players)
        self.opened += 1

    def pending_seats(self) -> list[tuple[int, ...]]:
        """The knockout round about to be seated (for byes): what ``pair`` would draw."""
        return self._pair_knockout() if self.kind is Kind.KNOCKOUT else []

    def berserk_at(self, table_id: str) -> frozenset[int]:
        return frozenset(u for u in self.tables.get(table_id, ()) if u in self.berserk)

    def finish(
        self, table_id: str, placings: Sequence[int], now: float, places: Sequence[int] = ()
    ) -> Finish:
        """A table ended with these players in order (leavers last), ``places`` their places
        where partners share one; arena players wait again."""
        players = self.tables.pop(table_id, None)
        if players is None:
            raise TournamentError("tournament_no_table")
        ordered = [u for u in placings if u in players]
        ordered += [u for u in players if u not in ordered]
        berserk = frozenset(u for u in players if u in self.berserk)
        self.berserk -= berserk
        shared = dict(zip(placings, places, strict=False))
        last = max(shared.values(), default=-1) + 1
        kept = tuple(shared.get(u, last) for u in ordered) if shared else ()
        done = Finish(table_id, tuple(ordered), berserk, now, self.round, kept)
        self.finishes.append(done)
        if self.kind is Kind.ARENA and not self.over(now):
            for user_id in ordered:
                self.waiting[user_id] = now
        return done

    def abandon(self, table_id: str, now: float) -> None:
        """A table closed unplayed (cancelled, its thread lost): nothing scored, its players
        wait again (a knockout seats the same table again)."""
        players = self.tables.pop(table_id, None)
        if players is None:
            raise TournamentError("tournament_no_table")
        if self.kind is Kind.KNOCKOUT:
            self.requeue.append(players)
            return
        if not self.over(now):
            for user_id in players:
                self.waiting[user_id] = now

    # ----- the knockout's bracket -----

    def rounds(self) -> list[list[Finish]]:
        """The finished knockout tables, round by round."""
        by_round: dict[int, list[Finish]] = {}
        for done in self.finishes:
            by_round.setdefault(done.round, []).append(done)
        return [by_round[r] for r in sorted(by_round)]

    def advancing(self) -> list[int]:
        """Who goes on from the last finished round: each table's top two (with teams, its
        winning team: the team of the first placed), and the byes."""
        if not self.finishes:
            return []
        last = self.rounds()[-1]
        if self.pairs:
            going = [u for done in last for u in self.team_of(done.placings[0])]
        else:
            going = [u for done in last for u in done.placings[:ADVANCE]]
        return going + list(self.byes)

    def final_played(self) -> bool:
        if self.kind is not Kind.KNOCKOUT or not self.started or self.tables or self.requeue:
            return False
        last = self.rounds()
        return bool(last) and len(last[-1]) == 1 and not self.byes

    def won_by_team(self, user_id: int) -> bool:
        """A team knockout won by this player's team."""
        podium = self.knockout_podium() if self.pairs else []
        return any(s.user_id == user_id and s.rank == 1 for s in podium)

    def knockout_podium(self) -> list[Standing]:
        """The final table's first three; with teams, its two teams (both partners of the
        winning team first, then the other two: each sharing its team's place)."""
        if not self.final_played():
            return []
        final = self.rounds()[-1][0]
        if self.pairs:
            won = self.team_of(final.placings[0])
            order = sorted(final.placings, key=lambda u: u not in won)
            return [
                Standing(1 + (u not in won), u, self.entrants[u].name, 0, 0, int(u in won), False)
                for u in order
            ]
        return [
            Standing(place + 1, u, self.entrants[u].name, 0, 0, int(place == 0), False)
            for place, u in enumerate(final.placings[:3])
        ]

    # ----- the record -----

    def to_dict(self) -> dict[str, Any]:
        return {
            "tournament_id": self.tournament_id,
            "kind": self.kind.value,
            "guild_id": self.guild_id,
            "channel_id": self.channel_id,
            "host_id": self.host_id,
            "opened_at": self.opened_at,
            "ends_at": self.ends_at,
            "seed": self.seed,
            "options": dict(self.options),
            "entrants": [[e.user_id, e.name, e.computer] for e in self.entrants.values()],
            "waiting": [[u, t] for u, t in self.waiting.items()],
            "berserk": sorted(self.berserk),
            "tables": [[t, list(p)] for t, p in self.tables.items()],
            "finishes": [
                [f.table_id, list(f.placings), sorted(f.berserk), f.finished_at, f.round]
                for f in self.finishes
            ],
            # Apart from the finishes, whose five fields older processes unpack.
            "places": {f.table_id: list(f.places) for f in self.finishes if f.places},
            "drawn": self.drawn,
            "started": self.started,
            "round": self.round,
            "byes": list(self.byes),
            "requeue": [list(p) for p in self.requeue],
            "pairs": [list(p) for p in self.pairs],
            "opened": self.opened,
            "closed": self.closed,
            "standings_message_id": self.standings_message_id,
            "version": self.version,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Tournament:
        places: Mapping[str, list[int]] = data.get("places", {})
        return cls(
            tournament_id=data["tournament_id"],
            kind=Kind(data["kind"]),
            guild_id=data["guild_id"],
            channel_id=data["channel_id"],
            host_id=data["host_id"],
            opened_at=data["opened_at"],
            ends_at=data["ends_at"],
            seed=data["seed"],
            options=dict(data["options"]),
            entrants={u: Entrant(u, n, c) for u, n, c in data["entrants"]},
            waiting={u: t for u, t in data["waiting"]},
            berserk=set(data["berserk"]),
            tables={t: tuple(p) for t, p in data["tables"]},
            finishes=[
                Finish(t, tuple(p), frozenset(b), at, r, tuple(places.get(t, ())))
                for t, p, b, at, r in data["finishes"]
            ],
            drawn=data["drawn"],
            started=data["started"],
            round=data["round"],
            byes=list(data["byes"]),
            requeue=[tuple(p) for p in data.get("requeue", [])],
            pairs=[tuple(p) for p in data.get("pairs", [])],
            opened=data.get("opened", 0),
            closed=data["closed"],
            standings_message_id=data["standings_message_id"],
            version=data["version"],
        )


@dataclass(slots=True)
class EditWindow:
    """At most ``writes`` message edits in any ``seconds``: when the next one may go."""

    writes: int = 5
    seconds: float = 5.0
    sent: list[float] = field(default_factory=list)

    def next_at(self, now: float) -> float:
        recent = [t for t in self.sent if t > now - self.seconds]
        if len(recent) < self.writes:
            return now
        return recent[-self.writes] + self.seconds

    def spend(self, now: float) -> None:
        self.sent = [t for t in self.sent if t > now - self.seconds] + [now]


def standings_lines(t: Tournament) -> list[tuple[int, str, int, int, bool]]:
    """The standings picture's lines: (rank, name, points, games, on fire)."""
    return [(s.rank, s.name, s.points, s.games, s.on_fire) for s in t.standings()]


def bracket_names(t: Tournament) -> list[list[list[str]]]:
    """The bracket picture's rounds: per table, its players' names in finishing order, and the
    tables still playing (in seat order) in the round under way; with teams, per table its
    two teams (their names together), the winning team first."""
    if t.pairs:
        return [
            [[", ".join(t.entrants[u].name for u in team) for _, team in table] for table in r]
            for r in team_bracket(t)
        ]
    rounds = [[[t.entrants[u].name for u in done.placings] for done in r] for r in t.rounds()]
    if t.tables:
        live = [[t.entrants[u].name for u in players] for players in t.tables.values()]
        if rounds and t.rounds()[-1][0].round == t.round:
            rounds[-1].extend(live)
        else:
            rounds.append(live)
    return rounds


def bracket_marks(t: Tournament) -> list[list[list[int]]]:
    """The team of each of ``bracket_names``'s entries at its table (empty without teams)."""
    return [[[mark for mark, _ in table] for table in r] for r in team_bracket(t)]


def team_bracket(t: Tournament) -> list[list[list[tuple[int, tuple[int, ...]]]]]:
    """A team knockout's rounds: per table, (its team at the table, its players) for both
    teams, the winners first at a finished table, in seat order at one still playing."""

    def seated(players: Sequence[int]) -> list[tuple[int, tuple[int, ...]]]:
        # Seats alternate teams, and the team drawn first sits first (``_pair_teams``).
        teams = sorted({t.team_of(u) for u in players}, key=t.pairs.index)
        return [(mark, team) for mark, team in enumerate(teams)]

    def finished(done: Finish) -> list[tuple[int, tuple[int, ...]]]:
        won = t.team_of(done.placings[0])
        return sorted(seated(done.placings), key=lambda entry: entry[1] != won)

    if not t.pairs:
        return []
    rounds = [[finished(done) for done in r] for r in t.rounds()]
    if t.tables:
        live = [seated(players) for players in t.tables.values()]
        if rounds and t.rounds()[-1][0].round == t.round:
            rounds[-1].extend(live)
        else:
            rounds.append(live)
    return rounds


@dataclass(frozen=True, slots=True)
class TournamentResults:
    """A player's finished tournaments: played, on the podium, won."""

    played: int = 0
    podiums: int = 0
    won: int = 0


def record_of(finished: Iterable[Tournament], user_id: int) -> TournamentResults:
    """What a player did in these finished tournaments."""
    played = podiums = won = 0
    for t in finished:
        if user_id not in t.entrants:
            continue
        played += 1
        podium = t.podium()
        podiums += any(s.user_id == user_id for s in podium)
        first = bool(podium) and podium[0].user_id == user_id
        won += first or t.won_by_team(user_id)
    return TournamentResults(played, podiums, won)
