"""Discord's rules for a message's content, embeds and flags, and the checks a create or edit
payload goes through (components included)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from fake_discord.constants import (
    FLAG_IS_COMPONENTS_V2,
    FLAG_LOADING,
    JSON,
)
from fake_discord.errors import DiscordHTTPError, FormErrors, FormPath
from fake_discord.validation.components import ATTACHMENT_SCHEME, component_errors


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
    component_errors(components, v2, errors, set(attachments))
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
        path: FormPath = ["embeds", i]
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
