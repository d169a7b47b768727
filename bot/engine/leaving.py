"""A player leaving a round: their cards go back into the pile and play goes on without them."""

from __future__ import annotations

from . import errors
from .events import Forfeit, Left
from .phase import Phase
from .state import RoundState
from .teams import sides_left


def leave(state: RoundState, seat: int) -> None:
    """Seat leaves: its hand is shuffled into the draw pile and play goes on without it."""
    if not 0 <= seat < state.n or not state.active[seat]:
        raise errors.not_allowed("not_in_round")
    if state.phase is Phase.OVER:
        state.active[seat] = False
        state.players -= 1
        return
    pile = state.draw_pile
    rng = state.rng
    for card in state.hands[seat]:
        pile.insert(rng.randrange(len(pile) + 1), card)
    returned = len(state.hands[seat])
    state.hands[seat] = []
    state.called[seat] = False
    state.events.append(Left(seat, returned))
    # Work out who goes next before the seat disappears from the rotation.
    was_current = state.current == seat
    following = state.next_seat(seat)
    state.active[seat] = False
    state.players -= 1
    if state.exposed == seat:
        state.exposed = -1
    if len(sides_left(state)) == 1:  # one player, or the partners of one team, still in
        state.phase = Phase.OVER
        state.winner = following
        state.current = -1
        state.exposed = -1
        state.points = [0] * state.n
        state.events.append(Forfeit(following))
        return
    # A penalty whose author left still stands: its target answers as usual (a challenge is
    # judged on the hand recorded at the play); only what would fall back on the author lapses.
    if was_current:
        if state.phase is not Phase.COLOR:
            state.end_response()
            state.drawn = -1
        state.current = following
