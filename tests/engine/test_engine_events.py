"""The typed events: every event a round records writes the record's dict and reads back as the
very same event, under the printed rules and every house rule; equal events are shared."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from bot.engine import Edition, HouseRules, Match, RuleSet
from bot.engine.events import (
    KINDS,
    Bounced,
    Challenged,
    Drew,
    Passed,
    Played,
    Skipped,
    drew,
    played,
    read,
    read_all,
    skipped,
    write_all,
)
from bot.engine.simulate import POLICIES, play_round

HOUSES = [
    {},
    {"stack": "all", "jump_in": True, "seven_o": True},
    {"draw_until_playable": True, "must_play": True, "wd4_strict": True},
    {"no_action_finish": True, "uno_penalty": 4, "hand_size": 4},
    {"custom_effect": "swap_hands"},
    {"custom_effect": "everyone_draws_1"},
    {"custom_effect": "play_again"},
]


@pytest.mark.parametrize("house", HOUSES, ids=lambda h: ",".join(h) or "printed")
def test_every_recorded_event_reads_as_its_type_and_back(house: dict[str, object]) -> None:
    seen: set[str] = set()
    for edition in Edition:
        rules = RuleSet(edition, target=None, house=HouseRules.parse(house))
        for seed in range(12):
            rng = random.Random(seed)
            match = Match(rules, 2 + seed % 5, rng)
            policy = POLICIES["random" if seed % 2 else "normal"]
            play_round(match.game, policy, rng, cap=3000)
            events = [*match.dealer_events, *match.game.events]
            record = json.loads(json.dumps(write_all(events)))
            assert read_all(record) == events
            assert [list(data) for data in record] == [
                ["type", *(name for name in e.__match_args__ if getattr(e, name) is not None)]
                for e in events
            ]
            seen |= {event.TYPE for event in events}
    assert {"deal", "first_card", "play", "draw", "round_over", "dealer"} <= seen


def test_events_are_frozen_and_typed() -> None:
    event = read({"type": "draw", "seat": 1, "count": 2, "reason": "draw2"})
    assert event == Drew(1, 2, "draw2")
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.count = 3  # type: ignore[misc]
    wild = read({"type": "play", "seat": 0, "card": "wild", "color": "red"})
    assert wild == Played(0, "wild", "red") and wild.to_json()["color"] == "red"
    assert read({"type": "play", "seat": 0, "card": "red-1"}).to_json() == {
        "type": "play",
        "seat": 0,
        "card": "red-1",
    }
    shown = read(
        {"type": "challenge", "seat": 2, "target": 1, "legal": False, "hand": ["red-1", "wild"]}
    )
    assert isinstance(shown, Challenged) and shown.hand == ("red-1", "wild")
    assert len(KINDS) == 26
    bounce = Bounced(2, "wild-super-star", "red", 0).to_json()
    assert list(bounce) == ["type", "seat", "card", "color", "target"]


def test_equal_events_are_made_once() -> None:
    assert played(1, "red-5") is played(1, "red-5") == Played(1, "red-5")
    assert drew(0, 2, "draw2") is drew(0, 2, "draw2") != drew(0, 2, "draw4")
    assert played(1, "wild", "red") != played(1, "wild", "blue")
    assert skipped(3) == Skipped(3) != Passed(3)
    with pytest.raises(ValueError, match="unknown event type"):
        read({"type": "dance"})
