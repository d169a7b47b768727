"""The docker compose file: a bot and PostgreSQL wired together, and shard processes that
split the shards between them exactly once."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from bot.config import Settings

ROOT = Path(__file__).resolve().parents[2]
VARIABLE = re.compile(r"\$\{(\w+)(?:(:?[-?])([^}]*))?\}")


def interpolate(value: object, env: dict[str, str]) -> str:
    """Compose's ${NAME}, ${NAME:-default} and ${NAME:?error} substitution."""

    def one(match: re.Match[str]) -> str:
        name, kind, rest = match[1], match[2], match[3]
        if env.get(name):
            return env[name]
        if kind and kind.endswith("-"):
            return rest
        if kind and kind.endswith("?"):
            raise KeyError(f"{name}: {rest}")
        return ""

    return VARIABLE.sub(one, str(value))


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return loaded


def bots(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The services that run the bot (built from this repository's Dockerfile)."""
    return {name: s for name, s in compose["services"].items() if s.get("build") == "."}


def settings_of(service: dict[str, Any], env: dict[str, str]) -> Settings:
    environment = {k: interpolate(v, env) for k, v in service["environment"].items()}
    return Settings.from_env(environment)


def test_postgres_keeps_its_data_on_a_volume_and_says_when_it_is_ready(
    compose: dict[str, Any],
) -> None:
    db = compose["services"]["db"]
    assert db["image"].startswith("postgres:")
    [mount] = db["volumes"]
    volume, path = mount.split(":")
    assert volume in compose["volumes"] and path == "/var/lib/postgresql/data"
    env = {k: interpolate(v, {}) for k, v in db["environment"].items()}
    check = " ".join(db["healthcheck"]["test"])
    assert "pg_isready" in check
    assert f"-U {env['POSTGRES_USER']}" in check and f"-d {env['POSTGRES_DB']}" in check


@pytest.mark.parametrize("password", ["", "s3cret"])
def test_every_bot_service_reaches_that_database_once_it_is_healthy(
    compose: dict[str, Any], password: str
) -> None:
    env = {"DISCORD_TOKEN": "token", "POSTGRES_PASSWORD": password}
    db = {k: interpolate(v, env) for k, v in compose["services"]["db"]["environment"].items()}
    services = bots(compose)
    assert {"bot", "shard-0", "shard-1"} <= set(services)
    assert (ROOT / "Dockerfile").is_file()
    for name, service in services.items():
        assert service["depends_on"]["db"]["condition"] == "service_healthy", name
        settings = settings_of(service, env)
        assert settings.token == "token"
        url = urlsplit(str(settings.database_url))
        assert url.scheme == "postgresql" and (url.hostname, url.port) == ("db", 5432), name
        assert (url.username, url.password) == (db["POSTGRES_USER"], db["POSTGRES_PASSWORD"])
        assert url.path == f"/{db['POSTGRES_DB']}", name
    with pytest.raises(KeyError, match="DISCORD_TOKEN"):
        settings_of(services["bot"], {})


def test_the_shard_processes_split_the_shards_exactly_once(compose: dict[str, Any]) -> None:
    env = {"DISCORD_TOKEN": "token"}
    services = bots(compose)
    single = settings_of(services["bot"], env)
    assert single.shard_ids == () and single.shard_count is None  # every shard, every table
    assert "profiles" not in services["bot"]
    shards = {name: s for name, s in services.items() if name != "bot"}
    owned: list[int] = []
    counts, syncing = set(), 0
    for name, service in shards.items():
        # Only started when asked for, so they never run beside the single bot by accident.
        assert service["profiles"] == ["shards"], name
        settings = settings_of(service, env)
        counts.add(settings.shard_count)
        owned += settings.shard_ids
        syncing += settings.sync_commands
    [count] = counts
    assert count is not None and sorted(owned) == list(range(count))
    assert syncing == 1  # the slash commands are synced by one process


def test_the_example_environment_names_the_database_url() -> None:
    example = (ROOT / ".env.example").read_text()
    assert re.search(r"^# DATABASE_URL=postgresql://", example, re.MULTILINE)


def test_every_bot_service_is_health_checked_through_its_metrics_port(
    compose: dict[str, Any],
) -> None:
    for name, service in bots(compose).items():
        settings = settings_of(service, {"DISCORD_TOKEN": "token"})
        assert settings.metrics_port == 8000, name
        assert service["healthcheck"]["test"] == ["CMD", "python", "-m", "bot", "healthcheck"]
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "METRICS_PORT=8000" in dockerfile
    assert re.search(r'^HEALTHCHECK .*\n\s+CMD \["python", "-m", "bot", "healthcheck"\]$',
                     dockerfile, re.MULTILINE)  # fmt: skip
