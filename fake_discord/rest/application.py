"""REST routes of the session and the application: gateway discovery, users and DMs, the
application itself and its commands (validated, ids kept across syncs)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import web

from fake_discord.errors import DiscordHTTPError, FormErrors
from fake_discord.rest.http import json_response, read_body
from fake_discord.validation import command_errors, commands_errors

if TYPE_CHECKING:
    from fake_discord.world import WorldBuilding


class ApplicationRoutes:
    def __init__(self, fake: WorldBuilding) -> None:
        self.fake = fake

    def register(self, r: web.UrlDispatcher, a: str) -> None:
        r.add_get(f"{a}/gateway", self.get_gateway)
        r.add_get(f"{a}/gateway/bot", self.get_gateway_bot)
        r.add_get(f"{a}/users/@me", self.get_me)
        r.add_get(f"{a}/users/{{user_id:\\d+}}", self.get_user)
        r.add_post(f"{a}/users/@me/channels", self.create_dm)
        r.add_get(f"{a}/applications/@me", self.get_application)
        r.add_get(f"{a}/oauth2/applications/@me", self.get_application)
        cmds = f"{a}/applications/{{app_id}}/commands"
        gcmds = f"{a}/applications/{{app_id}}/guilds/{{guild_id}}/commands"
        for base in (cmds, gcmds):
            r.add_get(base, self.get_commands)
            r.add_put(base, self.put_commands)
            r.add_post(base, self.post_command)
            r.add_get(base + "/{command_id:\\d+}", self.get_command)
            r.add_patch(base + "/{command_id:\\d+}", self.patch_command)
            r.add_delete(base + "/{command_id:\\d+}", self.delete_command)

    async def get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.fake.gateway_url})

    async def get_gateway_bot(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "url": self.fake.gateway_url,
                "shards": self.fake.shards,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def get_me(self, request: web.Request) -> web.Response:
        me = self.fake.bot_user.to_payload()
        return json_response({**me, "verified": True, "mfa_enabled": False})

    async def get_user(self, request: web.Request) -> web.Response:
        user = self.fake.users.get(int(request.match_info["user_id"]))
        if user is None:
            raise DiscordHTTPError(404, 10013, "Unknown User")
        return json_response(user.to_payload())

    async def create_dm(self, request: web.Request) -> web.Response:
        body, _ = await read_body(request)
        user = self.fake.users.get(int(body["recipient_id"]))
        if user is None:
            raise DiscordHTTPError(404, 10013, "Unknown User")
        return json_response(self.fake.dm_channel(user).to_payload())

    async def get_application(self, request: web.Request) -> web.Response:
        fake = self.fake
        return json_response(
            {
                "id": str(fake.application_id),
                "name": fake.bot_user.username,
                "icon": None,
                "description": "fake application",
                "summary": "",
                "type": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "flags": 0,
                "owner": fake.owner_user.to_payload(),
                "team": None,
                "bot": fake.bot_user.to_payload(),
                "interactions_endpoint_url": None,
                "install_params": None,
                "integration_types_config": {"0": {}},
                "tags": [],
                "redirect_uris": [],
                "approximate_guild_count": len(fake.guilds),
            }
        )

    # ----- commands -----

    def _scope(self, request: web.Request) -> int | None:
        if request.match_info["app_id"] != str(self.fake.application_id):
            raise DiscordHTTPError(403, 50001, "Missing Access")
        gid = request.match_info.get("guild_id")
        if gid is None:
            return None
        if int(gid) not in self.fake.guilds:
            raise DiscordHTTPError(404, 10004, "Unknown Guild")
        return int(gid)

    async def get_commands(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        return json_response(list(self.fake.commands.get(scope, {}).values()))

    async def put_commands(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        body, _ = await read_body(request)
        cmds = body.get("_list", [])
        commands_errors(cmds).raise_if_any()
        stored = self.fake.registry.replace_all(scope, cmds)
        self.fake._notify()
        return json_response(stored)

    async def post_command(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        body, _ = await read_body(request)
        errors = FormErrors()
        command_errors(body, errors, [])
        errors.raise_if_any()
        stored = self.fake.registry.store(scope, body)
        self.fake._notify()
        return json_response(stored, 201)

    async def get_command(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        return json_response(self.fake.registry.by_id(scope, request.match_info["command_id"]))

    async def patch_command(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        body, _ = await read_body(request)
        command_id = request.match_info["command_id"]
        merged = {**self.fake.registry.by_id(scope, command_id), **body}
        errors = FormErrors()
        command_errors(merged, errors, [])
        errors.raise_if_any()
        stored = self.fake.registry.update(scope, command_id, body)
        self.fake._notify()
        return json_response(stored)

    async def delete_command(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        self.fake.registry.delete(scope, request.match_info["command_id"])
        self.fake._notify()
        return web.Response(status=204)
