"""A player leaving a round: their cards go back into the pile and play goes on without them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import errors
from .phase import Phase

if TYPE_CHECKING:
    from .game import Game


def leave(game: Game, seat: int) -> None:
    """Seat leaves: its hand is shuffled into the draw pile and play goes on without it."""
    if not 0 <= seat < game.n or not game.active[seat]:
        raise errors.not_allowed("That player is not in this round.")
    if game.phase is Phase.OVER:
        game.active[seat] = False
        game.players -= 1
        return
    pile = game.draw_pile
    rng = game.rng
    for card in game.hands[seat]:
        pile.insert(rng.randrange(len(pile) + 1), card)
    returned = len(game.hands[seat])
    game.hands[seat] = []
    game.called[seat] = False
    game.events.append({"type": "leave", "seat": seat, "returned": returned})
    # Work out who goes next before the seat disappears from the rotation.
    was_current = game.current == seat
    following = game.next_seat(seat)
    game.active[seat] = False
    game.players -= 1
    if game.exposed == seat:
        game.exposed = -1
    if game.players == 1:
        game.phase = Phase.OVER
        game.winner = following
        game.current = -1
        game.exposed = -1
        game.points = [0] * game.n
        game.events.append({"type": "forfeit", "winner": following})
        return
    # A penalty whose author left still stands: its target answers as usual (a challenge is
    # judged on the hand recorded at the play); only what would fall back on the author lapses.
    if was_current:
        if game.phase is not Phase.COLOR:
            game.end_response()
            game.drawn = -1
        game.current = following
