"""UnoBot: opens storage, loads the cogs as extensions by name, restores tables, syncs commands
(only when they changed)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import random
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import metrics
from bot.config import Settings
from bot.metrics import RestMetrics
from bot.scale.budget import LocalBudget, Pace, SharedBudget, Switch
from bot.scale.trace import rest_trace
from bot.storage import Storage, StorageError, open_storage
from bot.sync import CommandIds, SyncedHashes, learn_ids, sync_commands
from bot.tables.manager import TableManager
from bot.tables.scheduler import Scheduler

if TYPE_CHECKING:
    from bot.scale.ops import OpsServer
    from bot.storage.postgres.coordination import Coordination

log = logging.getLogger(__name__)

# Discord allows 5 message writes per channel in any 5 s: the table board keeps under it.
CHANNEL_WRITES = (5, 5.0)

# Loaded in this order by name: the core never imports cogs. cogs.uno owns the /uno group that
# the others add their commands to.
EXTENSIONS = ("cogs.uno", "cogs.league", "cogs.settings", "cogs.status", "cogs.tournament")
IDENTIFY_SPACING = 5.5  # Discord allows one IDENTIFY per 5 s per max_concurrency bucket
LEASE_CHECK = 5.0  # seconds between looks at the shard leases' connection


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
        # Every REST request Discord counts waits for the bot's budget: this process's own
        # until the shared one (PostgreSQL) is open in setup_hook.
        self.pace = Pace.under(settings.rest_per_second)
        self.budget = Switch(LocalBudget(self.pace))
        options.setdefault("http_trace", rest_trace(self.budget, RestMetrics()))
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
        self.coordination: Coordination | None = None
        self.max_concurrency = 1  # shards that may identify at once (from /gateway/bot)
        self._keeper: asyncio.Task[None] | None = None
        self.ops: OpsServer | None = None  # /healthz and /metrics, when METRICS_PORT is set
        # Run once the tables are restored (an extension resuming what depends on them).
        self.after_restore: list[Callable[[], Awaitable[None]]] = []
        # Run after a member's league records are erased (guild id, user id): an extension
        # that keeps their name elsewhere takes it out before the member is told it is done.
        self.on_forget: list[Callable[[int, int], Awaitable[object]]] = []
        # A match judged against the hard computer costs seconds of CPU: one at a time, so
        # that a few clicks on it never crowd the event loop's share of the interpreter.
        self.reviews = asyncio.Semaphore(1)

    async def login(self, token: str) -> None:
        """Open storage, and with PostgreSQL take the shard leases and the shared REST budget,
        before the first request to Discord: the login itself spends from that budget."""
        if self.storage is None:
            self.storage = await open_storage(self.settings)
        # Auto-sharded (no SHARD_COUNT): the shards are known from /gateway/bot, in setup_hook.
        if self._shared_database() and self.coordination is None and self.shard_count:
            await self._coordinate()
        await super().login(token)

    async def setup_hook(self) -> None:
        if self.storage is None:
            self.storage = await open_storage(self.settings)
        self.tables.storage = self.storage
        if self.settings.shard_count is not None or self._shared_database():
            await self._read_gateway_limits()
        if self._shared_database() and self.coordination is None:
            await self._coordinate()  # every shard Discord asked for, now that they are known
        if self.settings.metrics_port is not None:
            await self._serve_ops(self.settings.metrics_port)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        # The extensions listen to the tables: restored ones resume their timers and messages.
        # A process on some shards only takes its own guilds' tables: Discord sends the others'
        # clicks to other processes, which restore and drive those.
        restored = await self.tables.restore(*owned_shards(self.settings))
        log.info("restored %d tables", len(restored))
        for resume in self.after_restore:
            await resume()
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

    async def _serve_ops(self, port: int) -> None:
        """Serve /healthz and /metrics, with this bot's gauges."""
        from bot.scale.ops import OpsServer

        storage = self.storage
        assert storage is not None
        self.ops = OpsServer(lambda: metrics.gateway_connected(self), storage.schema_version)
        self._collector = metrics.BotCollector(self, self.tables.tables)
        metrics.REGISTRY.register(self._collector)
        await self.ops.start(port)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        metrics.INTERACTIONS.labels(interaction.type.name).inc()

    def _shared_database(self) -> bool:
        """Whether other processes of this bot may share the database (PostgreSQL)."""
        return (
            self.settings.database_url is not None
            and getattr(self.storage, "backend", None) == "postgres"
        )

    async def _read_gateway_limits(self) -> None:
        """Read /gateway/bot: the shard count (when not set), max_concurrency, and whether
        Discord allows enough session starts; if not, wait for them to reset, saying so."""
        shards, _, limit = await self.http.get_bot_gateway()
        if self.shard_count is None:
            self.shard_count = shards
        self.max_concurrency = max(1, int(limit.get("max_concurrency", 1)))
        needed = len(self.shard_ids or range(self.shard_count or 1))
        remaining, reset = int(limit["remaining"]), limit["reset_after"] / 1000
        if remaining < needed:
            log.warning(
                "Discord allows %d more session starts until its limit of %d resets, and this "
                "process needs %d: waiting %.1f s for the reset",
                remaining,
                limit["total"],
                needed,
                reset,
            )
            await asyncio.sleep(reset)

    async def _coordinate(self) -> None:
        """Take this process's shard leases and the shared REST budget (PostgreSQL)."""
        from bot.storage.postgres.coordination import Coordination

        url = self.settings.database_lease_url or self.settings.database_url
        assert url is not None
        shards = self.shard_ids or list(range(self.shard_count or 1))
        coordination = Coordination(str(url), shards)
        await coordination.open()  # HeldElsewhere: another live process runs one of them
        self.coordination = coordination
        self.budget.budget = SharedBudget(coordination, self.pace)
        self._keeper = asyncio.create_task(self._keep_leases(coordination))

    async def _keep_leases(self, coordination: Coordination) -> None:
        """Keep the leases through database restarts; stop if another process took one."""
        from bot.storage.postgres.coordination import HeldElsewhere

        while True:
            await asyncio.sleep(LEASE_CHECK)
            try:
                await coordination.keep()
            except HeldElsewhere as error:
                log.error("stopping: %s", error)
                self._keeper = None  # closing must not cancel this very task
                await self.close()
                return
            except StorageError as error:
                log.warning("could not check the shard leases yet: %s", error)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Identify in turn with every process of the bot: one shard of each max_concurrency
        bucket at a time, 5 s apart (an advisory lock and a row per bucket in PostgreSQL)."""
        coordination = self.coordination
        if coordination is None:
            return await super().before_identify_hook(shard_id, initial=initial)
        bucket = (shard_id or 0) % self.max_concurrency
        try:
            wait = await coordination.identify_turn(bucket, IDENTIFY_SPACING)
        except StorageError as error:
            log.warning("could not take an identify turn from the database: %s", error)
            return await super().before_identify_hook(shard_id, initial=initial)
        if wait > 0:
            log.info(
                "shard %s waits %.1f s for its identify turn (bucket %s)", shard_id, wait, bucket
            )
            await asyncio.sleep(wait)

    async def close(self) -> None:
        if self.ops is not None:
            await self.ops.close()
            metrics.REGISTRY.unregister(self._collector)
            self.ops = None
        await self.tables.close()
        await super().close()
        if self._keeper is not None:
            self._keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._keeper
        if self.coordination is not None:
            await self.coordination.close()
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
