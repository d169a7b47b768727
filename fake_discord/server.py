"""FakeDiscord: the fake's parts put together, and its life on 127.0.0.1 (start, stop)."""

from __future__ import annotations

import ipaddress
import logging

from aiohttp import web

from fake_discord.clicks import ComponentSimulation
from fake_discord.components import Button
from fake_discord.constants import CB_DEFERRED_MESSAGE, CB_MESSAGE
from fake_discord.core import LOOPBACK_HOST
from fake_discord.gateway import GatewaySession
from fake_discord.messages import FakeMessage
from fake_discord.rest.app import build_app
from fake_discord.slash import SlashSimulation
from fake_discord.users import FakeUser
from fake_discord.world import WorldBuilding

log = logging.getLogger("fake_discord")


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class FakeDiscord(SlashSimulation, ComponentSimulation, WorldBuilding):
    """In-memory Discord: an aiohttp app for the bot, and a simulation API for tests.

    The real discord.py client logs into this server (`fake_discord.point_discord_py_at`),
    and tests drive it through the user simulation (`slash`, `click`, `select`,
    `submit_modal`, ...). Everything is in memory; every state change wakes `wait_for`
    waiters, so tests never sleep. Rejected calls answer with a Discord-style JSON error and
    are recorded in `errors` so a test can assert that none happened.

    The parts: `gateway` (sessions), `store` (messages), `registry` (commands), `traffic`
    (what the bot sent), `faults` (injected failures), `clock`; settings are described on
    `FakeCore`.
    """

    _runner: web.AppRunner | None = None

    @property
    def sessions(self) -> dict[str, GatewaySession]:
        return self.gateway.sessions

    def drop_session(self, session_id: str | None) -> None:
        """Cut a gateway connection abruptly (as if the bot process died)."""
        self.gateway.drop_session(session_id)

    def _live_sessions(self) -> list[GatewaySession]:
        return self.gateway.live_sessions()

    async def click_for_private(
        self, user: FakeUser, message: FakeMessage, button: Button, timeout: float = 10.0
    ) -> FakeMessage:
        """Click a button answered privately; return the answer once drawn: the ephemeral
        message the answer itself posted (at once, or deferred and then completed), the click's
        first ephemeral follow-up, or, when the answer posted nothing, one of the user's
        ephemeral messages in that channel brought up to date in place (a bot may keep one live
        private message per user). An answer that posted a private message is that message,
        even while it is still loading: an older private message edited meanwhile (one the bot
        keeps current as the game moves) is not the answer."""
        mine = [m for m in self.visible_messages(user, message.channel_id) if m.is_ephemeral]
        edits = {m.id: m.edit_count for m in mine}
        itx = await self.click(user, message, button)
        response = await itx.response(timeout)
        posted = response.message if response.type in (CB_MESSAGE, CB_DEFERRED_MESSAGE) else None

        def shown() -> FakeMessage | None:
            if itx.followups:
                return itx.followups[0]
            if posted is not None and posted.is_ephemeral:
                return None if posted.is_loading else posted
            return next((m for m in mine if m.edit_count > edits[m.id]), None)

        answer = await self.wait_for(shown, timeout, "the private answer")
        await self.wait_for(lambda: not answer.is_loading, timeout, "the private answer drawn")
        return answer

    async def start(self, port: int = 0, *, host: str = LOOPBACK_HOST) -> None:
        """Serve on `host:port` (port 0: any free one). Only loopback by default: another
        host exposes the fake to the network, which is logged as a warning."""
        if not is_loopback(host):
            log.warning("fake Discord listening on %s: reachable from the network", host)
        self.host = host
        self.app = build_app(self)
        self._runner = web.AppRunner(self.app, access_log=None, shutdown_timeout=0.1)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[attr-defined]
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]

    async def stop(self) -> None:
        for itx in self.interactions.values():
            if itx._deadline_handle is not None:
                itx._deadline_handle.cancel()
        self.gateway.drop_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
