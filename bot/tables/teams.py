"""Teams at a table: the host sets how many, players may pick one, the start seats them.

Seats alternate teams (seat ``s`` is on team ``s mod N``, docs/rules.md "Teams"), so the start
orders the lobby's seats: a player who picked a team gets one of its seats, everyone else fills
the seats left in the order they joined (nobody picking: the bot alternates them as they sit).
"""

from __future__ import annotations

import dataclasses

from bot.engine.cards import CODES
from bot.engine.teams import TEAM_COUNTS, fits, fitting_counts, partners

from .change import Change
from .commands import Actor
from .notes import note
from .refusals import TableError
from .snapshot import Reveal
from .table import Seat, Status, Table

TEAM_MARKS = ("🟥", "🟦", "🟩", "🟨", "🟪")  # team 0, 1, ...: on every seat, in text


def team_mark(team: int) -> str:
    """The mark of a team (its color) shown beside each of its seats."""
    return TEAM_MARKS[team % len(TEAM_MARKS)]


def _lobby_host(table: Table, actor: Actor) -> None:
    if table.status is not Status.LOBBY:
        raise TableError("already_started")
    if actor.user_id != table.host_id:
        raise TableError("host_only_teams")


def set_teams(table: Table, actor: Actor, count: int) -> Change:
    """The host chooses the number of teams (0: every player for themselves)."""
    _lobby_host(table, actor)
    if count not in TEAM_COUNTS:
        raise TableError("broken_button")
    if count == table.rules.teams:
        return Change(changed=False, note=note("teams_saved"))
    table.rules = dataclasses.replace(table.rules, teams=count)
    for seat in table.seats:  # a pick past the new count no longer names a team
        if seat.team is not None and seat.team >= count:
            seat.team = None
    return Change(note=note("teams_saved"))


def set_partners_see(table: Table, actor: Actor, on: bool) -> Change:
    """The host lets partners see each other's hands, or not."""
    _lobby_host(table, actor)
    if on == table.rules.partners_see:
        return Change(changed=False, note=note("teams_saved"))
    table.rules = dataclasses.replace(table.rules, partners_see=on)
    return Change(note=note("teams_saved"))


def choose_team(table: Table, actor: Actor, team: int | None) -> Change:
    """A seated player picks a team (None: any, the bot seats them)."""
    if table.status is not Status.LOBBY:
        raise TableError("already_started")
    seat = table.seat_of(actor.user_id)
    if seat is None:
        raise TableError("not_in_lobby")
    if not table.rules.teams:
        raise TableError("no_teams")
    if team is not None and not 0 <= team < table.rules.teams:
        raise TableError("broken_button")
    told = note("team_any") if team is None else note("team_chosen", team=team + 1)
    if table.seats[seat].team == team:
        return Change(changed=False, note=told)
    table.seats[seat].team = team
    return Change(note=told)


def check_teams(table: Table) -> None:
    """The start is refused when the teams do not fit the players, or a pick overfills one."""
    teams = table.rules.teams
    if not teams:
        return
    players = len(table.seats)
    if not fits(teams, players):
        counts = ", ".join(str(n) for n in fitting_counts(teams))
        raise TableError("teams_misfit", teams=teams, players=players, counts=counts)
    size = players // teams
    for team in range(teams):
        picked = sum(1 for seat in table.seats if seat.team == team)
        if picked > size:
            raise TableError("team_overfull", team=team + 1, picked=picked, size=size)


def arranged(seats: list[Seat], teams: int) -> list[Seat]:
    """The seats in playing order: seat ``s`` on team ``s mod teams``, picks kept, the others
    in the order they joined (call after ``check_teams``)."""
    if not teams:
        return list(seats)
    size = len(seats) // teams
    members: list[list[Seat]] = [[s for s in seats if s.team == t] for t in range(teams)]
    free = [s for s in seats if s.team is None or not 0 <= s.team < teams]
    for seat in free:  # alternate: each free seat joins the team that is next in line
        team = min(
            (t for t in range(teams) if len(members[t]) < size), key=lambda t: len(members[t])
        )
        members[team].append(seat)
    return [members[t][i] for i in range(size) for t in range(teams)]


def partner_seats(table: Table, seat: int) -> list[int]:
    """The seats on ``seat``'s team at a started table (none without teams)."""
    return partners(seat, len(table.seats), table.rules.teams)


def partner_hands(table: Table, seat: int) -> Change:
    """Nothing changes: the hands of ``seat``'s partners, for that player alone; refused
    without teams or when partners may not see each other's hands."""
    if not table.rules.teams or table.match is None:
        raise TableError("partners_only")
    if not table.rules.partners_see:
        raise TableError("partners_hidden")
    hands = table.match.game.hands
    shown = tuple(
        Reveal(other, tuple(CODES[c] for c in hands[other])) for other in partner_seats(table, seat)
    )
    return Change(changed=False, partners=shown)
