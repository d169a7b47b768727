"""A round nobody can finish: nothing left to draw, and no seat holds a card it may play.

Some mixes of house rules allow it (in Sonic under wd4_strict, players who hold only Wild Draw
Fours can never play them). The engine would wait forever for draws that draw nothing, so the
table asks the engine after each change whether the round is stuck, and ends it as if the
player holding the fewest card points had gone out (docs/rules.md, "A round nobody can finish").
"""

from __future__ import annotations

from .cards import CARD_POINTS
from .game import Game, Phase


def stalled(game: Game) -> bool:
    """True when every active seat's only legal action, on its turn, is a draw that draws
    nothing (cheap when cards are left to draw: that is checked first)."""
    if game.phase is not Phase.TURN or game.draw_pile or len(game.discard) > 1:
        return False
    for seat in range(game.n):
        if not game.active[seat]:
            continue
        probe = game.clone()  # a private copy: whose turn it is changes nothing live
        probe.current = seat
        if any(action.do != "draw" for action in probe.legal_actions(seat)):
            return False
    return True


def stall_winner(game: Game) -> int:
    """The seat holding the fewest card points (ties: fewer cards, then the lower seat)."""
    seats = [s for s in range(game.n) if game.active[s]]
    hands = game.hands
    return min(seats, key=lambda s: (sum(CARD_POINTS[c] for c in hands[s]), len(hands[s]), s))


def end_stalled(game: Game) -> int:
    """End a stalled round as if the winner had gone out: their hand is laid down under the
    top card (every card stays in the round) and the round is scored by the engine as usual;
    returns the winner's seat."""
    winner = stall_winner(game)
    hand = game.hands[winner]
    game.discard[:0] = hand  # under the top card: the pile's top stays what everyone saw
    hand.clear()
    game.events.append({"type": "stalled", "winner": winner})
    game.win(winner)
    return winner
