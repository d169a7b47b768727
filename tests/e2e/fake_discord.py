"""A fake Discord (REST API v10 + gateway) for end-to-end tests of discord.py bots.

The real discord.py client logs into this server (see conftest.py for the redirection), and
tests drive it through the *user simulation API* (`FakeDiscord.slash`, `click`, `select`,
`submit_modal`, ...). Everything is in memory; every state change wakes `wait_for` waiters so
tests never need to sleep.

Validation mirrors the Discord rules a bot is most likely to break (lengths, counts,
Components V2 constraints, double acknowledgements, the 3 s acknowledgement deadline).
Rejected calls answer with a Discord-style JSON error and are recorded in `FakeDiscord.errors`
so a test can assert that none happened.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import datetime as dt
import io
import itertools
import json
import logging
import mimetypes
import re
import time
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from aiohttp import WSMsgType, web

log = logging.getLogger("fake_discord")

JSON = dict[str, Any]
T = TypeVar("T")

API_PREFIX = "/api/v10"
DISCORD_EPOCH_MS = 1420070400000

# Gateway opcodes.
OP_DISPATCH = 0
OP_HEARTBEAT = 1
OP_IDENTIFY = 2
OP_PRESENCE = 3
OP_RESUME = 6
OP_RECONNECT = 7
OP_REQUEST_MEMBERS = 8
OP_INVALID_SESSION = 9
OP_HELLO = 10
OP_HEARTBEAT_ACK = 11

# Intents the fake looks at when deciding which events to send.
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9

# Interaction types / callback types.
ITX_PING = 1
ITX_APPLICATION_COMMAND = 2
ITX_MESSAGE_COMPONENT = 3
ITX_AUTOCOMPLETE = 4
ITX_MODAL_SUBMIT = 5

CB_MESSAGE = 4
CB_DEFERRED_MESSAGE = 5
CB_DEFERRED_UPDATE = 6
CB_UPDATE_MESSAGE = 7
CB_AUTOCOMPLETE = 8
CB_MODAL = 9

# Message flags.
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_HAS_THREAD = 1 << 5
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_IS_COMPONENTS_V2 = 1 << 15

# Component types.
C_ACTION_ROW = 1
C_BUTTON = 2
C_STRING_SELECT = 3
C_TEXT_INPUT = 4
C_USER_SELECT = 5
C_ROLE_SELECT = 6
C_MENTIONABLE_SELECT = 7
C_CHANNEL_SELECT = 8
C_SECTION = 9
C_TEXT_DISPLAY = 10
C_THUMBNAIL = 11
C_MEDIA_GALLERY = 12
C_FILE = 13
C_SEPARATOR = 14
C_CONTAINER = 17
C_LABEL = 18
SELECT_TYPES = frozenset(
    {C_STRING_SELECT, C_USER_SELECT, C_ROLE_SELECT, C_MENTIONABLE_SELECT, C_CHANNEL_SELECT}
)
V2_TOP_LEVEL = frozenset(
    {C_ACTION_ROW, C_SECTION, C_TEXT_DISPLAY, C_MEDIA_GALLERY, C_FILE, C_SEPARATOR, C_CONTAINER}
)
CONTAINER_CHILDREN = frozenset(
    {C_ACTION_ROW, C_SECTION, C_TEXT_DISPLAY, C_MEDIA_GALLERY, C_FILE, C_SEPARATOR}
)

# Channel types.
CH_TEXT = 0
CH_DM = 1
CH_CATEGORY = 4
CH_PUBLIC_THREAD = 11
CH_PRIVATE_THREAD = 12
THREAD_TYPES = frozenset({10, CH_PUBLIC_THREAD, CH_PRIVATE_THREAD})

# Permissions.
PERM_CREATE_INSTANT_INVITE = 1 << 0
PERM_ADMINISTRATOR = 1 << 3
PERM_MANAGE_CHANNELS = 1 << 4
PERM_MANAGE_GUILD = 1 << 5
PERM_ADD_REACTIONS = 1 << 6
PERM_VIEW_CHANNEL = 1 << 10
PERM_SEND_MESSAGES = 1 << 11
PERM_MANAGE_MESSAGES = 1 << 13
PERM_EMBED_LINKS = 1 << 14
PERM_ATTACH_FILES = 1 << 15
PERM_READ_MESSAGE_HISTORY = 1 << 16
PERM_MENTION_EVERYONE = 1 << 17
PERM_USE_EXTERNAL_EMOJIS = 1 << 18
PERM_USE_APPLICATION_COMMANDS = 1 << 31
PERM_MANAGE_THREADS = 1 << 34
PERM_CREATE_PUBLIC_THREADS = 1 << 35
PERM_CREATE_PRIVATE_THREADS = 1 << 36
PERM_SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 51) - 1
DEFAULT_EVERYONE_PERMISSIONS = (
    PERM_CREATE_INSTANT_INVITE
    | PERM_ADD_REACTIONS
    | PERM_VIEW_CHANNEL
    | PERM_SEND_MESSAGES
    | PERM_EMBED_LINKS
    | PERM_ATTACH_FILES
    | PERM_READ_MESSAGE_HISTORY
    | PERM_USE_EXTERNAL_EMOJIS
    | PERM_USE_APPLICATION_COMMANDS
    | PERM_CREATE_PUBLIC_THREADS
    | PERM_SEND_MESSAGES_IN_THREADS
)
# What a typical invite link grants a game bot.
DEFAULT_BOT_PERMISSIONS = (
    DEFAULT_EVERYONE_PERMISSIONS
    | PERM_MANAGE_MESSAGES
    | PERM_MANAGE_THREADS
    | PERM_CREATE_PRIVATE_THREADS
)


def _now_iso() -> str:
    return dt.datetime.now(dt.UTC).isoformat()


# --------------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------------


class DiscordHTTPError(Exception):
    """Raised inside route handlers; turned into a Discord-style JSON error response."""

    def __init__(
        self, status: int, code: int, message: str, errors: JSON | None = None, **extra: Any
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.extra = extra

    def body(self) -> JSON:
        body: JSON = {"message": self.message, "code": self.code, **self.extra}
        if self.errors is not None:
            body["errors"] = self.errors
        return body


@dataclass
class RecordedError:
    """A REST call the fake rejected (validation error, unknown route, late ack, ...)."""

    method: str
    path: str
    status: int
    code: int
    message: str
    errors: JSON | None
    at: float

    def __str__(self) -> str:
        detail = f" {json.dumps(self.errors)}" if self.errors else ""
        return f"{self.method} {self.path} -> {self.status} {self.code} {self.message}{detail}"


class FormErrors:
    """Collects Invalid Form Body errors in Discord's nested `{"a": {"0": {"_errors": []}}}`."""

    def __init__(self) -> None:
        self.tree: JSON = {}

    def add(self, path: Sequence[str | int], code: str, message: str) -> None:
        node = self.tree
        for part in path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def max_len(self, path: Sequence[str | int], value: Any, limit: int, minimum: int = 0) -> None:
        if value is None:
            return
        length = len(value)
        if length > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")
        elif length < minimum:
            self.add(path, "BASE_TYPE_MIN_LENGTH", f"Must be {minimum} or more in length.")

    def raise_if_any(self) -> None:
        if self.tree:
            raise DiscordHTTPError(400, 50035, "Invalid Form Body", self.tree)


# --------------------------------------------------------------------------------------------
# Model
# --------------------------------------------------------------------------------------------


@dataclass(eq=False)
class FakeUser:
    id: int
    username: str
    global_name: str | None = None
    bot: bool = False

    @property
    def display_name(self) -> str:
        return self.global_name or self.username

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def to_payload(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
        }


@dataclass(eq=False)
class FakeRole:
    id: int
    guild_id: int
    name: str
    permissions: int
    position: int = 1
    managed: bool = False
    bot_id: int | None = None

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def to_payload(self) -> JSON:
        payload: JSON = {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }
        if self.bot_id is not None:
            payload["tags"] = {"bot_id": str(self.bot_id)}
        return payload


@dataclass(eq=False)
class FakeMember:
    user: FakeUser
    guild_id: int
    roles: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=_now_iso)

    def to_payload(self) -> JSON:
        return {
            "user": self.user.to_payload(),
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "roles": [str(r) for r in self.roles],
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }


@dataclass(eq=False)
class FakeChannel:
    id: int
    name: str
    type: int = CH_TEXT
    guild_id: int | None = None
    parent_id: int | None = None
    position: int = 0
    owner_id: int | None = None  # threads
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    overwrites: list[JSON] = field(default_factory=list)
    recipients: list[FakeUser] = field(default_factory=list)  # DMs
    thread_members: set[int] = field(default_factory=set)
    last_message_id: int | None = None
    message_count: int = 0
    created_at: str = field(default_factory=_now_iso)

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def to_payload(self) -> JSON:
        payload: JSON = {
            "id": str(self.id),
            "type": self.type,
            "name": self.name,
            "last_message_id": str(self.last_message_id) if self.last_message_id else None,
            "flags": 0,
        }
        if self.type == CH_DM:
            payload["recipients"] = [u.to_payload() for u in self.recipients]
            return payload
        payload.update(
            guild_id=str(self.guild_id),
            position=self.position,
            permission_overwrites=self.overwrites,
            parent_id=str(self.parent_id) if self.parent_id else None,
            nsfw=False,
            rate_limit_per_user=0,
        )
        if self.is_thread:
            payload.update(
                owner_id=str(self.owner_id) if self.owner_id else None,
                member_count=len(self.thread_members),
                message_count=self.message_count,
                total_message_sent=self.message_count,
                thread_metadata={
                    "archived": self.archived,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": self.created_at,
                    "locked": self.locked,
                    "invitable": self.invitable,
                    "create_timestamp": self.created_at,
                },
            )
        else:
            payload.update(topic=None, default_auto_archive_duration=1440)
        return payload


@dataclass(eq=False)
class FakeGuild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, FakeRole] = field(default_factory=dict)
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)
    default_channel_id: int = 0

    @property
    def default_channel(self) -> FakeChannel:
        return self.channels[self.default_channel_id]

    @property
    def everyone_role(self) -> FakeRole:
        return self.roles[self.id]

    def permissions_for(self, user_id: int, channel: FakeChannel | None = None) -> int:
        """Discord's permission algorithm: base role permissions, then channel overwrites."""
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        member = self.members.get(user_id)
        role_ids = set(member.roles) if member else set()
        perms = self.everyone_role.permissions
        for role_id in role_ids:
            if role_id in self.roles:
                perms |= self.roles[role_id].permissions
        if perms & PERM_ADMINISTRATOR:
            return ALL_PERMISSIONS
        while channel is not None and channel.is_thread and channel.parent_id:
            channel = self.channels.get(channel.parent_id)  # threads inherit their parent's
        if channel is None:
            return perms
        allow = deny = 0
        for ow in channel.overwrites:
            if int(ow["id"]) == self.id:
                perms = (perms & ~int(ow.get("deny", 0))) | int(ow.get("allow", 0))
        for ow in channel.overwrites:
            if ow.get("type", 0) == 0 and int(ow["id"]) in role_ids:
                allow |= int(ow.get("allow", 0))
                deny |= int(ow.get("deny", 0))
        perms = (perms & ~deny) | allow
        for ow in channel.overwrites:
            if ow.get("type", 0) == 1 and int(ow["id"]) == user_id:
                perms = (perms & ~int(ow.get("deny", 0))) | int(ow.get("allow", 0))
        return perms


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


@dataclass
class Button:
    """A parsed button of a message, as a user would see it."""

    custom_id: str | None
    label: str | None
    style: int
    disabled: bool
    emoji: JSON | None
    url: str | None
    raw: JSON


@dataclass
class Select:
    custom_id: str
    type: int
    options: list[JSON]
    placeholder: str | None
    min_values: int
    max_values: int
    disabled: bool
    raw: JSON

    @property
    def values(self) -> list[str]:
        return [o["value"] for o in self.options]

    @property
    def labels(self) -> list[str]:
        return [o["label"] for o in self.options]


def walk_components(components: Iterable[JSON]) -> Iterator[JSON]:
    """Depth-first walk over nested components (rows, containers, sections incl. accessory)."""
    for comp in components:
        yield comp
        if "components" in comp:
            yield from walk_components(comp["components"])
        if "accessory" in comp:
            yield from walk_components([comp["accessory"]])
        if "component" in comp:  # Label (modals)
            yield from walk_components([comp["component"]])


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
    interaction: FakeInteraction | None = None
    # The create payload's allowed_mentions (None = Discord's default: everything pings).
    allowed_mentions: JSON | None = None
    webhook_id: int | None = None
    thread_id: int | None = None
    created_at: str = field(default_factory=_now_iso)
    edited_at: str | None = None
    deleted: bool = False
    # Snapshots (payloads) of previous versions, oldest first.
    history: list[JSON] = field(default_factory=list)
    _fake: FakeDiscord | None = field(default=None, repr=False)

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
        return len(self.history)

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
        urls = []
        for c in self.walk():
            if c["type"] == C_MEDIA_GALLERY:
                urls += [item["media"]["url"] for item in c.get("items", [])]
            elif c["type"] == C_THUMBNAIL:
                urls.append(c["media"]["url"])
            elif c["type"] == C_FILE:
                urls.append(c["file"]["url"])
        return urls

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
        if self.webhook_id is not None:
            payload["webhook_id"] = str(self.webhook_id)
            payload["application_id"] = str(self.webhook_id)
        if self.interaction is not None:
            itx = self.interaction
            meta: JSON = {
                "id": str(itx.id),
                "type": itx.type,
                "user": itx.user.to_payload(),
                "authorizing_integration_owners": {"0": str(itx.guild_id or 0)},
            }
            if itx.type == ITX_APPLICATION_COMMAND:
                meta["name"] = itx.command_name
            payload["interaction_metadata"] = meta
        if self.thread_id is not None and self._fake is not None:
            thread = self._fake.channels.get(self.thread_id)
            if thread is not None:
                payload["thread"] = thread.to_payload()
        return payload


@dataclass(eq=False)
class FakeModal:
    """A modal the bot opened (callback type 9); submit it with `FakeDiscord.submit_modal`."""

    custom_id: str
    title: str
    components: list[JSON]
    interaction: FakeInteraction

    @property
    def inputs(self) -> list[JSON]:
        """Text inputs and selects, each with `label` filled from an enclosing Label if any."""
        out = []
        for comp in self.components:
            if comp["type"] == C_LABEL:
                inner = dict(comp["component"])
                inner.setdefault("label", comp.get("label"))
                out.append(inner)
            elif comp["type"] == C_ACTION_ROW:
                out += comp["components"]
        return out

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.inputs]


@dataclass
class InteractionResponse:
    """The bot's acknowledgement of an interaction."""

    type: int
    data: JSON | None
    message: FakeMessage | None  # message created (4/5) or updated (6/7)
    modal: FakeModal | None
    latency: float  # seconds between dispatch and callback, server side


@dataclass(eq=False)
class FakeInteraction:
    id: int
    token: str
    type: int
    user: FakeUser
    channel_id: int
    guild_id: int | None
    payload: JSON
    dispatched_at: float
    fake: FakeDiscord = field(repr=False)
    command_name: str = ""
    source_message: FakeMessage | None = None  # for component / modal-from-component
    acknowledged_at: float | None = None
    status: str = "pending"  # -> "acknowledged" | "failed"
    failure_reason: str | None = None
    response_type: int | None = None
    response_data: JSON | None = None
    original: FakeMessage | None = None
    modal: FakeModal | None = None
    autocomplete_choices: list[JSON] | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    _deadline_handle: asyncio.TimerHandle | None = field(default=None, repr=False)

    @property
    def ack_latency(self) -> float | None:
        if self.acknowledged_at is None:
            return None
        return self.acknowledged_at - self.dispatched_at

    async def response(self, timeout: float = 10.0) -> InteractionResponse:
        """Wait for the acknowledgement; AssertionError if it failed or timed out."""
        await self.fake.wait_for(lambda: self.status != "pending", timeout, f"ack of {self}")
        if self.status == "failed":
            raise AssertionError(f"interaction {self.id} failed: {self.failure_reason}")
        assert self.response_type is not None and self.acknowledged_at is not None
        message = self.original if self.response_type != CB_MODAL else None
        return InteractionResponse(
            type=self.response_type,
            data=self.response_data,
            message=message,
            modal=self.modal,
            latency=self.acknowledged_at - self.dispatched_at,
        )

    async def original_message(self, timeout: float = 10.0) -> FakeMessage:
        """The response message once it is no longer a deferred "thinking" placeholder."""
        await self.response(timeout)
        return await self.fake.wait_for(
            lambda: self.original if self.original and not self.original.is_loading else None,
            timeout,
            f"final original response of interaction {self.id}",
        )

    async def followup(self, index: int = 0, timeout: float = 10.0) -> FakeMessage:
        """Wait for the index-th followup message (a followup that replaced a deferred
        placeholder counts too)."""
        return await self.fake.wait_for(
            lambda: self.followups[index] if len(self.followups) > index else None,
            timeout,
            f"followup #{index} of interaction {self.id}",
        )


@dataclass
class MessageEvent:
    """One message create/edit/delete, for rate-limit and burst analysis."""

    at: float
    kind: str  # "create" | "edit" | "delete"
    channel_id: int
    message_id: int
    via: str  # "channel" | "webhook" | "callback"


@dataclass(eq=False)
class GatewaySession:
    session_id: str
    ws: web.WebSocketResponse
    request: web.Request
    compress: bool
    intents: int = 0
    shard: list[int] | None = None
    seq: int = 0
    ready: bool = False
    alive: bool = True
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    zctx: Any = field(default_factory=zlib.compressobj)
    connected_at: float = field(default_factory=time.perf_counter)

    async def send(self, payload: JSON) -> None:
        # One lock so zlib-stream chunks and sequence numbers stay in order.
        async with self.lock:
            if not self.alive or self.ws.closed:
                return
            if payload["op"] == OP_DISPATCH:
                self.seq += 1
                payload["s"] = self.seq
            text = json.dumps(payload, separators=(",", ":"))
            try:
                if self.compress:
                    data = self.zctx.compress(text.encode()) + self.zctx.flush(zlib.Z_SYNC_FLUSH)
                    await self.ws.send_bytes(data)
                else:
                    await self.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                self.alive = False


# --------------------------------------------------------------------------------------------
# The fake server
# --------------------------------------------------------------------------------------------


class FakeDiscord:
    """In-memory Discord: aiohttp app for the bot + simulation API for tests."""

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        bot_name: str = "UNO Bot",
        ack_timeout: float = 3.0,
        token_ttl: float = 15 * 60,
        reject_late_acks: bool = True,
        channel_rate_limit: tuple[int, float] | None = None,
    ) -> None:
        self.token = token
        # Deadline for the initial interaction response (Discord: 3 s).
        self.ack_timeout = ack_timeout
        # Interaction tokens stay valid this long for followups/edits (Discord: 15 min).
        self.token_ttl = token_ttl
        self.reject_late_acks = reject_late_acks
        # (max messages, per seconds) per channel for POST/PATCH /channels/{id}/messages.
        self.channel_rate_limit = channel_rate_limit

        self._id_counter = itertools.count(1)
        self._last_snowflake = 0
        self.bot_user = FakeUser(self.snowflake(), bot_name, None, bot=True)
        self.application_id = self.bot_user.id
        self.owner_user = FakeUser(self.snowflake(), "app_owner", "App Owner")

        self.users: dict[int, FakeUser] = {
            self.bot_user.id: self.bot_user,
            self.owner_user.id: self.owner_user,
        }
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.channel_messages: dict[int, list[FakeMessage]] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        self._itx_by_token: dict[str, FakeInteraction] = {}
        self.attachments: dict[int, FakeAttachment] = {}
        # Application commands: key None = global, else guild id -> name -> command payload.
        self.commands: dict[int | None, dict[str, JSON]] = {None: {}}

        self.sessions: dict[str, GatewaySession] = {}
        self.errors: list[RecordedError] = []
        self.requests: list[tuple[str, str]] = []
        self.message_events: list[MessageEvent] = []
        self.rate_limited: list[tuple[str, str, float]] = []

        self._changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.app = self._build_app()

    # ----- lifecycle -----

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    async def start(self, port: int = 0) -> None:
        self._runner = web.AppRunner(self.app, access_log=None, shutdown_timeout=0.1)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[attr-defined]
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]

    async def stop(self) -> None:
        for itx in self.interactions.values():
            if itx._deadline_handle is not None:
                itx._deadline_handle.cancel()
        for session in list(self.sessions.values()):
            self.drop_session(session.session_id)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def snowflake(self) -> int:
        """Real-looking, strictly increasing snowflakes (discord.py derives created_at)."""
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        value = (ms << 22) | (next(self._id_counter) & 0x3FFFFF)
        value = max(value, self._last_snowflake + 1)
        self._last_snowflake = value
        return value

    def _notify(self) -> None:
        """Wake every `wait_for` waiter: some state changed."""
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_for(
        self, predicate: Callable[[], T], timeout: float = 10.0, what: str = "condition"
    ) -> T:
        """Wait until `predicate()` is truthy (re-checked on every state change); return it."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                errors = "\n".join(str(e) for e in self.errors[-5:])
                raise AssertionError(
                    f"timed out after {timeout}s waiting for {what}; recent errors:\n{errors}"
                )
            event = self._changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), remaining)

    # ----- world building (async so live bots receive the gateway events in order) -----

    async def create_user(
        self, username: str, *, global_name: str | None = None, bot: bool = False
    ) -> FakeUser:
        user = FakeUser(self.snowflake(), username, global_name, bot)
        self.users[user.id] = user
        return user

    async def create_guild(
        self,
        name: str = "Test Guild",
        *,
        owner: FakeUser | None = None,
        bot_permissions: int = DEFAULT_BOT_PERMISSIONS,
        everyone_permissions: int = DEFAULT_EVERYONE_PERMISSIONS,
        channel_name: str = "general",
    ) -> FakeGuild:
        """A guild with @everyone, a managed bot role, the bot member, the owner and a text
        channel (`guild.default_channel`)."""
        if owner is None:
            owner = await self.create_user(f"{name.lower().replace(' ', '_')}_owner")
        guild = FakeGuild(self.snowflake(), name, owner.id)
        guild.roles[guild.id] = FakeRole(guild.id, guild.id, "@everyone", everyone_permissions, 0)
        bot_role = FakeRole(
            self.snowflake(),
            guild.id,
            self.bot_user.username,
            bot_permissions,
            1,
            True,
            self.bot_user.id,
        )
        guild.roles[bot_role.id] = bot_role
        guild.members[owner.id] = FakeMember(owner, guild.id)
        guild.members[self.bot_user.id] = FakeMember(self.bot_user, guild.id, [bot_role.id])
        self.guilds[guild.id] = guild
        channel = self._new_channel(guild, channel_name, CH_TEXT, None)
        guild.default_channel_id = channel.id
        await self._broadcast("GUILD_CREATE", lambda s: self._guild_create_payload(guild))
        return guild

    async def create_channel(
        self,
        guild: FakeGuild,
        name: str,
        *,
        type: int = CH_TEXT,
        parent: FakeChannel | None = None,
        overwrites: list[JSON] | None = None,
    ) -> FakeChannel:
        channel = self._new_channel(guild, name, type, parent.id if parent else None)
        channel.overwrites = overwrites or []
        if channel.is_thread:
            # A thread a user started (the bot's own threads come from the REST routes).
            if parent is None:
                raise ValueError("threads need a parent channel")
            channel.owner_id = guild.owner_id
            channel.thread_members.add(guild.owner_id)
        event = "THREAD_CREATE" if channel.is_thread else "CHANNEL_CREATE"
        await self._broadcast(event, lambda s: channel.to_payload())
        return channel

    async def create_role(
        self, guild: FakeGuild, name: str, permissions: int = 0, *, position: int | None = None
    ) -> FakeRole:
        pos = position if position is not None else len(guild.roles)
        role = FakeRole(self.snowflake(), guild.id, name, permissions, pos)
        guild.roles[role.id] = role
        payload = {"guild_id": str(guild.id), "role": role.to_payload()}
        await self._broadcast("GUILD_ROLE_CREATE", lambda s: payload)
        return role

    async def add_member(
        self,
        guild: FakeGuild,
        user: FakeUser,
        *,
        roles: Sequence[FakeRole] = (),
        nick: str | None = None,
    ) -> FakeMember:
        member = FakeMember(user, guild.id, [r.id for r in roles], nick)
        guild.members[user.id] = member
        payload = {**member.to_payload(), "guild_id": str(guild.id)}
        await self._broadcast("GUILD_MEMBER_ADD", lambda s: payload, intent=INTENT_GUILD_MEMBERS)
        return member

    async def create_member(
        self,
        guild: FakeGuild,
        username: str,
        *,
        global_name: str | None = None,
        nick: str | None = None,
        roles: Sequence[FakeRole] = (),
    ) -> FakeUser:
        """Shortcut: a new user who is a member of `guild`. Returns the user."""
        user = await self.create_user(username, global_name=global_name)
        await self.add_member(guild, user, roles=roles, nick=nick)
        return user

    async def set_member_roles(
        self, guild: FakeGuild, user: FakeUser, roles: Sequence[FakeRole]
    ) -> None:
        member = guild.members[user.id]
        member.roles = [r.id for r in roles]
        payload = {**member.to_payload(), "guild_id": str(guild.id)}
        await self._broadcast("GUILD_MEMBER_UPDATE", lambda s: payload, intent=INTENT_GUILD_MEMBERS)

    def _new_channel(
        self, guild: FakeGuild, name: str, type: int, parent_id: int | None, cid: int | None = None
    ) -> FakeChannel:
        channel = FakeChannel(
            cid or self.snowflake(), name, type, guild.id, parent_id, len(guild.channels)
        )
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        self.channel_messages[channel.id] = []
        return channel

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The DM channel between the bot and `user` (created on first use)."""
        for ch in self.channels.values():
            if ch.type == CH_DM and ch.recipients and ch.recipients[0].id == user.id:
                return ch
        ch = FakeChannel(self.snowflake(), "", CH_DM, recipients=[user])
        self.channels[ch.id] = ch
        self.channel_messages[ch.id] = []
        return ch

    def guild_of(self, channel: FakeChannel | int) -> FakeGuild | None:
        ch = self.channels[channel] if isinstance(channel, int) else channel
        return self.guilds.get(ch.guild_id) if ch.guild_id else None

    # ----- test-side queries -----

    def visible_messages(self, user: FakeUser, channel: FakeChannel | int) -> list[FakeMessage]:
        """What `user` sees in `channel`: channel messages plus their own ephemerals."""
        cid = channel if isinstance(channel, int) else channel.id
        return [m for m in self.channel_messages.get(cid, []) if m.visible_to(user)]

    def public_messages(self, channel: FakeChannel | int) -> list[FakeMessage]:
        cid = channel if isinstance(channel, int) else channel.id
        return [
            m
            for m in self.channel_messages.get(cid, [])
            if not m.deleted and m.ephemeral_to is None
        ]

    def ephemeral_messages(self, user: FakeUser, channel: FakeChannel | int) -> list[FakeMessage]:
        return [m for m in self.visible_messages(user, channel) if m.ephemeral_to == user.id]

    def threads_of(self, channel: FakeChannel | int) -> list[FakeChannel]:
        cid = channel if isinstance(channel, int) else channel.id
        return [c for c in self.channels.values() if c.parent_id == cid and c.is_thread]

    def failed_interactions(self) -> list[FakeInteraction]:
        return [i for i in self.interactions.values() if i.status == "failed"]

    def message_bursts(
        self, channel: FakeChannel | int, window: float = 5.0, via: Iterable[str] | None = None
    ) -> int:
        """Max number of message creates+edits in `channel` within any `window` seconds.
        `via` filters by route kind: "channel" (REST channel routes, the ones Discord
        rate-limits per channel), "webhook" (followups/original edits), "callback"."""
        cid = channel if isinstance(channel, int) else channel.id
        kinds = set(via) if via is not None else {"channel", "webhook", "callback"}
        times = sorted(
            e.at
            for e in self.message_events
            if e.channel_id == cid and e.kind != "delete" and e.via in kinds
        )
        best = start = 0
        for end, t in enumerate(times):
            while t - times[start] > window:
                start += 1
            best = max(best, end - start + 1)
        return best

    def assert_no_errors(self) -> None:
        if self.errors:
            raise AssertionError(
                "fake Discord rejected calls:\n" + "\n".join(map(str, self.errors))
            )

    # ----- gateway -----

    def _live_sessions(self) -> list[GatewaySession]:
        return [s for s in self.sessions.values() if s.alive and s.ready and not s.ws.closed]

    async def _broadcast(
        self,
        event: str,
        make: Callable[[GatewaySession], JSON],
        *,
        intent: int | None = None,
    ) -> None:
        for session in self._live_sessions():
            if intent is None or session.intents & intent:
                await session.send({"op": OP_DISPATCH, "t": event, "d": make(session)})

    def drop_session(self, session_id: str | None) -> None:
        """Cut a gateway connection abruptly (as if the bot process died)."""
        if session_id is None:
            return
        session = self.sessions.pop(session_id, None)
        if session is None:
            return
        session.alive = False
        transport = session.request.transport
        if transport is not None:
            transport.abort()
        self._notify()

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        if request.query.get("encoding", "json") != "json":
            raise web.HTTPBadRequest(text="fake only speaks JSON")
        ws = web.WebSocketResponse(compress=False, max_msg_size=0, autoping=True)
        await ws.prepare(request)
        session = GatewaySession(
            session_id=f"session-{self.snowflake()}",
            ws=ws,
            request=request,
            # zstd-stream is not implemented: falling back to plain text frames, which
            # discord.py accepts as well.
            compress=request.query.get("compress") == "zlib-stream",
        )
        await session.send(
            {"op": OP_HELLO, "d": {"heartbeat_interval": 41250}, "s": None, "t": None}
        )
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                await self._gateway_op(session, json.loads(msg.data))
        except ConnectionError:
            pass
        finally:
            session.alive = False
            if self.sessions.get(session.session_id) is session:
                del self.sessions[session.session_id]
            self._notify()
        return ws

    async def _gateway_op(self, session: GatewaySession, msg: JSON) -> None:
        op, data = msg.get("op"), msg.get("d")
        if op == OP_HEARTBEAT:
            await session.send({"op": OP_HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op == OP_IDENTIFY:
            if data["token"] != self.token:
                await session.ws.close(code=4004, message=b"Authentication failed.")
                return
            session.intents = int(data.get("intents", 0))
            session.shard = data.get("shard")  # sharded clients identify as [id, count]
            self.sessions[session.session_id] = session
            await session.send({"op": OP_DISPATCH, "t": "READY", "d": self._ready_payload(session)})
            session.ready = True
            for guild in self.guilds.values():
                await session.send(
                    {"op": OP_DISPATCH, "t": "GUILD_CREATE", "d": self._guild_create_payload(guild)}
                )
            self._notify()
        elif op == OP_RESUME:
            # Sessions are not kept across connections: ask for a fresh IDENTIFY.
            await session.send({"op": OP_INVALID_SESSION, "d": False, "s": None, "t": None})
        elif op == OP_REQUEST_MEMBERS:
            guild = self.guilds.get(int(data["guild_id"]))
            if guild is not None:
                chunk = {
                    "guild_id": str(guild.id),
                    "members": [m.to_payload() for m in guild.members.values()],
                    "chunk_index": 0,
                    "chunk_count": 1,
                    "not_found": [],
                    "nonce": data.get("nonce"),
                }
                await session.send({"op": OP_DISPATCH, "t": "GUILD_MEMBERS_CHUNK", "d": chunk})
        # OP_PRESENCE and others: ignored.

    def _ready_payload(self, session: GatewaySession) -> JSON:
        extra: JSON = {"shard": session.shard} if session.shard else {}
        return {
            **extra,
            "v": 10,
            "user": {**self.bot_user.to_payload(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g), "unavailable": True} for g in self.guilds],
            "session_id": session.session_id,
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "_trace": ["fake-discord"],
        }

    def _guild_create_payload(self, guild: FakeGuild) -> JSON:
        channels = [c for c in guild.channels.values() if not c.is_thread]
        threads = [c for c in guild.channels.values() if c.is_thread and not c.archived]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(guild.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": "en-US",
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "features": [],
            "emojis": [],
            "stickers": [],
            "roles": [r.to_payload() for r in guild.roles.values()],
            "joined_at": _now_iso(),
            "large": False,
            "unavailable": False,
            "member_count": len(guild.members),
            "members": [m.to_payload() for m in guild.members.values()],
            "channels": [c.to_payload() for c in channels],
            "threads": [c.to_payload() for c in threads],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    # ----- user simulation: interactions -----

    def _target_session(self) -> GatewaySession:
        # Like Discord with one shard: interactions go to the (newest) connected session.
        live = self._live_sessions()
        if not live:
            raise AssertionError("no bot is connected to the fake gateway")
        return max(live, key=lambda s: s.connected_at)

    async def _dispatch_interaction(
        self,
        itype: int,
        user: FakeUser,
        channel: FakeChannel,
        data: JSON,
        *,
        message: FakeMessage | None = None,
        command_name: str = "",
    ) -> FakeInteraction:
        session = self._target_session()
        guild = self.guild_of(channel)
        iid = self.snowflake()
        token = f"itx-token-{iid}"
        payload: JSON = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "channel_id": str(channel.id),
            "channel": channel.to_payload(),
            "token": token,
            "version": 1,
            "locale": "en-US",
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": 10 * 1024 * 1024,
            "context": 0 if guild else 1,
        }
        if guild is not None:
            member = guild.members.get(user.id)
            if member is None:
                raise AssertionError(f"{user.username} is not a member of {guild.name}")
            payload["guild_id"] = str(guild.id)
            payload["guild"] = {"id": str(guild.id), "locale": "en-US", "features": []}
            payload["guild_locale"] = "en-US"
            payload["member"] = {
                **member.to_payload(),
                "permissions": str(guild.permissions_for(user.id, channel)),
            }
            payload["app_permissions"] = str(guild.permissions_for(self.bot_user.id, channel))
            payload["authorizing_integration_owners"] = {"0": str(guild.id)}
        else:
            payload["user"] = user.to_payload()
            payload["app_permissions"] = str(DEFAULT_BOT_PERMISSIONS)
            payload["authorizing_integration_owners"] = {"1": str(user.id)}
        if message is not None:
            payload["message"] = message.to_payload()
        itx = FakeInteraction(
            id=iid,
            token=token,
            type=itype,
            user=user,
            channel_id=channel.id,
            guild_id=guild.id if guild else None,
            payload=payload,
            dispatched_at=0.0,
            fake=self,
            command_name=command_name,
            source_message=message,
        )
        self.interactions[iid] = itx
        self._itx_by_token[token] = itx
        itx.dispatched_at = time.perf_counter()
        loop = asyncio.get_running_loop()
        itx._deadline_handle = loop.call_later(self.ack_timeout, self._deadline_passed, itx)
        await session.send({"op": OP_DISPATCH, "t": "INTERACTION_CREATE", "d": payload})
        return itx

    def _deadline_passed(self, itx: FakeInteraction) -> None:
        if itx.status == "pending":
            itx.status = "failed"
            itx.failure_reason = f"not acknowledged within {self.ack_timeout}s"
            self._notify()

    def _find_command(self, guild_id: int | None, name: str) -> JSON:
        if guild_id is not None and name in self.commands.get(guild_id, {}):
            return self.commands[guild_id][name]
        if name in self.commands[None]:
            return self.commands[None][name]
        known = sorted({n for cmds in self.commands.values() for n in cmds})
        raise AssertionError(f"command /{name} is not registered (registered: {known})")

    async def slash(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        options: Mapping[str, Any] | None = None,
    ) -> FakeInteraction:
        """Run a slash command as `user`: `await fake.slash(u, ch, "uno season new", {...})`.

        Option values: str/int/float/bool, FakeUser (user/mentionable), FakeRole, FakeChannel.
        Raises AssertionError for anything the Discord client would not let a user send.
        """
        parts = command.strip().lstrip("/").split()
        guild = self.guild_of(channel)
        cmd = self._find_command(guild.id if guild else None, parts[0])
        required = cmd.get("default_member_permissions")
        if guild is not None and required is not None:
            perms = guild.permissions_for(user.id, channel)
            if perms & int(required) != int(required):
                raise AssertionError(f"/{parts[0]} is hidden from {user.username} (permissions)")
        resolved: JSON = {}
        opts = self._build_options(cmd, parts[1:], dict(options or {}), guild, resolved, command)
        data: JSON = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": opts}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return await self._dispatch_interaction(
            ITX_APPLICATION_COMMAND, user, channel, data, command_name=" ".join(parts)
        )

    def _build_options(
        self,
        node: JSON,
        path: list[str],
        values: dict[str, Any],
        guild: FakeGuild | None,
        resolved: JSON,
        command: str,
    ) -> list[JSON]:
        declared: list[JSON] = node.get("options") or []
        if path:
            for opt in declared:
                if opt["type"] in (1, 2) and opt["name"] == path[0]:
                    inner = self._build_options(opt, path[1:], values, guild, resolved, command)
                    return [{"type": opt["type"], "name": opt["name"], "options": inner}]
            raise AssertionError(f"/{command}: no subcommand {path[0]!r} under {node['name']}")
        if any(o["type"] in (1, 2) for o in declared):
            subs = [o["name"] for o in declared]
            raise AssertionError(f"/{command}: {node['name']} needs a subcommand: {subs}")
        known = {o["name"]: o for o in declared}
        unknown = set(values) - set(known)
        if unknown:
            raise AssertionError(f"/{command}: unknown options {unknown}; has {list(known)}")
        out = []
        for opt in declared:
            if opt["name"] not in values:
                if opt.get("required"):
                    raise AssertionError(f"/{command}: missing required option {opt['name']!r}")
                continue
            out.append(self._option_value(opt, values[opt["name"]], guild, resolved, command))
        return out

    def _option_value(
        self, opt: JSON, value: Any, guild: FakeGuild | None, resolved: JSON, command: str
    ) -> JSON:
        otype = opt["type"]
        if otype in (6, 9) and isinstance(value, FakeUser):
            resolved.setdefault("users", {})[str(value.id)] = value.to_payload()
            if guild is not None and value.id in guild.members:
                member = guild.members[value.id].to_payload()
                member.pop("user")
                member["permissions"] = str(guild.permissions_for(value.id))
                resolved.setdefault("members", {})[str(value.id)] = member
            value = str(value.id)
        elif otype in (8, 9) and isinstance(value, FakeRole):
            resolved.setdefault("roles", {})[str(value.id)] = value.to_payload()
            value = str(value.id)
        elif otype == 7 and isinstance(value, FakeChannel):
            ch = value.to_payload()
            if guild is not None:
                ch["permissions"] = str(guild.permissions_for(self.bot_user.id, value))
            resolved.setdefault("channels", {})[str(value.id)] = ch
            value = str(value.id)
        elif otype == 3 and not isinstance(value, str):
            raise AssertionError(f"/{command}: option {opt['name']} expects a string")
        elif otype == 4 and (not isinstance(value, int) or isinstance(value, bool)):
            raise AssertionError(f"/{command}: option {opt['name']} expects an integer")
        elif otype == 5 and not isinstance(value, bool):
            raise AssertionError(f"/{command}: option {opt['name']} expects a boolean")
        elif otype == 10 and not isinstance(value, int | float):
            raise AssertionError(f"/{command}: option {opt['name']} expects a number")
        choices = opt.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise AssertionError(f"/{command}: {value!r} not in choices of {opt['name']}")
        if otype in (4, 10):
            lo, hi = opt.get("min_value"), opt.get("max_value")
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                raise AssertionError(f"/{command}: {opt['name']}={value} out of [{lo}, {hi}]")
        if otype == 3:
            lo, hi = opt.get("min_length", 0), opt.get("max_length", 6000)
            if not lo <= len(value) <= hi:
                raise AssertionError(f"/{command}: {opt['name']} length out of [{lo}, {hi}]")
        return {"name": opt["name"], "type": otype, "value": value}

    async def autocomplete(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        options: Mapping[str, Any],
        focused: str,
    ) -> FakeInteraction:
        """Simulate typing into option `focused` (partial values allowed). Choices arrive in
        `(await itx.response()).data["choices"]`."""
        parts = command.strip().lstrip("/").split()
        guild = self.guild_of(channel)
        cmd = self._find_command(guild.id if guild else None, parts[0])
        node = cmd
        for name in parts[1:]:
            node = next(o for o in node.get("options", []) if o["name"] == name)
        opts: list[JSON] = []
        for opt in node.get("options", []):
            if opt["name"] in options:
                entry = {"name": opt["name"], "type": opt["type"], "value": options[opt["name"]]}
                if opt["name"] == focused:
                    entry["focused"] = True
                opts.append(entry)
        for name in reversed(parts[1:]):
            sub = next(o for o in self._walk_command_nodes(cmd) if o["name"] == name)
            opts = [{"name": name, "type": sub["type"], "options": opts}]
        data: JSON = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": opts}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        return await self._dispatch_interaction(
            ITX_AUTOCOMPLETE, user, channel, data, command_name=" ".join(parts)
        )

    def _walk_command_nodes(self, node: JSON) -> Iterator[JSON]:
        for opt in node.get("options", []) or []:
            if opt["type"] in (1, 2):
                yield opt
                yield from self._walk_command_nodes(opt)

    def _resolve_message(self, message: FakeMessage | int) -> FakeMessage:
        msg = self.messages[message] if isinstance(message, int) else message
        if msg.deleted:
            raise AssertionError(f"message {msg.id} was deleted")
        return msg

    def _check_can_use(self, user: FakeUser, msg: FakeMessage) -> None:
        if not msg.visible_to(user):
            raise AssertionError(f"{user.username} cannot see message {msg.id} (ephemeral)")

    async def click(
        self,
        user: FakeUser,
        message: FakeMessage | int,
        custom_id: str | Button,
        *,
        force: bool = False,
    ) -> FakeInteraction:
        """Click a button of the message's *current* version. A missing or disabled button
        raises AssertionError unless `force=True` (e.g. simulating a stale client)."""
        msg = self._resolve_message(message)
        cid = custom_id.custom_id if isinstance(custom_id, Button) else custom_id
        assert cid is not None, "link buttons cannot be clicked by the bot's tests"
        if not force:
            self._check_can_use(user, msg)
            button = msg.button(custom_id=cid)
            if button.disabled:
                raise AssertionError(f"button {cid!r} ({button.label}) is disabled")
        data = {"custom_id": cid, "component_type": C_BUTTON}
        channel = self.channels[msg.channel_id]
        return await self._dispatch_interaction(
            ITX_MESSAGE_COMPONENT, user, channel, data, message=msg
        )

    async def select(
        self,
        user: FakeUser,
        message: FakeMessage | int,
        custom_id: str,
        values: Sequence[str],
        *,
        force: bool = False,
    ) -> FakeInteraction:
        """Pick `values` (option values) in a string select of the message."""
        msg = self._resolve_message(message)
        if not force:
            self._check_can_use(user, msg)
            sel = msg.select(custom_id)
            if sel.disabled:
                raise AssertionError(f"select {custom_id!r} is disabled")
            if sel.type == C_STRING_SELECT:
                bad = [v for v in values if v not in sel.values]
                if bad:
                    raise AssertionError(f"values {bad} not among options {sel.values}")
            if not sel.min_values <= len(values) <= sel.max_values:
                raise AssertionError(
                    f"{len(values)} values outside [{sel.min_values}, {sel.max_values}]"
                )
        comp_type = msg.select(custom_id).type if not force else C_STRING_SELECT
        data = {"custom_id": custom_id, "component_type": comp_type, "values": list(values)}
        channel = self.channels[msg.channel_id]
        return await self._dispatch_interaction(
            ITX_MESSAGE_COMPONENT, user, channel, data, message=msg
        )

    async def submit_modal(
        self,
        user: FakeUser,
        modal: FakeModal | FakeInteraction,
        values: Mapping[str, str | Sequence[str]],
    ) -> FakeInteraction:
        """Submit a modal the bot opened. `values` is keyed by input custom_id or label;
        string selects inside Labels take a list of values."""
        if isinstance(modal, FakeInteraction):
            if modal.modal is None:
                await modal.response()
            if modal.modal is None:
                raise AssertionError(f"interaction {modal.id} did not open a modal")
            modal = modal.modal
        opener = modal.interaction
        if user.id != opener.user.id:
            raise AssertionError("only the user who opened the modal can submit it")
        used: set[str] = set()

        def value_for(comp: JSON, label: str | None) -> str | Sequence[str] | None:
            for key in (comp["custom_id"], label):
                if key is not None and key in values:
                    used.add(key)
                    return values[key]
            return None

        def fill(comp: JSON, label: str | None) -> JSON:
            val = value_for(comp, label)
            if comp["type"] == C_TEXT_INPUT:
                text = str(val) if val is not None else comp.get("value", "") or ""
                required = comp.get("required", True)
                if required and not text:
                    raise AssertionError(f"modal input {comp['custom_id']!r} is required")
                lo, hi = comp.get("min_length", 0), comp.get("max_length", 4000)
                if text and not lo <= len(text) <= hi:
                    raise AssertionError(f"modal input {comp['custom_id']!r} length not in range")
                return {
                    "type": C_TEXT_INPUT,
                    "id": comp.get("id"),
                    "custom_id": comp["custom_id"],
                    "value": text,
                }
            chosen = [val] if isinstance(val, str) else list(val or [])
            return {
                "type": comp["type"],
                "id": comp.get("id"),
                "custom_id": comp["custom_id"],
                "values": chosen,
            }

        components: list[JSON] = []
        for comp in modal.components:
            if comp["type"] == C_ACTION_ROW:
                inner = [fill(c, c.get("label")) for c in comp["components"]]
                components.append({"type": C_ACTION_ROW, "id": comp.get("id"), "components": inner})
            elif comp["type"] == C_LABEL:
                filled = fill(comp["component"], comp.get("label"))
                components.append({"type": C_LABEL, "id": comp.get("id"), "component": filled})
            elif comp["type"] == C_TEXT_DISPLAY:
                components.append({"type": C_TEXT_DISPLAY, "id": comp.get("id")})
        if set(values) - used:
            raise AssertionError(f"unknown modal inputs {set(values) - used}; {modal.custom_ids}")
        channel = self.channels[opener.channel_id]
        data = {"custom_id": modal.custom_id, "components": components}
        source = opener.source_message
        return await self._dispatch_interaction(
            ITX_MODAL_SUBMIT,
            user,
            channel,
            data,
            message=self.messages.get(source.id) if source else None,
        )

    async def send_user_message(
        self, user: FakeUser, channel: FakeChannel, content: str
    ) -> FakeMessage:
        """A plain message typed by a user (MESSAGE_CREATE for bots with the intent)."""
        msg = self._store_message(channel, user, content=content)
        await self._dispatch_message("MESSAGE_CREATE", msg)
        return msg

    # ----- message storage -----

    def _store_message(
        self,
        channel: FakeChannel,
        author: FakeUser,
        *,
        content: str = "",
        embeds: list[JSON] | None = None,
        components: list[JSON] | None = None,
        attachments: list[FakeAttachment] | None = None,
        flags: int = 0,
        type: int = 0,
        ephemeral_to: int | None = None,
        interaction: FakeInteraction | None = None,
        webhook_id: int | None = None,
        allowed_mentions: JSON | None = None,
    ) -> FakeMessage:
        msg = FakeMessage(
            id=self.snowflake(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author,
            content=content or "",
            embeds=embeds or [],
            components=components or [],
            attachments=attachments or [],
            flags=flags,
            type=type,
            ephemeral_to=ephemeral_to,
            interaction=interaction,
            webhook_id=webhook_id,
            allowed_mentions=allowed_mentions,
            _fake=self,
        )
        self.messages[msg.id] = msg
        self.channel_messages.setdefault(channel.id, []).append(msg)
        if ephemeral_to is None:
            channel.last_message_id = msg.id
            channel.message_count += 1
        self._notify()
        return msg

    async def _dispatch_message(self, event: str, msg: FakeMessage) -> None:
        if msg.ephemeral_to is not None:
            return  # ephemeral messages never reach the gateway
        if event == "MESSAGE_DELETE":
            data: JSON = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
        else:
            data = msg.to_payload()
            if msg.guild_id and msg.author.id in self.guilds[msg.guild_id].members:
                member = self.guilds[msg.guild_id].members[msg.author.id].to_payload()
                member.pop("user")
                data["member"] = member
        if msg.guild_id:
            data["guild_id"] = str(msg.guild_id)
        await self._broadcast(event, lambda s: data, intent=INTENT_GUILD_MESSAGES)

    def _record_event(self, kind: str, msg: FakeMessage, via: str) -> None:
        self.message_events.append(
            MessageEvent(time.perf_counter(), kind, msg.channel_id, msg.id, via)
        )

    # ----- REST plumbing -----

    def _build_app(self) -> web.Application:
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        r = app.router
        a = API_PREFIX
        r.add_get("/", self._gateway)
        r.add_get(f"{a}/gateway", self._get_gateway)
        r.add_get(f"{a}/gateway/bot", self._get_gateway_bot)
        r.add_get(f"{a}/users/@me", self._get_me)
        r.add_get(f"{a}/users/{{user_id:\\d+}}", self._get_user)
        r.add_post(f"{a}/users/@me/channels", self._create_dm)
        r.add_get(f"{a}/applications/@me", self._get_application)
        r.add_get(f"{a}/oauth2/applications/@me", self._get_application)
        cmds = f"{a}/applications/{{app_id}}/commands"
        gcmds = f"{a}/applications/{{app_id}}/guilds/{{guild_id}}/commands"
        for base in (cmds, gcmds):
            r.add_get(base, self._get_commands)
            r.add_put(base, self._put_commands)
            r.add_post(base, self._post_command)
            r.add_get(base + "/{command_id:\\d+}", self._get_command)
            r.add_patch(base + "/{command_id:\\d+}", self._patch_command)
            r.add_delete(base + "/{command_id:\\d+}", self._delete_command)
        r.add_post(f"{a}/interactions/{{itx_id}}/{{token}}/callback", self._interaction_callback)
        hook = f"{a}/webhooks/{{app_id}}/{{token}}"
        r.add_post(hook, self._webhook_execute)
        r.add_get(hook + "/messages/{message_id}", self._webhook_get_message)
        r.add_patch(hook + "/messages/{message_id}", self._webhook_edit_message)
        r.add_delete(hook + "/messages/{message_id}", self._webhook_delete_message)
        ch = f"{a}/channels/{{channel_id:\\d+}}"
        r.add_get(ch, self._get_channel)
        r.add_patch(ch, self._patch_channel)
        r.add_delete(ch, self._delete_channel)
        r.add_get(ch + "/messages", self._get_messages)
        r.add_post(ch + "/messages", self._create_message)
        r.add_get(ch + "/messages/{message_id:\\d+}", self._get_message)
        r.add_patch(ch + "/messages/{message_id:\\d+}", self._edit_message)
        r.add_delete(ch + "/messages/{message_id:\\d+}", self._delete_message)
        r.add_post(ch + "/messages/{message_id:\\d+}/threads", self._thread_from_message)
        r.add_post(ch + "/threads", self._thread_without_message)
        r.add_put(ch + "/thread-members/{user_id}", self._add_thread_member)
        r.add_delete(ch + "/thread-members/{user_id}", self._remove_thread_member)
        r.add_get(ch + "/thread-members", self._list_thread_members)
        r.add_post(ch + "/typing", self._typing)
        r.add_get(f"{a}/guilds/{{guild_id:\\d+}}", self._get_guild)
        r.add_get(f"{a}/guilds/{{guild_id:\\d+}}/channels", self._get_guild_channels)
        r.add_get(f"{a}/guilds/{{guild_id:\\d+}}/members/{{user_id:\\d+}}", self._get_member)
        r.add_get(f"{a}/guilds/{{guild_id:\\d+}}/roles", self._get_roles)
        r.add_get("/attachments/{att_id:\\d+}/{filename}", self._download_attachment)
        r.add_route("*", "/{tail:.*}", self._unknown_route)
        return app

    @staticmethod
    def _json(data: Any, status: int = 200) -> web.Response:
        # discord.py only parses bodies whose content-type is exactly "application/json".
        return web.Response(
            body=json.dumps(data).encode(),
            status=status,
            headers={"Content-Type": "application/json"},
        )

    @web.middleware
    async def _middleware(
        self, request: web.Request, handler: Callable[[web.Request], Any]
    ) -> web.StreamResponse:
        path = request.path
        self.requests.append((request.method, request.path_qs))
        try:
            # Interaction callbacks and webhook routes authenticate by token, not header.
            needs_auth = path.startswith(API_PREFIX) and not (
                path.startswith(f"{API_PREFIX}/interactions/")
                or path.startswith(f"{API_PREFIX}/webhooks/")
            )
            if needs_auth and request.headers.get("Authorization") != f"Bot {self.token}":
                raise DiscordHTTPError(401, 0, "401: Unauthorized")
            response: web.StreamResponse = await handler(request)
            return response
        except DiscordHTTPError as exc:
            self.errors.append(
                RecordedError(
                    request.method,
                    request.path_qs,
                    exc.status,
                    exc.code,
                    exc.message,
                    exc.errors,
                    time.perf_counter(),
                )
            )
            log.warning("fake discord rejected %s %s: %s", request.method, path, exc.body())
            headers = {"Content-Type": "application/json"}
            if exc.status == 429:
                headers["Via"] = "1.1 google"  # discord.py treats a 429 without Via as a ban
            self._notify()
            return web.Response(
                body=json.dumps(exc.body()).encode(), status=exc.status, headers=headers
            )

    async def _unknown_route(self, request: web.Request) -> web.Response:
        raise DiscordHTTPError(
            404, 0, f"404: Not Found (fake has no route {request.method} {request.path})"
        )

    async def _read_body(self, request: web.Request) -> tuple[JSON, list[tuple[str, bytes]]]:
        """JSON body, or multipart `payload_json` + `files[n]` parts (filename, bytes)."""
        if request.content_type.startswith("multipart/"):
            payload: JSON = {}
            files: dict[int, tuple[str, bytes]] = {}
            reader = await request.multipart()
            while True:
                part = await reader.next()
                if part is None:
                    break
                if part.name == "payload_json":
                    payload = json.loads(await part.text())  # type: ignore[union-attr]
                else:
                    m = re.fullmatch(r"files\[(\d+)\]", part.name or "")
                    if m is None:
                        raise DiscordHTTPError(400, 50035, f"Unexpected multipart part {part.name}")
                    files[int(m.group(1))] = (part.filename or "file", await part.read())  # type: ignore[union-attr]
            return payload, [files[i] for i in sorted(files)]
        if request.can_read_body:
            body = await request.json()
            return (body if isinstance(body, dict) else {"_list": body}), []
        return {}, []

    # ----- REST: session / application / commands -----

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return self._json({"url": self.gateway_url})

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        return self._json(
            {
                "url": self.gateway_url,
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def _get_me(self, request: web.Request) -> web.Response:
        return self._json({**self.bot_user.to_payload(), "verified": True, "mfa_enabled": False})

    async def _get_user(self, request: web.Request) -> web.Response:
        user = self.users.get(int(request.match_info["user_id"]))
        if user is None:
            raise DiscordHTTPError(404, 10013, "Unknown User")
        return self._json(user.to_payload())

    async def _create_dm(self, request: web.Request) -> web.Response:
        body, _ = await self._read_body(request)
        user = self.users.get(int(body["recipient_id"]))
        if user is None:
            raise DiscordHTTPError(404, 10013, "Unknown User")
        return self._json(self.dm_channel(user).to_payload())

    async def _get_application(self, request: web.Request) -> web.Response:
        return self._json(
            {
                "id": str(self.application_id),
                "name": self.bot_user.username,
                "icon": None,
                "description": "fake application",
                "summary": "",
                "type": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "flags": 0,
                "owner": self.owner_user.to_payload(),
                "team": None,
                "bot": self.bot_user.to_payload(),
                "interactions_endpoint_url": None,
                "install_params": None,
                "integration_types_config": {"0": {}},
                "tags": [],
                "redirect_uris": [],
                "approximate_guild_count": len(self.guilds),
            }
        )

    def _check_app(self, request: web.Request) -> int | None:
        if request.match_info["app_id"] != str(self.application_id):
            raise DiscordHTTPError(403, 50001, "Missing Access")
        gid = request.match_info.get("guild_id")
        if gid is None:
            return None
        if int(gid) not in self.guilds:
            raise DiscordHTTPError(404, 10004, "Unknown Guild")
        return int(gid)

    def _validate_command(self, cmd: JSON, errors: FormErrors, path: list[str | int]) -> None:
        name_re = re.compile(r"^[-_'\w]{1,32}$")
        ctype = cmd.get("type", 1)
        name = cmd.get("name", "")
        if not name_re.match(name) or (ctype == 1 and name != name.lower()):
            errors.add([*path, "name"], "APPLICATION_COMMAND_INVALID_NAME", f"Invalid name {name}")
        if ctype == 1:
            errors.max_len([*path, "description"], cmd.get("description", ""), 100, 1)
        options = cmd.get("options") or []
        if len(options) > 25:
            errors.add([*path, "options"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        seen_optional = False
        for i, opt in enumerate(options):
            opath = [*path, "options", i]
            if opt["type"] in (1, 2):
                self._validate_command(opt, errors, opath)
                continue
            if not name_re.match(opt.get("name", "")) or opt["name"] != opt["name"].lower():
                errors.add([*opath, "name"], "APPLICATION_COMMAND_INVALID_NAME", "Invalid name")
            errors.max_len([*opath, "description"], opt.get("description", ""), 100, 1)
            if opt.get("required"):
                if seen_optional:
                    errors.add(
                        opath,
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    )
            else:
                seen_optional = True
            choices = opt.get("choices") or []
            if len(choices) > 25:
                errors.add([*opath, "choices"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer.")
            for j, ch in enumerate(choices):
                errors.max_len([*opath, "choices", j, "name"], ch.get("name"), 100, 1)

    def _store_command(self, scope: int | None, cmd: JSON) -> JSON:
        existing = self.commands.setdefault(scope, {}).get(cmd["name"])
        stored = {
            "type": 1,
            "nsfw": False,
            "description": "",
            "options": [],
            **cmd,
            # Discord answers with permissions as a string.
            "default_member_permissions": (
                None
                if cmd.get("default_member_permissions") is None
                else str(cmd["default_member_permissions"])
            ),
            "id": existing["id"] if existing else str(self.snowflake()),
            "application_id": str(self.application_id),
            "version": str(self.snowflake()),
        }
        if scope is not None:
            stored["guild_id"] = str(scope)
        self.commands[scope][cmd["name"]] = stored
        return stored

    async def _get_commands(self, request: web.Request) -> web.Response:
        scope = self._check_app(request)
        return self._json(list(self.commands.get(scope, {}).values()))

    async def _put_commands(self, request: web.Request) -> web.Response:
        scope = self._check_app(request)
        body, _ = await self._read_body(request)
        cmds = body.get("_list", [])
        errors = FormErrors()
        for i, cmd in enumerate(cmds):
            self._validate_command(cmd, errors, [i])
        names = [(c.get("type", 1), c["name"]) for c in cmds]
        if len(names) != len(set(names)):
            errors.add([], "APPLICATION_COMMANDS_DUPLICATE_NAME", "duplicate command names")
        errors.raise_if_any()
        old = self.commands.get(scope, {})
        self.commands[scope] = {}
        for cmd in cmds:
            if cmd["name"] in old:
                self.commands[scope][cmd["name"]] = old[cmd["name"]]
            self._store_command(scope, cmd)
        self._notify()
        return self._json(list(self.commands[scope].values()))

    async def _post_command(self, request: web.Request) -> web.Response:
        scope = self._check_app(request)
        body, _ = await self._read_body(request)
        errors = FormErrors()
        self._validate_command(body, errors, [])
        errors.raise_if_any()
        stored = self._store_command(scope, body)
        self._notify()
        return self._json(stored, 201)

    def _command_by_id(self, scope: int | None, command_id: str) -> JSON:
        for cmd in self.commands.get(scope, {}).values():
            if cmd["id"] == command_id:
                return cmd
        raise DiscordHTTPError(404, 10063, "Unknown application command")

    async def _get_command(self, request: web.Request) -> web.Response:
        scope = self._check_app(request)
        return self._json(self._command_by_id(scope, request.match_info["command_id"]))

    async def _patch_command(self, request: web.Request) -> web.Response:
        scope = self._check_app(request)
        cmd = self._command_by_id(scope, request.match_info["command_id"])
        body, _ = await self._read_body(request)
        del self.commands[scope][cmd["name"]]
        stored = self._store_command(scope, {**cmd, **body})
        return self._json(stored)

    async def _delete_command(self, request: web.Request) -> web.Response:
        scope = self._check_app(request)
        cmd = self._command_by_id(scope, request.match_info["command_id"])
        del self.commands[scope][cmd["name"]]
        return web.Response(status=204)

    # ----- validation -----

    def _validate_components(
        self, components: list[JSON], v2: bool, errors: FormErrors, attachments: set[str]
    ) -> None:
        """Discord's component rules. `attachments`: filenames available for attachment://."""
        if not v2 and len(components) > 5:
            errors.add(["components"], "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
        total = sum(1 for _ in walk_components(components))
        if v2 and total > 40:
            errors.add(
                ["components"],
                "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED",
                f"The specified component exceeds the maximum of 40 ({total})",
            )
        text_total = sum(
            len(c.get("content", ""))
            for c in walk_components(components)
            if c["type"] == C_TEXT_DISPLAY
        )
        if text_total > 4000:
            errors.add(
                ["components"],
                "COMPONENT_MAX_TEXT_LENGTH_EXCEEDED",
                f"Total TextDisplay content must be 4000 or fewer ({text_total})",
            )
        seen_custom_ids: set[str] = set()
        allowed_top = V2_TOP_LEVEL if v2 else {C_ACTION_ROW}
        for i, comp in enumerate(components):
            path: list[str | int] = ["components", i]
            if comp.get("type") not in allowed_top:
                errors.add(
                    [*path, "type"],
                    "COMPONENT_TYPE_INVALID",
                    f"Component type {comp.get('type')} not allowed here"
                    + ("" if v2 else " (set IS_COMPONENTS_V2)"),
                )
                continue
            self._validate_component(comp, path, errors, attachments, seen_custom_ids)

    def _media_ref(
        self, media: JSON | None, path: list[str | int], errors: FormErrors, files: set[str]
    ) -> None:
        url = (media or {}).get("url", "")
        if not url:
            errors.add(path, "BASE_TYPE_REQUIRED", "This field is required")
        elif url.startswith("attachment://") and url[len("attachment://") :] not in files:
            errors.add(
                path,
                "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
                f"Attachment {url} not found on this message",
            )

    def _validate_component(
        self,
        comp: JSON,
        path: list[str | int],
        errors: FormErrors,
        files: set[str],
        seen: set[str],
    ) -> None:
        ctype = comp.get("type")
        if "custom_id" in comp and comp["custom_id"] is not None:
            cid = comp["custom_id"]
            errors.max_len([*path, "custom_id"], cid, 100, 1)
            if cid in seen:
                errors.add(
                    [*path, "custom_id"],
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    f"Component custom id cannot be duplicated ({cid})",
                )
            seen.add(cid)
        children: list[JSON] = comp.get("components") or []

        def child_types(allowed: set[int] | frozenset[int]) -> None:
            for j, child in enumerate(children):
                cpath = [*path, "components", j]
                if child.get("type") not in allowed:
                    errors.add(
                        [*cpath, "type"],
                        "COMPONENT_TYPE_INVALID",
                        f"Component type {child.get('type')} not allowed here",
                    )
                else:
                    self._validate_component(child, cpath, errors, files, seen)

        if ctype == C_ACTION_ROW:
            if not children:
                errors.add([*path, "components"], "BASE_TYPE_MIN_LENGTH", "Must be 1 or more.")
            if len(children) > 5:
                errors.add(
                    [*path, "components"], "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length."
                )
            if any(c.get("type") in SELECT_TYPES for c in children) and len(children) > 1:
                errors.add(
                    [*path, "components"],
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "A select must be alone in its action row",
                )
            child_types({C_BUTTON} | SELECT_TYPES)
        elif ctype == C_BUTTON:
            style = comp.get("style")
            errors.max_len([*path, "label"], comp.get("label"), 80)
            if style not in (1, 2, 3, 4, 5, 6):
                errors.add([*path, "style"], "BASE_TYPE_CHOICES", f"Invalid button style {style}")
            elif style == 5:
                if not comp.get("url") or comp.get("custom_id"):
                    errors.add(
                        path,
                        "BUTTON_COMPONENT_INVALID_URL",
                        "Link buttons need a url and no custom_id",
                    )
            elif style != 6 and not comp.get("custom_id"):
                errors.add([*path, "custom_id"], "BASE_TYPE_REQUIRED", "This field is required")
            if not comp.get("label") and not comp.get("emoji") and style != 6:
                errors.add(
                    path,
                    "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
                    "A button needs a label or an emoji",
                )
        elif ctype in SELECT_TYPES:
            errors.max_len([*path, "placeholder"], comp.get("placeholder"), 150)
            lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
            if not 0 <= lo <= 25 or not 1 <= hi <= 25 or lo > hi:
                errors.add([*path, "max_values"], "BASE_TYPE_BAD_INT", "Invalid min/max values")
            if ctype == C_STRING_SELECT:
                options = comp.get("options") or []
                if not 1 <= len(options) <= 25:
                    errors.add(
                        [*path, "options"],
                        "BASE_TYPE_BAD_LENGTH",
                        f"Must be between 1 and 25 in length ({len(options)})",
                    )
                if hi > len(options):
                    errors.add(
                        [*path, "max_values"],
                        "BASE_TYPE_MAX",
                        "max_values exceeds the number of options",
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
        elif ctype == C_TEXT_DISPLAY:
            errors.max_len([*path, "content"], comp.get("content"), 4000, 1)
        elif ctype == C_SECTION:
            if not 1 <= len(children) <= 3:
                errors.add([*path, "components"], "BASE_TYPE_BAD_LENGTH", "Must be 1 to 3.")
            child_types({C_TEXT_DISPLAY})
            accessory = comp.get("accessory")
            if not accessory or accessory.get("type") not in (C_BUTTON, C_THUMBNAIL):
                errors.add(
                    [*path, "accessory"],
                    "BASE_TYPE_REQUIRED",
                    "A section needs a button or thumbnail accessory",
                )
            else:
                self._validate_component(accessory, [*path, "accessory"], errors, files, seen)
        elif ctype == C_THUMBNAIL:
            self._media_ref(comp.get("media"), [*path, "media", "url"], errors, files)
            errors.max_len([*path, "description"], comp.get("description"), 1024)
        elif ctype == C_MEDIA_GALLERY:
            items = comp.get("items") or []
            if not 1 <= len(items) <= 10:
                errors.add([*path, "items"], "BASE_TYPE_BAD_LENGTH", "Must be 1 to 10 items.")
            for k, item in enumerate(items):
                ipath = [*path, "items", k]
                self._media_ref(item.get("media"), [*ipath, "media", "url"], errors, files)
                errors.max_len([*ipath, "description"], item.get("description"), 1024)
        elif ctype == C_FILE:
            url = (comp.get("file") or {}).get("url", "")
            if not url.startswith("attachment://"):
                errors.add(
                    [*path, "file", "url"],
                    "COMPONENT_FILE_URL_INVALID",
                    "File components only support attachment:// urls",
                )
            else:
                self._media_ref(comp.get("file"), [*path, "file", "url"], errors, files)
        elif ctype == C_SEPARATOR:
            if comp.get("spacing", 1) not in (1, 2):
                errors.add([*path, "spacing"], "BASE_TYPE_CHOICES", "Invalid spacing")
        elif ctype == C_CONTAINER:
            if not children:
                errors.add([*path, "components"], "BASE_TYPE_MIN_LENGTH", "Must be 1 or more.")
            color = comp.get("accent_color")
            if color is not None and not 0 <= color <= 0xFFFFFF:
                errors.add([*path, "accent_color"], "BASE_TYPE_BAD_INT", "Invalid color")
            child_types(CONTAINER_CHILDREN)

    def _validate_embeds(self, embeds: list[JSON], errors: FormErrors) -> None:
        if len(embeds) > 10:
            errors.add(["embeds"], "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
        total = 0
        for i, e in enumerate(embeds):
            path: list[str | int] = ["embeds", i]
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

    def _validate_message(self, msg: FakeMessage) -> None:
        """Validate the *resulting* message state (after a create or an edit)."""
        errors = FormErrors()
        v2 = msg.is_v2
        if v2:
            if msg.content:
                errors.add(
                    ["content"],
                    "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                    "content cannot be used with IS_COMPONENTS_V2",
                )
            if msg.embeds:
                errors.add(
                    ["embeds"],
                    "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                    "embeds cannot be used with IS_COMPONENTS_V2",
                )
        errors.max_len(["content"], msg.content, 2000)
        self._validate_embeds(msg.embeds, errors)
        filenames = {a.filename for a in msg.attachments}
        self._validate_components(msg.components, v2, errors, filenames)
        for i, embed in enumerate(msg.embeds):
            url = (embed.get("image") or {}).get("url", "")
            if url.startswith("attachment://") and url[len("attachment://") :] not in filenames:
                errors.add(
                    ["embeds", i, "image", "url"], "ATTACHMENT_NOT_FOUND", f"{url} not attached"
                )
        errors.raise_if_any()
        if not (msg.content or msg.embeds or msg.components or msg.attachments or msg.is_loading):
            raise DiscordHTTPError(400, 50006, "Cannot send an empty message")

    def _validate_modal(self, data: JSON) -> None:
        errors = FormErrors()
        errors.max_len(["data", "title"], data.get("title"), 45, 1)
        errors.max_len(["data", "custom_id"], data.get("custom_id"), 100, 1)
        comps = data.get("components") or []
        if not 1 <= len(comps) <= 5:
            errors.add(["data", "components"], "BASE_TYPE_BAD_LENGTH", "Must be 1 to 5.")
        for i, comp in enumerate(comps):
            path: list[str | int] = ["data", "components", i]
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
                if field_.get("type") not in {C_TEXT_INPUT} | SELECT_TYPES | {19}:
                    errors.add(fpath, "COMPONENT_TYPE_INVALID", "Invalid component in label")
                    continue
            elif comp["type"] == C_TEXT_DISPLAY:
                errors.max_len([*path, "content"], comp.get("content"), 4000, 1)
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
        errors.raise_if_any()

    # ----- message construction from request payloads -----

    def _make_attachments(
        self,
        meta: list[JSON] | None,
        files: list[tuple[str, bytes]],
        existing: list[FakeAttachment],
    ) -> list[FakeAttachment] | None:
        """Resolve a payload `attachments` list: new uploads by index, kept ones by id.
        Returns None when the payload does not touch attachments."""
        if meta is None and not files:
            return None
        by_id = {a.id: a for a in existing}
        out: list[FakeAttachment] = []
        used_indexes: set[int] = set()
        for i, entry in enumerate(meta if meta is not None else []):
            aid = int(entry["id"])
            if aid in by_id:
                kept = by_id[aid]
                if "description" in entry:
                    kept.description = entry["description"]
                out.append(kept)
            elif 0 <= aid < len(files):
                used_indexes.add(aid)
                name = entry.get("filename") or files[aid][0]
                out.append(self._new_attachment(name, files[aid][1], entry.get("description")))
            else:
                errors = FormErrors()
                errors.add(["attachments", i, "id"], "ATTACHMENT_NOT_FOUND", "Unknown attachment")
                errors.raise_if_any()
        for index, (name, data) in enumerate(files):
            if index not in used_indexes:
                out.append(self._new_attachment(name, data, None))
        return out

    def _new_attachment(
        self, filename: str, data: bytes, description: str | None
    ) -> FakeAttachment:
        aid = self.snowflake()
        width = height = None
        content_type = mimetypes.guess_type(filename)[0] or "application/octet-stream"
        if content_type.startswith("image/"):
            try:
                from PIL import Image

                with Image.open(io.BytesIO(data)) as img:
                    width, height = img.size
            except Exception:  # not a decodable image: Discord omits the dimensions too
                pass
        att = FakeAttachment(
            aid,
            filename,
            data,
            f"{self.base_url}/attachments/{aid}/{filename}",
            content_type,
            width,
            height,
            description,
        )
        self.attachments[aid] = att
        return att

    def _resolve_media(self, components: list[JSON], attachments: list[FakeAttachment]) -> None:
        """Like Discord: echo attachment:// media as resolved CDN urls with dimensions."""
        by_name = {a.filename: a for a in attachments}
        for comp in walk_components(components):
            medias = []
            if comp["type"] == C_MEDIA_GALLERY:
                medias = [item.get("media", {}) for item in comp.get("items", [])]
            elif comp["type"] == C_THUMBNAIL:
                medias = [comp.get("media", {})]
            elif comp["type"] == C_FILE:
                medias = [comp.get("file", {})]
            for media in medias:
                url = media.get("url", "")
                if url.startswith("attachment://") and url[13:] in by_name:
                    att = by_name[url[13:]]
                    media.update(
                        url=att.url,
                        proxy_url=att.url,
                        content_type=att.content_type,
                        attachment_id=str(att.id),
                        loading_state=2,
                        flags=0,
                    )
                    if att.width is not None:
                        media.update(width=att.width, height=att.height)

    @staticmethod
    def _assign_component_ids(components: list[JSON]) -> None:
        """Discord numbers components without an `id` sequentially, depth first."""
        used = {c["id"] for c in walk_components(components) if c.get("id") is not None}
        counter = itertools.count(1)
        for comp in walk_components(components):
            if comp.get("id") is None:
                nxt = next(counter)
                while nxt in used:
                    nxt = next(counter)
                comp["id"] = nxt
                used.add(nxt)

    def _build_new_message(
        self,
        channel: FakeChannel,
        body: JSON,
        files: list[tuple[str, bytes]],
        *,
        ephemeral_to: int | None = None,
        interaction: FakeInteraction | None = None,
        type: int = 0,
        extra_flags: int = 0,
    ) -> FakeMessage:
        """Validate, then store a message from a create payload."""
        flags = int(body.get("flags") or 0) | extra_flags
        attachments = self._make_attachments(body.get("attachments"), files, []) or []
        components = copy.deepcopy(body.get("components") or [])
        draft = FakeMessage(
            id=0,
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=self.bot_user,
            content=body.get("content") or "",
            embeds=body.get("embeds") or [],
            components=components,
            attachments=attachments,
            flags=flags,
        )
        self._validate_message(draft)
        self._resolve_media(components, attachments)
        self._assign_component_ids(components)
        return self._store_message(
            channel,
            self.bot_user,
            content=draft.content,
            embeds=draft.embeds,
            components=components,
            attachments=attachments,
            flags=flags,
            type=type,
            ephemeral_to=ephemeral_to,
            interaction=interaction,
            webhook_id=self.application_id if interaction else None,
            allowed_mentions=body.get("allowed_mentions"),
        )

    def _apply_edit(self, msg: FakeMessage, body: JSON, files: list[tuple[str, bytes]]) -> None:
        """Validate then apply a PATCH payload (only present fields change); keep history."""
        new_attachments = self._make_attachments(body.get("attachments"), files, msg.attachments)
        flags = msg.flags
        if "flags" in body and body["flags"] is not None:
            # IS_COMPONENTS_V2 cannot be removed once set; ephemeral/loading are kept.
            flags = int(body["flags"]) | (msg.flags & (FLAG_IS_COMPONENTS_V2 | FLAG_EPHEMERAL))
        if msg.is_loading:
            flags &= ~FLAG_LOADING
        draft = FakeMessage(
            id=msg.id,
            channel_id=msg.channel_id,
            guild_id=msg.guild_id,
            author=msg.author,
            content=(body.get("content") or "") if "content" in body else msg.content,
            embeds=(body.get("embeds") or []) if "embeds" in body else msg.embeds,
            components=copy.deepcopy(body.get("components") or [])
            if "components" in body
            else copy.deepcopy(msg.components),
            attachments=new_attachments if new_attachments is not None else msg.attachments,
            flags=flags,
        )
        # Validate the whole resulting message: e.g. dropping an attachment that a re-sent
        # component still references via attachment:// must fail.
        self._validate_message(draft)
        if "components" in body:
            self._resolve_media(draft.components, draft.attachments)
            self._assign_component_ids(draft.components)
        if not msg.is_loading:
            msg.history.append(msg.to_payload())
            msg.edited_at = _now_iso()
        msg.content = draft.content
        msg.embeds = draft.embeds
        msg.components = draft.components
        msg.attachments = draft.attachments
        msg.flags = flags
        self._notify()

    def _check_rate_limit(self, channel_id: int, request: web.Request) -> None:
        if self.channel_rate_limit is None:
            return
        limit, per = self.channel_rate_limit
        now = time.perf_counter()
        recent = [
            e
            for e in self.message_events
            if e.channel_id == channel_id and e.via == "channel" and now - e.at < per
        ]
        if len(recent) >= limit:
            retry_after = per - (now - recent[0].at)
            self.rate_limited.append((request.method, request.path, now))
            raise DiscordHTTPError(
                429,
                20028,
                "You are being rate limited.",
                retry_after=retry_after,
                **{"global": False},
            )

    # ----- REST: channels & messages -----

    def _channel(self, request: web.Request) -> FakeChannel:
        channel = self.channels.get(int(request.match_info["channel_id"]))
        if channel is None:
            raise DiscordHTTPError(404, 10003, "Unknown Channel")
        return channel

    def _channel_message(self, request: web.Request, channel: FakeChannel) -> FakeMessage:
        msg = self.messages.get(int(request.match_info["message_id"]))
        if msg is None or msg.deleted or msg.channel_id != channel.id or msg.ephemeral_to:
            raise DiscordHTTPError(404, 10008, "Unknown Message")
        return msg

    def _check_send_permission(self, channel: FakeChannel, files: bool) -> None:
        guild = self.guild_of(channel)
        if guild is None:
            return
        perms = guild.permissions_for(self.bot_user.id, channel)
        needed = PERM_VIEW_CHANNEL | (
            PERM_SEND_MESSAGES_IN_THREADS if channel.is_thread else PERM_SEND_MESSAGES
        )
        if files:
            needed |= PERM_ATTACH_FILES
        if perms & needed != needed:
            raise DiscordHTTPError(403, 50013, "Missing Permissions")
        if channel.is_thread and channel.locked and not perms & PERM_MANAGE_THREADS:
            raise DiscordHTTPError(400, 50083, "Thread is archived")

    async def _get_channel(self, request: web.Request) -> web.Response:
        return self._json(self._channel(request).to_payload())

    async def _patch_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        body, _ = await self._read_body(request)
        if "name" in body:
            channel.name = body["name"]
        for key in ("archived", "locked", "invitable", "auto_archive_duration"):
            if key in body:
                setattr(channel, key, body[key])
        event = "THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE"
        await self._broadcast(event, lambda s: channel.to_payload())
        self._notify()
        return self._json(channel.to_payload())

    async def _delete_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        self.channels.pop(channel.id)
        guild = self.guild_of(channel)
        if guild is not None:
            guild.channels.pop(channel.id, None)
        event = "THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE"
        await self._broadcast(event, lambda s: channel.to_payload())
        self._notify()
        return self._json(channel.to_payload())

    async def _get_messages(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        limit = int(request.query.get("limit", 50))
        msgs = [m for m in self.public_messages(channel)]
        if "before" in request.query:
            msgs = [m for m in msgs if m.id < int(request.query["before"])]
        if "after" in request.query:
            msgs = [m for m in msgs if m.id > int(request.query["after"])]
            msgs = msgs[:limit]
        else:
            msgs = msgs[-limit:]
        return self._json([m.to_payload() for m in reversed(msgs)])  # newest first

    async def _create_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        body, files = await self._read_body(request)
        self._check_send_permission(channel, bool(files))
        self._check_rate_limit(channel.id, request)
        # Only interaction responses can be ephemeral; Discord ignores the bit here.
        body["flags"] = int(body.get("flags") or 0) & ~FLAG_EPHEMERAL
        msg = self._build_new_message(channel, body, files)
        self._record_event("create", msg, "channel")
        await self._dispatch_message("MESSAGE_CREATE", msg)
        return self._json(msg.to_payload())

    async def _get_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        return self._json(self._channel_message(request, channel).to_payload())

    async def _edit_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        msg = self._channel_message(request, channel)
        if msg.author.id != self.bot_user.id:
            raise DiscordHTTPError(403, 50005, "Cannot edit a message authored by another user")
        body, files = await self._read_body(request)
        self._check_rate_limit(channel.id, request)
        self._apply_edit(msg, body, files)
        self._record_event("edit", msg, "channel")
        await self._dispatch_message("MESSAGE_UPDATE", msg)
        return self._json(msg.to_payload())

    async def _delete_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        msg = self._channel_message(request, channel)
        await self._delete(msg, "channel")
        return web.Response(status=204)

    async def _delete(self, msg: FakeMessage, via: str) -> None:
        msg.deleted = True
        self._record_event("delete", msg, via)
        await self._dispatch_message("MESSAGE_DELETE", msg)
        self._notify()

    async def _create_thread(
        self, parent: FakeChannel, body: JSON, thread_id: int | None, default_type: int
    ) -> FakeChannel:
        guild = self.guild_of(parent)
        if guild is None or parent.is_thread:
            raise DiscordHTTPError(400, 50024, "Cannot execute action on this channel type")
        errors = FormErrors()
        errors.max_len(["name"], body.get("name"), 100, 1)
        errors.raise_if_any()
        thread = self._new_channel(
            guild, body["name"], int(body.get("type") or default_type), parent.id, thread_id
        )
        thread.owner_id = self.bot_user.id
        thread.auto_archive_duration = int(body.get("auto_archive_duration") or 1440)
        thread.invitable = bool(body.get("invitable", True))
        thread.thread_members.add(self.bot_user.id)
        await self._broadcast(
            "THREAD_CREATE", lambda s: {**thread.to_payload(), "newly_created": True}
        )
        self._notify()
        return thread

    async def _thread_from_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        msg = self._channel_message(request, channel)
        if msg.thread_id is not None:
            raise DiscordHTTPError(
                400, 160004, "A thread has already been created for this message"
            )
        body, _ = await self._read_body(request)
        # Discord gives a thread started from a message the message's id.
        thread = await self._create_thread(channel, body, msg.id, CH_PUBLIC_THREAD)
        msg.thread_id = thread.id
        msg.flags |= FLAG_HAS_THREAD
        return self._json(thread.to_payload(), 201)

    async def _thread_without_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        body, _ = await self._read_body(request)
        thread = await self._create_thread(channel, body, None, CH_PRIVATE_THREAD)
        return self._json(thread.to_payload(), 201)

    async def _add_thread_member(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        uid = request.match_info["user_id"]
        user_id = self.bot_user.id if uid == "@me" else int(uid)
        channel.thread_members.add(user_id)
        self._notify()
        return web.Response(status=204)

    async def _remove_thread_member(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        uid = request.match_info["user_id"]
        channel.thread_members.discard(self.bot_user.id if uid == "@me" else int(uid))
        self._notify()
        return web.Response(status=204)

    async def _list_thread_members(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        return self._json(
            [
                {
                    "id": str(channel.id),
                    "user_id": str(u),
                    "join_timestamp": channel.created_at,
                    "flags": 0,
                }
                for u in sorted(channel.thread_members)
            ]
        )

    async def _typing(self, request: web.Request) -> web.Response:
        self._channel(request)
        return web.Response(status=204)

    # ----- REST: guilds -----

    def _guild(self, request: web.Request) -> FakeGuild:
        guild = self.guilds.get(int(request.match_info["guild_id"]))
        if guild is None:
            raise DiscordHTTPError(404, 10004, "Unknown Guild")
        return guild

    async def _get_guild(self, request: web.Request) -> web.Response:
        payload = self._guild_create_payload(self._guild(request))
        for key in ("members", "channels", "threads", "voice_states", "presences"):
            payload.pop(key)
        return self._json(payload)

    async def _get_guild_channels(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        return self._json([c.to_payload() for c in guild.channels.values() if not c.is_thread])

    async def _get_member(self, request: web.Request) -> web.Response:
        member = self._guild(request).members.get(int(request.match_info["user_id"]))
        if member is None:
            raise DiscordHTTPError(404, 10007, "Unknown Member")
        return self._json(member.to_payload())

    async def _get_roles(self, request: web.Request) -> web.Response:
        return self._json([r.to_payload() for r in self._guild(request).roles.values()])

    async def _download_attachment(self, request: web.Request) -> web.Response:
        att = self.attachments.get(int(request.match_info["att_id"]))
        if att is None:
            raise DiscordHTTPError(404, 0, "404: Not Found")
        return web.Response(body=att.data, content_type=att.content_type)

    # ----- REST: interactions & webhooks -----

    def _interaction_for(self, token: str) -> FakeInteraction:
        itx = self._itx_by_token.get(token)
        if itx is None or time.perf_counter() - itx.dispatched_at > self.token_ttl:
            raise DiscordHTTPError(401, 50027, "Invalid Webhook Token")
        return itx

    async def _interaction_callback(self, request: web.Request) -> web.Response:
        arrived = time.perf_counter()
        itx = self.interactions.get(int(request.match_info["itx_id"]))
        if itx is None or itx.token != request.match_info["token"]:
            raise DiscordHTTPError(404, 10062, "Unknown interaction")
        body, files = await self._read_body(request)
        if itx.response_type is not None:
            raise DiscordHTTPError(400, 40060, "Interaction has already been acknowledged.")
        late = arrived - itx.dispatched_at > self.ack_timeout
        if itx.status == "failed" or late:
            if itx.status == "pending":
                self._deadline_passed(itx)
            if self.reject_late_acks:
                raise DiscordHTTPError(404, 10062, "Unknown interaction")
        cb_type = int(body.get("type", 0))
        data: JSON = body.get("data") or {}
        from_message = itx.source_message is not None
        allowed = {
            ITX_APPLICATION_COMMAND: {CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_MODAL},
            ITX_MESSAGE_COMPONENT: {
                CB_MESSAGE,
                CB_DEFERRED_MESSAGE,
                CB_DEFERRED_UPDATE,
                CB_UPDATE_MESSAGE,
                CB_MODAL,
            },
            ITX_MODAL_SUBMIT: {CB_MESSAGE, CB_DEFERRED_MESSAGE}
            | ({CB_DEFERRED_UPDATE, CB_UPDATE_MESSAGE} if from_message else set()),
            ITX_AUTOCOMPLETE: {CB_AUTOCOMPLETE},
        }[itx.type]
        if cb_type not in allowed:
            raise DiscordHTTPError(
                400,
                50035,
                "Invalid Form Body",
                {
                    "type": {
                        "_errors": [
                            {
                                "code": "INTERACTION_CALLBACK_TYPE_INVALID",
                                "message": f"Callback {cb_type} invalid for type {itx.type}",
                            }
                        ]
                    }
                },
            )
        channel = self.channels[itx.channel_id]
        flags = int(data.get("flags") or 0)
        ephemeral_to = itx.user.id if flags & FLAG_EPHEMERAL else None
        message: FakeMessage | None = None
        if cb_type == CB_MESSAGE:
            message = self._build_new_message(
                channel,
                data,
                files,
                ephemeral_to=ephemeral_to,
                interaction=itx,
                type=20 if itx.type == ITX_APPLICATION_COMMAND else 0,
            )
            itx.original = message
            self._record_event("create", message, "callback")
        elif cb_type == CB_DEFERRED_MESSAGE:
            message = self._store_message(
                channel,
                self.bot_user,
                flags=FLAG_LOADING | (flags & FLAG_EPHEMERAL),
                type=20 if itx.type == ITX_APPLICATION_COMMAND else 0,
                ephemeral_to=ephemeral_to,
                interaction=itx,
                webhook_id=self.application_id,
            )
            itx.original = message
        elif cb_type in (CB_DEFERRED_UPDATE, CB_UPDATE_MESSAGE):
            assert itx.source_message is not None
            message = self.messages[itx.source_message.id]
            if message.deleted:
                raise DiscordHTTPError(404, 10008, "Unknown Message")
            if cb_type == CB_UPDATE_MESSAGE:
                self._apply_edit(message, data, files)
                self._record_event("edit", message, "callback")
            itx.original = message
        elif cb_type == CB_MODAL:
            self._validate_modal(data)
            components = copy.deepcopy(data.get("components") or [])
            self._assign_component_ids(components)
            itx.modal = FakeModal(data["custom_id"], data["title"], components, itx)
        elif cb_type == CB_AUTOCOMPLETE:
            choices = data.get("choices") or []
            if len(choices) > 25:
                raise DiscordHTTPError(
                    400,
                    50035,
                    "Invalid Form Body",
                    {
                        "choices": {
                            "_errors": [
                                {
                                    "code": "BASE_TYPE_MAX_LENGTH",
                                    "message": "Must be 25 or fewer in length.",
                                }
                            ]
                        }
                    },
                )
            itx.autocomplete_choices = choices
        if itx._deadline_handle is not None:
            itx._deadline_handle.cancel()
        if itx.status == "pending":
            itx.status = "acknowledged"
        itx.acknowledged_at = arrived
        itx.response_type = cb_type
        itx.response_data = data
        self._notify()
        if message is not None and cb_type in (CB_MESSAGE, CB_UPDATE_MESSAGE):
            event = "MESSAGE_CREATE" if cb_type == CB_MESSAGE else "MESSAGE_UPDATE"
            await self._dispatch_message(event, message)
        if request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        itx_info: JSON = {"id": str(itx.id), "type": itx.type}
        if message is not None and cb_type != CB_DEFERRED_UPDATE:
            itx_info.update(
                response_message_id=str(message.id),
                response_message_loading=cb_type == CB_DEFERRED_MESSAGE,
                response_message_ephemeral=message.is_ephemeral,
            )
        result: JSON = {"interaction": itx_info}
        if message is not None and cb_type in (CB_MESSAGE, CB_UPDATE_MESSAGE):
            result["resource"] = {"type": cb_type, "message": message.to_payload()}
        return self._json(result)

    def _webhook_itx(self, request: web.Request) -> FakeInteraction:
        if request.match_info["app_id"] != str(self.application_id):
            raise DiscordHTTPError(404, 10015, "Unknown Webhook")
        itx = self._interaction_for(request.match_info["token"])
        if itx.status != "acknowledged":
            raise DiscordHTTPError(404, 10015, "Unknown Webhook")
        return itx

    def _webhook_message(self, request: web.Request, itx: FakeInteraction) -> FakeMessage:
        mid = request.match_info["message_id"]
        if mid == "@original":
            msg = itx.original
        else:
            msg = self.messages.get(int(mid))
            own = {m.id for m in itx.followups} | ({itx.original.id} if itx.original else set())
            if msg is not None and msg.id not in own and msg.webhook_id != self.application_id:
                msg = None
        if msg is None or msg.deleted:
            raise DiscordHTTPError(404, 10008, "Unknown Message")
        return msg

    async def _webhook_execute(self, request: web.Request) -> web.Response:
        itx = self._webhook_itx(request)
        body, files = await self._read_body(request)
        channel = self.channels[itx.channel_id]
        original = itx.original
        if original is not None and original.is_loading:
            # Discord: the first followup after a deferred response *becomes* the original
            # response (and keeps the deferral's visibility).
            edit = {**body, "flags": int(body.get("flags") or 0) & ~FLAG_EPHEMERAL}
            self._apply_edit(original, edit, files)
            original.allowed_mentions = body.get("allowed_mentions")
            msg = original
            self._record_event("create", msg, "webhook")
        else:
            flags = int(body.get("flags") or 0)
            msg = self._build_new_message(
                channel,
                body,
                files,
                interaction=itx,
                ephemeral_to=itx.user.id if flags & FLAG_EPHEMERAL else None,
            )
            self._record_event("create", msg, "webhook")
        itx.followups.append(msg)
        self._notify()
        await self._dispatch_message("MESSAGE_CREATE", msg)
        if request.query.get("wait") in ("1", "true", "True"):
            return self._json(msg.to_payload())
        return web.Response(status=204)

    async def _webhook_get_message(self, request: web.Request) -> web.Response:
        itx = self._webhook_itx(request)
        return self._json(self._webhook_message(request, itx).to_payload())

    async def _webhook_edit_message(self, request: web.Request) -> web.Response:
        itx = self._webhook_itx(request)
        msg = self._webhook_message(request, itx)
        body, files = await self._read_body(request)
        was_loading = msg.is_loading
        self._apply_edit(msg, body, files)
        if was_loading:  # filling a deferred placeholder is when the message really "sends"
            msg.allowed_mentions = body.get("allowed_mentions")
        self._record_event("create" if was_loading else "edit", msg, "webhook")
        await self._dispatch_message("MESSAGE_CREATE" if was_loading else "MESSAGE_UPDATE", msg)
        return self._json(msg.to_payload())

    async def _webhook_delete_message(self, request: web.Request) -> web.Response:
        itx = self._webhook_itx(request)
        msg = self._webhook_message(request, itx)
        await self._delete(msg, "webhook")
        return web.Response(status=204)
