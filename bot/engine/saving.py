"""A round to and from a JSON-ready dict, so a restart resumes it exactly, house rules and all."""

from __future__ import annotations

import base64
import random
import struct
from typing import TYPE_CHECKING, Any

from .cards import WILD_DRAW4, Edition
from .house import HouseRules
from .phase import Phase

if TYPE_CHECKING:
    from .game import Game


def rng_to_json(rng: random.Random) -> list[Any]:
    """A generator's state, JSON-ready: its 625 words packed in base64 (3.3 KB of text, where
    the words as JSON numbers took 7 KB and most of the time of saving a table)."""
    version, internal, gauss = rng.getstate()
    packed = base64.b64encode(struct.pack(f"<{len(internal)}I", *internal)).decode("ascii")
    return [version, packed, gauss]


def rng_from_json(data: list[Any]) -> random.Random:
    """A generator in the state ``rng_to_json`` saved (or an older save's list of numbers)."""
    version, internal, gauss = data
    if isinstance(internal, str):
        raw = base64.b64decode(internal)
        words: tuple[int, ...] = struct.unpack(f"<{len(raw) // 4}I", raw)
    else:
        words = tuple(int(w) for w in internal)
    rng = random.Random()
    rng.setstate((version, words, gauss))
    return rng


def game_to_dict(game: Game) -> dict[str, Any]:
    """Everything needed to resume the round exactly."""
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
        "rng": rng_to_json(game.rng),
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
    game.rng = rng_from_json(data["rng"])
    game.events = list(data["events"])
