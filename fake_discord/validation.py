"""Discord's limits on what a bot sends, checkable offline: messages (components, nesting,
lengths, media references), modals and application commands.

`check_message`, `check_modal`, `check_command` and `check_commands` take a payload as the bot
would send it and return one line per broken rule (an empty list when Discord would accept
it). The fake's routes run the same checks and answer 400 Invalid Form Body (50035).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any, ClassVar

from fake_discord.components import walk_components
from fake_discord.constants import (
    C_ACTION_ROW,
    C_BUTTON,
    C_CONTAINER,
    C_FILE,
    C_FILE_UPLOAD,
    C_LABEL,
    C_MEDIA_GALLERY,
    C_SECTION,
    C_SEPARATOR,
    C_STRING_SELECT,
    C_TEXT_DISPLAY,
    C_TEXT_INPUT,
    C_THUMBNAIL,
    CMD_CHAT_INPUT,
    CONTAINER_CHILDREN,
    FLAG_IS_COMPONENTS_V2,
    FLAG_LOADING,
    JSON,
    LOCALES,
    OPT_INTEGER,
    OPT_NUMBER,
    OPT_STRING,
    OPT_SUB_COMMAND,
    OPT_SUB_COMMAND_GROUP,
    SELECT_TYPES,
    SUBCOMMAND_TYPES,
    V2_TOP_LEVEL,
)
from fake_discord.errors import DiscordHTTPError, FormErrors

Path = list[str | int]

# Discord: ^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$ (Python's \w covers letters and digits).
CHAT_INPUT_NAME = re.compile(r"^[-_'\w]{1,32}$")
MAX_V2_COMPONENTS = 40
MAX_V2_TEXT = 4000
MAX_COMMAND_SIZE = 8000
ATTACHMENT_SCHEME = "attachment://"


# ----- messages -----


def check_message(payload: Mapping[str, Any], *, files: Iterable[str] = ()) -> list[str]:
    """Every rule a create-message payload breaks (content, embeds, components, flags).

    Attachments named in `payload["attachments"]` (`filename`) and in `files` can be referred
    to as `attachment://NAME`."""
    names = {str(a.get("filename")) for a in payload.get("attachments") or [] if "filename" in a}
    errors = message_errors(
        content=payload.get("content") or "",
        embeds=payload.get("embeds") or [],
        components=payload.get("components") or [],
        flags=int(payload.get("flags") or 0),
        attachments=names | set(files),
        nonce=payload.get("nonce"),
    )
    lines = errors.messages()
    empty = not (payload.get("content") or payload.get("embeds") or payload.get("components"))
    if empty and not names and not files:
        lines.append("<body>: Cannot send an empty message (50006)")
    return lines


def message_errors(
    *,
    content: str,
    embeds: Sequence[JSON],
    components: Sequence[JSON],
    flags: int,
    attachments: Collection[str],
    nonce: object = None,
) -> FormErrors:
    """The rules a message's resulting state breaks (after a create or an edit)."""
    errors = FormErrors()
    v2 = bool(flags & FLAG_IS_COMPONENTS_V2)
    if v2:
        for key, value in (("content", content), ("embeds", embeds)):
            if value:
                errors.add(
                    [key],
                    "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                    f"{key} cannot be used with IS_COMPONENTS_V2",
                )
    errors.max_len(["content"], content, 2000)
    if isinstance(nonce, str):
        errors.max_len(["nonce"], nonce, 25)
    _embed_errors(embeds, errors)
    _component_errors(components, v2, errors, set(attachments))
    for i, embed in enumerate(embeds):
        url = (embed.get("image") or {}).get("url", "")
        if url.startswith(ATTACHMENT_SCHEME) and url[len(ATTACHMENT_SCHEME) :] not in attachments:
            errors.add(["embeds", i, "image", "url"], "ATTACHMENT_NOT_FOUND", f"{url} not attached")
    return errors


def raise_for_message(
    *,
    content: str,
    embeds: Sequence[JSON],
    components: Sequence[JSON],
    flags: int,
    attachments: Collection[str],
    nonce: object = None,
) -> None:
    """What the routes do: 400 Invalid Form Body (50035), or 50006 for an empty message."""
    message_errors(
        content=content,
        embeds=embeds,
        components=components,
        flags=flags,
        attachments=attachments,
        nonce=nonce,
    ).raise_if_any()
    if not (content or embeds or components or attachments or flags & FLAG_LOADING):
        raise DiscordHTTPError(400, 50006, "Cannot send an empty message")


def _embed_errors(embeds: Sequence[JSON], errors: FormErrors) -> None:
    if len(embeds) > 10:
        errors.add(["embeds"], "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
    total = 0
    for i, e in enumerate(embeds):
        path: Path = ["embeds", i]
        errors.max_len([*path, "title"], e.get("title"), 256)
        errors.max_len([*path, "description"], e.get("description"), 4096)
        fields = e.get("fields") or []
        if len(fields) > 25:
            errors.add([*path, "fields"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer.")
        for j, f in enumerate(fields):
            errors.max_len([*path, "fields", j, "name"], f.get("name"), 256, 1)
            errors.max_len([*path, "fields", j, "value"], f.get("value"), 1024, 1)
        total += len(e.get("title") or "") + len(e.get("description") or "")
        total += sum(len(f.get("name", "")) + len(f.get("value", "")) for f in fields)
        total += len((e.get("footer") or {}).get("text", ""))
        total += len((e.get("author") or {}).get("name", ""))
    if total > 6000:
        errors.add(["embeds"], "MESSAGE_EMBED_TOO_LONG", "Embed size exceeds maximum size")


def _component_errors(
    components: Sequence[JSON], v2: bool, errors: FormErrors, attachments: set[str]
) -> None:
    """Discord's component rules. `attachments`: filenames available for attachment://."""
    if not v2 and len(components) > 5:
        errors.add(["components"], "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
    total = sum(1 for _ in walk_components(components))
    if v2 and total > MAX_V2_COMPONENTS:
        errors.add(
            ["components"],
            "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED",
            f"The specified component exceeds the maximum of {MAX_V2_COMPONENTS} ({total})",
        )
    text_total = sum(
        len(c.get("content", ""))
        for c in walk_components(components)
        if c["type"] == C_TEXT_DISPLAY
    )
    if text_total > MAX_V2_TEXT:
        errors.add(
            ["components"],
            "COMPONENT_MAX_TEXT_LENGTH_EXCEEDED",
            f"Total TextDisplay content must be {MAX_V2_TEXT} or fewer ({text_total})",
        )
    seen_custom_ids: set[str] = set()
    allowed_top = V2_TOP_LEVEL if v2 else {C_ACTION_ROW}
    for i, comp in enumerate(components):
        path: Path = ["components", i]
        if comp.get("type") not in allowed_top:
            errors.add(
                [*path, "type"],
                "COMPONENT_TYPE_INVALID",
                f"Component type {comp.get('type')} not allowed here"
                + ("" if v2 else " (set IS_COMPONENTS_V2)"),
            )
            continue
        _ComponentChecker(errors, attachments, seen_custom_ids).check(comp, path)


def _media_ref(media: JSON | None, path: Path, errors: FormErrors, files: set[str]) -> None:
    url = (media or {}).get("url", "")
    if not url:
        errors.add(path, "BASE_TYPE_REQUIRED", "This field is required")
    elif url.startswith(ATTACHMENT_SCHEME) and url[len(ATTACHMENT_SCHEME) :] not in files:
        errors.add(
            path,
            "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
            f"Attachment {url} not found on this message",
        )


class _ComponentChecker:
    """Checks one component tree, remembering custom ids across the whole message."""

    def __init__(self, errors: FormErrors, files: set[str], seen: set[str]) -> None:
        self.errors = errors
        self.files = files
        self.seen = seen

    def check(self, comp: JSON, path: Path) -> None:
        errors = self.errors
        if comp.get("custom_id") is not None:
            cid = comp["custom_id"]
            errors.max_len([*path, "custom_id"], cid, 100, 1)
            if cid in self.seen:
                errors.add(
                    [*path, "custom_id"],
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    f"Component custom id cannot be duplicated ({cid})",
                )
            self.seen.add(cid)
        check = self._checks.get(comp.get("type"))
        if check is not None:
            check(self, comp, path)

    def _children(self, comp: JSON, path: Path, allowed: Collection[int]) -> None:
        for j, child in enumerate(comp.get("components") or []):
            cpath = [*path, "components", j]
            if child.get("type") not in allowed:
                self.errors.add(
                    [*cpath, "type"],
                    "COMPONENT_TYPE_INVALID",
                    f"Component type {child.get('type')} not allowed here",
                )
            else:
                self.check(child, cpath)

    def _action_row(self, comp: JSON, path: Path) -> None:
        children: list[JSON] = comp.get("components") or []
        if not children:
            self.errors.add([*path, "components"], "BASE_TYPE_MIN_LENGTH", "Must be 1 or more.")
        if len(children) > 5:
            self.errors.add(
                [*path, "components"], "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length."
            )
        if any(c.get("type") in SELECT_TYPES for c in children) and len(children) > 1:
            self.errors.add(
                [*path, "components"],
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "A select must be alone in its action row",
            )
        self._children(comp, path, {C_BUTTON} | SELECT_TYPES)

    def _button(self, comp: JSON, path: Path) -> None:
        errors = self.errors
        style = comp.get("style")
        errors.max_len([*path, "label"], comp.get("label"), 80)
        if style not in (1, 2, 3, 4, 5, 6):
            errors.add([*path, "style"], "BASE_TYPE_CHOICES", f"Invalid button style {style}")
        elif style == 5:
            if not comp.get("url") or comp.get("custom_id"):
                errors.add(
                    path, "BUTTON_COMPONENT_INVALID_URL", "Link buttons need a url and no custom_id"
                )
        elif style != 6 and not comp.get("custom_id"):
            errors.add([*path, "custom_id"], "BASE_TYPE_REQUIRED", "This field is required")
        if not comp.get("label") and not comp.get("emoji") and style != 6:
            errors.add(
                path,
                "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
                "A button needs a label or an emoji",
            )

    def _select(self, comp: JSON, path: Path) -> None:
        errors = self.errors
        errors.max_len([*path, "placeholder"], comp.get("placeholder"), 150)
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not 0 <= lo <= 25 or not 1 <= hi <= 25 or lo > hi:
            errors.add([*path, "max_values"], "BASE_TYPE_BAD_INT", "Invalid min/max values")
        if comp.get("type") != C_STRING_SELECT:
            return
        options = comp.get("options") or []
        if not 1 <= len(options) <= 25:
            errors.add(
                [*path, "options"],
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and 25 in length ({len(options)})",
            )
        if hi > len(options):
            errors.add(
                [*path, "max_values"], "BASE_TYPE_MAX", "max_values exceeds the number of options"
            )
        values = [o.get("value") for o in options]
        if len(values) != len(set(values)):
            errors.add(
                [*path, "options"],
                "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                "Option values must be unique",
            )
        for k, opt in enumerate(options):
            opath = [*path, "options", k]
            errors.max_len([*opath, "label"], opt.get("label"), 100, 1)
            errors.max_len([*opath, "value"], opt.get("value"), 100, 1)
            errors.max_len([*opath, "description"], opt.get("description"), 100)

    def _text_display(self, comp: JSON, path: Path) -> None:
        self.errors.max_len([*path, "content"], comp.get("content"), MAX_V2_TEXT, 1)

    def _section(self, comp: JSON, path: Path) -> None:
        if not 1 <= len(comp.get("components") or []) <= 3:
            self.errors.add([*path, "components"], "BASE_TYPE_BAD_LENGTH", "Must be 1 to 3.")
        self._children(comp, path, {C_TEXT_DISPLAY})
        accessory = comp.get("accessory")
        if not accessory or accessory.get("type") not in (C_BUTTON, C_THUMBNAIL):
            self.errors.add(
                [*path, "accessory"],
                "BASE_TYPE_REQUIRED",
                "A section needs a button or thumbnail accessory",
            )
        else:
            self.check(accessory, [*path, "accessory"])

    def _thumbnail(self, comp: JSON, path: Path) -> None:
        _media_ref(comp.get("media"), [*path, "media", "url"], self.errors, self.files)
        self.errors.max_len([*path, "description"], comp.get("description"), 1024)

    def _media_gallery(self, comp: JSON, path: Path) -> None:
        items = comp.get("items") or []
        if not 1 <= len(items) <= 10:
            self.errors.add([*path, "items"], "BASE_TYPE_BAD_LENGTH", "Must be 1 to 10 items.")
        for k, item in enumerate(items):
            ipath = [*path, "items", k]
            _media_ref(item.get("media"), [*ipath, "media", "url"], self.errors, self.files)
            self.errors.max_len([*ipath, "description"], item.get("description"), 1024)

    def _file(self, comp: JSON, path: Path) -> None:
        url = (comp.get("file") or {}).get("url", "")
        if not url.startswith(ATTACHMENT_SCHEME):
            self.errors.add(
                [*path, "file", "url"],
                "COMPONENT_FILE_URL_INVALID",
                "File components only support attachment:// urls",
            )
        else:
            _media_ref(comp.get("file"), [*path, "file", "url"], self.errors, self.files)

    def _separator(self, comp: JSON, path: Path) -> None:
        if comp.get("spacing", 1) not in (1, 2):
            self.errors.add([*path, "spacing"], "BASE_TYPE_CHOICES", "Invalid spacing")

    def _container(self, comp: JSON, path: Path) -> None:
        if not comp.get("components"):
            self.errors.add([*path, "components"], "BASE_TYPE_MIN_LENGTH", "Must be 1 or more.")
        color = comp.get("accent_color")
        if color is not None and not 0 <= color <= 0xFFFFFF:
            self.errors.add([*path, "accent_color"], "BASE_TYPE_BAD_INT", "Invalid color")
        self._children(comp, path, CONTAINER_CHILDREN)

    _checks: ClassVar[dict[Any, Callable[[_ComponentChecker, JSON, Path], None]]] = {
        C_ACTION_ROW: _action_row,
        C_BUTTON: _button,
        **dict.fromkeys(SELECT_TYPES, _select),
        C_TEXT_DISPLAY: _text_display,
        C_SECTION: _section,
        C_THUMBNAIL: _thumbnail,
        C_MEDIA_GALLERY: _media_gallery,
        C_FILE: _file,
        C_SEPARATOR: _separator,
        C_CONTAINER: _container,
    }


# ----- modals -----


def check_modal(payload: Mapping[str, Any]) -> list[str]:
    """Every rule a modal (the `data` of callback type 9) breaks."""
    return modal_errors(payload).messages()


def modal_errors(data: Mapping[str, Any]) -> FormErrors:
    errors = FormErrors()
    errors.max_len(["data", "title"], data.get("title"), 45, 1)
    errors.max_len(["data", "custom_id"], data.get("custom_id"), 100, 1)
    comps = data.get("components") or []
    if not 1 <= len(comps) <= 5:
        errors.add(["data", "components"], "BASE_TYPE_BAD_LENGTH", "Must be 1 to 5.")
    for i, comp in enumerate(comps):
        path: Path = ["data", "components", i]
        if comp["type"] == C_ACTION_ROW:
            inner = comp.get("components") or []
            if len(inner) != 1 or inner[0].get("type") != C_TEXT_INPUT:
                errors.add(path, "COMPONENT_TYPE_INVALID", "Rows hold exactly 1 text input")
                continue
            field_, fpath = inner[0], [*path, "components", 0]
            errors.max_len([*fpath, "label"], field_.get("label"), 45, 1)
        elif comp["type"] == C_LABEL:
            errors.max_len([*path, "label"], comp.get("label"), 45, 1)
            errors.max_len([*path, "description"], comp.get("description"), 100)
            field_, fpath = comp.get("component") or {}, [*path, "component"]
            if field_.get("type") not in {C_TEXT_INPUT, C_FILE_UPLOAD} | SELECT_TYPES:
                errors.add(fpath, "COMPONENT_TYPE_INVALID", "Invalid component in label")
                continue
        elif comp["type"] == C_TEXT_DISPLAY:
            errors.max_len([*path, "content"], comp.get("content"), MAX_V2_TEXT, 1)
            continue
        else:
            errors.add([*path, "type"], "COMPONENT_TYPE_INVALID", "Invalid modal component")
            continue
        errors.max_len([*fpath, "custom_id"], field_.get("custom_id"), 100, 1)
        if field_.get("type") == C_TEXT_INPUT:
            if field_.get("style", 1) not in (1, 2):
                errors.add([*fpath, "style"], "BASE_TYPE_CHOICES", "Invalid style")
            errors.max_len([*fpath, "placeholder"], field_.get("placeholder"), 100)
            errors.max_len([*fpath, "value"], field_.get("value"), 4000)
            lo, hi = field_.get("min_length", 0), field_.get("max_length", 4000)
            if not 0 <= lo <= 4000 or not 1 <= hi <= 4000 or lo > hi:
                errors.add([*fpath, "max_length"], "BASE_TYPE_BAD_INT", "Invalid lengths")
    return errors


# ----- application commands -----


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


def command_errors(cmd: Mapping[str, Any], errors: FormErrors, path: Path) -> None:
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


def _name_errors(name: object, chat_input: bool, errors: FormErrors, path: Path) -> None:
    if not isinstance(name, str) or not 1 <= len(name) <= 32:
        errors.add(path, "APPLICATION_COMMAND_INVALID_NAME", f"Invalid name {name!r} (1-32)")
    elif chat_input and (not CHAT_INPUT_NAME.match(name) or name != name.lower()):
        errors.add(
            path,
            "APPLICATION_COMMAND_INVALID_NAME",
            f"Invalid name {name!r}: lower case letters, digits, - _ ' only",
        )


def _localization_errors(
    node: Mapping[str, Any], key: str, chat_input: bool, errors: FormErrors, path: Path
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


def _options_errors(options: Sequence[JSON], depth: int, errors: FormErrors, path: Path) -> None:
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


def _choices_errors(opt: JSON, errors: FormErrors, path: Path) -> None:
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
    values = [node.get(key) or "", *((node.get(f"{key}_localizations") or {}).values())]
    return max(len(str(v)) for v in values)


def _command_size(node: Mapping[str, Any]) -> int:
    """Discord's size: names, descriptions and choice values of the whole tree."""
    size = _longest(node, "name") + _longest(node, "description")
    for opt in node.get("options") or []:
        size += _command_size(opt)
    for choice in node.get("choices") or []:
        size += _longest(choice, "name") + len(str(choice.get("value", "")))
    return size
