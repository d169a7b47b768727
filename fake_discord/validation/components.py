"""Discord's component rules for messages: what may hold what, counts, the 40 components
and 4,000 characters of a Components V2 message, labels, custom ids and media references."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any, ClassVar

from fake_discord.components import walk_components
from fake_discord.constants import (
    C_ACTION_ROW,
    C_BUTTON,
    C_CONTAINER,
    C_FILE,
    C_MEDIA_GALLERY,
    C_SECTION,
    C_SEPARATOR,
    C_STRING_SELECT,
    C_TEXT_DISPLAY,
    C_THUMBNAIL,
    CONTAINER_CHILDREN,
    JSON,
    SELECT_TYPES,
    V2_TOP_LEVEL,
)
from fake_discord.errors import FormErrors, FormPath

MAX_V2_COMPONENTS = 40
MAX_V2_TEXT = 4000
ATTACHMENT_SCHEME = "attachment://"


def component_errors(
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
        path: FormPath = ["components", i]
        if comp.get("type") not in allowed_top:
            errors.add(
                [*path, "type"],
                "COMPONENT_TYPE_INVALID",
                f"Component type {comp.get('type')} not allowed here"
                + ("" if v2 else " (set IS_COMPONENTS_V2)"),
            )
            continue
        _ComponentChecker(errors, attachments, seen_custom_ids).check(comp, path)


def _media_ref(media: JSON | None, path: FormPath, errors: FormErrors, files: set[str]) -> None:
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

    def check(self, comp: JSON, path: FormPath) -> None:
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

    def _children(self, comp: JSON, path: FormPath, allowed: Collection[int]) -> None:
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

    def _action_row(self, comp: JSON, path: FormPath) -> None:
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

    def _button(self, comp: JSON, path: FormPath) -> None:
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

    def _select(self, comp: JSON, path: FormPath) -> None:
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

    def _text_display(self, comp: JSON, path: FormPath) -> None:
        self.errors.max_len([*path, "content"], comp.get("content"), MAX_V2_TEXT, 1)

    def _section(self, comp: JSON, path: FormPath) -> None:
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

    def _thumbnail(self, comp: JSON, path: FormPath) -> None:
        _media_ref(comp.get("media"), [*path, "media", "url"], self.errors, self.files)
        self.errors.max_len([*path, "description"], comp.get("description"), 1024)

    def _media_gallery(self, comp: JSON, path: FormPath) -> None:
        items = comp.get("items") or []
        if not 1 <= len(items) <= 10:
            self.errors.add([*path, "items"], "BASE_TYPE_BAD_LENGTH", "Must be 1 to 10 items.")
        for k, item in enumerate(items):
            ipath = [*path, "items", k]
            _media_ref(item.get("media"), [*ipath, "media", "url"], self.errors, self.files)
            self.errors.max_len([*ipath, "description"], item.get("description"), 1024)

    def _file(self, comp: JSON, path: FormPath) -> None:
        url = (comp.get("file") or {}).get("url", "")
        if not url.startswith(ATTACHMENT_SCHEME):
            self.errors.add(
                [*path, "file", "url"],
                "COMPONENT_FILE_URL_INVALID",
                "File components only support attachment:// urls",
            )
        else:
            _media_ref(comp.get("file"), [*path, "file", "url"], self.errors, self.files)

    def _separator(self, comp: JSON, path: FormPath) -> None:
        if comp.get("spacing", 1) not in (1, 2):
            self.errors.add([*path, "spacing"], "BASE_TYPE_CHOICES", "Invalid spacing")

    def _container(self, comp: JSON, path: FormPath) -> None:
        if not comp.get("components"):
            self.errors.add([*path, "components"], "BASE_TYPE_MIN_LENGTH", "Must be 1 or more.")
        color = comp.get("accent_color")
        if color is not None and not 0 <= color <= 0xFFFFFF:
            self.errors.add([*path, "accent_color"], "BASE_TYPE_BAD_INT", "Invalid color")
        self._children(comp, path, CONTAINER_CHILDREN)

    _checks: ClassVar[dict[Any, Callable[[_ComponentChecker, JSON, FormPath], None]]] = {
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
