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
    """Hears of every REST request: how long the budget held it up, and its answer."""

    def waited(self, seconds: float) -> None: ...
    def answered(self, path: str, status: int, seconds: float) -> None: ...


def rest_trace(budget: Budget | None, observer: Observer | None = None) -> aiohttp.TraceConfig:
    """A trace config for ``discord.Client(http_trace=...)``."""
    trace = aiohttp.TraceConfig()

    async def start(
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestStartParams,
    ) -> None:
        path = params.url.path
        if budget is not None and counted(path):
            began = time.perf_counter()
            await budget.take()
            if observer is not None:  # all the budget added: the reservation and the wait
                observer.waited(time.perf_counter() - began)
        context.started = time.perf_counter()

    async def end(
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        if observer is not None and "/api/" in params.url.path:
            spent = time.perf_counter() - getattr(context, "started", time.perf_counter())
            observer.answered(params.url.path, params.response.status, spent)

    trace.on_request_start.append(start)
    trace.on_request_end.append(end)
    return trace
