"""The gateway: one websocket session per connected bot, zlib-stream frames, IDENTIFY/READY,
GUILD_CREATE for every guild, and dispatching events to live sessions.

Sharding as Discord does it: a session that identified as shard ``[shard_id, shard_count]``
hears only of the guilds with ``(guild_id >> 22) % shard_count == shard_id`` (direct messages:
shard 0), and only it receives those guilds' events and interactions. A session that sent no
shard is shard ``[0, 1]``: every guild."""

from __future__ import annotations

import asyncio
import json
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from fake_discord.clock import iso
from fake_discord.constants import (
    JSON,
    OP_DISPATCH,
    OP_HEARTBEAT,
    OP_HEARTBEAT_ACK,
    OP_HELLO,
    OP_IDENTIFY,
    OP_INVALID_SESSION,
    OP_REQUEST_MEMBERS,
    OP_RESUME,
)
from fake_discord.guilds import FakeGuild

if TYPE_CHECKING:
    from fake_discord.state import FakeState


# Discord's heartbeat ACK comes back over a network, tens of milliseconds later. An instant one
# can reach discord.py before its keep-alive thread has noted when it sent the heartbeat: it
# then measures the latency from the heartbeat before (one whole interval, about 41 s) and warns
# "Can't keep up ... 41.3s behind" though the loop was never held.
HEARTBEAT_ACK_DELAY = 0.25


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends a guild's events to."""
    return (guild_id >> 22) % shard_count


def valid_shard(shard: Any) -> bool:
    """An IDENTIFY shard field Discord accepts: [shard_id, shard_count], 0 <= id < count."""
    if not isinstance(shard, list) or len(shard) != 2:
        return False
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in shard):
        return False
    shard_id, count = shard
    return bool(0 <= shard_id < count)


@dataclass(eq=False)
class GatewaySession:
    session_id: str
    ws: web.WebSocketResponse
    request: web.Request
    compress: bool
    intents: int = 0
    shard: list[int] | None = None
    seq: int = 0
    ready: bool = False
    alive: bool = True
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    zctx: Any = field(default_factory=zlib.compressobj)
    connected_at: float = field(default_factory=time.perf_counter)

    def handles(self, guild_id: int | None) -> bool:
        """Whether Discord sends this guild's events here (None: a direct message)."""
        if not self.shard:
            return True
        shard_id, count = self.shard
        if guild_id is None:
            return bool(shard_id == 0)
        return bool(shard_of(guild_id, count) == shard_id)

    async def send(self, payload: JSON) -> None:
        # One lock so zlib-stream chunks and sequence numbers stay in order.
        async with self.lock:
            if not self.alive or self.ws.closed:
                return
            if payload["op"] == OP_DISPATCH:
                self.seq += 1
                payload["s"] = self.seq
            text = json.dumps(payload, separators=(",", ":"))
            try:
                if self.compress:
                    data = self.zctx.compress(text.encode()) + self.zctx.flush(zlib.Z_SYNC_FLUSH)
                    await self.ws.send_bytes(data)
                else:
                    await self.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                self.alive = False


class Gateway:
    """The fake's gateway endpoint and its sessions."""

    def __init__(self, fake: FakeState) -> None:
        self.fake = fake
        self.sessions: dict[str, GatewaySession] = {}
        self.ack_delay = HEARTBEAT_ACK_DELAY
        self._acks: set[asyncio.Task[None]] = set()

    def live_sessions(self) -> list[GatewaySession]:
        return [s for s in self.sessions.values() if s.alive and s.ready and not s.ws.closed]

    def target_session(self, guild_id: int | None = None) -> GatewaySession:
        """The session a guild's interactions go to: the (newest) connected one on its shard."""
        live = [s for s in self.live_sessions() if s.handles(guild_id)]
        if not live:
            if self.live_sessions():
                raise AssertionError(
                    f"no bot is connected on the shard of guild {guild_id}: nobody receives it"
                )
            raise AssertionError("no bot is connected to the fake gateway")
        return max(live, key=lambda s: s.connected_at)

    async def broadcast(
        self,
        event: str,
        make: Callable[[GatewaySession], JSON],
        *,
        guild_id: int | None,
        intent: int | None = None,
    ) -> None:
        """Send an event of this guild (None: a direct message) to the sessions on its shard."""
        for session in self.live_sessions():
            if session.handles(guild_id) and (intent is None or session.intents & intent):
                await session.send({"op": OP_DISPATCH, "t": event, "d": make(session)})

    def drop_session(self, session_id: str | None) -> None:
        """Cut a gateway connection abruptly (as if the bot process died)."""
        if session_id is None:
            return
        session = self.sessions.pop(session_id, None)
        if session is None:
            return
        session.alive = False
        transport = session.request.transport
        if transport is not None:
            transport.abort()
        self.fake._notify()

    def drop_all(self) -> None:
        for session in list(self.sessions.values()):
            self.drop_session(session.session_id)

    async def handle(self, request: web.Request) -> web.StreamResponse:
        if request.query.get("encoding", "json") != "json":
            raise web.HTTPBadRequest(text="fake only speaks JSON")
        ws = web.WebSocketResponse(compress=False, max_msg_size=0, autoping=True)
        await ws.prepare(request)
        session = GatewaySession(
            session_id=f"session-{self.fake.snowflake()}",
            ws=ws,
            request=request,
            # zstd-stream is not implemented: falling back to plain text frames, which
            # discord.py accepts as well.
            compress=request.query.get("compress") == "zlib-stream",
        )
        await session.send(
            {"op": OP_HELLO, "d": {"heartbeat_interval": 41250}, "s": None, "t": None}
        )
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                await self._op(session, json.loads(msg.data))
        except ConnectionError:
            pass
        finally:
            session.alive = False
            if self.sessions.get(session.session_id) is session:
                del self.sessions[session.session_id]
            self.fake._notify()
        return ws

    async def _ack(self, session: GatewaySession) -> None:
        await asyncio.sleep(self.ack_delay)
        await session.send({"op": OP_HEARTBEAT_ACK, "d": None, "s": None, "t": None})

    async def _op(self, session: GatewaySession, msg: JSON) -> None:
        op: Any = msg.get("op")
        data: Any = msg.get("d")
        if op == OP_HEARTBEAT:  # answered a network's time later, meanwhile the session goes on
            ack = asyncio.get_running_loop().create_task(self._ack(session))
            self._acks.add(ack)
            ack.add_done_callback(self._acks.discard)
        elif op == OP_IDENTIFY:
            if data["token"] != self.fake.token:
                await session.ws.close(code=4004, message=b"Authentication failed.")
                return
            session.intents = int(data.get("intents", 0))
            shard = data.get("shard")  # sharded clients identify as [id, count]
            if shard is not None and not valid_shard(shard):
                await session.ws.close(code=4010, message=b"Invalid shard.")
                return
            session.shard = [int(shard[0]), int(shard[1])] if shard is not None else None
            self.sessions[session.session_id] = session
            await session.send({"op": OP_DISPATCH, "t": "READY", "d": self.ready_payload(session)})
            session.ready = True
            for guild in self.fake.guilds.values():
                if not session.handles(guild.id):
                    continue
                await session.send(
                    {"op": OP_DISPATCH, "t": "GUILD_CREATE", "d": self.guild_payload(guild)}
                )
            self.fake._notify()
        elif op == OP_RESUME:
            # Sessions are not kept across connections: ask for a fresh IDENTIFY.
            await session.send({"op": OP_INVALID_SESSION, "d": False, "s": None, "t": None})
        elif op == OP_REQUEST_MEMBERS:
            wanted = self.fake.guilds.get(int(data["guild_id"]))
            if wanted is not None:
                chunk = {
                    "guild_id": str(wanted.id),
                    "members": [m.to_payload() for m in wanted.members.values()],
                    "chunk_index": 0,
                    "chunk_count": 1,
                    "not_found": [],
                    "nonce": data.get("nonce"),
                }
                await session.send({"op": OP_DISPATCH, "t": "GUILD_MEMBERS_CHUNK", "d": chunk})
        # OP_PRESENCE and others: ignored.

    def ready_payload(self, session: GatewaySession) -> JSON:
        fake = self.fake
        extra: JSON = {"shard": session.shard} if session.shard else {}
        return {
            **extra,
            "v": 10,
            "user": {**fake.bot_user.to_payload(), "verified": True, "mfa_enabled": False},
            "guilds": [
                {"id": str(g), "unavailable": True} for g in fake.guilds if session.handles(g)
            ],
            "session_id": session.session_id,
            "resume_gateway_url": fake.gateway_url,
            "application": {"id": str(fake.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "_trace": ["fake-discord"],
        }

    def guild_payload(self, guild: FakeGuild) -> JSON:
        """A guild as GUILD_CREATE sends it (members, channels, active threads included)."""
        channels = [c for c in guild.channels.values() if not c.is_thread]
        threads = [c for c in guild.channels.values() if c.is_thread and not c.archived]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(guild.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": guild.preferred_locale,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "features": [],
            "emojis": [],
            "stickers": [],
            "roles": [r.to_payload() for r in guild.roles.values()],
            "joined_at": iso(self.fake.clock.time()),
            "large": False,
            "unavailable": False,
            "member_count": len(guild.members),
            "members": [m.to_payload() for m in guild.members.values()],
            "channels": [c.to_payload() for c in channels],
            "threads": [c.to_payload() for c in threads],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }
