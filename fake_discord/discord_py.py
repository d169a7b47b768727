"""Pointing the real discord.py at a fake Discord (REST base and gateway, restored after),
and building the exact payload discord.py would send, to check it offline."""

from __future__ import annotations

import json
from collections.abc import Sequence
from types import TracebackType
from typing import Any

import discord
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route, handle_message_parameters
from discord.utils import MISSING

from fake_discord.constants import API_PREFIX, JSON
from fake_discord.core import FakeCore
from fake_discord.netguard import LoopbackOnly
from fake_discord.validation import check_message

# A child process learns where the fake is from this variable (the fake's `base_url`).
URL_ENV = "FAKE_DISCORD_URL"


class DiscordPyRedirect:
    """discord.py's REST base and gateway URL pointed at a fake; `restore()` (or leaving the
    `with` block) puts Discord's back. While active, a network guard refuses any connection
    that would leave the machine (unless `guard=False`)."""

    def __init__(self, base_url: str, *, guard: bool = True) -> None:
        self.base_url = base_url.rstrip("/")
        self._saved = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
        self._guard = LoopbackOnly() if guard else None
        # Route.url is computed from the class attribute when a Route is built, and
        # Client.connect uses DEFAULT_GATEWAY (then READY's resume_gateway_url, the fake too).
        Route.BASE = f"{self.base_url}{API_PREFIX}"
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(
            self.base_url.replace("http://", "ws://", 1).replace("https://", "wss://", 1) + "/"
        )
        if self._guard is not None:
            self._guard.__enter__()
        self.active = True

    def restore(self) -> None:
        if not self.active:
            return
        self.active = False
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = self._saved
        if self._guard is not None:
            self._guard.__exit__(None, None, None)

    def __enter__(self) -> DiscordPyRedirect:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.restore()


def point_discord_py_at(target: FakeCore | str, *, guard: bool = True) -> DiscordPyRedirect:
    """Make every discord.py client in this process talk to a fake Discord.

    `target` is a started `FakeDiscord`, or its `base_url` ("http://127.0.0.1:PORT"), e.g.
    read from `FAKE_DISCORD_URL` in a child process. Patches at once; use it as a context
    manager or call `restore()`. Log in with the fake's token (`fake.token`)."""
    base_url = target if isinstance(target, str) else target.base_url
    return DiscordPyRedirect(base_url, guard=guard)


def message_payload(
    *,
    content: str | None = None,
    view: discord.ui.View | discord.ui.LayoutView | None = None,
    embeds: Sequence[discord.Embed] = (),
    files: Sequence[discord.File] = (),
    ephemeral: bool = False,
) -> JSON:
    """The JSON body discord.py sends for these message parameters."""
    flags = discord.MessageFlags(ephemeral=True) if ephemeral else MISSING
    params = handle_message_parameters(
        content=content if content is not None else MISSING,
        view=view if view is not None else MISSING,
        embeds=list(embeds) if embeds else MISSING,
        files=list(files) if files else MISSING,
        flags=flags,
    )
    if params.payload is not None:
        payload: dict[str, Any] = dict(params.payload)
    else:  # with files, the JSON travels as the multipart part `payload_json`
        part = next(p for p in params.multipart or [] if p["name"] == "payload_json")
        payload = json.loads(part["value"])
    return payload


def check_send(
    *,
    content: str | None = None,
    view: discord.ui.View | discord.ui.LayoutView | None = None,
    embeds: Sequence[discord.Embed] = (),
    files: Sequence[discord.File] = (),
    ephemeral: bool = False,
) -> list[str]:
    """Offline: every Discord limit what discord.py would send breaks (see `check_message`)."""
    payload = message_payload(
        content=content, view=view, embeds=embeds, files=files, ephemeral=ephemeral
    )
    return check_message(payload, files=[f.filename for f in files])
