"""The settings of a deployment at scale: pool size, PgBouncer, the REST budget, metrics, logs."""

from __future__ import annotations

import pytest

from bot.config import ConfigError, Settings


def settings(**env: str) -> Settings:
    return Settings.from_env({"DISCORD_TOKEN": "t", **env})


def test_defaults_keep_metrics_off_and_text_logs() -> None:
    s = settings()
    assert (s.database_pool_size, s.database_pgbouncer) == (10, False)
    assert (s.rest_per_second, s.metrics_port, s.log_format) == (50.0, None, "text")


def test_each_setting_is_read() -> None:
    s = settings(
        DATABASE_POOL_SIZE="3",
        DATABASE_PGBOUNCER="1",
        REST_PER_SECOND="25",
        METRICS_PORT="9100",
        LOG_FORMAT="JSON",
    )
    assert (s.database_pool_size, s.database_pgbouncer) == (3, True)
    assert (s.rest_per_second, s.metrics_port, s.log_format) == (25.0, 9100, "json")


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DATABASE_POOL_SIZE": "1"}, "DATABASE_POOL_SIZE must lie between 2 and 1000"),
        ({"DATABASE_POOL_SIZE": "many"}, "DATABASE_POOL_SIZE must be a number"),
        ({"DATABASE_PGBOUNCER": "maybe"}, "DATABASE_PGBOUNCER must be 1 or 0"),
        ({"REST_PER_SECOND": "60"}, "REST_PER_SECOND must lie between 1 and 50"),
        ({"METRICS_PORT": "70000"}, "METRICS_PORT must lie between 0 and 65535"),
        ({"LOG_FORMAT": "xml"}, "LOG_FORMAT must be text or json"),
    ],
)
def test_a_bad_value_says_what_to_write(env: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        settings(**env)
