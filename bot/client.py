"""UnoBot: opens storage, loads the cogs as extensions by name, restores tables, syncs commands
(only when they changed)."""

from __future__ import annotations

import gc
import logging
import random
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Settings
from bot.storage import Storage, open_storage
from bot.sync import CommandIds, SyncedHashes, learn_ids, sync_commands
from bot.tables.manager import TableManager
from bot.tables.scheduler import Scheduler

log = logging.getLogger(__name__)

# Discord allows 5 message writes per channel in any 5 s: the table board keeps under it.
CHANNEL_WRITES = (5, 5.0)

# Loaded in this order by name: the core never imports cogs. cogs.uno owns the /uno group that
# the others add their commands to.
EXTENSIONS = ("cogs.uno", "cogs.league", "cogs.settings")


class UnoBot(commands.AutoShardedBot):
    """The Discord client; state lives in ``tables`` (the TableManager), not here."""

    def __init__(
        self,
        settings: Settings,
        *,
        tree: type[app_commands.CommandTree[Any]],
        storage: Storage | None = None,
        scheduler: Scheduler | None = None,
        rng: random.Random | None = None,
        edit_interval: float = 1.0,
        channel_writes: tuple[int, float] = CHANNEL_WRITES,
        computer_delay: tuple[float, float] = (1.2, 2.4),
        **options: Any,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.none() | discord.Intents(guilds=True),
            allowed_mentions=discord.AllowedMentions.none(),
            tree_cls=tree,  # handed in by whoever runs the bot: the cogs' error funnel
            help_command=None,
            **_sharding(settings),
            **options,
        )
        self.settings = settings
        self.storage = storage
        self._owns_storage = storage is None
        self.edit_interval = edit_interval
        self.channel_writes = channel_writes  # at most this many table writes per channel in s
        self.command_ids = CommandIds()  # filled by the sync: replies mention </uno new:ID>
        self.tables = TableManager(
            None, scheduler=scheduler or Scheduler(), rng=rng, computer_delay=computer_delay
        )

    async def setup_hook(self) -> None:
        if self.storage is None:
            self.storage = await open_storage(self.settings)
        self.tables.storage = self.storage
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        # The extensions listen to the tables: restored ones resume their timers and messages.
        # A process on some shards only takes its own guilds' tables: Discord sends the others'
        # clicks to other processes, which restore and drive those.
        restored = await self.tables.restore(*owned_shards(self.settings))
        log.info("restored %d tables", len(restored))
        # What exists now (modules, commands, the restored tables) lives as long as the
        # process: moved out of the collector's sight, full collections skip it.
        gc.collect()
        gc.freeze()
        if self.settings.sync_commands:
            await self.sync_commands(force=self.settings.force_sync)
        else:  # another process syncs; this one still makes its replies' commands clickable
            await learn_ids(self.tree, self._command_scopes(), self.command_ids)

    async def sync_commands(self, *, force: bool = False) -> list[int | None]:
        """Sync the slash commands where the tree changed (to the development guilds alone
        when DEV_GUILD_IDS is set, where they show at once); learn their ids for mentions."""
        for guild_id in self.settings.dev_guild_ids:
            self.tree.copy_global_to(guild=discord.Object(guild_id))
        hashes = SyncedHashes(self.settings.sync_state_path)
        return await sync_commands(
            self.tree,
            self.application_id,
            self._command_scopes(),
            hashes,
            self.command_ids,
            force=force,
        )

    def _command_scopes(self) -> list[int | None]:
        """Where the commands live: the development guilds, or global (None)."""
        return list(self.settings.dev_guild_ids) or [None]

    async def close(self) -> None:
        await self.tables.close()
        await super().close()
        if self.storage is not None and self._owns_storage:
            await self.storage.close()


def owned_shards(settings: Settings) -> tuple[tuple[int, ...] | None, int | None]:
    """The shard ids and count whose guilds' tables this process restores: (None, None) for
    every table, when it runs every shard (no SHARD_IDS)."""
    if settings.shard_ids and settings.shard_count is not None:
        return settings.shard_ids, settings.shard_count
    return None, None


def _sharding(settings: Settings) -> dict[str, Any]:
    """Shard options: none lets discord.py ask Discord how many shards this bot needs."""
    options: dict[str, Any] = {}
    if settings.shard_count is not None:
        options["shard_count"] = settings.shard_count
    if settings.shard_ids:
        options["shard_ids"] = list(settings.shard_ids)
    return options
