"""REST routes of channels: the channel itself, its messages (create with enforced nonces,
edit, delete, history) and threads, with Discord's access rules and write limits."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, NoReturn

from aiohttp import web

from fake_discord.channels import FakeChannel
from fake_discord.constants import (
    CH_PRIVATE_THREAD,
    CH_PUBLIC_THREAD,
    FLAG_EPHEMERAL,
    FLAG_HAS_THREAD,
    JSON,
    PERM_ATTACH_FILES,
    PERM_MANAGE_CHANNELS,
    PERM_MANAGE_MESSAGES,
    PERM_MANAGE_THREADS,
    PERM_READ_MESSAGE_HISTORY,
    PERM_SEND_MESSAGES,
    PERM_SEND_MESSAGES_IN_THREADS,
    PERM_VIEW_CHANNEL,
)
from fake_discord.errors import DiscordHTTPError, FormErrors
from fake_discord.messages import FakeMessage
from fake_discord.rest.http import json_response, read_body
from fake_discord.watch import ChannelChanged, MessageChanged

if TYPE_CHECKING:
    from fake_discord.world import WorldBuilding


class ChannelRoutes:
    def __init__(self, fake: WorldBuilding) -> None:
        self.fake = fake

    def register(self, r: web.UrlDispatcher, a: str) -> None:
        ch = f"{a}/channels/{{channel_id:\\d+}}"
        msg = ch + "/messages/{message_id:\\d+}"
        r.add_get(ch, self.get_channel)
        r.add_patch(ch, self.patch_channel)
        r.add_delete(ch, self.delete_channel)
        r.add_get(ch + "/messages", self.get_messages)
        r.add_post(ch + "/messages", self.create_message)
        r.add_get(msg, self.get_message)
        r.add_patch(msg, self.edit_message)
        r.add_delete(msg, self.delete_message)
        r.add_post(msg + "/threads", self.thread_from_message)
        r.add_post(ch + "/threads", self.thread_without_message)
        r.add_put(ch + "/thread-members/{user_id}", self.add_thread_member)
        r.add_delete(ch + "/thread-members/{user_id}", self.remove_thread_member)
        r.add_get(ch + "/thread-members", self.list_thread_members)
        r.add_post(ch + "/typing", self.typing)

    # ----- access -----

    def _perms(self, channel: FakeChannel) -> int | None:
        """The bot's permissions in a guild channel (None in DMs)."""
        guild = self.fake.guild_of(channel)
        return None if guild is None else guild.permissions_for(self.fake.bot_user.id, channel)

    def _channel(self, request: web.Request) -> FakeChannel:
        """The channel of the route: 404 Unknown Channel when it does not exist (or was
        deleted), 403 Missing Access when the bot cannot see it."""
        channel = self.fake.channels.get(int(request.match_info["channel_id"]))
        if channel is None:
            raise DiscordHTTPError(404, 10003, "Unknown Channel")
        perms = self._perms(channel)
        if perms is not None:
            hidden = not perms & PERM_VIEW_CHANNEL
            outsider = (
                channel.type == CH_PRIVATE_THREAD
                and self.fake.bot_user.id not in channel.thread_members
                and not perms & PERM_MANAGE_THREADS
            )
            if hidden or outsider:
                raise DiscordHTTPError(403, 50001, "Missing Access")
        return channel

    def _require(self, channel: FakeChannel, needed: int) -> None:
        perms = self._perms(channel)
        if perms is not None and perms & needed != needed:
            raise DiscordHTTPError(403, 50013, "Missing Permissions")

    def _channel_message(self, request: web.Request, channel: FakeChannel) -> FakeMessage:
        msg = self.fake.messages.get(int(request.match_info["message_id"]))
        if msg is None or msg.deleted or msg.channel_id != channel.id or msg.ephemeral_to:
            raise DiscordHTTPError(404, 10008, "Unknown Message")
        return msg

    def _check_send(self, channel: FakeChannel, files: bool) -> None:
        send = PERM_SEND_MESSAGES_IN_THREADS if channel.is_thread else PERM_SEND_MESSAGES
        self._require(channel, send | (PERM_ATTACH_FILES if files else 0))
        perms = self._perms(channel)
        if channel.is_thread and channel.locked and perms and not perms & PERM_MANAGE_THREADS:
            raise DiscordHTTPError(400, 50083, "Thread is archived")

    # ----- the channel -----

    async def get_channel(self, request: web.Request) -> web.Response:
        return json_response(self._channel(request).to_payload())

    async def patch_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        body, _ = await read_body(request)
        if "name" in body:
            channel.name = body["name"]
        for key in ("archived", "locked", "invitable", "auto_archive_duration"):
            if key in body:
                setattr(channel, key, body[key])
        event = "THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE"
        await self.fake.gateway.broadcast(
            event, lambda s: channel.to_payload(), guild_id=channel.guild_id
        )
        self.fake._emit(ChannelChanged(channel))
        self.fake._notify()
        return json_response(channel.to_payload())

    async def delete_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        own_thread = channel.is_thread and channel.owner_id == self.fake.bot_user.id
        if not own_thread:
            self._require(
                channel, PERM_MANAGE_THREADS if channel.is_thread else PERM_MANAGE_CHANNELS
            )
        await self.fake.delete_channel(channel)
        return json_response(channel.to_payload())

    # ----- messages -----

    async def get_messages(self, request: web.Request) -> web.Response:
        """History, newest first: `limit` 1-100 (default 50) and one of `before`, `after`,
        `around` (message ids). Without Read Message History the list is empty."""
        channel = self._channel(request)
        query = request.query
        limit = _int_param(query, "limit", 50)
        if not 1 <= limit <= 100:
            _bad_param("limit", "Must be between 1 and 100.")
        perms = self._perms(channel)
        if perms is not None and not perms & PERM_READ_MESSAGE_HISTORY:
            return json_response([])
        msgs = self.fake.public_messages(channel)  # oldest first
        if "before" in query:
            before = _int_param(query, "before", 0)
            msgs = [m for m in msgs if m.id < before][-limit:]
        elif "after" in query:
            after = _int_param(query, "after", 0)
            msgs = [m for m in msgs if m.id > after][:limit]
        elif "around" in query:
            pivot = _int_param(query, "around", 0)
            start = max(0, sum(1 for m in msgs if m.id < pivot) - limit // 2)
            msgs = msgs[start : start + limit]
        else:
            msgs = msgs[-limit:]
        return json_response([m.to_payload() for m in reversed(msgs)])

    async def create_message(self, request: web.Request) -> web.Response:
        fake = self.fake
        channel = self._channel(request)
        body, files = await read_body(request)
        self._check_send(channel, bool(files))
        fake.store.check_rate_limit(channel.id, request.method, request.path)
        if body.get("enforce_nonce") and body.get("nonce") is not None:
            earlier = fake.store.nonce_match(channel, fake.bot_user, body["nonce"])
            if earlier is not None:
                return json_response(earlier.to_payload())  # Discord: no second message
        # Only interaction responses can be ephemeral; Discord ignores the bit here.
        body["flags"] = int(body.get("flags") or 0) & ~FLAG_EPHEMERAL
        msg = fake.store.build(channel, body, files)
        fake.store.record("create", msg, "channel")
        await fake.store.dispatch("MESSAGE_CREATE", msg)
        return json_response(msg.to_payload())

    async def get_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        return json_response(self._channel_message(request, channel).to_payload())

    async def edit_message(self, request: web.Request) -> web.Response:
        fake = self.fake
        channel = self._channel(request)
        msg = self._channel_message(request, channel)
        if msg.author.id != fake.bot_user.id:
            raise DiscordHTTPError(403, 50005, "Cannot edit a message authored by another user")
        body, files = await read_body(request)
        fake.store.check_rate_limit(channel.id, request.method, request.path)
        fake.store.check_age_limit(msg)
        fake.store.apply_edit(msg, body, files)
        fake.store.record("edit", msg, "channel")
        await fake.store.dispatch("MESSAGE_UPDATE", msg)
        return json_response(msg.to_payload())

    async def delete_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        msg = self._channel_message(request, channel)
        if msg.author.id != self.fake.bot_user.id:
            self._require(channel, PERM_MANAGE_MESSAGES)
        await self.fake.store.delete(msg, "channel")
        return web.Response(status=204)

    # ----- threads -----

    async def _create_thread(
        self, parent: FakeChannel, body: JSON, thread_id: int | None, default_type: int
    ) -> FakeChannel:
        fake = self.fake
        guild = fake.guild_of(parent)
        if guild is None or parent.is_thread:
            raise DiscordHTTPError(400, 50024, "Cannot execute action on this channel type")
        errors = FormErrors()
        errors.max_len(["name"], body.get("name"), 100, 1)
        errors.raise_if_any()
        thread = fake._new_channel(
            guild, body["name"], int(body.get("type") or default_type), parent.id, thread_id
        )
        thread.owner_id = fake.bot_user.id
        thread.auto_archive_duration = int(body.get("auto_archive_duration") or 1440)
        thread.invitable = bool(body.get("invitable", True))
        thread.thread_members.add(fake.bot_user.id)
        fake._emit(ChannelChanged(thread))
        await fake.gateway.broadcast(
            "THREAD_CREATE",
            lambda s: {**thread.to_payload(), "newly_created": True},
            guild_id=thread.guild_id,
        )
        fake._notify()
        return thread

    async def thread_from_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        msg = self._channel_message(request, channel)
        if msg.thread_id is not None:
            raise DiscordHTTPError(
                400, 160004, "A thread has already been created for this message"
            )
        body, _ = await read_body(request)
        # Discord gives a thread started from a message the message's id.
        thread = await self._create_thread(channel, body, msg.id, CH_PUBLIC_THREAD)
        msg.thread_id = thread.id
        msg.thread = thread
        msg.flags |= FLAG_HAS_THREAD
        self.fake._emit(MessageChanged(msg))
        return json_response(thread.to_payload(), 201)

    async def thread_without_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        body, _ = await read_body(request)
        thread = await self._create_thread(channel, body, None, CH_PRIVATE_THREAD)
        return json_response(thread.to_payload(), 201)

    def _member_id(self, request: web.Request) -> int:
        uid = request.match_info["user_id"]
        return self.fake.bot_user.id if uid == "@me" else int(uid)

    async def add_thread_member(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        channel.thread_members.add(self._member_id(request))
        self.fake._notify()
        return web.Response(status=204)

    async def remove_thread_member(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        channel.thread_members.discard(self._member_id(request))
        self.fake._notify()
        return web.Response(status=204)

    async def list_thread_members(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        return json_response(
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

    async def typing(self, request: web.Request) -> web.Response:
        self._channel(request)
        return web.Response(status=204)


def _bad_param(name: str, message: str) -> NoReturn:
    errors = FormErrors()
    errors.add([name], "NUMBER_TYPE_COERCE", message)
    raise DiscordHTTPError(400, 50035, "Invalid Form Body", errors.tree)


def _int_param(query: Mapping[str, str], name: str, default: int) -> int:
    """A numeric query parameter; 400 Invalid Form Body when it is not a number."""
    raw = query.get(name)
    if raw is None:
        return default
    try:
        return int(raw)
    except ValueError:
        _bad_param(name, f"Value {raw!r} is not a number.")
