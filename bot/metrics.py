"""The bot's metrics, kept with prometheus_client in a registry of their own and served by
``bot.scale.ops`` (when METRICS_PORT is set). Counters and histograms are filled where things
happen; gauges are read from the running bot when scraped."""

from __future__ import annotations

import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Protocol

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from discord import Client

REGISTRY = CollectorRegistry()
DISCORD_EPOCH = 1420070400.0  # Discord's snowflakes count milliseconds from here
LATENCY_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0, 10.0)
QUICK_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

INTERACTIONS = Counter(
    "uno_interactions", "Interactions received, by kind", ["kind"], registry=REGISTRY
)
INTERACTION_SECONDS = Histogram(
    "uno_interaction_answer_seconds",
    "From Discord making an interaction to the bot's first answer to it coming back",
    buckets=LATENCY_BUCKETS,
    registry=REGISTRY,
)
REST_REQUESTS = Counter(
    "uno_rest_requests", "REST requests answered, by status", ["status"], registry=REGISTRY
)
REST_RATE_LIMITED = Counter(
    "uno_rest_rate_limited", "REST requests Discord answered with 429", registry=REGISTRY
)
REST_BUDGET_WAIT = Histogram(
    "uno_rest_budget_wait_seconds",
    "What the bot's REST budget added to each counted request (reserving a slot and waiting)",
    buckets=QUICK_BUCKETS,
    registry=REGISTRY,
)
REST_BUDGET_RENEWED = Counter(
    "uno_rest_budget_renewed",
    "Slots of the REST budget given up because their request left too late after them",
    registry=REGISTRY,
)
STORAGE_SECONDS = Histogram(
    "uno_storage_seconds",
    "Storage operations, by what they did",
    ["operation"],
    buckets=QUICK_BUCKETS,
    registry=REGISTRY,
)
STORAGE_ERRORS = Counter(
    "uno_storage_errors", "Storage operations that failed, by what they did", ["operation"],
    registry=REGISTRY,
)  # fmt: skip
PICTURE_SECONDS = Histogram(
    "uno_picture_render_seconds", "Drawing one picture", buckets=QUICK_BUCKETS, registry=REGISTRY
)


@contextmanager
def storage_operation(action: str) -> Iterator[None]:
    """Time one storage operation (its driver failures are counted where they are caught)."""
    started = time.perf_counter()
    try:
        yield
    finally:
        STORAGE_SECONDS.labels(action).observe(time.perf_counter() - started)


class Queue(Protocol):
    def pending(self) -> int: ...


# The picture queues alive in this process (each cog instance has one), for their depth.
PICTURE_QUEUES: weakref.WeakSet[Queue] = weakref.WeakSet()


class RestMetrics:
    """The REST trace's observer: budget waits, answers by status, interactions answered."""

    def waited(self, seconds: float) -> None:
        REST_BUDGET_WAIT.observe(seconds)

    def renewed(self, times: int) -> None:
        REST_BUDGET_RENEWED.inc(times)

    def answered(self, path: str, status: int, seconds: float) -> None:
        REST_REQUESTS.labels(str(status)).inc()
        if status == 429:
            REST_RATE_LIMITED.inc()
        made = interaction_made(path)
        if made is not None:
            INTERACTION_SECONDS.observe(max(0.0, time.time() - made))


def interaction_made(path: str) -> float | None:
    """When Discord made the interaction a callback path answers (its id is a snowflake)."""
    parts = path.rstrip("/").split("/")
    if len(parts) < 4 or parts[-1] != "callback" or parts[-4] != "interactions":
        return None
    try:
        return ((int(parts[-3]) >> 22) / 1000) + DISCORD_EPOCH
    except ValueError:
        return None


class Tables(Protocol):
    def __len__(self) -> int: ...


class BotCollector(Collector):
    """The gauges read from a running bot when scraped."""

    def __init__(self, client: Client, live_tables: Tables) -> None:
        self.client = client
        self.live_tables = live_tables

    def collect(self) -> Iterator[Metric]:
        tables = GaugeMetricFamily("uno_live_tables", "Tables this process drives")
        tables.add_metric([], len(self.live_tables))
        yield tables
        depth = GaugeMetricFamily("uno_picture_queue_depth", "Pictures waiting to be drawn")
        depth.add_metric([], sum(queue.pending() for queue in list(PICTURE_QUEUES)))
        yield depth
        latency = GaugeMetricFamily(
            "uno_shard_latency_seconds", "Gateway heartbeat latency, by shard", labels=["shard"]
        )
        for shard, seconds in shard_latencies(self.client):
            latency.add_metric([str(shard)], seconds)
        yield latency
        up = GaugeMetricFamily("uno_gateway_connected", "1 while every shard is connected")
        up.add_metric([], 1.0 if gateway_connected(self.client) else 0.0)
        yield up


def shard_latencies(client: Client) -> list[tuple[int, float]]:
    """Each shard's heartbeat latency (finite ones only: a shard just connected has none)."""
    found = getattr(client, "latencies", None)
    pairs = found if found is not None else [(client.shard_id or 0, client.latency)]
    return [(shard, seconds) for shard, seconds in pairs if seconds == seconds and seconds < 1e9]


def gateway_connected(client: Client) -> bool:
    """Whether the client is ready and none of its shards' connections is closed."""
    if client.is_closed() or not client.is_ready():
        return False
    shards = getattr(client, "shards", None)
    if shards:
        return not any(info.is_closed() for info in shards.values())
    return client.ws is not None and client.ws.open
