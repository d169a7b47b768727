"""What computer players know of teams: who is a partner, and that a partner going out is a win.

Kept apart from the policies in ``ai``, which ask these few questions of a round: a rollout
counts a partner's win as its own, a catch never aims at a partner, and a card that hurts the
next player is not played on a partner while another card will do.
"""

from __future__ import annotations

from collections import Counter

from .ai_memory import Knowledge
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


PARTNER_HIT = -80.0  # a Skip, Draw Two or Wild Draw Four played on a partner
PARTNER_NEXT = 25.0  # a card that skips an opponent and hands the turn to a partner near out


def card_bonus(state: RoundState, seat: int, hits_next: bool, after: int) -> float:
    """What teams add to the liking for a card: ``hits_next`` says it skips or makes the next
    seat draw, ``after`` is the seat that must match it. Never hurt a partner; hand the turn
    to a partner close to going out."""
    if not state.teams:
        return 0.0
    nxt = state.next_seat(seat)
    score = 0.0
    if hits_next and same_side(state, seat, nxt):
        score += PARTNER_HIT
    if after != nxt and same_side(state, seat, after) and len(state.hands[after]) <= 2:
        score += PARTNER_NEXT
    return score


def block_sign(state: RoundState, seat: int, after: int) -> float:
    """Leaving a card the following seat cannot match helps against an opponent, never
    against a partner (1 or -1)."""
    return -1.0 if after != seat and same_side(state, seat, after) else 1.0


def threat_sizes(state: RoundState, seat: int) -> list[int]:
    """The hand sizes of the seats whose going out would lose the round for ``seat``."""
    return [len(state.hands[s]) for s in opponents(state, seat)] or [len(state.hands[seat])]


def see_partners(state: RoundState, seat: int, info: Knowledge) -> None:
    """With ``partners_see`` on, the seat may look at its partners' hands: they become known
    cards of ``info``, so guesses of the hidden cards deal only the opponents' hands."""
    for partner in range(state.n):
        if partner != seat and state.active[partner] and same_side(state, seat, partner):
            info.known[partner] = Counter(state.hands[partner])
