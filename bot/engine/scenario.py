"""The `scenario` command: a dealt deck and a list of actions in, the resulting state out."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from .cards import CARD_INDEX, CODES, COLOR_INDEX, COLORS, Edition, edition_deck
from .errors import RuleError
from .game import MAX_PLAYERS, MIN_PLAYERS, Action, Game

DOS = ("play", "draw", "pass", "accept", "challenge", "choose_color", "call_uno", "catch")


class ScenarioError(ValueError):
    """Malformed scenario input (exit status 2)."""


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScenarioError(f"{what} must be an integer")
    return value


def _seat(value: Any, players: int, what: str) -> int:
    seat = _int(value, what)
    if not 0 <= seat < players:
        raise ScenarioError(f"{what} {seat} is out of range 0..{players - 1}")
    return seat


def _card(value: Any, what: str) -> int:
    if not isinstance(value, str) or value not in CARD_INDEX:
        raise ScenarioError(f"{what}: unknown card code {value!r}")
    return CARD_INDEX[value]


def parse_action(raw: Any, index: int, players: int) -> Action | RuleError:
    """An Action, or the bad_action error that rejects it; ScenarioError for malformed input."""
    where = f"actions[{index}]"
    if not isinstance(raw, dict):
        raise ScenarioError(f"{where} must be an object")
    if "seat" not in raw:
        return RuleError("bad_action", "Every action needs a seat.")
    seat = _seat(raw["seat"], players, f"{where}.seat")
    do = raw.get("do")
    if do not in DOS:
        return RuleError("bad_action", f"Unknown action {do!r}.")
    card = None
    if "card" in raw:
        card = _card(raw["card"], f"{where}.card")
    elif do == "play":
        return RuleError("bad_action", "A play needs a card.")
    target = None
    if "target" in raw:
        target = _seat(raw["target"], players, f"{where}.target")
    elif do == "catch":
        return RuleError("bad_action", "A catch needs a target.")
    # An unknown color name is not malformed input: it is a play without a valid color.
    color_name = raw.get("color")
    color = COLOR_INDEX.get(color_name) if isinstance(color_name, str) else None
    if do == "choose_color" and color is None:
        color = -1
    return Action(seat, do, card, color, raw.get("uno") is True, target)


def run_scenario(data: Any) -> dict[str, Any]:
    """Deal the given deck, apply the actions until one is rejected, report the result."""
    if not isinstance(data, dict):
        raise ScenarioError("the scenario must be a JSON object")
    try:
        edition = Edition(str(data.get("edition")))
    except ValueError:
        raise ScenarioError(f"unknown edition {data.get('edition')!r}") from None
    players = _int(data.get("players"), "players")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ScenarioError(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}")
    dealer = _seat(data.get("dealer", 0), players, "dealer")
    raw_deck = data.get("deck")
    if not isinstance(raw_deck, list):
        raise ScenarioError("deck must be a list of card codes")
    deck = [_card(code, f"deck[{i}]") for i, code in enumerate(raw_deck)]
    if Counter(deck) != Counter(edition_deck(edition)):
        raise ScenarioError(f"deck must hold exactly the {edition.value} deck's cards")
    seed = _int(data.get("seed", 0), "seed")
    raw_actions = data.get("actions", [])
    if not isinstance(raw_actions, list):
        raise ScenarioError("actions must be a list")
    actions = [parse_action(raw, i, players) for i, raw in enumerate(raw_actions)]

    game = Game(edition, players, dealer, deck, random.Random(seed))
    error: dict[str, Any] | None = None
    for index, action in enumerate(actions):
        try:
            if isinstance(action, RuleError):
                if game.over:  # once the round is over, every action is not_allowed
                    raise RuleError("not_allowed", "The round is over.")
                raise action
            game.apply(action)
        except RuleError as exc:
            error = {"index": index, "code": exc.code, "message": exc.message}
            break
    return {"error": error, "state": state_of(game), "events": game.events}


def state_of(game: Game) -> dict[str, Any]:
    """The contract's ``state`` object."""
    over = game.over
    return {
        "hands": [[CODES[c] for c in hand] for hand in game.hands],
        "top": CODES[game.discard[-1]],
        "color": COLORS[game.color] if game.color >= 0 else None,
        "direction": game.direction,
        "draw_pile": len(game.draw_pile),
        "discard_pile": len(game.discard),
        "awaiting": game.awaiting,
        "seat": None if over else game.current,
        "uno": game.uno_flags(),
        "winner": game.winner if game.winner >= 0 else None,
        "points": list(game.points) if over and game.points is not None else None,
    }
