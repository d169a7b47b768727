"""Team play (docs/rules.md, "Teams"): seats alternate teams, partners win a round together.

A round knows its team count (``RoundState.teams``, 0 without teams); seat ``s`` is on team
``s mod N``. These functions read a round's state only; ``leaving`` asks ``sides_left`` whether
the match ends by forfeit, and ``match`` scores rounds by team with ``round_team_points``.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import CARD_POINTS
from .state import RoundState

TEAM_COUNTS = (0, 2, 3, 4, 5)  # 0: every player for themselves
MIN_PLAYERS = 2
MAX_PLAYERS = 10


def fitting_counts(teams: int) -> list[int]:
    """The player counts that ``teams`` teams of equal size, two or more each, fit."""
    if teams == 0:
        return list(range(MIN_PLAYERS, MAX_PLAYERS + 1))
    return [n for n in range(2 * teams, MAX_PLAYERS + 1, teams)]


def fits(teams: int, players: int) -> bool:
    """Can ``players`` players be split into ``teams`` teams of equal size (two or more)."""
    return players in fitting_counts(teams)


def counts_text(teams: int) -> str:
    """The fitting counts as English words for the command line: ``4, 6, 8 or 10``."""
    counts = [str(n) for n in fitting_counts(teams)]
    return counts[0] if len(counts) == 1 else ", ".join(counts[:-1]) + " or " + counts[-1]


def team_of(seat: int, teams: int) -> int:
    """The team of ``seat`` (seats alternate teams)."""
    return seat % teams if teams else seat


def seat_teams(players: int, teams: int) -> list[int]:
    """Each seat's team."""
    return [team_of(s, teams) for s in range(players)]


def partners(seat: int, players: int, teams: int) -> list[int]:
    """The other seats on ``seat``'s team (none without teams)."""
    if not teams:
        return []
    return [s for s in range(players) if s != seat and s % teams == seat % teams]


def side_count(state: RoundState) -> int:
    """How many sides (teams, or players without teams) there are at the table."""
    return state.teams or state.n


def sides_left(state: RoundState) -> set[int]:
    """The sides that still have a seat in the round."""
    return {team_of(s, state.teams) for s in range(state.n) if state.active[s]}


def hand_points(state: RoundState, seat: int) -> int:
    """The points of the cards in ``seat``'s hand."""
    return sum(CARD_POINTS[c] for c in state.hands[seat])


def round_team_points(state: RoundState, lowest: bool) -> list[int]:
    """A finished round's points per team: standard, the winning team scores every card in the
    other teams' hands (partners' cards count for nobody); lowest, each team its own cards."""
    teams = state.teams
    points = [0] * teams
    if lowest:
        for seat in range(state.n):
            points[seat % teams] += hand_points(state, seat)
        return points
    if state.winner < 0:
        return points
    won = state.winner % teams
    points[won] = sum(hand_points(state, s) for s in range(state.n) if s % teams != won)
    return points


def lowest_tallies(tallies: Sequence[int], alive: set[int]) -> list[int]:
    """The teams with the lowest tally among those still in the match (ties share)."""
    low = min(tallies[t] for t in alive)
    return sorted(t for t in alive if tallies[t] == low)
