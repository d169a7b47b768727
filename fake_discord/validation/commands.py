"""Discord's rules for application commands: names (1-32, lower case), descriptions (1-100),
localizations, options, choices, nesting and the 8,000-character size."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from fake_discord.constants import (
    CMD_CHAT_INPUT,
    JSON,
    LOCALES,
    OPT_INTEGER,
    OPT_NUMBER,
    OPT_STRING,
    OPT_SUB_COMMAND,
    OPT_SUB_COMMAND_GROUP,
    SUBCOMMAND_TYPES,
)
from fake_discord.errors import FormErrors, FormPath

# Discord: ^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$ (Python's \w covers letters and digits).
CHAT_INPUT_NAME = re.compile(r"^[-_'\w]{1,32}$")
MAX_COMMAND_SIZE = 8000


def check_command(payload: Mapping[str, Any]) -> list[str]:
    """Every rule one application command payload breaks."""
    errors = FormErrors()
    command_errors(payload, errors, [])
    return errors.messages()


def check_commands(payloads: Sequence[Mapping[str, Any]]) -> list[str]:
    """Every rule a bulk overwrite (the whole list a bot syncs) breaks."""
    return commands_errors(payloads).messages()


def commands_errors(payloads: Sequence[Mapping[str, Any]]) -> FormErrors:
    errors = FormErrors()
    for i, cmd in enumerate(payloads):
        command_errors(cmd, errors, [i])
    names = [(c.get("type", CMD_CHAT_INPUT), c.get("name")) for c in payloads]
    if len(names) != len(set(names)):
        errors.add([], "APPLICATION_COMMANDS_DUPLICATE_NAME", "duplicate command names")
    return errors


def command_errors(cmd: Mapping[str, Any], errors: FormErrors, path: FormPath) -> None:
    """A command's rules: names, descriptions, localizations, options and the 8,000 limit."""
    chat_input = cmd.get("type", CMD_CHAT_INPUT) == CMD_CHAT_INPUT
    name = cmd.get("name") or ""
    _name_errors(name, chat_input, errors, [*path, "name"])
    _localization_errors(cmd, "name", chat_input, errors, path)
    if chat_input:
        errors.max_len([*path, "description"], cmd.get("description") or "", 100, 1)
        _localization_errors(cmd, "description", chat_input, errors, path)
    elif cmd.get("description"):
        errors.add([*path, "description"], "BASE_TYPE_MAX_LENGTH", "Must be empty for this type")
    _options_errors(cmd.get("options") or [], 0, errors, path)
    size = _command_size(cmd)
    if size > MAX_COMMAND_SIZE:
        errors.add(
            path,
            "APPLICATION_COMMAND_TOO_LARGE",
            f"Command exceeds maximum size ({MAX_COMMAND_SIZE}): {size}",
        )


def _name_errors(name: object, chat_input: bool, errors: FormErrors, path: FormPath) -> None:
    if not isinstance(name, str) or not 1 <= len(name) <= 32:
        errors.add(path, "APPLICATION_COMMAND_INVALID_NAME", f"Invalid name {name!r} (1-32)")
    elif chat_input and (not CHAT_INPUT_NAME.match(name) or name != name.lower()):
        errors.add(
            path,
            "APPLICATION_COMMAND_INVALID_NAME",
            f"Invalid name {name!r}: lower case letters, digits, - _ ' only",
        )


def _localization_errors(
    node: Mapping[str, Any], key: str, chat_input: bool, errors: FormErrors, path: FormPath
) -> None:
    """`name_localizations` / `description_localizations`: locale -> value, like the field."""
    field_ = f"{key}_localizations"
    table = node.get(field_)
    if table is None:
        return
    if not isinstance(table, Mapping):
        errors.add([*path, field_], "DICT_TYPE_CONVERT", "Must be a dictionary of locales")
        return
    for locale, value in table.items():
        lpath = [*path, field_, locale]
        if locale not in LOCALES:
            errors.add(lpath, "BASE_TYPE_CHOICES", f"{locale!r} is not a Discord locale")
        elif key == "name":
            _name_errors(value, chat_input, errors, lpath)
        elif not isinstance(value, str):
            errors.add(lpath, "BASE_TYPE_STRING", "Must be a string")
        else:
            errors.max_len(lpath, value, 100, 1)


def _options_errors(
    options: Sequence[JSON], depth: int, errors: FormErrors, path: FormPath
) -> None:
    if len(options) > 25:
        errors.add([*path, "options"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    subcommands = [o for o in options if o.get("type") in SUBCOMMAND_TYPES]
    if subcommands and len(subcommands) != len(options):
        errors.add(
            [*path, "options"],
            "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
            "Subcommands cannot be mixed with other options",
        )
    names = [o.get("name") for o in options]
    if len(names) != len(set(names)):
        errors.add(
            [*path, "options"], "APPLICATION_COMMAND_OPTIONS_DUPLICATED", "Duplicate option names"
        )
    seen_optional = False
    for i, opt in enumerate(options):
        opath = [*path, "options", i]
        otype = opt.get("type")
        _name_errors(opt.get("name"), True, errors, [*opath, "name"])
        _localization_errors(opt, "name", True, errors, opath)
        errors.max_len([*opath, "description"], opt.get("description") or "", 100, 1)
        _localization_errors(opt, "description", True, errors, opath)
        if otype in SUBCOMMAND_TYPES:
            nested_ok = depth == 0 or (depth == 1 and otype == OPT_SUB_COMMAND)
            if not nested_ok:
                errors.add(
                    [*opath, "type"],
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                    "Subcommands nest at most as command > group > subcommand",
                )
            inner = opt.get("options") or []
            if otype == OPT_SUB_COMMAND_GROUP and any(
                o.get("type") != OPT_SUB_COMMAND for o in inner
            ):
                errors.add(
                    [*opath, "options"],
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                    "A group holds subcommands only",
                )
            _options_errors(inner, depth + 1, errors, opath)
            continue
        if opt.get("required"):
            if seen_optional:
                errors.add(
                    opath,
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
        else:
            seen_optional = True
        _choices_errors(opt, errors, opath)
        if otype == OPT_STRING:
            for key in ("min_length", "max_length"):
                value = opt.get(key)
                if value is not None and not 0 <= value <= 6000:
                    errors.add([*opath, key], "NUMBER_TYPE_MAX", "Must be between 0 and 6000")


def _choices_errors(opt: JSON, errors: FormErrors, path: FormPath) -> None:
    choices = opt.get("choices") or []
    if len(choices) > 25:
        errors.add([*path, "choices"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer.")
    for j, choice in enumerate(choices):
        cpath = [*path, "choices", j]
        errors.max_len([*cpath, "name"], choice.get("name"), 100, 1)
        table = choice.get("name_localizations")
        if table:
            for locale, value in table.items():
                if locale not in LOCALES:
                    errors.add(
                        [*cpath, "name_localizations", locale],
                        "BASE_TYPE_CHOICES",
                        f"{locale!r} is not a Discord locale",
                    )
                else:
                    errors.max_len([*cpath, "name_localizations", locale], value, 100, 1)
        value = choice.get("value")
        if opt.get("type") == OPT_STRING:
            errors.max_len([*cpath, "value"], value, 100, 1)
        elif opt.get("type") in (OPT_INTEGER, OPT_NUMBER) and not isinstance(value, int | float):
            errors.add([*cpath, "value"], "NUMBER_TYPE_COERCE", "Must be a number")


def _longest(node: Mapping[str, Any], key: str) -> int:
    """A field counts at its longest localization (the default value included)."""
    table = node.get(f"{key}_localizations")
    values = [node.get(key) or "", *(table.values() if isinstance(table, Mapping) else ())]
    return max(len(str(v)) for v in values)


def _command_size(node: Mapping[str, Any]) -> int:
    """Discord's size: names, descriptions and choice values of the whole tree."""
    size = _longest(node, "name") + _longest(node, "description")
    for opt in node.get("options") or []:
        size += _command_size(opt)
    for choice in node.get("choices") or []:
        size += _longest(choice, "name") + len(str(choice.get("value", "")))
    return size
