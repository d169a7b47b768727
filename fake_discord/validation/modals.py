"""Discord's rules for modals: title, up to five rows or labels, text inputs and their lengths."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fake_discord.constants import (
    C_ACTION_ROW,
    C_FILE_UPLOAD,
    C_LABEL,
    C_TEXT_DISPLAY,
    C_TEXT_INPUT,
    SELECT_TYPES,
)
from fake_discord.errors import FormErrors, FormPath
from fake_discord.validation.components import MAX_V2_TEXT


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
        path: FormPath = ["data", "components", i]
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
