"""Custom ids ``uno:<table>:<version>:<action>[:<arg>]``: typed commands in, typed commands out.

This module is the only place that knows the micro-format. Buttons are built from typed
commands (``custom_id``) and a clicked id is decoded once (``decode``) into a ``Click`` that
carries a typed command; anything malformed decodes to ``Broken`` and changes nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from bot.engine import Action
from bot.engine.ai import LEVELS
from bot.engine.cards import CARD_INDEX, CODES, COLOR_INDEX, COLORS, IS_WILD
from bot.tables.commands import (
    ANY_SEAT,
    AddComputer,
    ArmUno,
    Cancel,
    Command,
    Join,
    Leave,
    NextRound,
    ShowHand,
    Start,
)
from bot.tables.lobby import MAX_SEATS

PREFIX = "uno:"
MAX_LENGTH = 100
MAX_PAGE = 99
_ID = re.compile(r"uno:([0-9a-z]{1,20}):([0-9]{1,10}):([a-z]{1,12})(?::(.{0,60}))?")
_CARD = re.compile(r"([0-9]{1,3})\.([a-z0-9-]{1,20})(?:\.([a-z]{1,10}))?")

Surface = Literal["lobby", "table", "hand"]


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
class OpenHouseRule:
    """The host opens the form to write the Wild Customizable's rule."""


Request = Command | TurnPage | PickColor | OpenHouseRule


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


def _action_of(request: Request, slot: int) -> tuple[str, str | None]:
    match request:
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
        case ShowHand():
            return "hand", None
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


def _play(arg: str | None, *, pick: bool) -> Request | Broken:
    found = _CARD.fullmatch(arg or "")
    if found is None or found[2] not in CARD_INDEX:
        return Broken("broken_card")
    card = CARD_INDEX[found[2]]
    if pick:
        if found[3] is not None or not IS_WILD[card]:
            return Broken("broken_card")
        return PickColor(int(found[1]), found[2])
    color = found[3]
    if color is not None and color not in COLOR_INDEX:
        return Broken("broken_card")
    return Action(ANY_SEAT, "play", card, COLOR_INDEX[color] if color else None)


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
        "hand": ("table", ShowHand()),
        "quit": ("table", Leave()),
        "next": ("table", NextRound()),
        "draw": ("hand", Action(ANY_SEAT, "draw")),
        "keep": ("hand", Action(ANY_SEAT, "pass")),
        "uno": ("hand", Action(ANY_SEAT, "call_uno")),
        "arm": ("hand", ArmUno()),
        "accept": ("hand", Action(ANY_SEAT, "accept")),
        "challenge": ("hand", Action(ANY_SEAT, "challenge")),
    }
    if action in plain:
        return plain[action] if arg is None else Broken()
    if action == "computer" and arg in LEVELS:
        return "lobby", AddComputer(arg)
    if action == "respond" and arg in ("accept", "challenge"):
        return "table", Action(ANY_SEAT, arg)
    if action == "catch" and (target := _number(arg, MAX_SEATS - 1)) is not None:
        return "table", Action(ANY_SEAT, "catch", target=target)
    if action in ("page", "back") and (page := _number(arg, MAX_PAGE)) is not None:
        return "hand", TurnPage(page)
    if action == "color" and arg in COLOR_INDEX:
        return "hand", Action(ANY_SEAT, "choose_color", color=COLOR_INDEX[arg])
    if action in ("play", "pick"):
        request = _play(arg, pick=action == "pick")
        return request if isinstance(request, Broken) else ("hand", request)
    return Broken()


def decode(text: str) -> Click | Broken:
    """The click a custom id asks for, or ``Broken`` for anything the bot did not send."""
    found = _ID.fullmatch(text)
    if found is None:
        return Broken()
    table_id, version, action, arg = found[1], int(found[2]), found[3], found[4]
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
