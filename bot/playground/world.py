"""The playground's small world on the fake Discord: one server, its #uno channel and two to
four local people, with ids that stay the same on every run (so a kept database still knows
them), and the names the page shows for mentions."""

from __future__ import annotations

import re
from dataclasses import dataclass

from fake_discord import FakeChannel, FakeDiscord, FakeGuild, FakeRole, FakeUser
from fake_discord.constants import (
    CH_TEXT,
    DISCORD_EPOCH_MS,
    OPT_CHANNEL,
    OPT_MENTIONABLE,
    OPT_ROLE,
    OPT_USER,
)

GUILD_NAME = "Playground"
CHANNEL_NAME = "uno"
PEOPLE = ("Alice", "Bob", "Carol", "Dave")
MIN_USERS, MAX_USERS = 2, len(PEOPLE)
# Snowflakes of a fixed moment (2024-01-01 UTC): the same ids on every run.
_BASE_MS = 1_704_067_200_000 - DISCORD_EPOCH_MS


def fixed_id(n: int) -> int:
    return (_BASE_MS << 22) | n


@dataclass(eq=False)
class PlaygroundWorld:
    """The fake Discord and what the page may act as and look at."""

    fake: FakeDiscord
    guild: FakeGuild
    users: list[FakeUser]

    @property
    def channel(self) -> FakeChannel:
        return self.guild.default_channel

    def user(self, user_id: int) -> FakeUser | None:
        """One of the local people (nobody else can be acted as)."""
        return next((u for u in self.users if u.id == user_id), None)

    def channels(self) -> list[FakeChannel]:
        """The server's text channels and threads a person sees, in Discord's order."""
        live = [c for c in self.guild.channels.values() if not c.deleted]
        texts = sorted((c for c in live if c.type == CH_TEXT), key=lambda c: (c.position, c.id))
        out: list[FakeChannel] = []
        for text in texts:
            out.append(text)
            threads = [c for c in live if c.is_thread and c.parent_id == text.id]
            out += sorted(threads, key=lambda c: c.id, reverse=True)  # newest first
        return out

    def channel_by_id(self, channel_id: int) -> FakeChannel | None:
        channel = self.fake.channels.get(channel_id)
        if channel is None or channel.guild_id != self.guild.id:
            return None
        return channel

    # ----- names for mentions (bot.playground.markdown.Names) -----

    def user_name(self, user_id: int) -> str | None:
        member = self.guild.members.get(user_id)
        if member is not None and member.nick:
            return member.nick
        user = self.fake.users.get(user_id)
        return user.display_name if user is not None else None

    def channel_name(self, channel_id: int) -> str | None:
        channel = self.fake.channels.get(channel_id) or self.fake.deleted_channels.get(channel_id)
        return channel.name if channel is not None else None

    def role_name(self, role_id: int) -> str | None:
        role = self.guild.roles.get(role_id)
        return role.name.lstrip("@") if role is not None else None

    # ----- what typed options name (bot.playground.commandline.Lookup) -----

    def find_user(self, text: str) -> FakeUser | None:
        """A member by mention (`<@id>`), @name, user name or display name."""
        wanted = _mentioned(text, r"<@!?(\d+)>", "@")
        for uid in self.guild.members:
            user = self.fake.users[uid]
            names = {str(uid), user.username, user.display_name, self.user_name(uid) or ""}
            if wanted in {n.casefold() for n in names}:
                return user
        return None

    def find_channel(self, text: str) -> FakeChannel | None:
        wanted = _mentioned(text, r"<#(\d+)>", "#")
        for channel in self.channels():
            if wanted in (str(channel.id), channel.name.casefold()):
                return channel
        return None

    def find_role(self, text: str) -> FakeRole | None:
        wanted = _mentioned(text, r"<@&(\d+)>", "@")
        for role in self.guild.roles.values():
            if wanted in (str(role.id), role.name.lstrip("@").casefold()):
                return role
        return None

    def mentions(self, kind: int) -> list[str]:
        out: list[str] = []
        if kind in (OPT_USER, OPT_MENTIONABLE):
            out += ["@" + (self.user_name(uid) or "") for uid in self.guild.members]
        if kind in (OPT_ROLE, OPT_MENTIONABLE):
            out += ["@" + r.name.lstrip("@") for r in self.guild.roles.values()]
        if kind == OPT_CHANNEL:
            out += ["#" + c.name for c in self.channels()]
        return out


def _mentioned(text: str, pattern: str, sigil: str) -> str:
    """The id inside a mention, or the name after its sigil, folded for comparing."""
    text = text.strip()
    match = re.fullmatch(pattern, text)
    if match:
        return match.group(1)
    return text.removeprefix(sigil).strip().casefold()


async def build_world(fake: FakeDiscord, users: int = 3) -> PlaygroundWorld:
    """The server, its channel and `users` people; the first one owns the server."""
    if not MIN_USERS <= users <= MAX_USERS:
        raise ValueError(f"the playground has {MIN_USERS} to {MAX_USERS} people")
    people = [
        await fake.create_user(name.lower(), global_name=name, user_id=fixed_id(10 + i))
        for i, name in enumerate(PEOPLE[:users])
    ]
    guild = await fake.create_guild(
        GUILD_NAME,
        owner=people[0],
        channel_name=CHANNEL_NAME,
        guild_id=fixed_id(1),
        channel_id=fixed_id(2),
    )
    for person in people[1:]:
        await fake.add_member(guild, person)
    return PlaygroundWorld(fake, guild, people)
