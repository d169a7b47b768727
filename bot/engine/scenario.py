"""The `scenario` command: a dealt deck and a list of actions in, the resulting state out.

Input that is not a well-typed scenario raises ScenarioError with a one-line message; an action
the rules reject is not malformed input: it is reported in the output's ``error``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import errors
from .cards import CARD_INDEX, CODES, COLOR_INDEX, COLORS, Edition, edition_deck
from .errors import RuleError
from .events import write_all
from .game import MAX_PLAYERS, MIN_PLAYERS, Action, Do, Game
from .house import HouseRules
from .phase import Phase
from .rules import DEFAULT_TARGET, Scoring
from .teams import (
    TEAM_COUNTS,
    counts_text,
    fits,
    lowest_tallies,
    round_team_points,
    seat_teams,
    sides_left,
)

DOS = frozenset(Do)  # a str is in it when it spells one


class ScenarioError(ValueError):
    """Malformed scenario input (exit status 2)."""


def short(value: Any) -> str:
    """A bounded one-line repr of user input for messages (never huge, never raising)."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 40 else text[:37] + "..."


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScenarioError(f"{what} must be an integer")
    return value


def _seat(value: Any, players: int, what: str) -> int:
    seat = _int(value, what)
    if not 0 <= seat < players:
        raise ScenarioError(f"{what} {short(seat)} is out of range 0..{players - 1}")
    return seat


def _card(value: Any, what: str) -> int:
    if not isinstance(value, str) or value not in CARD_INDEX:
        raise ScenarioError(f"{what}: unknown card code {short(value)}")
    return CARD_INDEX[value]


def parse_action(raw: Any, index: int, players: int) -> Action | RuleError:
    """An Action, or the bad_action error that rejects it; ScenarioError for malformed input."""
    where = f"actions[{index}]"
    # Optional fields may be absent or null; present, they must have their JSON type.
    if not isinstance(raw, dict):
        raise ScenarioError(f"{where} must be an object")
    do = raw.get("do")
    if do is not None and not isinstance(do, str):
        raise ScenarioError(f"{where}.do must be a string")
    color_name = raw.get("color")
    if color_name is not None and not isinstance(color_name, str):
        raise ScenarioError(f"{where}.color must be a color name")
    uno = raw.get("uno")
    if uno is not None and not isinstance(uno, bool):
        raise ScenarioError(f"{where}.uno must be true or false")
    target = raw.get("target")
    if target is not None:
        target = _int(target, f"{where}.target")
    if "seat" not in raw:
        return errors.bad_action("needs_seat")
    seat = _seat(raw["seat"], players, f"{where}.seat")
    if do not in DOS:
        return errors.bad_action("unknown_action", action=short(do))
    card = None
    if raw.get("card") is not None:
        card = _card(raw["card"], f"{where}.card")
    elif do == "play":
        return errors.bad_action("play_needs_card")
    if do == "catch":
        if target is None:
            return errors.bad_action("catch_needs_target")
        target = _seat(target, players, f"{where}.target")
    elif do == "play" and target is not None and not 0 <= target < players:
        target = -1  # not a seat: rejected (bad_action) where a play needs a target, else ignored
    # An unknown color name is not malformed input: it is a play without a valid color.
    color = COLOR_INDEX.get(color_name) if color_name is not None else None
    if do == "choose_color" and color is None:
        color = -1
    return Action(seat, Do(do), card, color, uno is True, target)


def parse_house(data: dict[str, Any]) -> HouseRules:
    """The scenario's ``house_rules`` object (absent: the printed rules)."""
    raw = data.get("house_rules", {})
    try:
        return HouseRules.parse(raw)
    except ValueError as exc:
        raise ScenarioError(str(exc)) from None


@dataclass(frozen=True, slots=True)
class Options:
    """The scenario's ``options`` object: team play, scoring and target (docs/rules.md)."""

    teams: int = 0
    partners_see: bool = False
    scoring: Scoring = Scoring.STANDARD
    target: int = DEFAULT_TARGET


def parse_options(data: dict[str, Any], players: int) -> Options:
    """The scenario's ``options`` (absent: no teams, standard scoring to 500)."""
    raw = data.get("options", {})
    if not isinstance(raw, dict):
        raise ScenarioError("options must be an object")
    unknown = sorted(set(raw) - {"teams", "partners_see", "scoring", "target"})
    if unknown:
        raise ScenarioError(f"options: unknown option {short(unknown[0])}")
    teams = _int(raw.get("teams", 0), "options.teams")
    if teams not in TEAM_COUNTS:
        raise ScenarioError("options.teams must be 0, 2, 3, 4 or 5")
    partners_see = raw.get("partners_see", False)
    if not isinstance(partners_see, bool):
        raise ScenarioError("options.partners_see must be true or false")
    scoring = raw.get("scoring", "standard")
    if not isinstance(scoring, str) or scoring not in {s.value for s in Scoring}:
        raise ScenarioError('options.scoring must be "standard" or "lowest"')
    target = _int(raw.get("target", DEFAULT_TARGET), "options.target")
    if target < 1:
        raise ScenarioError("options.target must be at least 1")
    if not fits(teams, players):
        raise ScenarioError(f"{teams} teams need {counts_text(teams)} players, not {players}")
    return Options(teams, partners_see, Scoring(scoring), target)


def run_scenario(data: Any, explain: Callable[[RuleError], str] = str) -> dict[str, Any]:
    """Deal the given deck, apply the actions until one is rejected, report the result;
    ``explain`` words a rejection's ``message`` (the command line passes the English texts of
    ``bot.i18n.refusals``; the engine holds none)."""
    if not isinstance(data, dict):
        raise ScenarioError("the scenario must be a JSON object")
    name = data.get("edition")
    if not isinstance(name, str) or name not in {e.value for e in Edition}:
        raise ScenarioError(f"unknown edition {short(name)}")
    edition = Edition(name)
    players = _int(data.get("players"), "players")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ScenarioError(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}")
    dealer = _seat(data.get("dealer", 0), players, "dealer")
    house = parse_house(data)
    options = parse_options(data, players)
    raw_deck = data.get("deck")
    if not isinstance(raw_deck, list):
        raise ScenarioError("deck must be a list of card codes")
    deck = [_card(code, f"deck[{i}]") for i, code in enumerate(raw_deck)]
    if Counter(deck) != Counter(edition_deck(edition)):
        raise ScenarioError(f"deck must hold exactly the {edition.value} deck's cards")
    if house.hand_size * players + 1 > len(deck):
        raise ScenarioError(
            f"the deck cannot deal {house.hand_size} cards to each of {players} players"
        )
    active = parse_active(data, players, dealer)
    seed = _int(data.get("seed", 0), "seed")
    raw_actions = data.get("actions", [])
    if not isinstance(raw_actions, list):
        raise ScenarioError("actions must be a list")
    actions = [parse_action(raw, i, players) for i, raw in enumerate(raw_actions)]

    rng = random.Random(seed)
    game = Game(
        edition, players, dealer, deck, rng, active=active, house=house, teams=options.teams
    )
    error: dict[str, Any] | None = None
    for index, action in enumerate(actions):
        try:
            if isinstance(action, RuleError):
                if game.over:  # once the round is over, every action is not_allowed
                    raise errors.not_allowed("round_over")
                raise action
            apply_one(game, action)
        except RuleError as exc:
            error = {"index": index, "code": exc.code, "message": explain(exc)}
            break
    state = state_of(game)
    if options.teams:
        state.update(team_state(game, options))
    return {"error": error, "state": state, "events": write_all(game.events)}


def parse_active(data: dict[str, Any], players: int, dealer: int) -> list[bool] | None:
    """The optional ``active`` list: which seats are still in the match at the deal."""
    raw = data.get("active")
    if raw is None:
        return None
    if not isinstance(raw, list) or not all(isinstance(a, bool) for a in raw):
        raise ScenarioError("active must be a list of true or false, one per seat")
    if len(raw) != players:
        raise ScenarioError(f"active must name all {players} seats")
    if sum(raw) < MIN_PLAYERS or not raw[dealer]:
        raise ScenarioError("active needs at least 2 seats in play, the dealer among them")
    return list(raw)


def apply_one(game: Game, action: Action) -> None:
    """One action as the bot applies it (``game.apply``, a leave included); then, as the table
    does, a round nobody can finish any more is ended (docs/rules.md)."""
    game.apply(action)
    game.end_if_stalled()


def state_of(game: Game) -> dict[str, Any]:
    """The contract's ``state`` object (``penalty`` only while a penalty awaits its answer)."""
    over = game.over
    state: dict[str, Any] = {
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
    if game.phase is Phase.RESPOND:
        state["penalty"] = game.penalty
    return state


def team_state(game: Game, options: Options) -> dict[str, Any]:
    """The team fields of a team game's state (docs/rules.md, "Teams")."""
    teams = options.teams
    over = game.over
    alive = sides_left(game)
    lowest = options.scoring is Scoring.LOWEST
    forfeit = over and len(alive) == 1
    scores: list[int] | None = None
    winners: list[int] | None = None
    if forfeit:
        scores = [0] * teams
        winners = sorted(alive)
    elif over:
        scores = round_team_points(game, lowest)
        if lowest:
            if any(scores[t] >= options.target for t in alive):
                winners = lowest_tallies(scores, alive)
        elif scores[game.winner % teams] >= options.target:
            winners = [game.winner % teams]
    return {
        "teams": seat_teams(game.n, teams),
        "round_winner_team": game.winner % teams if over and game.winner >= 0 else None,
        "team_scores": scores,
        "match_winner_teams": winners,
    }
