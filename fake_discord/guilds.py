"""Guilds, roles and members of the fake world, with Discord's permission algorithm."""

from __future__ import annotations

from dataclasses import dataclass, field

from fake_discord.channels import FakeChannel, _now_iso
from fake_discord.constants import ALL_PERMISSIONS, DEFAULT_LOCALE, JSON, PERM_ADMINISTRATOR
from fake_discord.users import FakeUser


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
class FakeGuild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, FakeRole] = field(default_factory=dict)
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)
    default_channel_id: int = 0
    # Sent as `guild_locale` with interactions and `preferred_locale` in GUILD_CREATE.
    preferred_locale: str = DEFAULT_LOCALE

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
