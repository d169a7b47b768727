"""The playground's web server: the page, its assets, the bot's pictures, a small JSON API that
acts through the fake's own user simulation (so every limit and the 3-second deadline apply),
and the live socket.

Requests must come from this machine's page: a Host that is not a loopback name is refused
(unless the server was opened to the network on purpose), and so is a request from another
origin."""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Any

from aiohttp import web

from bot.playground.commandline import (
    AutocompleteAsk,
    CommandError,
    Suggestion,
    parse,
    suggest,
)
from bot.playground.live import LiveHub
from bot.playground.render import PageRenderer
from bot.playground.world import PlaygroundWorld
from fake_discord import FakeChannel, FakeInteraction, FakeMessage, FakeUser
from fake_discord.commands import CommandRegistry
from fake_discord.constants import JSON

PAGE_SIZE = 50  # messages per load, as Discord's client asks for
ASSETS = {
    "playground.css": "text/css",
    "playground.js": "text/javascript",
    "icon.svg": "image/svg+xml",
}
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


class BadRequest(Exception):
    """A request the page should not have sent; the message says why."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def _loopback_host(host: str) -> bool:
    name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    name = name.strip("[]")
    if name in ("localhost", "localhost.localdomain"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _guard(local_only: bool) -> Any:
    @web.middleware
    async def guard(
        request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        if local_only and not _loopback_host(request.host):
            return web.Response(status=421, text="This playground answers on 127.0.0.1 only.")
        origin = request.headers.get("Origin")
        if origin is not None and origin.split("://", 1)[-1] != request.host:
            return web.Response(status=403, text="Requests from other sites are refused.")
        try:
            response = await handler(request)
        except BadRequest as exc:
            response = web.json_response({"ok": False, "error": str(exc)}, status=exc.status)
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        response.headers.setdefault("Cache-Control", "no-store")
        return response

    return guard


class PlaygroundApi:
    """The handlers: what the page reads, and what it does as one of the local people."""

    def __init__(self, world: PlaygroundWorld) -> None:
        self.world = world
        self.fake = world.fake
        self.renderer = PageRenderer(world)
        self.hub = LiveHub(world, self.renderer)
        package = resources.files("bot.playground") / "static"
        self.page = (package / "index.html").read_bytes()
        self.assets = {name: (package / name).read_bytes() for name in ASSETS}

    # ----- reading -----

    async def index(self, request: web.Request) -> web.Response:
        return web.Response(body=self.page, content_type="text/html", charset="utf-8")

    async def asset(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in self.assets:
            raise web.HTTPNotFound()
        return web.Response(body=self.assets[name], content_type=ASSETS[name], charset="utf-8")

    async def attachment(self, request: web.Request) -> web.Response:
        """A picture or file the bot uploaded (its bytes live in the fake)."""
        try:
            att = self.fake.attachments.get(int(request.match_info["attachment_id"]))
        except ValueError:
            att = None
        if att is None or att.filename != request.match_info["filename"]:
            raise web.HTTPNotFound()
        response = web.Response(
            body=att.data, content_type=att.content_type or "application/octet-stream"
        )
        response.headers["Cache-Control"] = "private, max-age=86400, immutable"
        return response

    async def state(self, request: web.Request) -> web.Response:
        fake = self.fake
        limit = fake.channel_rate_limit
        owner = self.world.guild.owner_id
        return web.json_response(
            {
                "guild": {"id": str(self.world.guild.id), "name": self.world.guild.name},
                "bot": fake.bot_user.display_name,
                "users": [
                    {
                        "id": str(u.id),
                        "name": u.display_name,
                        "owner": u.id == owner,
                    }
                    for u in self.world.users
                ],
                "channels": self.renderer.channels(),
                "limits": {
                    "ack_timeout": fake.ack_timeout,
                    "channel_writes": list(limit) if limit else None,
                },
                "notices": list(self.hub.notices),
            }
        )

    async def messages(self, request: web.Request) -> web.Response:
        """The newest messages of a channel as one person sees them (`before` pages back)."""
        user = self._user(request.query.get("user"))
        channel = self._channel(request.query.get("channel"))
        visible = self.fake.visible_messages(user, channel)
        before = request.query.get("before")
        if before is not None:
            cut = _id(before, "before")
            visible = [m for m in visible if m.id < cut]
        page = visible[-PAGE_SIZE:]
        return web.json_response(
            {
                "messages": [self.renderer.message(m) for m in page],
                "more": len(visible) > len(page),
            }
        )

    async def suggestions(self, request: web.Request) -> web.Response:
        user = self._user(request.query.get("user"))
        channel = self._channel(request.query.get("channel"))
        text = request.query.get("text", "")
        found = suggest(text, self._commands(user, channel), self.world)
        if isinstance(found, AutocompleteAsk):
            found, hint = await self._autocomplete(user, channel, found)
        else:
            hint = None
        items = [{"label": s.label, "detail": s.detail, "text": s.text} for s in found]
        return web.json_response({"items": items, "hint": hint})

    async def _autocomplete(
        self, user: FakeUser, channel: FakeChannel, ask: AutocompleteAsk
    ) -> tuple[list[Suggestion], str | None]:
        """Ask the bot, as Discord's client does while someone types into the option."""
        try:
            itx = await self.fake.autocomplete(user, channel, ask.path, ask.options, ask.focused)
        except AssertionError as exc:
            return [], str(exc)
        if not await self._answered(itx):
            return [], "The bot did not answer the autocomplete in time."
        choices = itx.autocomplete_choices or []
        return [
            Suggestion(str(c["value"]), str(c["name"]), f"{ask.prefix}{c['value']} ")
            for c in choices
        ], None

    # ----- acting -----

    async def slash(self, request: web.Request) -> web.Response:
        body = await _body(request)
        user = self._user(body.get("user"))
        channel = self._channel(body.get("channel"))
        try:
            parsed = parse(str(body.get("text", "")), self._commands(user, channel), self.world)
        except CommandError as exc:
            raise BadRequest(str(exc)) from None
        return await self._act(self.fake.slash(user, channel, parsed.path, parsed.options))

    async def click(self, request: web.Request) -> web.Response:
        body = await _body(request)
        user = self._user(body.get("user"))
        message = self._message(body.get("message"), user)
        custom_id = str(body.get("custom_id", ""))
        return await self._act(self.fake.click(user, message, custom_id))

    async def select(self, request: web.Request) -> web.Response:
        body = await _body(request)
        user = self._user(body.get("user"))
        message = self._message(body.get("message"), user)
        values = body.get("values")
        if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            raise BadRequest("values must be a list of option values")
        custom_id = str(body.get("custom_id", ""))
        return await self._act(self.fake.select(user, message, custom_id, values))

    async def submit(self, request: web.Request) -> web.Response:
        body = await _body(request)
        user = self._user(body.get("user"))
        opener = self.fake.interactions.get(_id(body.get("interaction"), "interaction"))
        if opener is None or opener.modal is None or opener.user.id != user.id:
            raise BadRequest("That form is not open for this person.", 404)
        values = body.get("values")
        if not isinstance(values, dict):
            raise BadRequest("values must map the form's fields to what was typed")
        clean: dict[str, str | list[str]] = {
            str(k): [str(x) for x in v] if isinstance(v, list) else str(v)
            for k, v in values.items()
        }
        return await self._act(self.fake.submit_modal(user, opener, clean))

    async def _act(self, started: Awaitable[FakeInteraction]) -> web.Response:
        """Run a user action through the fake and wait for the bot's first answer (at most
        the deadline): ok, a modal to show, or the failure Discord would show."""
        try:
            itx = await started
        except AssertionError as exc:  # what Discord's client would not let anyone send
            raise BadRequest(f"Discord would not send this: {exc}") from None
        if not await self._answered(itx):
            seconds = f"{self.fake.ack_timeout:g}"
            return web.json_response(
                {
                    "ok": False,
                    "failed": True,
                    "error": f"This interaction failed: the bot did not answer within {seconds} s.",
                }
            )
        result: JSON = {"ok": True}
        if itx.modal is not None:
            result["modal"] = self.renderer.modal(itx)
        return web.json_response(result)

    async def _answered(self, itx: FakeInteraction) -> bool:
        fake = self.fake
        try:
            await fake.wait_for(
                lambda: itx.status != "pending", fake.ack_timeout + 1.0, "the first answer"
            )
        except AssertionError:
            return False
        return itx.status == "acknowledged"

    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        user = self._user(request.query.get("user"))
        return await self.hub.serve(request, user.id)

    # ----- lookups -----

    def _commands(self, user: FakeUser, channel: FakeChannel) -> list[JSON]:
        """The commands this person is offered here (guild ones over global ones)."""
        registry = self.fake.registry
        merged = {
            **registry.commands.get(None, {}),
            **registry.commands.get(self.world.guild.id, {}),
        }
        return [
            cmd
            for cmd in merged.values()
            if CommandRegistry.member_may_use(cmd, self.world.guild, user.id, channel)
        ]

    def _user(self, raw: Any) -> FakeUser:
        user = self.world.user(_id(raw, "user"))
        if user is None:
            raise BadRequest("Unknown person: choose one of the playground's people.")
        return user

    def _channel(self, raw: Any) -> FakeChannel:
        channel = self.world.channel_by_id(_id(raw, "channel"))
        if channel is None or channel.deleted:
            raise BadRequest("Unknown channel.", 404)
        return channel

    def _message(self, raw: Any, user: FakeUser) -> FakeMessage:
        msg = self.fake.messages.get(_id(raw, "message"))
        if msg is None or msg.deleted or not msg.visible_to(user):
            raise BadRequest("That message is gone.", 404)
        if msg.guild_id != self.world.guild.id:
            raise BadRequest("Unknown message.", 404)
        return msg


API_KEY = web.AppKey("api", PlaygroundApi)


def _id(raw: Any, what: str) -> int:
    try:
        return int(str(raw))
    except ValueError:
        raise BadRequest(f"{what} must be an id") from None


async def _body(request: web.Request) -> dict[str, Any]:
    if request.content_type != "application/json":
        raise BadRequest("Send JSON.", 415)
    try:
        body = await request.json()
    except json.JSONDecodeError:
        raise BadRequest("Send JSON.") from None
    if not isinstance(body, dict):
        raise BadRequest("Send a JSON object.")
    return body


def build_app(world: PlaygroundWorld, *, local_only: bool = True) -> web.Application:
    """The page and its API over `world`; `local_only` refuses requests addressed to any
    host but this machine."""
    app = web.Application(middlewares=[_guard(local_only)], client_max_size=256 * 1024)
    api = PlaygroundApi(world)
    app[API_KEY] = api
    r = app.router
    r.add_get("/", api.index)
    r.add_get("/static/{name}", api.asset)
    r.add_get("/attachments/{attachment_id}/{filename}", api.attachment)
    r.add_get("/api/state", api.state)
    r.add_get("/api/messages", api.messages)
    r.add_get("/api/suggest", api.suggestions)
    r.add_post("/api/slash", api.slash)
    r.add_post("/api/click", api.click)
    r.add_post("/api/select", api.select)
    r.add_post("/api/modal", api.submit)
    r.add_get("/ws", api.socket)

    async def close_sockets(app: web.Application) -> None:
        await api.hub.close()

    app.on_shutdown.append(close_sockets)
    return app
