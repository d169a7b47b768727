"""Discord's limits checked offline, on payloads, without a server."""

from __future__ import annotations

import io
from typing import Any

import discord
import pytest
from discord import ui

from fake_discord.discord_py import check_send, message_payload
from fake_discord.minimal_bot import ImageView, PanelView, make_png
from fake_discord.validation import check_command, check_commands, check_message, check_modal

V2 = 1 << 15


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def button(label: str = "ok", custom_id: str = "b") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def text(content: str) -> dict[str, Any]:
    return {"type": 10, "content": content}


def container(*children: dict[str, Any]) -> dict[str, Any]:
    return {"type": 17, "components": list(children)}


def select(options: int, option_label: str = "x") -> dict[str, Any]:
    opts = [{"label": f"{option_label}{i}", "value": str(i)} for i in range(options)]
    return {"type": 3, "custom_id": "s", "options": opts}


def codes(lines: list[str]) -> set[str]:
    return {line.rsplit("(", 1)[1].rstrip(")") for line in lines}


def test_a_valid_v2_message_passes() -> None:
    payload = {
        "flags": V2,
        "attachments": [{"id": 0, "filename": "table.png"}],
        "components": [
            container(
                text("x" * 3000),
                {"type": 12, "items": [{"media": {"url": "attachment://table.png"}}]},
                row(button("b" * 80, "c" * 100)),
                row(select(25, "o" * 98)),
            ),
            text("y" * 1000),
        ],
    }
    assert check_message(payload) == []


@pytest.mark.parametrize(
    ("payload", "where", "code"),
    [
        ({"content": "x" * 2001}, "content", "BASE_TYPE_MAX_LENGTH"),
        ({"components": [row(button("x" * 81))]}, "components.0.components.0.label", "BASE_TYPE_MAX_LENGTH"),
        ({"components": [row(button(custom_id="x" * 101))]}, "components.0.components.0.custom_id", "BASE_TYPE_MAX_LENGTH"),
        ({"components": [row(*(button(custom_id=f"b{i}") for i in range(6)))]}, "components.0.components", "BASE_TYPE_MAX_LENGTH"),
        ({"components": [row(button(), button())]}, "components.0.components.1.custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED"),
        ({"components": [row(select(26))]}, "components.0.components.0.options", "BASE_TYPE_BAD_LENGTH"),
        ({"components": [row(select(2, "o" * 101))]}, "components.0.components.0.options.0.label", "BASE_TYPE_MAX_LENGTH"),
        ({"components": [row(select(1), button())]}, "components.0.components", "COMPONENT_LAYOUT_WIDTH_EXCEEDED"),
        ({"components": [container(text("hi"))]}, "components.0.type", "COMPONENT_TYPE_INVALID"),
        ({"flags": V2, "content": "hi", "components": [text("hi")]}, "content", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"),
        ({"flags": V2, "components": [text(str(i)) for i in range(41)]}, "components", "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED"),
        ({"flags": V2, "components": [container(text("x" * 2001), text("y" * 2000))]}, "components", "COMPONENT_MAX_TEXT_LENGTH_EXCEEDED"),
        ({"flags": V2, "components": [container(container(text("x")))]}, "components.0.components.0.type", "COMPONENT_TYPE_INVALID"),
        ({"flags": V2, "components": [{"type": 12, "items": [{"media": {"url": "attachment://nope.png"}}]}]}, "components.0.items.0.media.url", "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND"),
        ({"flags": V2, "components": [{"type": 9, "components": [text("a")]}]}, "components.0.accessory", "BASE_TYPE_REQUIRED"),
        ({"content": "x", "nonce": "n" * 26}, "nonce", "BASE_TYPE_MAX_LENGTH"),
    ],
)  # fmt: skip
def test_each_broken_limit_is_named(payload: dict[str, Any], where: str, code: str) -> None:
    errors = check_message(payload)
    assert any(line.startswith(f"{where}: ") and line.endswith(f"({code})") for line in errors), (
        errors
    )


def test_an_empty_message_is_refused() -> None:
    assert check_message({"content": ""}) == ["<body>: Cannot send an empty message (50006)"]
    assert check_message({"attachments": [{"id": 0, "filename": "a.png"}]}) == []


def test_discord_py_views_are_checked_as_discord_py_sends_them() -> None:
    assert check_send(view=PanelView(3)) == []
    card = discord.File(io.BytesIO(make_png()), "card.png")
    assert check_send(view=ImageView(), files=[card]) == []
    assert message_payload(view=ImageView(), files=[card])["attachments"][0]["filename"] == (
        "card.png"
    )
    # The same view without its file refers to a missing attachment.
    assert codes(check_send(view=ImageView())) == {"UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND"}

    # discord.py itself stops at 40 components, not at 4,000 characters of text.
    wordy = ui.LayoutView()
    wordy.add_item(ui.Container(ui.TextDisplay("x" * 2001), ui.TextDisplay("y" * 2000)))
    assert codes(check_send(view=wordy)) == {"COMPONENT_MAX_TEXT_LENGTH_EXCEEDED"}


def test_modals() -> None:
    text_input = {"type": 4, "custom_id": "x", "style": 1}
    ok = {
        "custom_id": "m",
        "title": "t" * 45,
        "components": [{"type": 18, "label": "Name", "component": text_input}],
    }
    assert check_modal(ok) == []
    assert check_modal({**ok, "title": "t" * 46}) == [
        "data.title: Must be 45 or fewer in length. (BASE_TYPE_MAX_LENGTH)"
    ]
    six = {**ok, "components": ok["components"] * 6}
    assert codes(check_modal(six)) == {"BASE_TYPE_BAD_LENGTH"}
    long_value = {**text_input, "value": "v" * 4001}
    assert codes(check_modal({**ok, "components": [row(long_value)]})) == {"BASE_TYPE_MAX_LENGTH"}


def command(**fields: Any) -> dict[str, Any]:
    return {"name": "uno", "description": "Play UNO", "type": 1, **fields}


def test_a_localized_command_passes() -> None:
    new = {
        "type": 1,
        "name": "new",
        "description": "Open a table",
        "name_localizations": {"fr": "nouvelle", "de": "neu"},
        "description_localizations": {"fr": "Ouvrir une table"},
        "options": [
            {
                "type": 3,
                "name": "edition",
                "description": "Which deck",
                "name_localizations": {"fr": "édition"},
                "choices": [
                    {
                        "name": "Classic",
                        "value": "classic",
                        "name_localizations": {"fr": "Classique"},
                    }
                ],
            }
        ],
    }
    payload = command(
        name_localizations={"fr": "uno", "pt-BR": "uno"},
        description_localizations={"fr": "Jouer au UNO"},
        default_member_permissions="32",
        options=[new],
    )
    assert check_command(payload) == []
    assert check_commands([payload, command(name="league")]) == []


@pytest.mark.parametrize(
    ("fields", "where", "code"),
    [
        ({"name": "Uno"}, "name", "APPLICATION_COMMAND_INVALID_NAME"),
        ({"name": "u" * 33}, "name", "APPLICATION_COMMAND_INVALID_NAME"),
        ({"name": "two words"}, "name", "APPLICATION_COMMAND_INVALID_NAME"),
        ({"description": ""}, "description", "BASE_TYPE_MIN_LENGTH"),
        ({"description": "d" * 101}, "description", "BASE_TYPE_MAX_LENGTH"),
        ({"name_localizations": {"fr": "Partie"}}, "name_localizations.fr", "APPLICATION_COMMAND_INVALID_NAME"),
        ({"name_localizations": {"xx": "uno"}}, "name_localizations.xx", "BASE_TYPE_CHOICES"),
        ({"name_localizations": ["fr"]}, "name_localizations", "DICT_TYPE_CONVERT"),
        ({"description_localizations": {"de": "d" * 101}}, "description_localizations.de", "BASE_TYPE_MAX_LENGTH"),
        ({"options": [{"type": 3, "name": "Edition", "description": "x"}]}, "options.0.name", "APPLICATION_COMMAND_INVALID_NAME"),
        ({"options": [{"type": 3, "name": "a", "description": "x"}, {"type": 3, "name": "b", "description": "x", "required": True}]}, "options.1", "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID"),
        ({"options": [{"type": 3, "name": "a", "description": "x", "choices": [{"name": "n", "value": "v" * 101}]}]}, "options.0.choices.0.value", "BASE_TYPE_MAX_LENGTH"),
        ({"options": [{"type": 3, "name": "a", "description": "x", "choices": [{"name": "n", "value": "v", "name_localizations": {"fr": "n" * 101}}]}]}, "options.0.choices.0.name_localizations.fr", "BASE_TYPE_MAX_LENGTH"),
        ({"options": [{"type": 1, "name": "a", "description": "x"}, {"type": 3, "name": "b", "description": "x"}]}, "options", "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID"),
        ({"options": [{"type": 2, "name": "g", "description": "x", "options": [{"type": 2, "name": "h", "description": "x"}]}]}, "options.0.options", "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID"),
        ({"options": [{"type": 3, "name": f"o{i}", "description": "d" * 100, "choices": [{"name": "n" * 100, "value": "v" * 100}] * 25} for i in range(4)]}, "<body>", "APPLICATION_COMMAND_TOO_LARGE"),
    ],
)  # fmt: skip
def test_each_broken_command_rule_is_named(fields: dict[str, Any], where: str, code: str) -> None:
    errors = check_command(command(**fields))
    assert any(line.startswith(f"{where}: ") and line.endswith(f"({code})") for line in errors), (
        errors
    )


def test_a_sync_with_two_commands_of_one_name_is_refused() -> None:
    assert codes(check_commands([command(), command()])) == {"APPLICATION_COMMANDS_DUPLICATE_NAME"}


def test_user_and_message_commands_may_use_capitals_and_spaces() -> None:
    assert check_command({"type": 2, "name": "Show UNO stats", "description": ""}) == []
    assert codes(check_command({"type": 3, "name": "Report", "description": "no"})) == {
        "BASE_TYPE_MAX_LENGTH"
    }
