"""Application commands the bot registered: stored per scope (global or one guild) with ids
that stay the same across syncs, looked up by name or by id, mentioned as `</uno new:ID>`,
and gated by `default_member_permissions` like Discord's client does."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from fake_discord.channels import FakeChannel
from fake_discord.constants import ALL_PERMISSIONS, CMD_CHAT_INPUT, JSON, SUBCOMMAND_TYPES
from fake_discord.errors import DiscordHTTPError
from fake_discord.guilds import FakeGuild


class Ids(Protocol):
    """Where the registry gets its ids (the fake's state)."""

    application_id: int

    def snowflake(self) -> int: ...


class CommandRegistry:
    """Commands by scope: key None is global, else a guild id; then name -> payload."""

    def __init__(self, fake: Ids) -> None:
        self.fake = fake
        self.commands: dict[int | None, dict[str, JSON]] = {None: {}}

    def store(self, scope: int | None, cmd: JSON, command_id: str | None = None) -> JSON:
        """Save a command as Discord echoes it; a name already known keeps its id."""
        existing = self.commands.setdefault(scope, {}).get(cmd["name"])
        if command_id is None:
            command_id = existing["id"] if existing else str(self.fake.snowflake())
        stored = {
            "type": CMD_CHAT_INPUT,
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
            "id": command_id,
            "application_id": str(self.fake.application_id),
            "version": str(self.fake.snowflake()),
        }
        if scope is not None:
            stored["guild_id"] = str(scope)
        self.commands[scope][cmd["name"]] = stored
        return stored

    def replace_all(self, scope: int | None, cmds: list[JSON]) -> list[JSON]:
        """Bulk overwrite: commands not listed go away, listed ones keep their ids."""
        old = self.commands.get(scope, {})
        self.commands[scope] = {}
        for cmd in cmds:
            previous = old.get(cmd["name"])
            self.store(scope, cmd, previous["id"] if previous else None)
        return list(self.commands[scope].values())

    def by_id(self, scope: int | None, command_id: str) -> JSON:
        for cmd in self.commands.get(scope, {}).values():
            if cmd["id"] == command_id:
                return cmd
        raise DiscordHTTPError(404, 10063, "Unknown application command")

    def update(self, scope: int | None, command_id: str, changes: JSON) -> JSON:
        cmd = self.by_id(scope, command_id)
        del self.commands[scope][cmd["name"]]
        return self.store(scope, {**cmd, **changes}, command_id)

    def delete(self, scope: int | None, command_id: str) -> None:
        cmd = self.by_id(scope, command_id)
        del self.commands[scope][cmd["name"]]

    def find(self, guild_id: int | None, name: str) -> JSON:
        """The command a user in `guild_id` would run as /name (guild commands first)."""
        if guild_id is not None and name in self.commands.get(guild_id, {}):
            return self.commands[guild_id][name]
        if name in self.commands[None]:
            return self.commands[None][name]
        known = sorted({n for cmds in self.commands.values() for n in cmds})
        raise AssertionError(f"command /{name} is not registered (registered: {known})")

    def mention(self, path: str, guild_id: int | None = None) -> str:
        """`</uno new:ID>`: how a message mentions a (sub)command so a click runs it."""
        parts = path.strip().lstrip("/").split()
        cmd = self.find(guild_id, parts[0])
        node = cmd
        for name in parts[1:]:
            node = next(
                (o for o in node.get("options") or [] if o["name"] == name and o["type"] in (1, 2)),
                {},
            )
            if not node:
                raise AssertionError(f"/{parts[0]} has no subcommand path {' '.join(parts[1:])!r}")
        return f"</{' '.join(parts)}:{cmd['id']}>"

    def resolve_mention(self, path: str, command_id: int, guild_id: int | None = None) -> bool:
        """Whether a mention `</path:command_id>` points at a registered (sub)command."""
        try:
            return self.mention(path, guild_id) == f"</{path}:{command_id}>"
        except AssertionError:
            return False

    @staticmethod
    def subcommand_nodes(node: JSON) -> Iterator[JSON]:
        for opt in node.get("options", []) or []:
            if opt["type"] in SUBCOMMAND_TYPES:
                yield opt
                yield from CommandRegistry.subcommand_nodes(opt)

    @staticmethod
    def member_may_use(
        cmd: JSON, guild: FakeGuild | None, user_id: int, channel: FakeChannel | None
    ) -> bool:
        """Discord's default gate: the member needs every bit of `default_member_permissions`;
        "0" leaves the command to administrators (and the owner)."""
        required = cmd.get("default_member_permissions")
        if guild is None or required is None:
            return True
        perms = guild.permissions_for(user_id, channel)
        if perms == ALL_PERMISSIONS:  # owner or administrator
            return True
        needed = int(required)
        return needed != 0 and perms & needed == needed
