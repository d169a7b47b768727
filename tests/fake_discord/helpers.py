"""Helpers of the fake Discord's own tests."""

from __future__ import annotations

from typing import Any

import aiohttp


async def call(
    http: aiohttp.ClientSession, method: str, path: str, body: Any = None
) -> tuple[int, Any]:
    """One REST call as the bot: (status, JSON body or None)."""
    async with http.request(method, path.lstrip("/"), json=body) as resp:
        data = await resp.json() if resp.content_type == "application/json" else None
        return resp.status, data
