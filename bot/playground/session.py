"""A playground session: the fake Discord on 127.0.0.1, its small world, the real bot (UnoBot
with its settings and a real storage) and the page's server, started and stopped together.

While it runs, the process may open no connection that leaves the machine (the fake's
loopback guard), and discord.py talks to the fake only."""

from __future__ import annotations

import contextlib
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import web

from bot.config import Secret, Settings
from bot.playground.web import build_app
from bot.playground.world import PlaygroundWorld, build_world
from bot.storage import Storage
from fake_discord import BotRunner, FakeDiscord, loopback_only, point_discord_py_at
from fake_discord.server import is_loopback

if TYPE_CHECKING:
    from bot.client import UnoBot

LOCALHOST = "127.0.0.1"
# Discord's own limit on a channel's message writes, enforced by the fake.
CHANNEL_WRITES = (5, 5.0)


class PlaygroundError(Exception):
    """The playground could not start; the message says why in one line."""


class Playground:
    """Everything the playground runs, in one object: `await start()`, then `url`, `stop()`.

    `bot_options` go to UnoBot's constructor as they are (tests pass a seeded `rng`, short
    `computer_delay` and `edit_interval=0`)."""

    def __init__(
        self,
        *,
        users: int = 3,
        database: Path | None = None,
        host: str = LOCALHOST,
        port: int = 0,
        bot_options: dict[str, Any] | None = None,
    ) -> None:
        self.users = users
        self.database = database
        self.host = host
        self.port = port
        self.bot_options = dict(bot_options or {})
        # Hours of play keep a bounded memory: no old versions, replaced pictures or
        # expired interactions (what Discord itself would no longer serve).
        self.fake = FakeDiscord(channel_rate_limit=CHANNEL_WRITES, keep_history=False)
        self.world: PlaygroundWorld | None = None
        self.bot: UnoBot | None = None
        self._stack = contextlib.AsyncExitStack()

    @property
    def url(self) -> str:
        """The page's address for a browser on this machine."""
        host = self.host if self.host not in ("0.0.0.0", "::", "") else LOCALHOST
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}/"

    async def start(self) -> None:
        """Start everything, or nothing: a failure stops what had started."""
        try:
            await self._start()
        except BaseException:
            await self.stop()
            raise

    async def _start(self) -> None:
        from bot.client import UnoBot
        from cogs.errors import UnoTree

        stack = self._stack
        stack.enter_context(loopback_only())
        await self.fake.start()
        stack.push_async_callback(self.fake.stop)
        stack.enter_context(point_discord_py_at(self.fake))
        self.world = await build_world(self.fake, self.users)

        path = self.database
        if path is None:
            folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="uno-playground-"))
            path = Path(folder) / "uno.db"
        path.parent.mkdir(parents=True, exist_ok=True)
        storage = await Storage.open(path)
        stack.push_async_callback(storage.close)

        settings = Settings(token=Secret(self.fake.token), database_path=path)
        self.bot = UnoBot(settings, tree=UnoTree, storage=storage, **self.bot_options)
        runner = BotRunner(self.fake)
        stack.push_async_callback(runner.aclose)
        await runner.start(self.bot)

        app = build_app(self.world, local_only=is_loopback(self.host))
        web_runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await web_runner.setup()
        stack.push_async_callback(web_runner.cleanup)
        site = web.TCPSite(web_runner, self.host, self.port)
        try:
            await site.start()
        except OSError as exc:
            raise PlaygroundError(
                f"cannot listen on {self.host}:{self.port} ({exc.strerror or exc}): "
                "choose another --port"
            ) from None
        server = site._server
        assert server is not None and server.sockets  # type: ignore[attr-defined]
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]

    async def stop(self) -> None:
        """Stop the page, the bot (it saves its tables), the storage and the fake."""
        stack, self._stack = self._stack, contextlib.AsyncExitStack()
        await stack.aclose()

    async def __aenter__(self) -> Playground:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()
