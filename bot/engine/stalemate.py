"""A round nobody can finish: nothing left to draw, and no seat holds a card it may play.

Some mixes of house rules allow it (in Sonic under wd4_strict, players who hold only Wild Draw
Fours can never play them). The engine would wait forever for draws that draw nothing, so the
table asks after each change whether the round is stuck (``Game.end_if_stalled``), and it ends
as if the player holding the fewest card points had gone out (docs/rules.md, "A round nobody
can finish").
"""

from __future__ import annotations

from .cards import CARD_POINTS
from .events import Stalled
from .house_effects import holds_playable
from .phase import Phase
from .state import RoundState


def stalled(state: RoundState) -> bool:
    """True when every active seat's only legal action, on its turn, is a draw that draws
    nothing (cheap when cards are left to draw: that is checked first)."""
    if state.phase is not Phase.TURN or state.draw_pile or len(state.discard) > 1:
        return False
    return not any(holds_playable(state, s) for s in range(state.n) if state.active[s])


def stall_winner(state: RoundState) -> int:
    """The seat holding the fewest card points (ties: fewer cards, then the lower seat)."""
    seats = [s for s in range(state.n) if state.active[s]]
    hands = state.hands
    return min(seats, key=lambda s: (sum(CARD_POINTS[c] for c in hands[s]), len(hands[s]), s))


def end_stalled(state: RoundState) -> int:
    """End a stalled round as if the winner had gone out: their hand is laid down under the
    top card (every card stays in the round) and the round is scored as usual; returns the
    winner's seat."""
    winner = stall_winner(state)
    hand = state.hands[winner]
    state.discard[:0] = hand  # under the top card: the pile's top stays what everyone saw
    hand.clear()
    state.events.append(Stalled(winner))
    state.win(winner)
    return winner
