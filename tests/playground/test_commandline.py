"""Typed slash commands: parsed against registered commands with friendly errors, and the
suggestions the command box offers while typing."""

from __future__ import annotations

from typing import Any

import pytest

from bot.playground.commandline import (
    AutocompleteAsk,
    CommandError,
    Suggestion,
    leaf_paths,
    parse,
    suggest,
)
from fake_discord.constants import OPT_CHANNEL, OPT_MENTIONABLE, OPT_ROLE, OPT_USER

EDITIONS = [
    {"name": "Classic UNO", "value": "classic"},
    {"name": "UNO Sonic the Hedgehog", "value": "sonic"},
]
COMMANDS: list[dict[str, Any]] = [
    {
        "name": "uno",
        "type": 1,
        "description": "Play UNO",
        "options": [
            {
                "type": 1,
                "name": "new",
                "description": "Open a lobby",
                "options": [
                    {"type": 3, "name": "edition", "description": "Which UNO", "choices": EDITIONS},
                    {
                        "type": 3,
                        "name": "length",
                        "description": "Match or round",
                        "choices": [
                            {"name": "Match to the target score", "value": "match"},
                            {"name": "Single round", "value": "round"},
                        ],
                    },
                    {
                        "type": 4,
                        "name": "target",
                        "description": "Points",
                        "min_value": 50,
                        "max_value": 5000,
                    },
                ],
            },
            {
                "type": 1,
                "name": "kick",
                "description": "Remove a player",
                "options": [{"type": 6, "name": "member", "description": "Who", "required": True}],
            },
            {
                "type": 2,
                "name": "season",
                "description": "Seasons",
                "options": [{"type": 1, "name": "start", "description": "Start one"}],
            },
        ],
    },
    {
        "name": "pick",
        "type": 1,
        "description": "Pick a fruit",
        "options": [
            {
                "type": 3,
                "name": "fruit",
                "description": "Which",
                "required": True,
                "autocomplete": True,
            },
            {"type": 5, "name": "ripe", "description": "Ripe?"},
            {"type": 10, "name": "weight", "description": "Grams"},
            {"type": 7, "name": "where", "description": "Channel"},
            {"type": 3, "name": "note", "description": "A note", "max_length": 10},
        ],
    },
    {"name": "Report", "type": 3},  # a message command: not typed
]


PEOPLE = {"alice": "ALICE", "bob": "BOB"}


class Lookup:
    def find_user(self, text: str) -> Any:
        return PEOPLE.get(text.lstrip("@").lower())

    def find_channel(self, text: str) -> Any:
        return "CHANNEL" if text.lstrip("#") == "uno" else None

    def find_role(self, text: str) -> Any:
        return None

    def mentions(self, kind: int) -> list[str]:
        if kind in (OPT_USER, OPT_MENTIONABLE):
            return ["@Alice", "@Bob"]
        if kind == OPT_CHANNEL:
            return ["#uno"]
        return ["@Mods"] if kind == OPT_ROLE else []


def run(text: str) -> tuple[str, dict[str, Any]]:
    parsed = parse(text, COMMANDS, Lookup())
    return parsed.path, parsed.options


def test_leaf_paths() -> None:
    assert [p for p, _ in leaf_paths(COMMANDS)] == [
        "uno new",
        "uno kick",
        "uno season start",
        "pick",
    ]


@pytest.mark.parametrize(
    ("text", "path", "options"),
    [
        ("/uno new", "uno new", {}),
        ("  /uno   new  ", "uno new", {}),
        ("/UNO New edition:sonic", "uno new", {"edition": "sonic"}),
        (
            "/uno new edition:Classic UNO length:round",
            "uno new",
            {"edition": "classic", "length": "round"},
        ),
        ("/uno new length:single round target:300", "uno new", {"length": "round", "target": 300}),
        ("/uno kick member:@Bob", "uno kick", {"member": "BOB"}),
        ("/uno season start", "uno season start", {}),
        ('/pick fruit:"red apple" ripe:yes', "pick", {"fruit": "red apple", "ripe": True}),
        (
            "/pick fruit:a b c weight:2.5 where:#uno",
            "pick",
            {"fruit": "a b c", "weight": 2.5, "where": "CHANNEL"},
        ),
        ("/pick fruit:https://x.org/a:b", "pick", {"fruit": "https://x.org/a:b"}),
    ],
)
def test_parse(text: str, path: str, options: dict[str, Any]) -> None:
    assert run(text) == (path, options)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("uno new", "Commands start with /"),
        ("/", "Type a command after /"),
        ("/nope", "There is no /nope command. Commands: /pick, /uno"),
        ("/uno", "/uno is not a command. Did you mean: /uno new, /uno kick, /uno season?"),
        ("/uno old", "/uno old is not a command"),
        ("/uno new sonic", "Write options as name:value after /uno new"),
        (
            "/uno new colour:red",
            "/uno new has no option colour. It takes edition:, length:, target:",
        ),
        ("/uno new edition:mario", "edition: choose one of classic, sonic"),
        ("/uno new target:12", "target: from 50 to 5000"),
        ("/uno new target:many", "target: 'many' is not a whole number"),
        ("/uno new target:", "target: give a value after target:"),
        ("/uno new edition:sonic edition:classic", "edition is given twice"),
        ("/uno kick", "/uno kick needs member:"),
        ("/uno kick member:@Zed", "member: nobody or nothing here is called @Zed"),
        ("/pick fruit:x ripe:maybe", "ripe: true or false"),
        ("/pick fruit:x note:far too long here", "note: between 0 and 10 characters"),
    ],
)
def test_parse_errors(text: str, message: str) -> None:
    with pytest.raises(CommandError) as caught:
        run(text)
    assert message in str(caught.value)


def labels(found: list[Suggestion] | AutocompleteAsk) -> list[str]:
    assert isinstance(found, list)
    return [s.label for s in found]


def test_suggest_commands_while_typing_the_name() -> None:
    everything = suggest("/", COMMANDS, Lookup())
    assert labels(everything) == ["/uno new", "/uno kick", "/uno season start", "/pick"]
    assert isinstance(everything, list) and everything[0].text == "/uno new "
    assert labels(suggest("/uno k", COMMANDS, Lookup())) == ["/uno kick"]
    assert labels(suggest("/x", COMMANDS, Lookup())) == []
    assert suggest("hello", COMMANDS, Lookup()) == []


def test_suggest_options_then_values() -> None:
    found = suggest("/uno new ", COMMANDS, Lookup())
    assert labels(found) == ["edition:", "length:", "target:"]
    assert isinstance(found, list) and found[0].text == "/uno new edition:"
    assert "choice" in found[0].detail
    assert labels(suggest("/uno new le", COMMANDS, Lookup())) == ["length:"]
    values = suggest("/uno new length:", COMMANDS, Lookup())
    assert labels(values) == ["match", "round"]
    assert isinstance(values, list) and values[1].text == "/uno new length:round "
    assert labels(suggest("/uno new length:si", COMMANDS, Lookup())) == ["round"]
    # A value is done: the options not used yet come next.
    assert labels(suggest("/uno new length:round ", COMMANDS, Lookup())) == ["edition:", "target:"]
    assert labels(suggest("/uno kick member:@b", COMMANDS, Lookup())) == ["@Bob"]
    assert labels(suggest("/pick fruit:x ripe:", COMMANDS, Lookup())) == ["true", "false"]
    hint = suggest("/uno new target:", COMMANDS, Lookup())
    assert isinstance(hint, list) and hint[0].text == ""  # information only
    assert "from 50 to 5000" in hint[0].label


def test_suggest_required_options_first() -> None:
    assert labels(suggest("/pick ", COMMANDS, Lookup()))[0] == "fruit:"
    assert "required" in suggest("/pick ", COMMANDS, Lookup())[0].detail  # type: ignore[index]


def test_autocomplete_goes_to_the_bot() -> None:
    ask = suggest("/pick ripe:yes fruit:ap", COMMANDS, Lookup())
    assert ask == AutocompleteAsk(
        "pick", {"ripe": True, "fruit": "ap"}, "fruit", "/pick ripe:yes fruit:"
    )
