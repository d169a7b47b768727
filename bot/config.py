"""Settings read once from the environment (``.env`` is loaded by ``bot.cli`` only)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path


class ConfigError(ValueError):
    """A setting is missing or malformed; the message says which and how to fix it."""


class Secret(str):
    """A string whose repr never shows its value, so a token cannot leak into logs."""

    def __repr__(self) -> str:
        return "Secret('********')"


def _int_list(raw: str, name: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in raw.replace(" ", "").split(",") if part)
    except ValueError:
        raise ConfigError(f"{name} must be a comma-separated list of numbers") from None


def _flag(raw: str, name: str) -> bool:
    value = raw.strip().lower() or "0"
    if value not in {"0", "1", "false", "true", "no", "yes"}:
        raise ConfigError(f"{name} must be 1 or 0")
    return value in {"1", "true", "yes"}


def _bounded(raw: str | None, name: str, default: float, low: float, high: float) -> float:
    if raw is None or raw.strip() == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number") from None
    if not low <= value <= high:
        raise ConfigError(f"{name} must lie between {low:g} and {high:g}")
    return value


def _optional_int(raw: str | None, name: str) -> int | None:
    if raw is None or raw.strip() == "":
        return None
    try:
        return int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number") from None


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the bot needs to run."""

    token: Secret = field(repr=False)
    database_path: Path = Path("data/uno.db")  # the SQLite file, used unless database_url is set
    dev_guild_ids: tuple[int, ...] = ()  # sync commands to these guilds at once (development)
    shard_count: int | None = None
    shard_ids: tuple[int, ...] = ()
    log_level: str = "INFO"
    sync_commands: bool = True  # sync slash commands at start when the command tree changed
    force_sync: bool = False  # sync at start even when the tree is unchanged
    # postgresql://user:password@host/db: use PostgreSQL instead of the SQLite file. It may
    # hold a password, so it is a Secret (never shown in a repr or a log).
    database_url: Secret | None = field(default=None, repr=False)
    database_pool_size: int = 10  # PostgreSQL connections this process may hold at most
    database_pgbouncer: bool = False  # reached through PgBouncer (transaction mode)
    # Where the shard leases' own session goes (PostgreSQL itself, not PgBouncer in transaction
    # mode); None: DATABASE_URL.
    database_lease_url: Secret | None = field(default=None, repr=False)
    # The most REST requests in any second for the whole bot token (Discord allows 50),
    # shared by every process through PostgreSQL (per process with SQLite).
    rest_per_second: float = 50.0
    metrics_port: int | None = None  # serve /healthz and /metrics here (off when None)
    log_format: str = "text"  # "text" lines or "json" objects, one a line

    @property
    def sync_state_path(self) -> Path:
        """Where the last synced command tree's hash is kept: next to the SQLite file."""
        return self.database_path.with_name("commands-synced.json")

    @classmethod
    def from_env(
        cls, env: Mapping[str, str] | None = None, *, require_token: bool = True
    ) -> Settings:
        """Build settings from ``env`` (the process environment by default).

        require_token False serves commands that only touch the database (migrate, backup).
        """
        source = os.environ if env is None else env
        token = source.get("DISCORD_TOKEN", "").strip()
        if not token and require_token:
            raise ConfigError(
                "DISCORD_TOKEN is not set: copy .env.example to .env and paste your bot token"
            )
        shard_ids = _int_list(source.get("SHARD_IDS", ""), "SHARD_IDS")
        shard_count = _optional_int(source.get("SHARD_COUNT"), "SHARD_COUNT")
        if shard_ids and shard_count is None:
            raise ConfigError("SHARD_IDS needs SHARD_COUNT too")
        if shard_count is not None and any(not 0 <= s < shard_count for s in shard_ids):
            raise ConfigError("every SHARD_IDS entry must be below SHARD_COUNT")
        level = source.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
            raise ConfigError("LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL")
        sync = source.get("SYNC_COMMANDS", "1").strip().lower() or "1"
        if sync not in {"0", "1", "false", "true", "no", "yes", "always"}:
            raise ConfigError("SYNC_COMMANDS must be 1 (when changed), 0 (never) or always")
        database_url = source.get("DATABASE_URL", "").strip()
        if database_url and not database_url.startswith(("postgresql://", "postgres://")):
            raise ConfigError(
                "DATABASE_URL must start with postgresql:// (leave it empty to use the SQLite "
                "file at DATABASE_PATH)"
            )
        log_format = source.get("LOG_FORMAT", "text").strip().lower() or "text"
        if log_format not in {"text", "json"}:
            raise ConfigError("LOG_FORMAT must be text or json")
        lease_url = source.get("DATABASE_LEASE_URL", "").strip()
        if lease_url and not lease_url.startswith(("postgresql://", "postgres://")):
            raise ConfigError("DATABASE_LEASE_URL must start with postgresql://")
        port = _bounded(source.get("METRICS_PORT"), "METRICS_PORT", -1, 0, 65535)
        return cls(
            token=Secret(token),
            database_path=Path(source.get("DATABASE_PATH", "data/uno.db").strip() or "data/uno.db"),
            dev_guild_ids=_int_list(source.get("DEV_GUILD_IDS", ""), "DEV_GUILD_IDS"),
            shard_count=shard_count,
            shard_ids=shard_ids,
            log_level=level,
            sync_commands=sync not in {"0", "false", "no"},
            force_sync=sync == "always",
            database_url=Secret(database_url) if database_url else None,
            database_pool_size=int(
                _bounded(source.get("DATABASE_POOL_SIZE"), "DATABASE_POOL_SIZE", 10, 2, 1000)
            ),
            database_pgbouncer=_flag(source.get("DATABASE_PGBOUNCER", ""), "DATABASE_PGBOUNCER"),
            rest_per_second=_bounded(
                source.get("REST_PER_SECOND"), "REST_PER_SECOND", 50.0, 1.0, 50.0
            ),
            database_lease_url=Secret(lease_url) if lease_url else None,
            metrics_port=None if port < 0 else int(port),
            log_format=log_format,
        )
