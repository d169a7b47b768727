"""The engine's command line (docs/rules.md): scenario files, malformed input, stdin, simulate."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.engine.helpers import (
    CASES,
    SCENARIOS,
    build_deck,
    cli,
    edition_codes,
    engine,
    scenario_text,
)

STATE_FIELDS = (
    "hands",
    "top",
    "color",
    "direction",
    "draw_pile",
    "discard_pile",
    "awaiting",
    "seat",
    "uno",
    "winner",
    "points",
)


def check_output(got: dict[str, Any], expected: dict[str, Any]) -> None:
    assert set(got) == {"error", "state", "events"}
    assert got["error"] == expected["error"]
    state, want = got["state"], expected["state"]
    assert set(STATE_FIELDS) <= set(state)
    for field in STATE_FIELDS:
        if field == "hands":  # order inside a hand is free
            assert [sorted(h) for h in state[field]] == [sorted(h) for h in want[field]]
        else:
            assert state[field] == want[field], field
    assert got["events"] == expected["events"]
    assert all(isinstance(e, dict) and isinstance(e.get("type"), str) for e in got["events"])


def test_there_are_scenarios_for_every_edition() -> None:
    editions = {json.loads(p.read_text())["edition"] for p in CASES}
    assert editions == {"classic", "sonic", "mario"} and len(CASES) >= 5


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_scenario_file_gives_the_expected_output(path: Path) -> None:
    result = engine("scenario", str(path))
    assert result.returncode == 0 and result.stderr == ""
    expected = json.loads(path.with_suffix(".expected.json").read_text())
    out = json.loads(result.stdout)
    check_output(out, expected)
    # Each event's keys in the order the record has always written them.
    assert [list(event) for event in out["events"]] == [list(e) for e in expected["events"]]


def test_scenario_from_standard_input() -> None:
    path = SCENARIOS / "sonic.json"
    result = engine("scenario", "-", stdin=path.read_text())
    assert result.returncode == 0
    expected = json.loads(path.with_suffix(".expected.json").read_text())
    check_output(json.loads(result.stdout), expected)


def test_scenario_cards_accounted_for() -> None:
    for path in CASES:
        data = json.loads(path.read_text())
        state = json.loads(cli("scenario", str(path)).stdout)["state"]
        held = sum(len(h) for h in state["hands"])
        assert held + state["draw_pile"] + state["discard_pile"] == len(data["deck"])


def good() -> dict[str, Any]:
    return {
        "edition": "classic",
        "players": 3,
        "dealer": 0,
        "deck": build_deck("classic", [[], ["red-2"], []], ["red-5"]),
        "seed": 1,
        "actions": [{"seat": 1, "do": "play", "card": "red-2"}],
    }


def test_good_input_runs() -> None:
    result = scenario_text(good())
    assert result.returncode == 0
    assert json.loads(result.stdout)["state"]["top"] == "red-2"


def _with(**changes: Any) -> dict[str, Any]:
    data = good()
    data.update(changes)
    return data


classic = edition_codes("classic")

BAD_INPUTS: dict[str, Any] = {
    "malformed JSON": '{"edition": "classic", ',
    "not JSON at all": "uno!",
    "empty input": "",
    "non-object (list)": "[1, 2, 3]",
    "non-object (string)": '"classic"',
    "non-object (null)": "null",
    "unknown edition": _with(edition="uno-flip"),
    "missing edition": {k: v for k, v in good().items() if k != "edition"},
    "deck missing a card": _with(deck=classic[1:]),
    "deck with an extra card": _with(deck=[*classic, "red-5"]),
    "deck of the wrong edition": _with(deck=edition_codes("sonic")),
    "deck swapping a card": _with(deck=["blue-5", *classic[1:]] if classic[0] != "blue-5" else []),
    "mario deck for sonic": _with(edition="sonic", deck=edition_codes("mario")),
    "deck not a list": _with(deck="red-5"),
    "unknown card code in the deck": _with(deck=["purple-5", *classic[1:]]),
    "unknown card code in an action": _with(actions=[{"seat": 1, "do": "play", "card": "red-10"}]),
    "seat out of range": _with(actions=[{"seat": 3, "do": "draw"}]),
    "negative seat": _with(actions=[{"seat": -1, "do": "draw"}]),
    "catch target out of range": _with(actions=[{"seat": 0, "do": "catch", "target": 9}]),
    "dealer out of range": _with(dealer=3),
    "too few players": _with(players=1),
    "too many players": _with(players=11),
    "players not a number": _with(players="3"),
    "seed not a number": _with(seed="x"),
    "actions not a list": _with(actions={"seat": 1}),
    "action not an object": _with(actions=["draw"]),
}


@pytest.mark.parametrize("data", BAD_INPUTS.values(), ids=list(BAD_INPUTS))
def test_bad_input_exits_2_with_one_line(data: Any) -> None:
    result = scenario_text(data)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].strip(), result.stderr
    assert "Traceback" not in result.stderr


def test_unreadable_and_non_utf8_files_exit_2(tmp_path: Path) -> None:
    missing = engine("scenario", str(tmp_path / "nope.json"))
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe{\x00")
    for result in (missing, engine("scenario", str(binary))):
        assert result.returncode == 2 and len(result.stderr.splitlines()) == 1
        assert "Traceback" not in result.stderr


def test_rejected_actions_are_not_input_errors() -> None:
    for code, action in {
        "bad_action": {"seat": 1, "do": "dance"},
        "not_your_turn": {"seat": 2, "do": "draw"},
        "not_in_hand": {"seat": 1, "do": "play", "card": "wild-draw4"},
    }.items():
        result = scenario_text(_with(actions=[action]))
        out = json.loads(result.stdout)
        assert result.returncode == 0 and out["error"]["code"] == code
        assert out["error"]["index"] == 0 and out["state"]["top"] == "red-5"


def test_wild_with_unknown_color_is_bad_color() -> None:
    data = _with(
        deck=build_deck("classic", [[], ["wild"], []], ["red-5"]),
        actions=[{"seat": 1, "do": "play", "card": "wild", "color": "purple"}],
    )
    out = json.loads(scenario_text(data).stdout)
    assert out["error"]["code"] == "bad_color" and out["state"]["top"] == "red-5"


def test_missing_fields_are_bad_action() -> None:
    for action in ({"seat": 1, "do": "play"}, {"seat": 1, "do": "catch"}, {"do": "draw"}):
        out = json.loads(scenario_text(_with(actions=[action])).stdout)
        assert out["error"]["code"] == "bad_action"


def test_a_seat_leaves_out_of_turn() -> None:
    """Seat 2 leaves while seat 1 is awaited: its cards go back into the pile, play goes on."""
    out = json.loads(scenario_text(_with(actions=[{"seat": 2, "do": "leave"}])).stdout)
    assert out["error"] is None
    assert out["events"][-1] == {"type": "leave", "seat": 2, "returned": 7}
    state = out["state"]
    assert state["hands"][2] == [] and state["seat"] == 1 and state["awaiting"] == "turn"
    assert state["draw_pile"] == 108 - 21 - 1 + 7
    left = {"seat": 2, "do": "leave"}
    again = json.loads(scenario_text(_with(actions=[left, left])).stdout)
    assert again["error"]["code"] == "not_allowed" and again["error"]["index"] == 1


def test_refusals_are_told_in_english() -> None:
    out = json.loads(scenario_text(_with(actions=[{"seat": 2, "do": "draw"}])).stdout)
    assert out["error"] == {"index": 0, "code": "not_your_turn", "message": "It is not your turn."}
    out = json.loads(scenario_text(_with(actions=[{"seat": 1, "do": "dance"}])).stdout)
    assert out["error"]["message"] == "Unknown action 'dance'."


def test_round_over_rejects_even_unknown_actions() -> None:
    data = json.loads((SCENARIOS / "uno_and_last_card.json").read_text())
    assert data["actions"][13]["card"] == "wild-draw4"  # seat 0's last card
    data["actions"] = [*data["actions"][:14], {"seat": 1, "do": "dance"}]
    out = json.loads(scenario_text(data).stdout)
    assert out["state"]["awaiting"] == "round_over" and out["state"]["seat"] is None
    assert out["error"]["code"] == "not_allowed" and out["error"]["index"] == 14


@pytest.mark.parametrize("edition", ["classic", "sonic", "mario"])
def test_simulate_prints_the_contract_fields(edition: str) -> None:
    args = ("simulate", "--edition", edition, "--players", "5", "--games", "40", "--seed", "3")
    result = engine(*args)
    assert result.returncode == 0 and result.stderr == ""
    out = json.loads(result.stdout)
    assert out["games"] == 40 and sum(out["wins"]) == 40 and len(out["wins"]) == 5
    assert out["turns"] > 40 and out["seconds"] > 0 and out["games_per_s"] > 0
    assert json.loads(cli(*args).stdout)["turns"] == out["turns"]  # seeded


@pytest.mark.parametrize(
    "args", [("--players", "1"), ("--players", "11"), ("--edition", "uno-flip"), ("--games", "-1")]
)
def test_simulate_bad_options_exit_2(args: tuple[str, ...]) -> None:
    result = cli("simulate", *args)
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1
