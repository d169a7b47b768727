"""Running real discord.py clients against a fake: start them, wait for READY, stop them
cleanly or kill them abruptly, and collect what discord.py logged as errors."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field

import discord

from fake_discord.server import FakeDiscord


@dataclass(eq=False)
class RunningBot:
    client: discord.Client
    task: asyncio.Task[None]
    stopped: bool = False

    @property
    def session_id(self) -> str | None:
        """Current gateway session (changes when the client reconnects)."""
        return self.client.ws.session_id if self.client.ws else None


class ErrorCollector(logging.Handler):
    """Keeps ERROR+ records of the loggers it is attached to."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@dataclass(eq=False)
class BotRunner:
    """Starts `discord.Client`/`commands.Bot` instances on a fake (`await runner.start(bot)`),
    stops them cleanly (`stop`) or abruptly (`kill`), and closes leftovers (`aclose`).

    `attach()` collects ERROR records of the `discord` loggers in `errors` until `detach()`."""

    fake: FakeDiscord
    bots: list[RunningBot] = field(default_factory=list)
    _collector: ErrorCollector = field(default_factory=ErrorCollector)

    @property
    def errors(self) -> list[logging.LogRecord]:
        """ERROR+ records logged by discord.py (e.g. "Ignoring exception in command")."""
        return self._collector.records

    def attach(self) -> None:
        logging.getLogger("discord").addHandler(self._collector)

    def detach(self) -> None:
        logging.getLogger("discord").removeHandler(self._collector)

    def assert_no_errors(self) -> None:
        if self.errors:
            formatter = logging.Formatter()
            details = "\n".join(formatter.format(r) for r in self.errors)
            raise AssertionError(f"discord.py logged errors:\n{details}")

    async def start(
        self,
        client: discord.Client,
        *,
        timeout: float = 10.0,
        guild_ready_timeout: float = 0.05,
        reconnect: bool = True,
    ) -> RunningBot:
        """Log in (runs setup_hook, e.g. tree sync), connect in a background task and wait
        for READY. Raises whatever login/connect raised. With `reconnect` (as in production)
        the client reconnects when the fake drops its gateway connection."""
        # discord.py waits this long after the last GUILD_CREATE before READY (default 2 s);
        # the fake sends all guilds back to back, so a short wait is enough.
        client._connection.guild_ready_timeout = guild_ready_timeout
        await asyncio.wait_for(client.login(self.fake.token), timeout)
        task = asyncio.create_task(client.connect(reconnect=reconnect), name=f"bot-{id(client)}")
        ready = asyncio.create_task(client.wait_until_ready())
        done, _ = await asyncio.wait(
            {task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if ready not in done:
            ready.cancel()
            if task in done:
                task.result()  # re-raise the connection error
            task.cancel()
            raise AssertionError(f"bot not ready within {timeout}s")
        running = RunningBot(client, task)
        task.add_done_callback(lambda t: self._connection_ended(running, t))
        self.bots.append(running)
        return running

    def _connection_ended(self, bot: RunningBot, task: asyncio.Task[None]) -> None:
        if task.cancelled() or task.exception() is None:
            return
        # The gateway loop crashed (e.g. a payload discord.py cannot parse): surface it in
        # `errors` and cut the session so the next simulated interaction fails fast.
        logging.getLogger("discord").error("bot connection task crashed", exc_info=task.exception())
        for session in list(self.fake.sessions.values()):
            if session.session_id == bot.session_id:
                self.fake.drop_session(session.session_id)

    async def stop(self, bot: RunningBot) -> None:
        """Clean shutdown: `client.close()` (cogs unloaded, websocket closed with 1000)."""
        if bot.stopped:
            return
        bot.stopped = True
        await bot.client.close()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(bot.task, 5)

    async def kill(self, bot: RunningBot) -> None:
        """Abrupt death: cancel the connection task without `close()` (no cog_unload, no
        clean websocket close), and cut the gateway connection server side.

        The bot's own background tasks (e.g. `tasks.loop`) are *not* stopped: a test
        simulating a crash should cancel those itself if they would interfere."""
        if bot.stopped:
            return
        bot.stopped = True
        client = bot.client
        session_id = bot.session_id
        bot.task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await bot.task
        self.fake.drop_session(session_id)
        # Release what the OS would have reclaimed from a dead process: the heartbeat thread
        # and the HTTP connection pool. None of this runs bot code.
        keep_alive = getattr(client.ws, "_keep_alive", None)
        if keep_alive is not None:
            keep_alive.stop()
        await client.http.close()

    async def aclose(self) -> None:
        for bot in self.bots:
            await self.stop(bot)
