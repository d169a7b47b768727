"""Dispatching an interaction to the bot as Discord does: the INTERACTION_CREATE payload
(member, permissions, locale, guild_locale), a token, and the 3-second deadline."""

from __future__ import annotations

import asyncio
import time

from fake_discord.channels import FakeChannel
from fake_discord.constants import DEFAULT_BOT_PERMISSIONS, JSON, OP_DISPATCH
from fake_discord.core import FakeCore
from fake_discord.interactions import FakeInteraction
from fake_discord.messages import FakeMessage
from fake_discord.users import FakeUser
from fake_discord.world import check_locale


class InteractionDispatch(FakeCore):
    """The common step of every simulated user action that the bot must answer."""

    async def _dispatch_interaction(
        self,
        itype: int,
        user: FakeUser,
        channel: FakeChannel,
        data: JSON,
        *,
        message: FakeMessage | None = None,
        command_name: str = "",
        locale: str | None = None,
    ) -> FakeInteraction:
        if channel.deleted:
            raise AssertionError(f"channel {channel.id} was deleted: nobody can use it")
        guild = self.guild_of(channel)
        session = self.gateway.target_session(guild.id if guild else None)
        self.forget_expired()
        iid = self.snowflake()
        token = f"itx-token-{iid}"
        user_locale = check_locale(locale or user.locale)
        payload: JSON = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "channel_id": str(channel.id),
            "channel": channel.to_payload(),
            "token": token,
            "version": 1,
            "locale": user_locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": 10 * 1024 * 1024,
            "context": 0 if guild else 1,
        }
        if guild is not None:
            member = guild.members.get(user.id)
            if member is None:
                raise AssertionError(f"{user.username} is not a member of {guild.name}")
            payload["guild_id"] = str(guild.id)
            payload["guild"] = {
                "id": str(guild.id),
                "locale": guild.preferred_locale,
                "features": [],
            }
            payload["guild_locale"] = guild.preferred_locale
            payload["member"] = {
                **member.to_payload(),
                "permissions": str(guild.permissions_for(user.id, channel)),
            }
            payload["app_permissions"] = str(guild.permissions_for(self.bot_user.id, channel))
            payload["authorizing_integration_owners"] = {"0": str(guild.id)}
        else:
            payload["user"] = user.to_payload()
            payload["app_permissions"] = str(DEFAULT_BOT_PERMISSIONS)
            payload["authorizing_integration_owners"] = {"1": str(user.id)}
        if message is not None:
            payload["message"] = message.to_payload()
        itx = FakeInteraction(
            id=iid,
            token=token,
            type=itype,
            user=user,
            channel_id=channel.id,
            guild_id=guild.id if guild else None,
            payload=payload,
            dispatched_at=0.0,
            fake=self,
            command_name=command_name,
            source_message=message,
            locale=user_locale,
            created_at=self.now(),
        )
        self.interactions[iid] = itx
        self._itx_by_token[token] = itx
        itx.dispatched_at = time.perf_counter()
        loop = asyncio.get_running_loop()
        itx._deadline_handle = loop.call_later(self.ack_timeout, self._ack_deadline_passed, itx)
        await session.send({"op": OP_DISPATCH, "t": "INTERACTION_CREATE", "d": payload})
        return itx
