"""Building the fake world from a test (users, guilds, channels, threads, roles, members) and
reading it back (what a user sees, threads, failures, traffic); async so that live bots receive
the gateway events in order."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from fake_discord.channels import FakeChannel
from fake_discord.clock import iso
from fake_discord.constants import (
    CH_DM,
    CH_TEXT,
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE_PERMISSIONS,
    DEFAULT_LOCALE,
    INTENT_GUILD_MEMBERS,
    JSON,
    LOCALES,
)
from fake_discord.core import FakeCore
from fake_discord.guilds import FakeGuild, FakeMember, FakeRole
from fake_discord.interactions import FakeInteraction
from fake_discord.messages import FakeMessage
from fake_discord.traffic import WRITE_KINDS
from fake_discord.users import FakeUser
from fake_discord.watch import ChannelChanged

ChannelRef = FakeChannel | int


def check_locale(locale: str) -> str:
    if locale not in LOCALES:
        raise AssertionError(f"{locale!r} is not a Discord locale ({sorted(LOCALES)})")
    return locale


class WorldQueries(FakeCore):
    """What tests read back: messages as a user sees them, threads, failures, traffic."""

    def visible_messages(self, user: FakeUser, channel: ChannelRef) -> list[FakeMessage]:
        """What `user` sees in `channel`: channel messages plus their own ephemerals."""
        cid = channel if isinstance(channel, int) else channel.id
        return [m for m in self.channel_messages.get(cid, []) if m.visible_to(user)]

    def public_messages(self, channel: ChannelRef) -> list[FakeMessage]:
        cid = channel if isinstance(channel, int) else channel.id
        return [
            m
            for m in self.channel_messages.get(cid, [])
            if not m.deleted and m.ephemeral_to is None
        ]

    def ephemeral_messages(self, user: FakeUser, channel: ChannelRef) -> list[FakeMessage]:
        return [m for m in self.visible_messages(user, channel) if m.ephemeral_to == user.id]

    def latest_message(
        self, channel: ChannelRef, *, button: str | None = None
    ) -> FakeMessage | None:
        """The newest public message of the channel (with a button labelled `button`)."""
        for msg in reversed(self.public_messages(channel)):
            if button is None or any(b.label == button for b in msg.buttons):
                return msg
        return None

    def threads_of(self, channel: ChannelRef) -> list[FakeChannel]:
        cid = channel if isinstance(channel, int) else channel.id
        return [c for c in self.channels.values() if c.parent_id == cid and c.is_thread]

    def failed_interactions(self) -> list[FakeInteraction]:
        return [i for i in self.interactions.values() if i.status == "failed"]

    def message_bursts(
        self,
        channel: ChannelRef,
        window: float = 5.0,
        via: Iterable[str] | None = None,
        kinds: Iterable[str] = WRITE_KINDS,
    ) -> int:
        """The most message writes (creates, edits and deletes) `channel` took in any
        `window` seconds of the fake's clock. `via` filters by route kind: "channel" (the
        REST channel routes Discord rate-limits per channel, 5 per 5 s), "webhook"
        (interaction followups and original-response edits), "callback" (interaction
        responses); `kinds` by write kind."""
        cid = channel if isinstance(channel, int) else channel.id
        return self.traffic.message_bursts(cid, window, via, kinds)

    def channel_requests(self, channel: ChannelRef | None = None) -> Counter[str]:
        """The bot's REST requests on channel routes by kind ("create", "edit", "delete",
        "read", "thread", "other"), for one channel or all; interaction responses (callbacks
        and interaction webhooks) are not counted, as Discord does not count them."""
        cid = channel if channel is None or isinstance(channel, int) else channel.id
        return self.traffic.channel_requests(cid)

    def command_id(self, name: str, guild: FakeGuild | None = None) -> int:
        """The id of the registered command /name (guild commands first)."""
        return int(self.registry.find(guild.id if guild else None, name)["id"])

    def command_mention(self, path: str, guild: FakeGuild | None = None) -> str:
        """`</uno new:ID>` for a registered (sub)command path such as "uno new"."""
        return self.registry.mention(path, guild.id if guild else None)

    def assert_no_errors(self) -> None:
        if self.errors:
            raise AssertionError(
                "fake Discord rejected calls:\n" + "\n".join(map(str, self.errors))
            )


class WorldBuilding(WorldQueries):
    """Creating users, guilds, channels, roles and members; deleting channels."""

    async def create_user(
        self,
        username: str,
        *,
        global_name: str | None = None,
        bot: bool = False,
        locale: str = DEFAULT_LOCALE,
        user_id: int | None = None,
    ) -> FakeUser:
        """A user; `user_id` gives a fixed id (one that stays across runs) instead of a new
        snowflake."""
        uid = self._fixed_id(user_id)
        user = FakeUser(uid, username, global_name, bot, check_locale(locale))
        self.users[user.id] = user
        return user

    def _fixed_id(self, wanted: int | None) -> int:
        """A new snowflake, or `wanted` when one is asked for (it must be free)."""
        if wanted is None:
            return self.snowflake()
        taken = wanted in self.users or wanted in self.guilds or wanted in self.channels
        if taken or wanted <= 0:
            raise ValueError(f"id {wanted} is taken or invalid")
        return wanted

    async def create_guild(
        self,
        name: str = "Test Guild",
        *,
        owner: FakeUser | None = None,
        bot_permissions: int = DEFAULT_BOT_PERMISSIONS,
        everyone_permissions: int = DEFAULT_EVERYONE_PERMISSIONS,
        channel_name: str = "general",
        preferred_locale: str = DEFAULT_LOCALE,
        guild_id: int | None = None,
        channel_id: int | None = None,
    ) -> FakeGuild:
        """A guild with @everyone, a managed bot role, the bot member, the owner and a text
        channel (`guild.default_channel`). `guild_id` and `channel_id` give fixed ids (which
        stay across runs, e.g. for a database kept between them)."""
        if owner is None:
            owner = await self.create_user(f"{name.lower().replace(' ', '_')}_owner")
        guild = FakeGuild(
            self._fixed_id(guild_id),
            name,
            owner.id,
            preferred_locale=check_locale(preferred_locale),
        )
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
        joined = iso(self.now())
        guild.members[owner.id] = FakeMember(owner, guild.id, joined_at=joined)
        guild.members[self.bot_user.id] = FakeMember(
            self.bot_user, guild.id, [bot_role.id], joined_at=joined
        )
        self.guilds[guild.id] = guild
        channel = self._new_channel(guild, channel_name, CH_TEXT, None, self._fixed_id(channel_id))
        guild.default_channel_id = channel.id
        await self.gateway.broadcast(
            "GUILD_CREATE", lambda s: self.gateway.guild_payload(guild), guild_id=guild.id
        )
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
        if channel.is_thread:
            payload = {**channel.to_payload(), "newly_created": True}
            await self.gateway.broadcast("THREAD_CREATE", lambda s: payload, guild_id=guild.id)
        else:
            await self.gateway.broadcast(
                "CHANNEL_CREATE", lambda s: channel.to_payload(), guild_id=guild.id
            )
        return channel

    async def delete_channel(self, channel: ChannelRef) -> FakeChannel:
        """Delete a channel or thread as a moderator would (its threads go with it). REST
        calls on it then answer 404 Unknown Channel (10003)."""
        ch = self.channels[channel] if isinstance(channel, int) else channel
        for thread in self.threads_of(ch):
            await self.delete_channel(thread)
        self.channels.pop(ch.id, None)
        self.deleted_channels[ch.id] = ch
        ch.deleted = True
        guild = self.guilds.get(ch.guild_id) if ch.guild_id else None
        if guild is not None:
            guild.channels.pop(ch.id, None)
        event = "THREAD_DELETE" if ch.is_thread else "CHANNEL_DELETE"
        await self.gateway.broadcast(event, lambda s: ch.to_payload(), guild_id=ch.guild_id)
        self._emit(ChannelChanged(ch))
        self._notify()
        return ch

    async def create_role(
        self, guild: FakeGuild, name: str, permissions: int = 0, *, position: int | None = None
    ) -> FakeRole:
        pos = position if position is not None else len(guild.roles)
        role = FakeRole(self.snowflake(), guild.id, name, permissions, pos)
        guild.roles[role.id] = role
        payload = {"guild_id": str(guild.id), "role": role.to_payload()}
        await self.gateway.broadcast("GUILD_ROLE_CREATE", lambda s: payload, guild_id=guild.id)
        return role

    async def add_member(
        self,
        guild: FakeGuild,
        user: FakeUser,
        *,
        roles: Sequence[FakeRole] = (),
        nick: str | None = None,
    ) -> FakeMember:
        member = FakeMember(user, guild.id, [r.id for r in roles], nick, iso(self.now()))
        guild.members[user.id] = member
        payload = {**member.to_payload(), "guild_id": str(guild.id)}
        await self.gateway.broadcast(
            "GUILD_MEMBER_ADD", lambda s: payload, guild_id=guild.id, intent=INTENT_GUILD_MEMBERS
        )
        return member

    async def create_member(
        self,
        guild: FakeGuild,
        username: str,
        *,
        global_name: str | None = None,
        nick: str | None = None,
        roles: Sequence[FakeRole] = (),
        locale: str = DEFAULT_LOCALE,
        user_id: int | None = None,
    ) -> FakeUser:
        """Shortcut: a new user who is a member of `guild`. Returns the user."""
        user = await self.create_user(
            username, global_name=global_name, locale=locale, user_id=user_id
        )
        await self.add_member(guild, user, roles=roles, nick=nick)
        return user

    async def set_member_roles(
        self, guild: FakeGuild, user: FakeUser, roles: Sequence[FakeRole]
    ) -> None:
        member = guild.members[user.id]
        member.roles = [r.id for r in roles]
        payload = {**member.to_payload(), "guild_id": str(guild.id)}
        await self.gateway.broadcast(
            "GUILD_MEMBER_UPDATE",
            lambda s: payload,
            guild_id=guild.id,
            intent=INTENT_GUILD_MEMBERS,
        )

    def _new_channel(
        self, guild: FakeGuild, name: str, type: int, parent_id: int | None, cid: int | None = None
    ) -> FakeChannel:
        channel = FakeChannel(
            cid or self.snowflake(),
            name,
            type,
            guild.id,
            parent_id,
            len(guild.channels),
            created_at=iso(self.now()),
        )
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        self.channel_messages[channel.id] = []
        self._emit(ChannelChanged(channel))
        return channel

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The DM channel between the bot and `user` (created on first use)."""
        for ch in self.channels.values():
            if ch.type == CH_DM and ch.recipients and ch.recipients[0].id == user.id:
                return ch
        ch = FakeChannel(self.snowflake(), "", CH_DM, recipients=[user])
        self.channels[ch.id] = ch
        self.channel_messages[ch.id] = []
        self._emit(ChannelChanged(ch))
        return ch
