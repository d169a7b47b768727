"""Names and free text made safe for messages: one line, no markdown, no pings."""

from __future__ import annotations

import re

_MARKDOWN = re.compile(r"([\\*_~`|>#\[\]()-])")
NAME_MAX = 32


def seat_name(name: str) -> str:
    """A display name as a seat keeps it: one line, at most 32 characters (pictures use it)."""
    return " ".join(name.split())[:NAME_MAX] or "Player"


def _unping(text: str) -> str:
    # A zero-width space after @ and inside <@ breaks every mention form (@everyone, <@id>, <#id>).
    return text.replace("@", "@\u200b").replace("<", "<\u200b")


def safe_name(name: str) -> str:
    """A display name that cannot format text or ping anyone when shown in any message."""
    return _unping(_MARKDOWN.sub(r"\\\1", " ".join(name.split()) or "Player"))


def safe_text(text: str, limit: int = 200) -> str:
    """Free text (the Wild Customizable house rule) that cannot ping or break the layout."""
    flat = " ".join(text.split())[:limit]
    return _unping(_MARKDOWN.sub(r"\\\1", flat))
