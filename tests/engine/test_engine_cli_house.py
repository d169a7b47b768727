"""The command line with house rules: `house_rules`, `target`, `penalty`, `simulate --house`, and
malformed input of every kind (always exit 2 and one line, never a traceback)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.engine.helpers import CASES, build_deck, cli, engine, scenario_text

ALL_OPTIONS = {
    "stack": "all",
    "jump_in": True,
    "seven_o": True,
    "draw_until_playable": True,
    "must_play": True,
    "wd4_strict": True,
    "hand_size": 6,
    "uno_penalty": 3,
    "no_action_finish": True,
    "custom_effect": "play_again",
}


def good(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "edition": "classic",
        "players": 3,
        "dealer": 0,
        "deck": build_deck("classic", [[], ["red-7", "red-2"], []], ["red-5"]),
        "seed": 1,
        "house_rules": {"seven_o": True},
        "actions": [{"seat": 1, "do": "play", "card": "red-7", "target": 2}],
    }
    data.update(changes)
    return data


def run(data: Any) -> dict[str, Any]:
    result = scenario_text(data)
    assert result.returncode == 0, result.stderr
    out: dict[str, Any] = json.loads(result.stdout)
    return out


def test_house_rule_scenarios_cover_the_options() -> None:
    used: set[str] = set()
    for path in CASES:
        used.update(json.loads(path.read_text()).get("house_rules", {}))
    assert used == set(ALL_OPTIONS)


def test_target_on_a_play_swaps_hands() -> None:
    out = run(good())
    assert out["error"] is None and out["events"][-1] == {"type": "swap", "seat": 1, "target": 2}
    assert len(out["state"]["hands"][1]) == 7 and len(out["state"]["hands"][2]) == 6


@pytest.mark.parametrize("target", [None, 1, 3, -4, 10**30])
def test_a_seven_without_a_valid_target_is_bad_action(target: int | None) -> None:
    action: dict[str, Any] = {"seat": 1, "do": "play", "card": "red-7"}
    if target is not None:
        action["target"] = target
    out = run(good(actions=[action]))
    assert out["error"]["code"] == "bad_action" and out["state"]["top"] == "red-5"


def test_a_target_on_another_play_is_ignored_even_out_of_range() -> None:
    out = run(good(actions=[{"seat": 1, "do": "play", "card": "red-2", "target": 9}]))
    assert out["error"] is None and out["state"]["top"] == "red-2"


def test_penalty_appears_only_while_the_game_awaits_an_answer() -> None:
    deck = build_deck("classic", [[], ["red-draw2", "red-2"], ["blue-draw2"]], ["red-5"])
    actions: list[dict[str, Any]] = [{"seat": 1, "do": "play", "card": "red-draw2"}]
    out = run(good(deck=deck, house_rules={"stack": "draw2"}, actions=actions))
    assert out["state"]["awaiting"] == "respond" and out["state"]["penalty"] == 2
    actions.append({"seat": 2, "do": "play", "card": "blue-draw2"})
    out = run(good(deck=deck, house_rules={"stack": "draw2"}, actions=actions))
    assert out["state"]["seat"] == 0 and out["state"]["penalty"] == 4
    actions.append({"seat": 0, "do": "accept"})
    out = run(good(deck=deck, house_rules={"stack": "draw2"}, actions=actions))
    assert out["state"]["awaiting"] == "turn" and "penalty" not in out["state"]
    out = run(good(deck=deck, house_rules={}, actions=actions[:1]))
    assert out["state"]["awaiting"] == "turn" and "penalty" not in out["state"]


def test_every_option_at_once_runs() -> None:
    deck = build_deck("classic", [[], ["red-7"], []], ["red-5"], hand_size=6)
    out = run(good(deck=deck, house_rules=ALL_OPTIONS))
    assert out["events"][0] == {"type": "deal", "dealer": 0, "cards": 6}


def test_a_jump_in_is_a_play_by_a_seat_that_is_not_awaited() -> None:
    deck = build_deck("classic", [[], [], ["red-5"]], ["red-5"])
    action = {"seat": 2, "do": "play", "card": "red-5"}
    out = run(good(deck=deck, house_rules={"jump_in": True}, actions=[action]))
    assert out["events"][-2] == {"type": "jump_in", "seat": 2, "turn_of": 1}
    assert out["state"]["seat"] == 0
    out = run(good(deck=deck, house_rules={}, actions=[action]))
    assert out["error"]["code"] == "not_your_turn"


BAD_HOUSE: dict[str, Any] = {
    "house_rules not an object": ["stack"],
    "house_rules a string": "party",
    "house_rules null": None,
    "unknown option": {"stacking": "all"},
    "stack unknown": {"stack": "draw4"},
    "stack a boolean": {"stack": True},
    "jump_in a string": {"jump_in": "true"},
    "jump_in a number": {"jump_in": 1},
    "seven_o null": {"seven_o": None},
    "draw_until_playable a string": {"draw_until_playable": "yes"},
    "must_play a number": {"must_play": 0},
    "wd4_strict an object": {"wd4_strict": {}},
    "hand_size a string": {"hand_size": "7"},
    "hand_size a float": {"hand_size": 7.0},
    "hand_size below 3": {"hand_size": 2},
    "hand_size above 15": {"hand_size": 16},
    "hand_size huge": {"hand_size": 10**4000},
    "uno_penalty negative": {"uno_penalty": -1},
    "uno_penalty above 6": {"uno_penalty": 7},
    "uno_penalty a boolean": {"uno_penalty": False},
    "no_action_finish a string": {"no_action_finish": "false"},
    "custom_effect unknown": {"custom_effect": "explode"},
    "custom_effect a number": {"custom_effect": 1},
}


def one_line_exit_2(data: Any) -> str:
    result = scenario_text(data)
    assert result.returncode == 2, result.stdout
    assert result.stdout == "" and "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and len(lines[0]) < 300
    return lines[0]


@pytest.mark.parametrize("rules", BAD_HOUSE.values(), ids=list(BAD_HOUSE))
def test_bad_house_rules_are_malformed_input(rules: Any) -> None:
    one_line_exit_2(good(house_rules=rules))


def test_a_deal_the_deck_cannot_hold_is_malformed_input() -> None:
    deck = build_deck("classic", [[]] * 8, ["red-5"])
    line = one_line_exit_2(good(players=8, deck=deck, house_rules={"hand_size": 15}, actions=[]))
    assert "deal" in line
    assert run(good(players=7, deck=deck, house_rules={"hand_size": 15}, actions=[]))["state"]


def _nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


BAD_TYPES: dict[str, Any] = {
    "edition a number": good(edition=3),
    "edition nested deeply": good(edition=_nested(500)),
    "players a float": good(players=3.0),
    "players a boolean": good(players=True),
    "dealer a string": good(dealer="0"),
    "seed a float": good(seed=1.5),
    "deck of numbers": good(deck=list(range(108))),
    "actions an object": good(actions={}),
    "action seat a string": good(actions=[{"seat": "1", "do": "draw"}]),
    "action seat a float": good(actions=[{"seat": 1.0, "do": "draw"}]),
    "action do a number": good(actions=[{"seat": 1, "do": 3}]),
    "action do a list": good(actions=[{"seat": 1, "do": ["draw"]}]),
    "action card a number": good(actions=[{"seat": 1, "do": "play", "card": 5}]),
    "action color a number": good(actions=[{"seat": 1, "do": "play", "card": "red-2", "color": 0}]),
    "action uno a string": good(actions=[{"seat": 1, "do": "play", "card": "red-2", "uno": "y"}]),
    "action target a string": good(
        actions=[{"seat": 1, "do": "play", "card": "red-7", "target": "2"}]
    ),
    "action target a float": good(
        actions=[{"seat": 1, "do": "play", "card": "red-7", "target": 2.0}]
    ),
    "action nested deeply": good(actions=[_nested(500)]),
}


@pytest.mark.parametrize("data", BAD_TYPES.values(), ids=list(BAD_TYPES))
def test_wrong_types_anywhere_are_malformed_input(data: Any) -> None:
    one_line_exit_2(data)


def test_an_integer_past_python_s_digit_limit_is_malformed_input() -> None:
    line = one_line_exit_2('{"players": ' + "9" * 5000 + "}")
    assert "JSON" in line


def test_json_nested_past_the_recursion_limit_is_malformed_input() -> None:
    one_line_exit_2("[" * 100_000 + "]" * 100_000)
    one_line_exit_2('{"edition": "classic", "x": ' + "[" * 100_000 + "]" * 100_000 + "}")


def test_optional_fields_may_be_null() -> None:
    action = {"seat": 1, "do": "play", "card": "red-2", "color": None, "uno": None}
    out = run(good(house_rules={}, actions=[action]))
    assert out["error"] is None and out["state"]["top"] == "red-2"


def test_simulate_takes_house_rules() -> None:
    args = ("simulate", "--players", "4", "--games", "30", "--seed", "2")
    house = ("--house", "stack=all", "--house", "jump_in=true", "--house", "seven_o=true")
    result = engine(*args, *house)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["house"] == {"stack": "all", "jump_in": True, "seven_o": True}
    assert out["games"] == 30 and sum(out["wins"]) == 30
    plain = json.loads(cli(*args).stdout)
    assert plain["house"] == {} and plain["turns"] != out["turns"]


@pytest.mark.parametrize(
    "house",
    [
        "stack=some",
        "jump_in=maybe",
        "hand_size=2",
        "hand_size=x",
        "speed=fast",
        "stack",
        "hand_size=15",
    ],
)
def test_simulate_bad_house_rules_exit_2(house: str) -> None:
    result = cli("simulate", "--players", "8", "--games", "1", "--house", house)
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1
    assert "Traceback" not in result.stderr
