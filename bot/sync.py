"""Slash command sync only when the command tree changed, and the synced ids for mentions.

Syncing at every start rewrites every command (a global sync can take Discord a while to
spread, and it counts against a daily limit). So the tree's payload is hashed per scope
(global, or each development guild) and the hash kept in a small file next to the SQLite
database; a start with the same hash only fetches the commands (one request) to learn their
ids. Those ids make replies' command names clickable: ``</uno new:123>``.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

log = logging.getLogger(__name__)

Scope = int | None  # None: global commands; else a guild id


def tree_payload(tree: app_commands.CommandTree[Any], guild: Scope) -> list[dict[str, Any]]:
    """What a sync would send for ``guild`` (None: the global commands), in a stable order."""
    scope = None if guild is None else discord.Object(guild)
    payload = [command.to_dict(tree) for command in tree.get_commands(guild=scope)]
    return sorted(payload, key=lambda c: (c.get("type", 1), c["name"]))


def tree_hash(payload: Sequence[dict[str, Any]], application_id: int | None) -> str:
    """A hash of the payload and the application it belongs to (another bot needs a sync)."""
    text = json.dumps([application_id, list(payload)], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class SyncedHashes:
    """The last synced hash per scope, in a JSON file; a missing or broken file means none."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _read(self) -> dict[str, str]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}

    def get(self, scope: Scope) -> str | None:
        return self._read().get(_key(scope))

    def put(self, scope: Scope, digest: str) -> None:
        data = self._read()
        data[_key(scope)] = digest
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
        except OSError as exc:  # the next start syncs again: harmless
            log.warning("could not remember the command sync in %s: %s", self.path, exc)


def _key(scope: Scope) -> str:
    return "global" if scope is None else str(scope)


class CommandIds:
    """The ids Discord gave the synced commands: every runnable path ("uno new") to its id."""

    def __init__(self) -> None:
        self._paths: dict[Scope, dict[str, int]] = {}

    def remember(self, scope: Scope, commands: Iterable[app_commands.AppCommand]) -> None:
        paths: dict[str, int] = {}
        for command in commands:
            for path in _runnable_paths(command.name, command.options):
                paths[path] = command.id
        self._paths[scope] = paths

    def mention(self, path: str, guild_id: int | None = None) -> str | None:
        """``</uno new:ID>`` for a runnable command path, or None while its id is unknown."""
        for scope in (guild_id, None) if guild_id is not None else (None,):
            command_id = self._paths.get(scope, {}).get(path)
            if command_id is not None:
                return f"</{path}:{command_id}>"
        return None


def _runnable_paths(name: str, options: Sequence[Any]) -> list[str]:
    """A command's runnable paths: itself, or its subcommands (Discord mentions those only)."""
    groups = [o for o in options if isinstance(o, app_commands.AppCommandGroup)]
    if not groups:
        return [name]
    paths: list[str] = []
    for group in groups:
        paths += _runnable_paths(f"{name} {group.name}", group.options)
    return paths


async def sync_commands(
    tree: app_commands.CommandTree[Any],
    application_id: int | None,
    scopes: Sequence[Scope],
    hashes: SyncedHashes,
    ids: CommandIds,
    *,
    force: bool = False,
) -> list[Scope]:
    """Sync each scope whose payload changed (or all when ``force``); learn every id.

    Returns the scopes that were synced. A scope whose hash matches is fetched instead, and
    synced after all when Discord lacks one of the tree's commands (deleted by hand).
    """
    synced: list[Scope] = []
    for scope in scopes:
        target = None if scope is None else discord.Object(scope)
        payload = tree_payload(tree, scope)
        digest = tree_hash(payload, application_id)
        current: list[app_commands.AppCommand] | None = None
        if not force and hashes.get(scope) == digest:
            current = await tree.fetch_commands(guild=target)
            if {c.name for c in current} != {c["name"] for c in payload}:
                current = None
        if current is None:
            current = await tree.sync(guild=target)
            hashes.put(scope, digest)
            synced.append(scope)
            log.info("synced %d commands (%s)", len(current), _key(scope))
        ids.remember(scope, current)
    return synced


async def learn_ids(
    tree: app_commands.CommandTree[Any], scopes: Sequence[Scope], ids: CommandIds
) -> None:
    """Only read the commands' ids (a process that leaves syncing to another): a failure
    costs the clickable mentions alone, so it is logged, not raised."""
    for scope in scopes:
        try:
            current = await tree.fetch_commands(
                guild=None if scope is None else discord.Object(scope)
            )
        except discord.HTTPException as exc:
            log.warning("could not read the slash commands (%s): %s", _key(scope), exc)
            continue
        ids.remember(scope, current)
