"""Custom ids: ``uno:<table>:<version>:<action>[:<arg>]`` (Discord allows 100 characters)."""

from __future__ import annotations

from dataclasses import dataclass

PATTERN = (
    r"uno:(?P<table>[0-9a-z]{1,20}):(?P<version>[0-9]{1,10}):(?P<action>{actions})"
    r"(?::(?P<arg>[0-9a-z.\-]{0,60}))?"
)
MAX_LENGTH = 100


@dataclass(frozen=True, slots=True)
class Click:
    """A decoded custom id."""

    table_id: str
    version: int
    action: str
    arg: str | None


def custom_id(table_id: str, version: int, action: str, arg: str | None = None) -> str:
    """Encode a button's custom id."""
    text = f"uno:{table_id}:{version}:{action}" + (f":{arg}" if arg is not None else "")
    if len(text) > MAX_LENGTH:
        raise ValueError("custom id too long")
    return text


def template(actions: tuple[str, ...]) -> str:
    """The DynamicItem template matching these actions."""
    return PATTERN.replace("{actions}", "|".join(actions))


def table_key(number: int) -> str:
    """A short table id from a snowflake (base 36)."""
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        number, rest = divmod(number, 36)
        out = digits[rest] + out
        if number == 0:
            return out
