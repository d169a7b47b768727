"""The REST budget and the request metrics through discord.py's public ``http_trace`` option:
aiohttp awaits ``on_request_start`` before each request goes out, so waiting there paces every
request discord.py makes (retries after a 429 included), with no change to discord.py."""

from __future__ import annotations

import time
from types import SimpleNamespace
from typing import Protocol

import aiohttp

from .budget import Budget

# Interaction answers (callbacks and the interaction's webhook) are outside the bot's global
# limit: Discord does not count them, so they never wait.
UNCOUNTED = ("/interactions/", "/webhooks/")


def counted(path: str) -> bool:
    """Whether a request to this URL path counts against the bot's global REST limit."""
    return "/api/" in path and not any(part in path for part in UNCOUNTED)


class Observer(Protocol):
    """Hears of every REST request: how long the budget held it up, how many slots it gave up
    for leaving too late after them, and its answer."""

    def waited(self, seconds: float) -> None: ...
    def renewed(self, times: int) -> None: ...
    def answered(self, path: str, status: int, seconds: float) -> None: ...


def rest_trace(budget: Budget | None, observer: Observer | None = None) -> aiohttp.TraceConfig:
    """A trace config for ``discord.Client(http_trace=...)``: a counted request takes its slot
    when it starts, and renews it at the last hook before its bytes leave (the headers' for a
    request without a body, the first chunk's for one with a body, whose writing task may run
    late), so it never leaves on a slot granted over ``STALE`` s before."""
    trace = aiohttp.TraceConfig()

    async def start(
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestStartParams,
    ) -> None:
        context.slot = None
        if budget is not None and counted(params.url.path):
            context.slot = await budget.take()
        context.started = time.perf_counter()

    async def renew(context: SimpleNamespace) -> None:
        if budget is not None and getattr(context, "slot", None) is not None:
            context.slot = await budget.renew(context.slot)

    async def headers(
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestHeadersSentParams,
    ) -> None:
        await renew(context)

    async def chunk(
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestChunkSentParams,
    ) -> None:
        if not getattr(context, "body_begun", False):
            context.body_begun = True
            await renew(context)

    def waited(context: SimpleNamespace) -> None:
        slot = getattr(context, "slot", None)
        if observer is not None and slot is not None:  # all the budget added to it
            observer.waited(slot.waited)
            if slot.renewed:
                observer.renewed(slot.renewed)

    async def end(
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        waited(context)
        if observer is not None and "/api/" in params.url.path:
            spent = time.perf_counter() - getattr(context, "started", time.perf_counter())
            observer.answered(params.url.path, params.response.status, spent)

    async def failed(
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestExceptionParams,
    ) -> None:
        waited(context)

    trace.on_request_start.append(start)
    trace.on_request_headers_sent.append(headers)
    trace.on_request_chunk_sent.append(chunk)
    trace.on_request_end.append(end)
    trace.on_request_exception.append(failed)
    return trace
