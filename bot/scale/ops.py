"""The operator's endpoint of one process (METRICS_PORT): ``/healthz`` says whether the gateway
is connected and the storage answers (200 or 503, for a container's health check), and
``/metrics`` serves the Prometheus metrics (bot.metrics)."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from bot.metrics import REGISTRY

log = logging.getLogger(__name__)

STORAGE_TIMEOUT = 2.0  # seconds the storage may take to answer a health check

Probe = Callable[[], bool]
AsyncProbe = Callable[[], Awaitable[object]]


class OpsServer:
    """An HTTP server on the bot's event loop, off unless a port is given."""

    def __init__(self, gateway: Probe, storage: AsyncProbe) -> None:
        self.gateway = gateway
        self.storage = storage
        self.port: int | None = None
        self._runner: web.AppRunner | None = None

    async def start(self, port: int, host: str = "0.0.0.0") -> None:
        """Listen on every address (a container's port is reached from outside it)."""
        app = web.Application()
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/metrics", self.metrics)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, host, port)
        await site.start()
        self._runner = runner
        addresses = runner.addresses  # port 0 lets the system pick: the one it picked
        self.port = int(addresses[0][1]) if addresses else port
        log.info("serving /healthz and /metrics on port %s", self.port)

    async def health(self) -> dict[str, bool]:
        """What the health check sees: the gateway and the storage."""
        try:
            await asyncio.wait_for(self.storage(), STORAGE_TIMEOUT)
            storage = True
        except Exception:  # unreachable, timed out or closed: unhealthy either way
            storage = False
        return {"gateway": self.gateway(), "storage": storage}

    async def healthz(self, request: web.Request) -> web.Response:
        found = await self.health()
        status = 200 if all(found.values()) else 503
        return web.Response(status=status, text=json.dumps(found), content_type="application/json")

    async def metrics(self, request: web.Request) -> web.Response:
        body = generate_latest(REGISTRY)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def close(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()
