"""Custom ids: every button the bot draws decodes to the command it was drawn for; anything else
decodes to Broken."""

from __future__ import annotations

import pytest

from bot.engine import Action
from bot.engine.cards import CARD_INDEX, COLOR_INDEX
from bot.tables.commands import (
    ANY_SEAT,
    AddComputer,
    ArmUno,
    Cancel,
    Join,
    Leave,
    NextRound,
    ShowHand,
    Start,
)
from cogs.ui.ids import (
    MAX_LENGTH,
    Broken,
    Click,
    OpenHouseRule,
    PickColor,
    Request,
    TurnPage,
    custom_id,
    decode,
    quit_id,
    respond_id,
    table_key,
)

TABLE = table_key(2**64 - 1)  # the longest table id a snowflake gives

REQUESTS: list[tuple[Request, str]] = [
    (Join(), "lobby"),
    (Leave(), "lobby"),
    (Start(), "lobby"),
    (Cancel(), "lobby"),
    (AddComputer("hard"), "lobby"),
    (OpenHouseRule(), "lobby"),
    (ShowHand(), "table"),
    (NextRound(), "table"),
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
    ],
)
def test_anything_else_is_broken(text: str) -> None:
    assert isinstance(decode(text), Broken)
