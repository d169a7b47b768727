"""Round records: every round of seeded simulated matches replays to its stored scores and
final state; the compact form and the scenario file carry the same round; bad files refused."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from bot.engine import PRESETS, Action, HouseRules, RuleSet
from bot.engine.cards import CARD_INDEX, CODES, Edition, edition_deck
from bot.engine.house import CustomEffect, Stack
from bot.engine.match import Match
from bot.engine.playout import play_match
from bot.engine.record import RecordError, RoundRecord
from bot.engine.rules import Scoring
from bot.engine.scenario import run_scenario, state_of

EDITIONS = (Edition.CLASSIC, Edition.SONIC, Edition.MARIO)
HOUSES = (
    PRESETS["official"],
    PRESETS["party"],
    PRESETS["chill"],
    HouseRules(stack=Stack.ALL, seven_o=True, uno_penalty=4),
    HouseRules(wd4_strict=True, draw_until_playable=True, must_play=True),
)


def simulated_match(seed: int) -> Match:
    """A seeded match of 2 to 4 computer players, its edition, scoring and house rules varied."""
    edition = EDITIONS[seed % 3]
    house = HOUSES[seed % len(HOUSES)]
    if edition is Edition.MARIO and seed % 2:
        effects = [e for e in CustomEffect if e is not CustomEffect.NONE]
        house = house.with_option("custom_effect", effects[seed % len(effects)])
    scoring = Scoring.LOWEST if seed % 4 == 3 else Scoring.STANDARD
    rules = RuleSet(edition=edition, scoring=scoring, target=150, house=house)
    levels = ("easy", "normal", "easy", "normal")[: 2 + seed % 3]
    return play_match(rules, levels, seed, leave=0.01)


@pytest.mark.parametrize("seed", range(40))
def test_every_recorded_round_replays_to_its_stored_scores(seed: int) -> None:
    match = simulated_match(seed)
    assert match.rounds and len(match.records) == len(match.rounds)
    for text, points in zip(match.records, match.rounds, strict=True):
        record = RoundRecord.from_text(text)
        assert record.points == tuple(points)
        assert record.replayed_points() == points
    # The last round is still the live game: the replay reaches exactly its final state.
    last = RoundRecord.from_text(match.records[-1]).replay()
    assert state_of(last) == state_of(match.game)
    assert last.events == match.game.events


def test_a_round_a_player_left_and_later_rounds_without_them_replay() -> None:
    rules = RuleSet(edition=Edition.CLASSIC, target=300)
    found = False
    for seed in range(60):
        match = play_match(rules, ("easy", "easy", "easy", "easy"), seed, leave=0.02)
        records = [RoundRecord.from_text(t) for t in match.records]
        left = [r for r in records if any(a.do == "leave" for a in r.actions)]
        later = [r for r in records if r.active and not all(r.active)]
        if left and later:
            found = True
            for record, points in zip(records, match.rounds, strict=True):
                assert record.replayed_points() == points
            break
    assert found, "no seed had a player leave and a later round without them"


def test_the_compact_form_is_small_and_round_trips() -> None:
    match = simulated_match(1)
    for text in match.records:
        record = RoundRecord.from_text(text)
        assert record.to_text() == text
        assert len(text) < 200 + 8 * len(record.actions)  # a card a character, a move a few


def test_every_kind_of_move_survives_the_compact_form() -> None:
    moves = (
        Action(1, "play", CARD_INDEX["wild-draw4"], 3, True),
        Action(2, "play", CARD_INDEX["red-7"], None, False, 0),
        Action(9, "catch", target=4),
        Action(0, "choose_color", color=2),
        *(Action(3, do) for do in ("draw", "pass", "accept", "challenge", "call_uno", "leave")),
    )
    deck = tuple(edition_deck(Edition.CLASSIC))
    record = RoundRecord(Edition.CLASSIC, 10, 0, deck, 2**64 - 1, moves)
    assert RoundRecord.from_text(record.to_text()) == record
    assert '"x":"1prb!2p7@09x40kg3d3s3a3c3u3l"' in record.to_text()


@pytest.mark.parametrize("moves", ["1", "1q", "1p", "1x", "1p7@", "p1", "1d,2d"])
def test_a_damaged_move_list_is_refused(moves: str) -> None:
    text = RoundRecord(Edition.CLASSIC, 2, 0, tuple(edition_deck(Edition.CLASSIC)), 1, ()).to_text()
    with pytest.raises(RecordError, match=r"bad move|without"):
        RoundRecord.from_text(text.replace('"x":""', f'"x":"{moves}"'))


def test_the_scenario_file_is_what_the_scenario_command_replays() -> None:
    match = simulated_match(2)
    record = RoundRecord.from_text(match.records[0])
    data = record.to_scenario(match=7, round=1, names=["Ann", "Bo", "Cy"])
    result = run_scenario(json.loads(json.dumps(data)))
    assert result["error"] is None
    assert result["state"] == state_of(record.replay())
    assert RoundRecord.from_scenario(data) == record


def test_the_command_line_replays_an_exported_round() -> None:
    record = RoundRecord.from_text(simulated_match(0).records[0])
    done = subprocess.run(
        [sys.executable, "-m", "bot.engine", "scenario", "-"],
        input=json.dumps(record.to_scenario()),
        capture_output=True,
        text=True,
        check=True,
    )
    state = json.loads(done.stdout)["state"]
    assert state["awaiting"] == "round_over"
    if record.scoring is Scoring.STANDARD and not record.forfeit:
        assert tuple(state["points"]) == record.points


def valid_file() -> dict[str, object]:
    return RoundRecord.from_text(simulated_match(3).records[0]).to_scenario()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(deck=d["deck"][1:]), "deck must hold exactly"),
        (lambda d: d.update(edition="uno-flip"), "unknown edition"),
        (lambda d: d["actions"].insert(0, {"seat": 9, "do": "draw"}), "out of range"),
        (lambda d: d["actions"].insert(0, {"seat": 0, "do": "dance"}), "refused"),
        (lambda d: d["record"].update(points=[1]), "one whole number per seat"),
        (lambda d: d["record"].update(points=[999] * d["players"]), "not what the round"),
        (lambda d: d.update(active=[True]), "active must name"),
    ],
)
def test_an_imported_file_is_checked_like_any_input(change, message: str) -> None:  # type: ignore[no-untyped-def]
    data = valid_file()
    change(data)
    with pytest.raises(RecordError, match=message):
        RoundRecord.from_scenario(data)


@pytest.mark.parametrize("bad", ["", "[]", '{"v": 2}', '{"v": 1, "e": "classic"}', "{"])
def test_a_damaged_stored_record_is_refused_in_one_line(bad: str) -> None:
    with pytest.raises(RecordError):
        RoundRecord.from_text(bad)


def test_a_leave_in_a_scenario_puts_the_cards_back_and_play_goes_on() -> None:
    deck = [CODES[c] for c in edition_deck(Edition.CLASSIC)]
    data = {
        "edition": "classic",
        "players": 3,
        "deck": deck,
        "seed": 1,
        "actions": [{"seat": 2, "do": "leave"}],
    }
    result = run_scenario(data)
    assert result["error"] is None
    assert result["state"]["hands"][2] == []
    assert result["events"][-1]["type"] == "leave"
    again = run_scenario({**data, "actions": [{"seat": 2, "do": "leave"}] * 2})
    assert again["error"]["code"] == "not_allowed"


def test_a_scenario_deals_only_to_the_seats_still_in_the_match() -> None:
    deck = [CODES[c] for c in edition_deck(Edition.CLASSIC)]
    data = {"edition": "classic", "players": 3, "deck": deck, "active": [True, False, True]}
    state = run_scenario(data)["state"]
    assert [len(h) for h in state["hands"]] == [7, 0, 7]
    assert state["draw_pile"] == 108 - 15


def test_the_match_records_a_leave_and_scores_a_forfeit_as_nothing() -> None:
    match = Match(RuleSet(target=None), 2, random.Random(4))
    match.leave(0)
    record = RoundRecord.from_text(match.records[-1])
    assert record.actions == (Action(0, "leave"),)
    assert record.forfeit and record.points == (0, 0)
    assert record.replayed_points() == [0, 0]
