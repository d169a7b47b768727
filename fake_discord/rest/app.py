"""The aiohttp application: routes of every area, and the middleware that records each request,
checks the bot's token, fires injected faults and turns errors into Discord's JSON."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from fake_discord.constants import API_PREFIX
from fake_discord.errors import DiscordHTTPError, RecordedError
from fake_discord.faults import Fault
from fake_discord.rest.application import ApplicationRoutes
from fake_discord.rest.channels import ChannelRoutes
from fake_discord.rest.guilds import GuildRoutes
from fake_discord.rest.http import error_response
from fake_discord.rest.interactions import InteractionRoutes
from fake_discord.traffic import HELD_HEADER, SENT_AT_HEADER, WIRE_AT_HEADER

if TYPE_CHECKING:
    from fake_discord.world import WorldBuilding

log = logging.getLogger("fake_discord")

# Interaction callbacks and webhook routes authenticate by token, not by header.
TOKEN_ROUTES = (f"{API_PREFIX}/interactions/", f"{API_PREFIX}/webhooks/")
# Routes Discord answers without any authentication.
PUBLIC_PATHS = frozenset({f"{API_PREFIX}/gateway"})


def build_app(fake: WorldBuilding) -> web.Application:
    """The fake's routes; the gateway answers at `/`, attachments at `/attachments/...`."""

    app = web.Application(middlewares=[_middleware(fake)], client_max_size=64 * 1024 * 1024)
    router = app.router
    router.add_get("/", fake.gateway.handle)
    for routes in (
        ApplicationRoutes(fake),
        InteractionRoutes(fake),
        ChannelRoutes(fake),
        GuildRoutes(fake),
    ):
        routes.register(router, API_PREFIX)

    async def unknown_route(request: web.Request) -> web.Response:
        raise DiscordHTTPError(
            404, 0, f"404: Not Found (fake has no route {request.method} {request.path})"
        )

    router.add_route("*", "/{tail:.*}", unknown_route)
    return app


def _route_of(request: web.Request) -> str:
    resource = request.match_info.route.resource
    template = resource.canonical if resource is not None else request.path
    return template.removeprefix(API_PREFIX)


def _seconds(stamp: str | None) -> float | None:
    try:
        return float(stamp) if stamp is not None else None
    except ValueError:
        return None


def _middleware(fake: WorldBuilding) -> Any:
    @web.middleware
    async def middleware(
        request: web.Request, handler: Callable[[web.Request], Any]
    ) -> web.StreamResponse:
        path = request.path
        record = None
        if path.startswith(API_PREFIX):
            channel_id = request.match_info.get("channel_id")
            record = fake.traffic.record_request(
                request.method,
                path.removeprefix(API_PREFIX),
                _route_of(request),
                int(channel_id) if channel_id and channel_id.isdigit() else None,
                request.headers.get("User-Agent", ""),
                _seconds(request.headers.get(SENT_AT_HEADER)),
                _seconds(request.headers.get(HELD_HEADER)),
                _seconds(request.headers.get(WIRE_AT_HEADER)),
            )
        try:
            if record is None:
                response: web.StreamResponse = await handler(request)
                return response
            needs_token = not path.startswith(TOKEN_ROUTES) and path not in PUBLIC_PATHS
            if needs_token and request.headers.get("Authorization") != f"Bot {fake.token}":
                raise DiscordHTTPError(401, 0, "401: Unauthorized")
            fault = fake.faults.take(request.method, record.route, record.path)
            if fault is not None:
                fake._notify()
            if fault is not None and fault.delay > 0:
                await asyncio.sleep(fault.delay)
            if fault is not None and fault.status is not None and not fault.after_handling:
                response = _fault_response(fake, fault, record.path)
            else:
                response = await handler(request)
                if fault is not None and fault.status is not None:
                    response = _fault_response(fake, fault, record.path)
        except DiscordHTTPError as exc:
            log.warning("fake discord rejected %s %s: %s", request.method, path, exc.body())
            fake.record_error(
                RecordedError(
                    request.method,
                    request.path_qs,
                    exc.status,
                    exc.code,
                    exc.message,
                    exc.errors,
                    fake.now(),
                )
            )
            response = error_response(exc.status, exc.body())
        if record is not None:
            record.status = response.status
        return response

    return middleware


def _fault_response(fake: WorldBuilding, fault: Fault, path: str) -> web.Response:
    log.info("fake discord injected %s into %s", fault.status, path)
    assert fault.status is not None
    return error_response(fault.status, fault.body())
