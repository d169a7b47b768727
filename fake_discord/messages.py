"""Messages and attachments of the fake world, with the accessors tests read them through
(text, buttons, selects, media, pings) and Discord's wire format."""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from fake_discord.channels import FakeChannel, _now_iso
from fake_discord.components import Button, Select, media_of, walk_components
from fake_discord.constants import (
    C_BUTTON,
    C_TEXT_DISPLAY,
    DISCORD_EPOCH_MS,
    FLAG_EPHEMERAL,
    FLAG_IS_COMPONENTS_V2,
    FLAG_LOADING,
    JSON,
    SELECT_TYPES,
)
from fake_discord.users import FakeUser

COMMAND_MENTION = re.compile(r"</([-_'\w]+(?: [-_'\w]+){0,2}):(\d+)>")


def snowflake_time(snowflake: int) -> float:
    """The Unix time (seconds) a snowflake was made at, as discord.py reads it."""
    return ((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000


@dataclass(eq=False)
class FakeAttachment:
    id: int
    filename: str
    data: bytes
    url: str
    content_type: str | None = None
    width: int | None = None
    height: int | None = None
    description: str | None = None

    @property
    def size(self) -> int:
        return len(self.data)

    def to_payload(self) -> JSON:
        payload: JSON = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.width is not None:
            payload["width"] = self.width
            payload["height"] = self.height
        if self.description is not None:
            payload["description"] = self.description
        return payload


@dataclass(eq=False)
class FakeMessage:
    id: int
    channel_id: int
    guild_id: int | None
    author: FakeUser
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    ephemeral_to: int | None = None  # user id that can see this ephemeral message
    interaction_metadata: JSON | None = None  # for an answer to an interaction
    # The create payload's allowed_mentions (None = Discord's default: everything pings).
    allowed_mentions: JSON | None = None
    webhook_id: int | None = None
    thread_id: int | None = None
    thread: FakeChannel | None = field(default=None, repr=False)
    nonce: str | int | None = None
    created_at: str = field(default_factory=_now_iso)
    edited_at: str | None = None
    deleted: bool = False
    # Snapshots (payloads) of previous versions, oldest first (none when the fake keeps no
    # history, see `FakeCore.keep_history`).
    history: list[JSON] = field(default_factory=list)
    edits: int = 0

    # ----- convenience accessors for tests -----

    @property
    def is_ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def is_v2(self) -> bool:
        return bool(self.flags & FLAG_IS_COMPONENTS_V2)

    @property
    def is_loading(self) -> bool:
        return bool(self.flags & FLAG_LOADING)

    @property
    def edit_count(self) -> int:
        return self.edits

    @property
    def created_timestamp(self) -> float:
        """Unix time of creation (from the id, as Discord and discord.py compute it)."""
        return snowflake_time(self.id)

    def walk(self) -> Iterator[JSON]:
        return walk_components(self.components)

    @property
    def text_displays(self) -> list[str]:
        return [c.get("content", "") for c in self.walk() if c["type"] == C_TEXT_DISPLAY]

    @property
    def text(self) -> str:
        """Everything a user can read: content, TextDisplays, embed titles/descriptions/fields."""
        parts = [self.content] if self.content else []
        parts += self.text_displays
        for embed in self.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            for f in embed.get("fields", []):
                parts += [f.get("name", ""), f.get("value", "")]
        return "\n".join(p for p in parts if p)

    @property
    def command_mentions(self) -> list[tuple[str, int]]:
        """Slash-command mentions in the text, as (`"uno new"`, command id) pairs."""
        return [(name, int(cid)) for name, cid in COMMAND_MENTION.findall(self.text)]

    @property
    def buttons(self) -> list[Button]:
        return [
            Button(
                custom_id=c.get("custom_id"),
                label=c.get("label"),
                style=c.get("style", 1),
                disabled=bool(c.get("disabled", False)),
                emoji=c.get("emoji"),
                url=c.get("url"),
                raw=c,
            )
            for c in self.walk()
            if c["type"] == C_BUTTON
        ]

    @property
    def selects(self) -> list[Select]:
        return [
            Select(
                custom_id=c["custom_id"],
                type=c["type"],
                options=c.get("options", []),
                placeholder=c.get("placeholder"),
                min_values=c.get("min_values", 1),
                max_values=c.get("max_values", 1),
                disabled=bool(c.get("disabled", False)),
                raw=c,
            )
            for c in self.walk()
            if c["type"] in SELECT_TYPES
        ]

    def find_buttons(
        self,
        label: str | None = None,
        *,
        custom_id: str | None = None,
        prefix: str | None = None,
        label_contains: str | None = None,
        enabled: bool | None = None,
    ) -> list[Button]:
        """All buttons matching every given criterion (exact label, exact id, id prefix, ...)."""
        out = []
        for b in self.buttons:
            if label is not None and b.label != label:
                continue
            if label_contains is not None and label_contains not in (b.label or ""):
                continue
            if custom_id is not None and b.custom_id != custom_id:
                continue
            if prefix is not None and not (b.custom_id or "").startswith(prefix):
                continue
            if enabled is not None and b.disabled == enabled:
                continue
            out.append(b)
        return out

    def button(
        self,
        label: str | None = None,
        *,
        custom_id: str | None = None,
        prefix: str | None = None,
        label_contains: str | None = None,
        enabled: bool | None = None,
    ) -> Button:
        """The first matching button; AssertionError listing all buttons if there is none."""
        found = self.find_buttons(
            label,
            custom_id=custom_id,
            prefix=prefix,
            label_contains=label_contains,
            enabled=enabled,
        )
        if not found:
            listing = [
                (b.label, b.custom_id, "disabled" if b.disabled else "") for b in self.buttons
            ]
            raise AssertionError(
                f"no button label={label!r} custom_id={custom_id!r} prefix={prefix!r} "
                f"label_contains={label_contains!r} in message {self.id}; buttons: {listing}"
            )
        return found[0]

    def select(self, custom_id: str | None = None, *, prefix: str | None = None) -> Select:
        for s in self.selects:
            if custom_id is not None and s.custom_id != custom_id:
                continue
            if prefix is not None and not s.custom_id.startswith(prefix):
                continue
            return s
        listing = [s.custom_id for s in self.selects]
        raise AssertionError(f"no select {custom_id=!r} {prefix=!r} in {self.id}; have {listing}")

    @property
    def media_urls(self) -> list[str]:
        return [media["url"] for comp in self.walk() for media in media_of(comp)]

    def attachment(self, filename: str) -> FakeAttachment:
        for a in self.attachments:
            if a.filename == filename:
                return a
        names = [a.filename for a in self.attachments]
        raise AssertionError(f"no attachment {filename!r} on message {self.id}; have {names}")

    def _mention_allowed(self, kind: str, target_id: int | None = None) -> bool:
        am = self.allowed_mentions
        if am is None:
            return True
        if kind in (am.get("parse") or []):
            return True
        explicit = am.get(kind) or []
        return target_id is not None and str(target_id) in [str(x) for x in explicit]

    @property
    def pings_everyone(self) -> bool:
        """Whether the message (content or TextDisplays) pinged @everyone/@here on creation.
        (The bot's permission to mention everyone is not modelled.)"""
        text = "\n".join([self.content, *self.text_displays])
        return bool(re.search(r"@(everyone|here)", text)) and self._mention_allowed("everyone")

    @property
    def pinged_user_ids(self) -> list[int]:
        text = "\n".join([self.content, *self.text_displays])
        ids = [int(m) for m in re.findall(r"<@!?(\d+)>", text)]
        return [i for i in dict.fromkeys(ids) if self._mention_allowed("users", i)]

    def visible_to(self, user: FakeUser | int) -> bool:
        uid = user if isinstance(user, int) else user.id
        return not self.deleted and (self.ephemeral_to is None or self.ephemeral_to == uid)

    # ----- wire format -----

    def to_payload(self) -> JSON:
        payload: JSON = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "type": self.type,
            "author": self.author.to_payload(),
            "content": self.content,
            "timestamp": self.created_at,
            "edited_timestamp": self.edited_at,
            "tts": False,
            "mention_everyone": self.pings_everyone,
            "mentions": [],
            "mention_roles": [],
            "mention_channels": [],
            "attachments": [a.to_payload() for a in self.attachments],
            "embeds": copy.deepcopy(self.embeds),
            "components": copy.deepcopy(self.components),
            "reactions": [],
            "pinned": False,
            "flags": self.flags,
            "sticker_items": [],
        }
        if self.nonce is not None:
            payload["nonce"] = self.nonce
        if self.webhook_id is not None:
            payload["webhook_id"] = str(self.webhook_id)
            payload["application_id"] = str(self.webhook_id)
        if self.interaction_metadata is not None:
            payload["interaction_metadata"] = self.interaction_metadata
        if self.thread is not None and not self.thread.deleted:
            payload["thread"] = self.thread.to_payload()
        return payload
