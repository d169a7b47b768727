"""Custom ids: every button the bot draws decodes to the command it was drawn for; anything else
decodes to Broken."""

from __future__ import annotations

import re

import pytest

from bot.engine import Action
from bot.engine.cards import CARD_INDEX, COLOR_INDEX
from bot.engine.house import OPTIONS
from bot.tables.commands import (
    ANY_SEAT,
    AddComputer,
    ArmUno,
    Cancel,
    ChoosePreset,
    Join,
    Leave,
    NextRound,
    SetHouseOption,
    ShowHand,
    Start,
)
from cogs.ui.ids import (
    BUTTON_TEMPLATE,
    MAX_LENGTH,
    SELECT_TEMPLATE,
    Broken,
    Click,
    OpenHouseRule,
    OpenHouseRules,
    PickColor,
    PickTarget,
    Recap,
    Rematch,
    Request,
    TurnPage,
    custom_id,
    decode,
    option_choice,
    option_value,
    preset_choice,
    quit_id,
    respond_id,
    select_id,
    table_key,
    target_choice,
)

TABLE = table_key(2**64 - 1)  # the longest table id a snowflake gives

REQUESTS: list[tuple[Request, str]] = [
    (Join(), "lobby"),
    (Leave(), "lobby"),
    (Start(), "lobby"),
    (Cancel(), "lobby"),
    (AddComputer("hard"), "lobby"),
    (OpenHouseRule(), "lobby"),
    (OpenHouseRules(), "lobby"),
    (SetHouseOption("no_action_finish", True), "house"),
    (SetHouseOption("draw_until_playable", False), "house"),
    (PickTarget(19, "red-7"), "hand"),
    (PickTarget(107, "wild-custom", COLOR_INDEX["green"]), "hand"),
    (ShowHand(), "table"),
    (NextRound(), "table"),
    (Rematch(), "rematch"),
    (Recap(999), "table"),
    (Action(ANY_SEAT, "catch", target=9), "table"),
    (Action(ANY_SEAT, "play", CARD_INDEX["red-7"]), "hand"),
    (Action(ANY_SEAT, "play", CARD_INDEX["wild-victory-lap"], COLOR_INDEX["yellow"]), "hand"),
    (Action(ANY_SEAT, "play", CARD_INDEX["wild"], COLOR_INDEX["red"]), "hand"),
    (PickColor(107, "wild-draw4"), "hand"),
    (Action(ANY_SEAT, "draw"), "hand"),
    (Action(ANY_SEAT, "pass"), "hand"),
    (Action(ANY_SEAT, "call_uno"), "hand"),
    (ArmUno(), "hand"),
    (Action(ANY_SEAT, "choose_color", color=COLOR_INDEX["green"]), "hand"),
    (Action(ANY_SEAT, "accept"), "hand"),
    (Action(ANY_SEAT, "challenge"), "hand"),
    (TurnPage(5), "hand"),
]


@pytest.mark.parametrize(("request_", "surface"), REQUESTS)
def test_every_button_decodes_to_what_it_was_drawn_for(request_: Request, surface: str) -> None:
    text = custom_id(TABLE, 9_999_999_999, request_, slot=999)
    assert len(text) <= MAX_LENGTH
    assert decode(text) == Click(TABLE, 9_999_999_999, request_, surface)  # type: ignore[arg-type]


def test_table_only_buttons_and_versionless_ids() -> None:
    accept = Action(ANY_SEAT, "accept")
    assert decode(respond_id("t1", 7, "accept")) == Click("t1", 7, accept, "table")
    assert decode(quit_id("t1")) == Click("t1", None, Leave(), "table")
    assert decode(custom_id("t1", 0, Join())) == Click("t1", None, Join(), "lobby")
    # Two equal cards in one hand still get different ids.
    red7 = Action(ANY_SEAT, "play", CARD_INDEX["red-7"])
    assert custom_id("t1", 3, red7, slot=0) != custom_id("t1", 3, red7, slot=1)


@pytest.mark.parametrize(
    "text",
    [
        "uno:",
        "uno:t1:1",
        "uno:t1:1:play",
        "uno:t1:1:play:0",
        "uno:t1:1:play:0.bogus",
        "uno:t1:1:play:0.red-7.purple",
        "uno:t1:1:play:x.red-7",
        "uno:t1:1:pick:0.red-7",
        "uno:t1:1:pick:0.wild.red",
        "uno:T1:1:join",
        "uno:t1:x:join",
        "uno:t1:99999999999:join",
        "uno:t1:1:join:extra",
        "uno:t1:1:draw:",
        "uno:t1:1:computer",
        "uno:t1:1:computer:godlike",
        "uno:t1:1:catch:10",
        "uno:t1:1:catch:-1",
        "uno:t1:1:catch:٣",
        "uno:t1:1:page:100",
        "uno:t1:1:page:-1",
        "uno:t1:1:respond:maybe",
        "uno:t1:1:color:purple",
        "uno:t1:1:fly",
        "uno:t1:1:play:0.red-7:" + "x" * 80,
        "unolb:1:0:rating:0:n",
        "uno:t1:0:set:jump_in.maybe",
        "uno:t1:0:set:hand_size.99",
        "uno:t1:0:set:bogus.true",
        "uno:t1:0:set:jump_in",
        "uno:t1:1:aim:0.wild-custom",
        "uno:t1:1:aim:0.red-7.blue",
        "uno:t1:0:preset",
        "uno:t1:0:recap",
        "uno:t1:0:recap:0",
        "uno:t1:0:recap:1000",
    ],
)
def test_anything_else_is_broken(text: str) -> None:
    assert isinstance(decode(text), Broken)


def test_selects_decode_with_the_value_picked() -> None:
    preset = select_id(TABLE, 0, preset_choice())
    assert decode(preset, ["party"]) == Click(TABLE, None, ChoosePreset("party"), "house")
    for option in OPTIONS:
        chosen = select_id(TABLE, 0, option_choice(option.name))
        for value in option.choices:
            clicked = decode(chosen, [option_value(value)])
            assert isinstance(clicked, Click)
            assert clicked.request == SetHouseOption(option.name, value)  # type: ignore[arg-type]
            picked = clicked.request.value  # type: ignore[union-attr]
            assert isinstance(picked, bool) == isinstance(option.default, bool)
    aim = select_id(TABLE, 9_999_999_999, target_choice(107, "wild-custom", COLOR_INDEX["red"]))
    assert len(aim) <= MAX_LENGTH
    wanted = Action(ANY_SEAT, "play", CARD_INDEX["wild-custom"], COLOR_INDEX["red"], target=9)
    assert decode(aim, ["9"]) == Click(TABLE, 9_999_999_999, wanted, "hand")


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("uno:t1:0:preset", ["wild"]),
        ("uno:t1:0:preset", ["party", "chill"]),
        ("uno:t1:0:preset", []),
        ("uno:t1:0:preset:x", ["party"]),
        ("uno:t1:0:option:hand_size", ["16"]),
        ("uno:t1:0:option:hand_size", ["07"]),
        ("uno:t1:0:option:jump_in", ["True"]),
        ("uno:t1:0:option:stack", ["some"]),
        ("uno:t1:0:option:nothing", ["true"]),
        ("uno:t1:4:target:0.red-7", ["10"]),
        ("uno:t1:4:target:0.red-7", ["x"]),
        ("uno:t1:4:target:0.wild-custom", ["1"]),
        ("uno:t1:4:join", ["1"]),  # a button's id on a select
    ],
)
def test_select_values_never_offered_are_broken(text: str, values: list[str]) -> None:
    assert isinstance(decode(text, values), Broken)


def test_a_select_id_is_never_a_button_id_nor_the_other_way() -> None:
    buttons = re.compile(BUTTON_TEMPLATE)
    selects = re.compile(SELECT_TEMPLATE)
    for request, _ in REQUESTS:
        text = custom_id(TABLE, 9_999_999_999, request, slot=999)
        assert buttons.fullmatch(text) and not selects.fullmatch(text)
    for choice in (preset_choice(), option_choice("stack"), target_choice(3, "red-7", None)):
        text = select_id(TABLE, 1, choice)
        assert selects.fullmatch(text) and not buttons.fullmatch(text)
