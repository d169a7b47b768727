"""Custom ids ``uno:<table>:<version>:<action>[:<arg>]``: typed commands in, typed commands out.

This module is the only place that knows the micro-format. Buttons are built from typed
commands (``custom_id``) and a clicked id is decoded once (``decode``) into a ``Click`` that
carries a typed command; anything malformed decodes to ``Broken`` and changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from bot.engine import PRESETS, Action, Do
from bot.engine.ai import LEVELS
from bot.engine.cards import CARD_INDEX, CODES, COLOR_INDEX, COLORS, IS_WILD
from bot.engine.house import OPTION_BY_NAME
from bot.engine.teams import TEAM_COUNTS
from bot.tables.cheers import EMOTES
from bot.tables.commands import (
    ANY_SEAT,
    AddComputer,
    ArmUno,
    Cancel,
    ChoosePreset,
    ChooseTeam,
    Command,
    Join,
    Leave,
    NextRound,
    SetHouseOption,
    SetPartnersSee,
    SetTeams,
    ShowHand,
    ShowPartners,
    Start,
)
from bot.tables.lobby import MAX_SEATS

PREFIX = "uno:"
MAX_LENGTH = 100
MAX_PAGE = 99
_ID = re.compile(r"uno:([0-9a-z]{1,20}):([0-9]{1,10}):([a-z]{1,12})(?::(.{0,60}))?")
_CARD = re.compile(r"([0-9]{1,3})\.([a-z0-9-]{1,20})(?:\.([a-z]{1,10}))?")
_OPTION = re.compile(r"([a-z0-9_]{1,24})\.([a-z0-9_]{1,24})")

# Selects carry their answer in the interaction's values, not in the custom id; their actions
# are kept apart from the buttons' so that each id matches exactly one dynamic item.
SELECT_ACTIONS = ("preset", "option", "target")
_SELECTS = "|".join(SELECT_ACTIONS)
SELECT_TEMPLATE = rf"uno:[0-9a-z]{{1,20}}:[0-9]{{1,10}}:(?:{_SELECTS})(?::.{{0,60}})?"
BUTTON_TEMPLATE = rf"uno:(?![0-9a-z]{{1,20}}:[0-9]{{1,10}}:(?:{_SELECTS})(?::|$)).{{0,96}}"

Surface = Literal["lobby", "table", "hand", "house", "rematch"]


@dataclass(frozen=True, slots=True)
class TurnPage:
    """Show another page of a big hand (nothing changes at the table)."""

    page: int


@dataclass(frozen=True, slots=True)
class PickColor:
    """A wild card was pressed: show the colors to choose from (nothing changes yet)."""

    index: int  # its place in the hand as drawn: it keeps custom ids unique
    card: str


@dataclass(frozen=True, slots=True)
class PickTarget:
    """A card that swaps hands was pressed (its color named, if wild): show whom to swap with."""

    index: int
    card: str
    color: int | None = None


@dataclass(frozen=True, slots=True)
class OpenHouseRule:
    """The host opens the form to write the Wild Customizable's rule."""


@dataclass(frozen=True, slots=True)
class OpenHouseRules:
    """The host opens the house rules panel."""


@dataclass(frozen=True, slots=True)
class Rematch:
    """A player of the finished match opens a new lobby with its seats and options."""


@dataclass(frozen=True, slots=True)
class Watch:
    """Anyone opens a private view of the table that keeps up (never a hand)."""


@dataclass(frozen=True, slots=True)
class Cheer:
    """Anyone cheers with one of the fixed emotes (``bot.tables.cheers.EMOTES``)."""

    emote: int


@dataclass(frozen=True, slots=True)
class Recap:
    """Anyone asks for a finished round's animated recap, privately (nothing changes)."""

    round_number: int


MAX_ROUND = 999

Request = (
    Command
    | TurnPage
    | PickColor
    | PickTarget
    | OpenHouseRule
    | OpenHouseRules
    | Rematch
    | Watch
    | Cheer
    | Recap
)


@dataclass(frozen=True, slots=True)
class Choice:
    """A select, drawn for the answers its values will give (``select_id`` and ``decode``)."""

    action: str  # one of SELECT_ACTIONS
    arg: str | None = None


@dataclass(frozen=True, slots=True)
class Click:
    """A decoded button: which table, the version it was drawn at, and what it asks."""

    table_id: str
    version: int | None  # None: drawn without a version (it never goes out of date)
    request: Request
    surface: Surface


@dataclass(frozen=True, slots=True)
class Broken:
    """A custom id the bot never sent (or no longer understands)."""

    key: str = "broken_button"  # a bot.tables.notes key


def encode(table_id: str, version: int, action: str, arg: str | None = None) -> str:
    """A custom id; ValueError past Discord's 100 characters."""
    text = f"{PREFIX}{table_id}:{version}:{action}" + (f":{arg}" if arg is not None else "")
    if len(text) > MAX_LENGTH:
        raise ValueError("custom id too long")
    return text


def custom_id(table_id: str, version: int, request: Request, *, slot: int = 0) -> str:
    """The custom id of a button asking ``request``; ``slot`` tells apart two equal cards."""
    action, arg = _action_of(request, slot)
    return encode(table_id, version, action, arg)


def select_id(table_id: str, version: int, choice: Choice) -> str:
    """The custom id of a select; what it asks comes with the picked value (``decode``)."""
    if choice.action not in SELECT_ACTIONS:
        raise ValueError(f"no select for {choice!r}")
    return encode(table_id, version, choice.action, choice.arg)


def preset_choice() -> Choice:
    """The lobby panel's preset select (values: preset names)."""
    return Choice("preset")


def option_choice(name: str) -> Choice:
    """A select of one option's values (values: ``option_value``)."""
    return Choice("option", name)


def target_choice(index: int, card: str, color: int | None) -> Choice:
    """The select of whom a card swaps hands with (values: seat numbers)."""
    return Choice("target", _card_arg(index, card, color))


def option_value(value: object) -> str:
    """An option's value as a select or button carries it: true/false, digits or a word."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _card_arg(index: int, card: str, color: int | None) -> str:
    return f"{index}.{card}" + (f".{COLORS[color]}" if color is not None else "")


def _action_of(request: Request, slot: int) -> tuple[str, str | None]:
    match request:
        case OpenHouseRules():
            return "house", None
        case SetHouseOption(name=name, value=value):
            return "set", f"{name}.{option_value(value)}"
        case PickTarget(index=index, card=card, color=color):
            return "aim", _card_arg(index, card, color)
        case Join():
            return "join", None
        case Leave():
            return "leave", None
        case Start():
            return "start", None
        case Cancel():
            return "cancel", None
        case AddComputer(level=level):
            return "computer", level
        case OpenHouseRule():
            return "rule", None
        case Rematch():
            return "rematch", None
        case ShowHand():
            return "hand", None
        case SetTeams(count=count):
            return "teams", str(count)
        case SetPartnersSee(on=on):
            return "partners", "on" if on else "off"
        case ChooseTeam(team=team):
            return "team", "any" if team is None else str(team)
        case ShowPartners():
            return "mates", None
        case Watch():
            return "watch", None
        case Cheer(emote=emote):
            return "cheer", str(emote)
        case Recap(round_number=number):
            return "recap", str(number)
        case NextRound():
            return "next", None
        case ArmUno():
            return "arm", None
        case TurnPage(page=page):
            return "page", str(page)
        case PickColor(index=index, card=card):
            return "pick", f"{index}.{card}"
        case Action(do="play", card=int() as card, color=color):
            named = f".{COLORS[color]}" if color is not None else ""
            return "play", f"{slot}.{CODES[card]}{named}"
        case Action(do="draw"):
            return "draw", None
        case Action(do="pass"):
            return "keep", None
        case Action(do="call_uno"):
            return "uno", None
        case Action(do="choose_color", color=int() as color):
            return "color", COLORS[color]
        case Action(do="catch", target=int() as target):
            return "catch", str(target)
        case Action(do=("accept" | "challenge") as do):
            return do, None
    raise ValueError(f"no button for {request!r}")


def respond_id(table_id: str, version: int, do: str) -> str:
    """The table message's Accept / Challenge for the player a penalty is aimed at."""
    return encode(table_id, version, "respond", do)


def quit_id(table_id: str) -> str:
    """The table message's Leave game (the lobby's Leave is ``custom_id(..., Leave())``)."""
    return encode(table_id, 0, "quit")


def _play(arg: str | None, *, pick: bool, aim: bool = False) -> Request | Broken:
    found = _CARD.fullmatch(arg or "")
    if found is None or found[2] not in CARD_INDEX:
        return Broken("broken_card")
    card = CARD_INDEX[found[2]]
    if pick:
        if found[3] is not None or not IS_WILD[card]:
            return Broken("broken_card")
        return PickColor(int(found[1]), found[2])
    color = found[3]
    if color is not None and (color not in COLOR_INDEX or not IS_WILD[card]):
        return Broken("broken_card")
    named = COLOR_INDEX[color] if color else None
    if aim:
        if IS_WILD[card] and named is None:
            return Broken("broken_card")
        return PickTarget(int(found[1]), found[2], named)
    return Action(ANY_SEAT, Do.PLAY, card, named)


def option_of(name: str, text: str) -> SetHouseOption | None:
    """The option setting a select value or button stands for, or None if never offered."""
    option = OPTION_BY_NAME.get(name)
    if option is None:
        return None
    for choice in option.choices:
        if option_value(choice) == text:
            value = choice if isinstance(choice, bool | int) else str(choice)
            return SetHouseOption(name, value)
    return None


def _picked(action: str, arg: str | None, values: Sequence[str]) -> Request | Broken:
    """What a select asks, with the one value picked."""
    if len(values) != 1:
        return Broken()
    value = values[0]
    if action == "preset":
        return ChoosePreset(value) if arg is None and value in PRESETS else Broken()
    if action == "option":
        setting = option_of(arg or "", value)
        return setting if setting is not None else Broken()
    aim = _play(arg, pick=False, aim=True)
    target = _number(value, MAX_SEATS - 1)
    if not isinstance(aim, PickTarget) or target is None:
        return Broken("broken_card")
    card = CARD_INDEX[aim.card]
    return Action(ANY_SEAT, Do.PLAY, card, aim.color, target=target)


def _number(arg: str | None, top: int) -> int | None:
    if arg is None or not (arg.isascii() and arg.isdigit()) or len(arg) > 3 or int(arg) > top:
        return None
    return int(arg)


def _decode(action: str, arg: str | None) -> tuple[Surface, Request] | Broken:
    plain: dict[str, tuple[Surface, Request]] = {
        "join": ("lobby", Join()),
        "leave": ("lobby", Leave()),
        "start": ("lobby", Start()),
        "cancel": ("lobby", Cancel()),
        "rule": ("lobby", OpenHouseRule()),
        "house": ("lobby", OpenHouseRules()),
        "hand": ("table", ShowHand()),
        "mates": ("table", ShowPartners()),
        "watch": ("table", Watch()),
        "quit": ("table", Leave()),
        "next": ("table", NextRound()),
        "rematch": ("rematch", Rematch()),
        "draw": ("hand", Action(ANY_SEAT, Do.DRAW)),
        "keep": ("hand", Action(ANY_SEAT, Do.PASS)),
        "uno": ("hand", Action(ANY_SEAT, Do.CALL_UNO)),
        "arm": ("hand", ArmUno()),
        "accept": ("hand", Action(ANY_SEAT, Do.ACCEPT)),
        "challenge": ("hand", Action(ANY_SEAT, Do.CHALLENGE)),
    }
    if action in plain:
        return plain[action] if arg is None else Broken()
    if action == "teams" and (count := _number(arg, max(TEAM_COUNTS))) in TEAM_COUNTS:
        return "lobby", SetTeams(count)
    if action == "partners" and arg in ("on", "off"):
        return "lobby", SetPartnersSee(arg == "on")
    if action == "team" and arg == "any":
        return "lobby", ChooseTeam(None)
    if action == "team" and (team := _number(arg, max(TEAM_COUNTS) - 1)) is not None:
        return "lobby", ChooseTeam(team)
    if action == "cheer" and (emote := _number(arg, len(EMOTES) - 1)) is not None:
        return "table", Cheer(emote)
    if action == "recap" and (number := _number(arg, MAX_ROUND)) is not None and number > 0:
        return "table", Recap(number)
    if action == "computer" and arg in LEVELS:
        return "lobby", AddComputer(arg)
    if action == "respond" and arg in ("accept", "challenge"):
        return "table", Action(ANY_SEAT, Do(arg))
    if action == "catch" and (target := _number(arg, MAX_SEATS - 1)) is not None:
        return "table", Action(ANY_SEAT, Do.CATCH, target=target)
    if action in ("page", "back") and (page := _number(arg, MAX_PAGE)) is not None:
        return "hand", TurnPage(page)
    if action == "color" and arg in COLOR_INDEX:
        return "hand", Action(ANY_SEAT, Do.CHOOSE_COLOR, color=COLOR_INDEX[arg])
    if action in ("play", "pick", "aim"):
        request = _play(arg, pick=action == "pick", aim=action == "aim")
        return request if isinstance(request, Broken) else ("hand", request)
    if action == "set" and (found := _OPTION.fullmatch(arg or "")) is not None:
        setting = option_of(found[1], found[2])
        return ("house", setting) if setting is not None else Broken()
    return Broken()


def decode(text: str, values: Sequence[str] | None = None) -> Click | Broken:
    """The click a custom id asks for (with a select's picked ``values``), or ``Broken`` for
    anything the bot did not send."""
    found = _ID.fullmatch(text)
    if found is None:
        return Broken()
    table_id, version, action, arg = found[1], int(found[2]), found[3], found[4]
    if (action in SELECT_ACTIONS) != (values is not None):
        return Broken()  # a select's id on a button, or a button's on a select
    if values is not None:
        picked = _picked(action, arg, values)
        if isinstance(picked, Broken):
            return picked
        surface: Surface = "hand" if action == "target" else "house"
        return Click(table_id, version or None, picked, surface)
    decoded = _decode(action, arg)
    if isinstance(decoded, Broken):
        return decoded
    surface, request = decoded
    return Click(table_id, version or None, request, surface)


def table_key(number: int) -> str:
    """A short table id from a snowflake (base 36)."""
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        number, rest = divmod(number, 36)
        out = digits[rest] + out
        if number == 0:
            return out
