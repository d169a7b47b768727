"""What computer players know of teams: who is a partner, and that a partner going out is a win.

Kept apart from the policies in ``ai``, which ask these few questions of a round: a rollout
counts a partner's win as its own, a catch never aims at a partner, and a card that hurts the
next player is not played on a partner while another card will do.
"""

from __future__ import annotations

from .state import RoundState


def same_side(state: RoundState, seat: int, other: int) -> bool:
    """Are ``seat`` and ``other`` the same player or partners."""
    if seat == other:
        return True
    teams = state.teams
    return bool(teams) and seat >= 0 and other >= 0 and seat % teams == other % teams


def won_for(state: RoundState, seat: int) -> bool:
    """Did the finished round go to ``seat``'s side (``seat`` or a partner went out)."""
    return state.winner >= 0 and same_side(state, state.winner, seat)


def opponents(state: RoundState, seat: int) -> list[int]:
    """The active seats not on ``seat``'s side."""
    return [s for s in range(state.n) if state.active[s] and not same_side(state, s, seat)]


def may_catch(state: RoundState, seat: int, target: int) -> bool:
    """A catch helps ``seat`` only against an opponent."""
    return not same_side(state, seat, target)
