"""User simulation of slash commands: options checked the way Discord's client checks them
(types, choices, ranges, required ones, hidden commands), and autocomplete."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fake_discord.channels import FakeChannel
from fake_discord.commands import CommandRegistry
from fake_discord.constants import (
    ITX_APPLICATION_COMMAND,
    ITX_AUTOCOMPLETE,
    JSON,
    OPT_BOOLEAN,
    OPT_CHANNEL,
    OPT_INTEGER,
    OPT_MENTIONABLE,
    OPT_NUMBER,
    OPT_ROLE,
    OPT_STRING,
    OPT_USER,
    SUBCOMMAND_TYPES,
)
from fake_discord.dispatch import InteractionDispatch
from fake_discord.guilds import FakeGuild, FakeRole
from fake_discord.interactions import FakeInteraction
from fake_discord.users import FakeUser


class SlashSimulation(InteractionDispatch):
    """`slash` and `autocomplete`, as a member typing in Discord's client."""

    def _usable_command(self, user: FakeUser, channel: FakeChannel, name: str) -> JSON:
        guild = self.guild_of(channel)
        cmd = self.registry.find(guild.id if guild else None, name)
        if not CommandRegistry.member_may_use(cmd, guild, user.id, channel):
            required = cmd.get("default_member_permissions")
            raise AssertionError(
                f"/{name} is hidden from {user.username} (permissions): Discord's client does "
                f"not offer it without default_member_permissions={required}"
            )
        return cmd

    async def slash(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        locale: str | None = None,
    ) -> FakeInteraction:
        """Run a slash command as `user`: `await fake.slash(u, ch, "uno season new", {...})`.

        Option values: str/int/float/bool, FakeUser (user/mentionable), FakeRole, FakeChannel.
        `locale` overrides the user's client language for this interaction.
        Raises AssertionError for anything the Discord client would not let a user send.
        """
        parts = command.strip().lstrip("/").split()
        guild = self.guild_of(channel)
        cmd = self._usable_command(user, channel, parts[0])
        resolved: JSON = {}
        opts = self._build_options(cmd, parts[1:], dict(options or {}), guild, resolved, command)
        data: JSON = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": opts}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return await self._dispatch_interaction(
            ITX_APPLICATION_COMMAND,
            user,
            channel,
            data,
            command_name=" ".join(parts),
            locale=locale,
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
                if opt["type"] in SUBCOMMAND_TYPES and opt["name"] == path[0]:
                    inner = self._build_options(opt, path[1:], values, guild, resolved, command)
                    return [{"type": opt["type"], "name": opt["name"], "options": inner}]
            raise AssertionError(f"/{command}: no subcommand {path[0]!r} under {node['name']}")
        if any(o["type"] in SUBCOMMAND_TYPES for o in declared):
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
        if otype in (OPT_USER, OPT_MENTIONABLE) and isinstance(value, FakeUser):
            resolved.setdefault("users", {})[str(value.id)] = value.to_payload()
            if guild is not None and value.id in guild.members:
                member = guild.members[value.id].to_payload()
                member.pop("user")
                member["permissions"] = str(guild.permissions_for(value.id))
                resolved.setdefault("members", {})[str(value.id)] = member
            value = str(value.id)
        elif otype in (OPT_ROLE, OPT_MENTIONABLE) and isinstance(value, FakeRole):
            resolved.setdefault("roles", {})[str(value.id)] = value.to_payload()
            value = str(value.id)
        elif otype == OPT_CHANNEL and isinstance(value, FakeChannel):
            ch = value.to_payload()
            if guild is not None:
                ch["permissions"] = str(guild.permissions_for(self.bot_user.id, value))
            resolved.setdefault("channels", {})[str(value.id)] = ch
            value = str(value.id)
        elif otype == OPT_STRING and not isinstance(value, str):
            raise AssertionError(f"/{command}: option {opt['name']} expects a string")
        elif otype == OPT_INTEGER and (not isinstance(value, int) or isinstance(value, bool)):
            raise AssertionError(f"/{command}: option {opt['name']} expects an integer")
        elif otype == OPT_BOOLEAN and not isinstance(value, bool):
            raise AssertionError(f"/{command}: option {opt['name']} expects a boolean")
        elif otype == OPT_NUMBER and not isinstance(value, int | float):
            raise AssertionError(f"/{command}: option {opt['name']} expects a number")
        choices = opt.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise AssertionError(f"/{command}: {value!r} not in choices of {opt['name']}")
        if otype in (OPT_INTEGER, OPT_NUMBER):
            lo, hi = opt.get("min_value"), opt.get("max_value")
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                raise AssertionError(f"/{command}: {opt['name']}={value} out of [{lo}, {hi}]")
        if otype == OPT_STRING:
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
        *,
        locale: str | None = None,
    ) -> FakeInteraction:
        """Simulate typing into option `focused` (partial values allowed). Choices arrive in
        `(await itx.response()).data["choices"]`."""
        parts = command.strip().lstrip("/").split()
        cmd = self._usable_command(user, channel, parts[0])
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
            sub = next(o for o in CommandRegistry.subcommand_nodes(cmd) if o["name"] == name)
            opts = [{"name": name, "type": sub["type"], "options": opts}]
        data: JSON = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": opts}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        return await self._dispatch_interaction(
            ITX_AUTOCOMPLETE, user, channel, data, command_name=" ".join(parts), locale=locale
        )
