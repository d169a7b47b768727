"""A round to and from a JSON-ready dict, so a restart resumes it exactly, house rules and all."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from .cards import WILD_DRAW4, Edition
from .house import HouseRules
from .phase import Phase

if TYPE_CHECKING:
    from .game import Game


def game_to_dict(game: Game) -> dict[str, Any]:
    """Everything needed to resume the round exactly."""
    state = game.rng.getstate()
    return {
        "edition": game.edition.value,
        "n": game.n,
        "active": list(game.active),
        "dealer": game.dealer,
        "house_rule": game.house_rule,
        "hands": [list(h) for h in game.hands],
        "draw_pile": list(game.draw_pile),
        "discard": list(game.discard),
        "color": game.color,
        "direction": game.direction,
        "phase": int(game.phase),
        "current": game.current,
        "drawn": game.drawn,
        "called": list(game.called),
        "exposed": game.exposed,
        "pending": [game.pending_card, game.pending_from, game.pending_legal],
        "pending_hand": list(game.pending_hand),
        "winner": game.winner,
        "points": list(game.points) if game.points is not None else None,
        "rng": [state[0], list(state[1]), state[2]],
        "events": list(game.events),  # a copy: a saved state must not change with the game
        "house": game.house.to_dict(),
        "penalty": game.penalty,
    }


def restore_game(game: Game, data: dict[str, Any]) -> None:
    """Fill a bare ``Game`` from ``game_to_dict``'s output."""
    game.edition = Edition(data["edition"])
    game.n = int(data["n"])
    game.active = [bool(a) for a in data["active"]]
    game.players = sum(game.active)
    game.dealer = int(data["dealer"])
    game.house_rule = str(data["house_rule"])
    game.configure(HouseRules.parse(data.get("house") or {}))
    game.hands = [[int(c) for c in h] for h in data["hands"]]
    game.draw_pile = [int(c) for c in data["draw_pile"]]
    game.discard = [int(c) for c in data["discard"]]
    game.color = int(data["color"])
    game.direction = int(data["direction"])
    game.phase = Phase(int(data["phase"]))
    game.current = int(data["current"])
    game.drawn = int(data["drawn"])
    game.called = [bool(c) for c in data["called"]]
    game.exposed = int(data["exposed"])
    game.pending_card = int(data["pending"][0])
    game.pending_from = int(data["pending"][1])
    game.pending_legal = bool(data["pending"][2])
    game.pending_hand = [int(c) for c in data["pending_hand"]]
    penalty = data.get("penalty")
    if penalty is None:  # saved before stacking existed: the pending card's own count
        responding = game.phase is Phase.RESPOND
        penalty = (4 if game.pending_card == WILD_DRAW4 else 2) if responding else 0
    game.penalty = int(penalty)
    game.winner = int(data["winner"])
    game.points = list(data["points"]) if data["points"] is not None else None
    rng = random.Random()
    version, internal, gauss = data["rng"]
    rng.setstate((version, tuple(internal), gauss))
    game.rng = rng
    game.events = list(data["events"])
