"""REST routes of guilds (the guild, its channels, members and roles) and the attachment
downloads the fake serves in place of Discord's CDN."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import web

from fake_discord.errors import DiscordHTTPError
from fake_discord.guilds import FakeGuild
from fake_discord.rest.http import json_response

if TYPE_CHECKING:
    from fake_discord.world import WorldBuilding


class GuildRoutes:
    def __init__(self, fake: WorldBuilding) -> None:
        self.fake = fake

    def register(self, r: web.UrlDispatcher, a: str) -> None:
        r.add_get(f"{a}/guilds/{{guild_id:\\d+}}", self.get_guild)
        r.add_get(f"{a}/guilds/{{guild_id:\\d+}}/channels", self.get_guild_channels)
        r.add_get(f"{a}/guilds/{{guild_id:\\d+}}/members/{{user_id:\\d+}}", self.get_member)
        r.add_get(f"{a}/guilds/{{guild_id:\\d+}}/roles", self.get_roles)
        r.add_get("/attachments/{att_id:\\d+}/{filename}", self.download_attachment)

    def _guild(self, request: web.Request) -> FakeGuild:
        guild = self.fake.guilds.get(int(request.match_info["guild_id"]))
        if guild is None:
            raise DiscordHTTPError(404, 10004, "Unknown Guild")
        return guild

    async def get_guild(self, request: web.Request) -> web.Response:
        payload = self.fake.gateway.guild_payload(self._guild(request))
        for key in ("members", "channels", "threads", "voice_states", "presences"):
            payload.pop(key)
        return json_response(payload)

    async def get_guild_channels(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        return json_response([c.to_payload() for c in guild.channels.values() if not c.is_thread])

    async def get_member(self, request: web.Request) -> web.Response:
        member = self._guild(request).members.get(int(request.match_info["user_id"]))
        if member is None:
            raise DiscordHTTPError(404, 10007, "Unknown Member")
        return json_response(member.to_payload())

    async def get_roles(self, request: web.Request) -> web.Response:
        return json_response([r.to_payload() for r in self._guild(request).roles.values()])

    async def download_attachment(self, request: web.Request) -> web.Response:
        att = self.fake.attachments.get(int(request.match_info["att_id"]))
        if att is None:
            raise DiscordHTTPError(404, 0, "404: Not Found")
        return web.Response(body=att.data, content_type=att.content_type)
