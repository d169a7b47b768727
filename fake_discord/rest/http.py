"""Answers and bodies as Discord's REST API speaks them: JSON (with Discord's content type),
its errors, and multipart uploads."""

from __future__ import annotations

import json
import re
from typing import Any

from aiohttp import BodyPartReader, web

from fake_discord.constants import JSON
from fake_discord.errors import DiscordHTTPError

Files = list[tuple[str, bytes]]


def json_response(data: Any, status: int = 200) -> web.Response:
    # discord.py only parses bodies whose content-type is exactly "application/json".
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def error_response(status: int, body: JSON) -> web.Response:
    headers = {"Content-Type": "application/json"}
    if status == 429:
        headers["Via"] = "1.1 google"  # discord.py treats a 429 without Via as a ban
    return web.Response(body=json.dumps(body).encode(), status=status, headers=headers)


async def read_body(request: web.Request) -> tuple[JSON, Files]:
    """JSON body, or multipart `payload_json` + `files[n]` parts (filename, bytes)."""
    if request.content_type.startswith("multipart/"):
        payload: JSON = {}
        files: dict[int, tuple[str, bytes]] = {}
        reader = await request.multipart()
        while True:
            part = await reader.next()
            if part is None:
                break
            assert isinstance(part, BodyPartReader)
            if part.name == "payload_json":
                payload = json.loads(await part.text())
            else:
                m = re.fullmatch(r"files\[(\d+)\]", part.name or "")
                if m is None:
                    raise DiscordHTTPError(400, 50035, f"Unexpected multipart part {part.name}")
                files[int(m.group(1))] = (part.filename or "file", await part.read())
        return payload, [files[i] for i in sorted(files)]
    if request.can_read_body:
        body = await request.json()
        return (body if isinstance(body, dict) else {"_list": body}), []
    return {}, []
