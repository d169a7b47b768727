"""A match: rounds to a target score (or one round), both scorings, teams, and the deal passing
left."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from . import errors
from .action import Action, Do
from .ai_challenge import ChallengeRecord
from .ai_memory import knowledge
from .cards import CARD_POINTS, CARD_RANK, CODES, IS_NUMBER, Edition, edition_deck, shuffle
from .game import Event, Game
from .record import RoundLog
from .rules import RuleSet, Scoring
from .state import rng_from_json, rng_to_json
from .teams import lowest_tallies, round_team_points, sides_left, team_of


@dataclass(frozen=True, slots=True)
class ScoreView:
    """The scoreboard: each round's points and the running totals toward the target."""

    edition: Edition
    names: tuple[str, ...]
    rounds: tuple[tuple[int, ...], ...]  # per round, per seat: points added that round
    totals: tuple[int, ...]
    target: int | None
    scoring: str
    round_winners: tuple[int | None, ...]
    winners: tuple[int, ...]  # empty while the match goes on
    active: tuple[bool, ...]
    teams: int = 0  # 0: no teams; else seat s is on team s mod teams
    team_totals: tuple[int, ...] = ()  # per team, toward the target
    winner_teams: tuple[int, ...] = ()  # empty while the match goes on (or without teams)


def choose_first_dealer(
    edition: Edition, players: int, rng: random.Random
) -> tuple[int, list[Event]]:
    """Classic, mario: high card deals (action cards count 0, ties redraw). Sonic: at random."""
    if edition is Edition.SONIC:
        dealer = rng.randrange(players)
        return dealer, [{"type": "dealer", "seat": dealer, "how": "random"}]
    deck = edition_deck(edition)
    shuffle(deck, rng)
    contenders = list(range(players))
    events: list[Event] = []
    while True:
        if len(deck) < len(contenders):
            deck = edition_deck(edition)
            shuffle(deck, rng)
        drawn = {seat: deck.pop() for seat in contenders}
        values = {s: CARD_RANK[c] if IS_NUMBER[c] else 0 for s, c in drawn.items()}
        events.append(
            {"type": "dealer_draw", "cards": {str(s): CODES[c] for s, c in drawn.items()}}
        )
        best = max(values.values())
        contenders = [s for s in contenders if values[s] == best]
        if len(contenders) == 1:
            events.append({"type": "dealer", "seat": contenders[0], "how": "high_card"})
            return contenders[0], events


class Match:
    """Rounds between fixed seats until someone reaches the target (or after one round)."""

    def __init__(self, rules: RuleSet, players: int, rng: random.Random) -> None:
        self.rules = rules
        self.n = players
        self.rng = rng
        self.active = [True] * players
        self.totals = [0] * players
        self.rounds: list[list[int]] = []
        self.round_winners: list[int | None] = []
        self.winners: list[int] = []
        self.forfeit = False
        self.round_scored = False
        # Per finished round its stored record (RoundRecord.to_text; "" when not recorded),
        # and the log of the round being played.
        self.records: list[str] = []
        self.log: RoundLog | None = None
        # What the table saw of each seat's Wild Draw Fours in the finished rounds (public:
        # challenges and later plays), for the computer players' challenge judgment.
        self.challenges = ChallengeRecord()
        self.dealer, self.dealer_events = choose_first_dealer(rules.edition, players, rng)
        self.game = self._new_round()

    @property
    def round_number(self) -> int:
        return len(self.rounds) + 1

    @property
    def over(self) -> bool:
        return bool(self.winners)

    def _new_round(self) -> Game:
        deck = edition_deck(self.rules.edition)
        shuffle(deck, self.rng)
        seed = self.rng.getrandbits(64)
        self.log = RoundLog(self.dealer, deck, seed, self.active)
        return Game(
            self.rules.edition,
            self.n,
            self.dealer,
            deck,
            random.Random(seed),
            active=self.active,
            house_rule=self.rules.house_rule,
            house=self.rules.house,
            teams=self.rules.teams,
        )

    @property
    def commitment(self) -> str | None:
        """The SHA-256 commitment of the round being played (None for a round not recorded)."""
        return self.log.commitment if self.log is not None else None

    def apply(self, action: Action) -> list[Event]:
        """Apply one action to the round, recording it; as ``Game.apply``."""
        events = self.game.apply(action)
        if self.log is not None:
            self.log.add(action)
        return events

    def _close_record(self, added: list[int]) -> None:
        rules = self.rules
        if self.game.events:
            self.challenges.add(knowledge(self.game, 0).wd4_reads)
        log, self.log = self.log, None
        if log is None:
            self.records.append("")
            return
        record = log.finish(
            rules.edition,
            rules.house,
            rules.scoring,
            added,
            forfeit=self.forfeit,
            teams=self.teams,
            partners_see=rules.partners_see,
        )
        self.records.append(record.to_text())

    @property
    def teams(self) -> int:
        return self.rules.teams

    def team_totals(self) -> list[int]:
        """Each team's score toward the target: its members' totals (empty without teams)."""
        totals = [0] * self.teams
        if self.teams:
            for seat, points in enumerate(self.totals):
                totals[seat % self.teams] += points
        return totals

    def winner_teams(self) -> list[int]:
        """The teams that won the match, sorted (empty while it goes on, or without teams)."""
        return sorted({team_of(s, self.teams) for s in self.winners}) if self.teams else []

    def alive_teams(self) -> set[int]:
        """The sides (teams, or seats without teams) with somebody still in the match."""
        return {team_of(s, self.teams) for s in range(self.n) if self.active[s]}

    def finish_round(self) -> list[int]:
        """Score the finished round; returns each seat's points added. Ends the match at target."""
        game = self.game
        if not game.over:
            raise errors.not_allowed("round_playing")
        if self.round_scored:
            raise errors.not_allowed("round_scored")
        n = self.n
        if self.forfeit or len(sides_left(game)) <= 1:
            added = [0] * n
        elif self.rules.scoring is Scoring.STANDARD and self.teams:
            # The seat that went out carries its team's points: the other teams' cards.
            won = round_team_points(game, lowest=False)[game.winner % self.teams]
            added = [won if s == game.winner else 0 for s in range(n)]
        elif self.rules.scoring is Scoring.STANDARD:
            assert game.points is not None
            added = list(game.points)
        else:
            added = [sum(CARD_POINTS[c] for c in game.hands[s]) for s in range(n)]
        for s in range(n):
            self.totals[s] += added[s]
        self.rounds.append(added)
        self.round_winners.append(game.winner if game.winner >= 0 else None)
        self._close_record(added)
        self._decide()
        return added

    def _decide(self) -> None:
        self.round_scored = True
        if self.teams:
            self._decide_teams()
            return
        live = [s for s in range(self.n) if self.active[s]]
        if len(live) == 1:
            self.winners = live
            return
        target = self.rules.target
        if self.rules.scoring is Scoring.STANDARD:
            if target is None:
                winner = self.round_winners[-1]
                self.winners = [winner] if winner is not None else []
            else:
                reached = [s for s in live if self.totals[s] >= target]
                if reached:
                    best = max(self.totals[s] for s in reached)
                    self.winners = [s for s in reached if self.totals[s] == best]
        elif target is None or any(self.totals[s] >= target for s in live):
            low = min(self.totals[s] for s in live)
            self.winners = [s for s in live if self.totals[s] == low]

    def _decide_teams(self) -> None:
        """The match is won by a team; a team with nobody left neither reaches nor wins."""
        alive = self.alive_teams()
        totals = self.team_totals()
        target = self.rules.target
        won: list[int] = []
        if len(alive) == 1:
            won = list(alive)
        elif self.rules.scoring is Scoring.STANDARD:
            if target is None:
                winner = self.round_winners[-1]
                won = [winner % self.teams] if winner is not None else []
            else:
                reached = [t for t in alive if totals[t] >= target]
                if reached:
                    best = max(totals[t] for t in reached)
                    won = [t for t in reached if totals[t] == best]
        elif target is None or any(totals[t] >= target for t in alive):
            won = lowest_tallies(totals, alive)
        self.winners = [s for s in range(self.n) if self.active[s] and s % self.teams in won]

    def next_round(self) -> Game:
        """Deal the next round; the deal passes to the dealer's left."""
        if self.over:
            raise errors.not_allowed("match_over")
        if not self.game.over or not self.round_scored:
            raise errors.not_allowed("round_playing")
        seat = (self.dealer + 1) % self.n
        while not self.active[seat]:
            seat = (seat + 1) % self.n
        self.dealer = seat
        self.game = self._new_round()
        self.round_scored = False
        return self.game

    def leave(self, seat: int) -> None:
        """A player leaves the match; with one player left, they win by forfeit."""
        if not 0 <= seat < self.n or not self.active[seat]:
            raise errors.not_allowed("not_in_match")
        game = self.game
        was_over = game.over
        game.leave(seat)
        if not was_over and self.log is not None:
            self.log.add(Action(seat, Do.LEAVE))
        self.active[seat] = False
        if len(self.alive_teams()) == 1:
            self.forfeit = True
            if not was_over or not self.round_scored:
                self.rounds.append([0] * self.n)
                self.round_winners.append(game.winner if game.winner >= 0 else None)
                self._close_record([0] * self.n)
            self.round_scored = True
            self.winners = [s for s in range(self.n) if self.active[s]]

    def score_view(self, names: list[str]) -> ScoreView:
        """The scoreboard as the renderer and the table message show it."""
        return ScoreView(
            edition=self.rules.edition,
            names=tuple(names),
            rounds=tuple(tuple(r) for r in self.rounds),
            totals=tuple(self.totals),
            target=self.rules.target,
            scoring=self.rules.scoring.value,
            round_winners=tuple(self.round_winners),
            winners=tuple(self.winners),
            active=tuple(self.active),
            teams=self.teams,
            team_totals=tuple(self.team_totals()),
            winner_teams=tuple(self.winner_teams()),
        )

    def to_dict(self) -> dict[str, Any]:
        """The whole match, JSON-ready, for durable tables."""
        return {
            "rules": self.rules.to_dict(),
            "n": self.n,
            "active": list(self.active),
            "totals": list(self.totals),
            "rounds": [list(r) for r in self.rounds],
            "round_winners": list(self.round_winners),
            "winners": list(self.winners),
            "forfeit": self.forfeit,
            "dealer": self.dealer,
            "dealer_events": list(self.dealer_events),
            "scored": self.round_scored,
            "rng": rng_to_json(self.rng),
            "game": self.game.to_dict(),
            "log": self.log.to_json() if self.log is not None else None,
            "records": list(self.records),
            "challenges": {str(s): list(r) for s, r in self.challenges.reads.items()},
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Match:
        """Rebuild a match saved by ``to_dict``."""
        match = cls.__new__(cls)
        match.rules = RuleSet.from_dict(data["rules"])
        match.n = int(data["n"])
        match.active = [bool(a) for a in data["active"]]
        match.totals = [int(t) for t in data["totals"]]
        match.rounds = [[int(p) for p in r] for r in data["rounds"]]
        match.round_winners = list(data["round_winners"])
        match.winners = [int(w) for w in data["winners"]]
        match.forfeit = bool(data["forfeit"])
        match.dealer = int(data["dealer"])
        match.dealer_events = list(data["dealer_events"])
        match.rng = rng_from_json(data["rng"])
        match.game = Game.from_dict(data["game"])
        match.round_scored = bool(data["scored"])
        log = data.get("log")
        match.log = RoundLog.from_json(log) if log is not None else None
        # A match saved before rounds were recorded has its earlier rounds unrecorded.
        match.records = [str(r) for r in data.get("records", [""] * len(match.rounds))]
        # A match saved before the Wild Draw Fours were kept starts its record afresh.
        reads = data.get("challenges", {})
        match.challenges = ChallengeRecord({int(s): [int(x) for x in r] for s, r in reads.items()})
        return match
