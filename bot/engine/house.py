"""House rules: the ten options a table may turn on, their strict parsing and the presets."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any


class Stack(StrEnum):
    """Which draw cards may answer a pending penalty (Progressive UNO)."""

    NONE = "none"
    DRAW2 = "draw2"
    ALL = "all"


class CustomEffect(StrEnum):
    """What a Wild Customizable does besides being a wild card (mario only)."""

    NONE = "none"
    EVERYONE_DRAWS_1 = "everyone_draws_1"
    NEXT_DRAWS_2 = "next_draws_2"
    SWAP_HANDS = "swap_hands"
    ROTATE_HANDS = "rotate_hands"
    PLAY_AGAIN = "play_again"


HAND_SIZES = range(3, 16)
UNO_PENALTIES = range(0, 7)


@dataclass(frozen=True, slots=True)
class Option:
    """One option as a settings panel shows it: its name, allowed values and default (its
    words are the tables' ``house_words``, in the reader's language)."""

    name: str
    default: object
    choices: tuple[object, ...]


OPTIONS: tuple[Option, ...] = (
    # Answer a draw penalty with another draw card; the penalty grows and moves on.
    Option("stack", Stack.NONE, tuple(Stack)),
    # Play a card identical to the top card out of turn.
    Option("jump_in", False, (False, True)),
    # A 7 swaps hands with a chosen player; a 0 passes every hand along.
    Option("seven_o", False, (False, True)),
    # A draw goes on until a playable card comes.
    Option("draw_until_playable", False, (False, True)),
    # No drawing while holding a playable card; a playable drawn card must be played.
    Option("must_play", False, (False, True)),
    # A Wild Draw Four only without a card of the color in force; no challenges.
    Option("wd4_strict", False, (False, True)),
    # Cards dealt to each player.
    Option("hand_size", 7, tuple(HAND_SIZES)),
    # Cards a player caught without UNO draws.
    Option("uno_penalty", 2, tuple(UNO_PENALTIES)),
    # The last card of a hand may not be an action or wild card.
    Option("no_action_finish", False, (False, True)),
    # Super Mario: what a Wild Customizable does, besides being a wild card.
    Option("custom_effect", CustomEffect.NONE, tuple(CustomEffect)),
)
OPTION_BY_NAME: dict[str, Option] = {option.name: option for option in OPTIONS}


def _check(name: str, value: object) -> object:
    """``value`` for option ``name`` if JSON-typed and in range; ValueError otherwise."""
    option = OPTION_BY_NAME.get(name)
    if option is None:
        raise ValueError(f"unknown house rule {_short(name)}")
    default = option.default
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ValueError(f"house rule {name} must be true or false")
        return value
    if isinstance(default, StrEnum):
        if not isinstance(value, str) or value not in option.choices:
            names = ", ".join(str(c) for c in option.choices)
            raise ValueError(f"house rule {name} must be one of {names}")
        return type(default)(value)
    if isinstance(value, bool) or not isinstance(value, int) or value not in option.choices:
        low, high = option.choices[0], option.choices[-1]
        raise ValueError(f"house rule {name} must be a whole number from {low} to {high}")
    return value


def _short(value: object) -> str:
    """A bounded one-line repr for error messages (huge or nested input stays readable)."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 40 else text[:37] + "..."


@dataclass(frozen=True, slots=True)
class HouseRules:
    """The options a table plays with; the defaults are the printed rules."""

    stack: Stack = Stack.NONE
    jump_in: bool = False
    seven_o: bool = False
    draw_until_playable: bool = False
    must_play: bool = False
    wd4_strict: bool = False
    hand_size: int = 7
    uno_penalty: int = 2
    no_action_finish: bool = False
    custom_effect: CustomEffect = CustomEffect.NONE

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            checked = _check(f.name, value)
            if checked is not value:
                object.__setattr__(self, f.name, checked)

    @classmethod
    def parse(cls, data: object) -> HouseRules:
        """Options from a JSON object; ValueError (one line) for any unknown or bad entry."""
        if not isinstance(data, Mapping):
            raise ValueError("house rules must be an object of option names to values")
        values: dict[str, Any] = {}
        for name, value in data.items():
            if not isinstance(name, str):
                raise ValueError(f"unknown house rule {_short(name)}")
            values[name] = _check(name, value)
        return cls(**values)

    @classmethod
    def from_text(cls, pairs: Iterable[str]) -> HouseRules:
        """Options from ``NAME=VALUE`` strings (command line, settings): true/false, numbers."""
        values: dict[str, Any] = {}
        for pair in pairs:
            name, sep, text = pair.partition("=")
            name, text = name.strip(), text.strip()
            if not sep:
                raise ValueError(f"house rule {_short(pair)} must be written NAME=VALUE")
            option = OPTION_BY_NAME.get(name)
            if option is None:
                raise ValueError(f"unknown house rule {_short(name)}")
            value: object = text
            if isinstance(option.default, bool):
                value = {"true": True, "false": False}.get(text.lower(), text)
            elif isinstance(option.default, int) and text.isascii() and text.isdigit():
                value = int(text) if len(text) < 4 else text
            values[name] = _check(name, value)
        return cls(**values)

    @classmethod
    def preset(cls, name: str) -> HouseRules:
        """A named preset: official, party or chill; ValueError for any other name."""
        try:
            return PRESETS[name]
        except KeyError:
            raise ValueError(
                f"unknown preset {_short(name)}: choose {', '.join(PRESETS)}"
            ) from None

    @property
    def official(self) -> bool:
        """True when every option is the printed rules' default."""
        return self == OFFICIAL

    @property
    def preset_name(self) -> str | None:
        """The preset these options equal, or None for a custom mix."""
        return next((name for name, rules in PRESETS.items() if rules == self), None)

    def changed(self) -> tuple[tuple[str, bool | int | str], ...]:
        """The options that differ from the printed rules, as (name, value), in option order."""
        result: list[tuple[str, bool | int | str]] = []
        for option in OPTIONS:
            value = getattr(self, option.name)
            if value != option.default:
                result.append((option.name, str(value) if isinstance(value, StrEnum) else value))
        return tuple(result)

    def to_dict(self) -> dict[str, bool | int | str]:
        """The non-default options, JSON-ready (empty for the printed rules)."""
        return dict(self.changed())

    def with_option(self, name: str, value: object) -> HouseRules:
        """A copy with one option changed (checked like ``parse``)."""
        changes: dict[str, Any] = {name: _check(name, value)}
        return replace(self, **changes)


OFFICIAL = HouseRules()
PRESETS: dict[str, HouseRules] = {
    "official": OFFICIAL,
    "party": HouseRules(stack=Stack.ALL, jump_in=True, seven_o=True),
    "chill": HouseRules(draw_until_playable=True, wd4_strict=True),
}
