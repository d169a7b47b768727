"""Slash commands typed as text (`/uno new edition:sonic length:round`): parsed against the
commands the bot registered, with friendly errors, and suggestions while typing (commands,
options, choices, and the bot's own autocomplete)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from fake_discord.constants import (
    JSON,
    OPT_BOOLEAN,
    OPT_CHANNEL,
    OPT_INTEGER,
    OPT_MENTIONABLE,
    OPT_NUMBER,
    OPT_ROLE,
    OPT_STRING,
    OPT_USER,
    SUBCOMMAND_TYPES,
)

MAX_SUGGESTIONS = 25
TYPE_NAMES = {
    OPT_STRING: "text",
    OPT_INTEGER: "whole number",
    OPT_BOOLEAN: "true or false",
    OPT_USER: "@person",
    OPT_CHANNEL: "#channel",
    OPT_ROLE: "@role",
    OPT_MENTIONABLE: "@person or @role",
    OPT_NUMBER: "number",
}
_TRUE = {"true", "yes", "y", "1", "on"}
_FALSE = {"false", "no", "n", "0", "off"}


class CommandError(ValueError):
    """What is wrong with a typed command, in words for the person who typed it."""


class Lookup(Protocol):
    """Finds the people, channels and roles an option names (`@Bob`, `#uno`)."""

    def find_user(self, text: str) -> Any | None: ...

    def find_channel(self, text: str) -> Any | None: ...

    def find_role(self, text: str) -> Any | None: ...

    def mentions(self, kind: int) -> list[str]:
        """What may be typed for an option of this type (`@Alice`, `#uno`)."""
        ...


@dataclass
class Parsed:
    """A command ready for the fake's `slash`: its path and its option values."""

    path: str  # "uno new"
    options: dict[str, Any]


@dataclass
class Suggestion:
    label: str  # what the list shows first ("/uno new", "edition:", "sonic")
    detail: str  # the description beside it
    text: str  # the whole box once it is picked


@dataclass
class AutocompleteAsk:
    """Suggestions that only the bot can give: ask it with an autocomplete interaction."""

    path: str
    options: dict[str, Any]
    focused: str
    prefix: str  # the box up to the value being typed


def leaf_paths(commands: Iterable[JSON]) -> list[tuple[str, JSON]]:
    """Every runnable command path ("uno new") with its node, in registration order."""
    out: list[tuple[str, JSON]] = []

    def walk(node: JSON, prefix: str) -> None:
        subs = [o for o in node.get("options") or [] if o["type"] in SUBCOMMAND_TYPES]
        if not subs:
            out.append((prefix, node))
        for sub in subs:
            walk(sub, f"{prefix} {sub['name']}")

    for cmd in commands:
        if cmd.get("type", 1) == 1:
            walk(cmd, cmd["name"])
    return out


def _find_node(commands: Iterable[JSON], text: str) -> tuple[str, JSON, str]:
    """The command path typed, its node and the text after it."""
    by_name = {c["name"]: c for c in commands if c.get("type", 1) == 1}
    body = text.lstrip().removeprefix("/")
    match = re.match(r"\s*(\S+)", body)
    if match is None:
        raise CommandError("Type a command after /, for example /uno new")
    name = match.group(1).lower()
    node = by_name.get(name)
    if node is None:
        known = ", ".join("/" + n for n in sorted(by_name)) or "none yet"
        raise CommandError(f"There is no /{name} command. Commands: {known}")
    path = [name]
    rest = body[match.end() :]
    while True:
        subs = {o["name"]: o for o in node.get("options") or [] if o["type"] in SUBCOMMAND_TYPES}
        if not subs:
            return " ".join(path), node, rest
        match = re.match(r"\s*(\S+)", rest)
        word = match.group(1).lower() if match else ""
        if word not in subs:
            listing = ", ".join(f"/{' '.join(path)} {s}" for s in subs)
            said = f"/{' '.join(path)} {word}".strip() if word else f"/{' '.join(path)}"
            raise CommandError(f"{said} is not a command. Did you mean: {listing}?")
        assert match is not None
        path.append(word)
        node = subs[word]
        rest = rest[match.end() :]


def _pairs(node: JSON, rest: str, path: str) -> list[tuple[JSON, str]]:
    """The (option, raw value) pairs of `name:value` text."""
    options = {o["name"]: o for o in node.get("options") or []}
    if not rest.strip():
        return []
    names = "|".join(re.escape(n) for n in sorted(options, key=len, reverse=True))
    marker = re.compile(rf"(?:^|\s)({names}):") if names else None
    found = list(marker.finditer(rest)) if marker else []
    head = rest[: found[0].start()] if found else rest
    if head.strip():
        stray = re.match(r"\s*([\w-]+):", head)
        listing = ", ".join(f"{n}:" for n in options) or "no options"
        if stray:
            raise CommandError(f"/{path} has no option {stray.group(1)}. It takes {listing}")
        raise CommandError(
            f"Write options as name:value after /{path} (it takes {listing}), "
            f"for example {_example(node, path)}"
        )
    pairs = []
    for i, m in enumerate(found):
        end = found[i + 1].start() if i + 1 < len(found) else len(rest)
        raw = rest[m.end() : end].strip()
        if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "\"'":
            raw = raw[1:-1]
        pairs.append((options[m.group(1)], raw))
    return pairs


def _example(node: JSON, path: str) -> str:
    for opt in node.get("options") or []:
        if opt.get("choices"):
            return f"/{path} {opt['name']}:{opt['choices'][0]['value']}"
    first = (node.get("options") or [{}])[0]
    return f"/{path} {first['name']}:…" if first else f"/{path}"


def convert(opt: JSON, raw: str, lookup: Lookup) -> Any:
    """One option's value from its text, as Discord's client would send it."""
    name, kind = opt["name"], opt["type"]
    if raw == "":
        raise CommandError(f"{name}: give a value after {name}:")
    choices = opt.get("choices")
    if choices:
        for choice in choices:
            if raw.lower() in (str(choice["value"]).lower(), str(choice["name"]).lower()):
                return choice["value"]
        listing = ", ".join(str(c["value"]) for c in choices)
        raise CommandError(f"{name}: choose one of {listing}")
    value: Any
    if kind == OPT_STRING:
        low, high = opt.get("min_length", 0), opt.get("max_length", 6000)
        if not low <= len(raw) <= high:
            raise CommandError(f"{name}: between {low} and {high} characters")
        return raw
    if kind in (OPT_INTEGER, OPT_NUMBER):
        try:
            value = int(raw) if kind == OPT_INTEGER else float(raw)
        except ValueError:
            raise CommandError(f"{name}: {raw!r} is not a {TYPE_NAMES[kind]}") from None
        low, high = opt.get("min_value"), opt.get("max_value")
        if (low is not None and value < low) or (high is not None and value > high):
            raise CommandError(f"{name}: from {low} to {high}")
        return value
    if kind == OPT_BOOLEAN:
        if raw.lower() in _TRUE | _FALSE:
            return raw.lower() in _TRUE
        raise CommandError(f"{name}: true or false")
    finders = {
        OPT_USER: (lookup.find_user,),
        OPT_CHANNEL: (lookup.find_channel,),
        OPT_ROLE: (lookup.find_role,),
        OPT_MENTIONABLE: (lookup.find_user, lookup.find_role),
    }.get(kind)
    if finders is None:
        raise CommandError(f"{name}: the playground cannot send this kind of option")
    for find in finders:
        found = find(raw)
        if found is not None:
            return found
    raise CommandError(f"{name}: nobody or nothing here is called {raw}")


def parse(text: str, commands: Iterable[JSON], lookup: Lookup) -> Parsed:
    """The command and options of a typed line; CommandError says what is wrong."""
    if not text.strip().startswith("/"):
        raise CommandError("Commands start with /, for example /uno new")
    path, node, rest = _find_node(list(commands), text)
    values: dict[str, Any] = {}
    for opt, raw in _pairs(node, rest, path):
        if opt["name"] in values:
            raise CommandError(f"{opt['name']} is given twice")
        values[opt["name"]] = convert(opt, raw, lookup)
    missing = [o["name"] for o in node.get("options") or [] if o.get("required")]
    missing = [n for n in missing if n not in values]
    if missing:
        raise CommandError(f"/{path} needs {', '.join(m + ':' for m in missing)}")
    return Parsed(path, values)


def suggest(
    text: str, commands: Iterable[JSON], lookup: Lookup
) -> list[Suggestion] | AutocompleteAsk:
    """What to offer for the text typed so far: commands, then options, then values."""
    commands = list(commands)
    typed = text.lstrip()
    if not typed.startswith("/"):
        return []
    paths = leaf_paths(commands)
    body = typed[1:].lower()
    if not any(body == p or body.startswith(p + " ") for p, _ in paths):
        # Still typing the command's name: offer the commands it may become.
        return [
            Suggestion(f"/{p}", n.get("description", ""), f"/{p} ")
            for p, n in paths
            if p.startswith(body.strip())
        ][:MAX_SUGGESTIONS]
    try:
        path, node, rest = _find_node(commands, typed)
    except CommandError:
        return []
    options = node.get("options") or []
    # Typing a value: `name:partial` at the end.
    names = "|".join(re.escape(o["name"]) for o in options)
    last = re.search(rf"(?:^|\s)({names}):([^:]*)$", rest) if names else None
    if last is not None:
        opt = next(o for o in options if o["name"] == last.group(1))
        partial = last.group(2)
        prefix = typed[: len(typed) - len(partial)]
        if opt.get("autocomplete"):
            done = _known_values(node, rest[: last.start()], path, lookup)
            return AutocompleteAsk(path, {**done, opt["name"]: partial}, opt["name"], prefix)
        if partial.endswith(" ") and partial.strip():
            return _option_suggestions(options, typed, rest)
        return _value_suggestions(opt, partial, prefix, lookup)
    return _option_suggestions(options, typed, rest)


def _known_values(node: JSON, rest: str, path: str, lookup: Lookup) -> dict[str, Any]:
    """The options already typed that convert cleanly (sent along with an autocomplete)."""
    values: dict[str, Any] = {}
    try:
        pairs = _pairs(node, rest, path)
    except CommandError:
        return values
    for opt, raw in pairs:
        try:
            value = convert(opt, raw, lookup)
        except CommandError:
            continue
        values[opt["name"]] = value if isinstance(value, str | int | float | bool) else raw
    return values


def _option_suggestions(options: list[JSON], typed: str, rest: str) -> list[Suggestion]:
    used = set(re.findall(r"(?:^|\s)([\w-]+):", rest))
    base = typed if typed.endswith(" ") else typed + " "
    word = re.search(r"(?:^|\s)([\w-]*)$", rest)
    partial = word.group(1) if word and not typed.endswith(" ") else ""
    if partial:
        base = typed[: len(typed) - len(partial)]
    free = [o for o in options if o["name"] not in used and o["name"].startswith(partial)]
    free.sort(key=lambda o: not o.get("required"))
    return [
        Suggestion(
            f"{o['name']}:",
            ("required · " if o.get("required") else "")
            + f"{_kind(o)} · {o.get('description', '')}",
            f"{base}{o['name']}:",
        )
        for o in free[:MAX_SUGGESTIONS]
    ]


def _kind(opt: JSON) -> str:
    return "choice" if opt.get("choices") else TYPE_NAMES.get(opt["type"], "value")


def _value_suggestions(opt: JSON, partial: str, prefix: str, lookup: Lookup) -> list[Suggestion]:
    low = partial.lower()
    if opt.get("choices"):
        return [
            Suggestion(str(c["value"]), str(c["name"]), f"{prefix}{c['value']} ")
            for c in opt["choices"]
            if str(c["value"]).lower().startswith(low) or str(c["name"]).lower().startswith(low)
        ][:MAX_SUGGESTIONS]
    if opt["type"] == OPT_BOOLEAN:
        return [Suggestion(v, "", f"{prefix}{v} ") for v in ("true", "false") if v.startswith(low)]
    named = [
        m
        for m in lookup.mentions(opt["type"])
        if m.lower().lstrip("@#").startswith(low.lstrip("@#"))
    ]
    if named:
        return [Suggestion(m, "", f"{prefix}{m} ") for m in named][:MAX_SUGGESTIONS]
    hint = TYPE_NAMES.get(opt["type"], "value")
    bounds = ""
    if opt.get("min_value") is not None or opt.get("max_value") is not None:
        bounds = f" from {opt.get('min_value', '…')} to {opt.get('max_value', '…')}"
    return [Suggestion(f"{opt['name']}: {hint}{bounds}", opt.get("description", ""), "")]
