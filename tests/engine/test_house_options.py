"""HouseRules: strict parsing, presets, the saved form, and house-ruled games after a save."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.engine import (
    OPTIONS,
    PRESETS,
    CustomEffect,
    Edition,
    Game,
    HouseRules,
    Match,
    RuleSet,
    Stack,
    public_view,
)
from bot.engine.simulate import random_policy
from tests.engine.helpers import act, do, give, hand, play, table3, through_json

EVERYTHING: dict[str, Any] = {
    "stack": "all",
    "jump_in": True,
    "seven_o": True,
    "draw_until_playable": True,
    "must_play": True,
    "wd4_strict": True,
    "hand_size": 9,
    "uno_penalty": 4,
    "no_action_finish": True,
    "custom_effect": "rotate_hands",
}


def test_defaults_are_the_printed_rules() -> None:
    rules = HouseRules()
    assert rules.official and rules.to_dict() == {} and rules.changed() == ()
    assert (rules.stack, rules.hand_size, rules.uno_penalty) == (Stack.NONE, 7, 2)
    assert rules.custom_effect is CustomEffect.NONE
    assert [o.name for o in OPTIONS] == list(EVERYTHING)


def test_parse_reads_every_option_and_to_dict_gives_it_back() -> None:
    rules = HouseRules.parse(EVERYTHING)
    assert rules.stack is Stack.ALL and rules.custom_effect is CustomEffect.ROTATE_HANDS
    assert rules.to_dict() == EVERYTHING and not rules.official
    assert HouseRules.parse(through_json(rules.to_dict())) == rules


def test_to_dict_omits_defaults_and_changed_lists_the_rest_in_option_order() -> None:
    rules = HouseRules.parse({"uno_penalty": 2, "seven_o": True, "stack": "draw2"})
    assert rules.to_dict() == {"stack": "draw2", "seven_o": True}
    assert rules.changed() == (("stack", "draw2"), ("seven_o", True))


BAD: dict[str, Any] = {
    "unknown name": {"stacking": "all"},
    "stack not a name": {"stack": True},
    "stack unknown": {"stack": "draw4"},
    "jump_in as a number": {"jump_in": 1},
    "jump_in as text": {"jump_in": "true"},
    "seven_o null": {"seven_o": None},
    "draw_until_playable as text": {"draw_until_playable": "yes"},
    "must_play as a number": {"must_play": 0},
    "wd4_strict as a list": {"wd4_strict": [True]},
    "hand_size as text": {"hand_size": "7"},
    "hand_size as a float": {"hand_size": 7.0},
    "hand_size too small": {"hand_size": 2},
    "hand_size too big": {"hand_size": 16},
    "hand_size as a boolean": {"hand_size": True},
    "uno_penalty negative": {"uno_penalty": -1},
    "uno_penalty too big": {"uno_penalty": 7},
    "uno_penalty huge": {"uno_penalty": 10**50},
    "no_action_finish as text": {"no_action_finish": "false"},
    "custom_effect unknown": {"custom_effect": "swap"},
    "custom_effect not text": {"custom_effect": 3},
}


@pytest.mark.parametrize("data", BAD.values(), ids=list(BAD))
def test_parse_rejects_unknown_names_wrong_types_and_out_of_range(data: dict[str, Any]) -> None:
    with pytest.raises(ValueError) as info:
        HouseRules.parse(data)
    message = str(info.value)
    assert "\n" not in message and next(iter(data)) in message and len(message) < 120


@pytest.mark.parametrize("data", [None, [], "stack=all", 3])
def test_parse_needs_an_object(data: object) -> None:
    with pytest.raises(ValueError, match="object"):
        HouseRules.parse(data)


def test_direct_construction_is_checked_too() -> None:
    with pytest.raises(ValueError):
        HouseRules(hand_size=20)
    assert HouseRules(stack="all").stack is Stack.ALL  # type: ignore[arg-type]


def test_from_text_reads_name_value_pairs() -> None:
    rules = HouseRules.from_text(["stack=all", "jump_in=true", "hand_size=5", "seven_o=false"])
    assert rules.to_dict() == {"stack": "all", "jump_in": True, "hand_size": 5}
    for bad in (["stack"], ["jump=true"], ["jump_in=yes"], ["hand_size=5.0"], ["hand_size=99999"]):
        with pytest.raises(ValueError):
            HouseRules.from_text(bad)


def test_with_option_changes_one_option_with_the_same_checks() -> None:
    rules = HouseRules().with_option("jump_in", True)
    assert rules.to_dict() == {"jump_in": True}
    with pytest.raises(ValueError):
        rules.with_option("hand_size", "9")


def test_presets_official_party_and_chill() -> None:
    assert list(PRESETS) == ["official", "party", "chill"]
    assert HouseRules.preset("official") == HouseRules()
    assert HouseRules.preset("party").to_dict() == {
        "stack": "all",
        "jump_in": True,
        "seven_o": True,
    }
    assert HouseRules.preset("chill").to_dict() == {
        "draw_until_playable": True,
        "wd4_strict": True,
    }
    assert HouseRules.preset("party").preset_name == "party"
    assert HouseRules(jump_in=True).preset_name is None
    with pytest.raises(ValueError, match="preset"):
        HouseRules.preset("wild")


def test_ruleset_carries_house_rules_and_an_old_record_loads_official() -> None:
    rules = RuleSet(Edition.MARIO, target=200, house=HouseRules.preset("party"))
    data = through_json(rules.to_dict())
    assert data["house"] == {"stack": "all", "jump_in": True, "seven_o": True}
    assert RuleSet.from_dict(data) == rules
    old = {"edition": "classic", "scoring": "standard", "target": 500, "house_rule": ""}
    assert RuleSet.from_dict(old) == RuleSet() and RuleSet.from_dict(old).house.official
    assert RuleSet(Edition.SONIC).house.official  # positional order kept, house last


# ----- saved games -----


def resumed(game: Game) -> Game:
    return Game.from_dict(through_json(game.to_dict()))


def test_a_game_saved_mid_stack_resumes_unchanged() -> None:
    game = table3(
        "classic", ["red-draw2"], p2=["blue-draw2"], p0=["wild-draw4"], house={"stack": "all"}
    )
    play(game, 1, "red-draw2")
    play(game, 2, "blue-draw2")
    copy = resumed(game)
    assert copy.penalty == 4 and copy.house == game.house
    assert copy.legal_actions() == game.legal_actions()
    assert play(copy, 0, "wild-draw4", "red") == play(game, 0, "wild-draw4", "red")
    assert copy.penalty == 8 and copy.to_dict() == through_json(game.to_dict())
    assert do(copy, 1, "challenge") == do(game, 1, "challenge")


def test_a_game_saved_where_a_jump_in_is_possible_resumes_unchanged() -> None:
    game = table3("classic", p2=["red-5"], house={"jump_in": True, "seven_o": True})
    copy = resumed(game)
    assert copy.legal_actions(2) == game.legal_actions(2) != []
    assert play(copy, 2, "red-5") == play(game, 2, "red-5")


def test_a_game_saved_after_a_draw_under_must_play_resumes_unchanged() -> None:
    house = {"must_play": True, "draw_until_playable": True}
    game = table3("classic", then=("green-7", "red-9"), house=house)
    do(game, 1, "draw")
    copy = resumed(game)
    assert copy.awaiting == "drawn" and [a.do for a in copy.legal_actions()] == ["play"]


def test_a_save_from_before_house_rules_loads_with_the_printed_rules() -> None:
    game = table3("mario", ["red-draw2"])
    play(game, 1, "red-draw2")
    data = through_json(game.to_dict())
    del data["house"], data["penalty"]
    copy = Game.from_dict(data)
    assert copy.house.official and copy.penalty == 2
    assert do(copy, 2, "accept") == do(game, 2, "accept")


def test_a_house_ruled_match_survives_a_save_between_and_within_rounds() -> None:
    rules = RuleSet(
        Edition.MARIO, target=250, house=HouseRules.parse(EVERYTHING | {"jump_in": False})
    )
    match = Match(rules, 4, random.Random(5))
    assert [len(h) for h in match.game.hands] == [9, 9, 9, 9]
    rng = random.Random(6)
    while not match.over:
        for _ in range(25):
            if match.game.over:
                break
            random_policy(match.game, rng)
        copy = Match.from_dict(through_json(match.to_dict()))
        assert through_json(copy.to_dict()) == through_json(match.to_dict())
        match = copy
        if match.game.over:
            match.finish_round()
            if not match.over:
                match.next_round()
                assert match.game.house == rules.house
    assert match.rules.house == rules.house


def test_public_view_names_the_rules_in_force() -> None:
    game = table3("classic", house={"jump_in": True})
    view = public_view(game)
    assert view.house.changed() == (("jump_in", True),) and view.penalty is None
    give(game, 1, ["red-7", "red-2"])
    assert hand(game, 1) == ["red-7", "red-2"]
    assert act(1, "draw") in game.legal_actions()
