"""REST routes that answer interactions: the callback (the first answer, within 3 s, once) and
the interaction webhook (followups, and edits and deletes of the original and of followups,
ephemeral ones included, while the 15-minute token lasts)."""

from __future__ import annotations

import copy
import time
from typing import TYPE_CHECKING

from aiohttp import web

from fake_discord.channels import FakeChannel
from fake_discord.components import assign_component_ids
from fake_discord.constants import (
    CB_AUTOCOMPLETE,
    CB_DEFERRED_MESSAGE,
    CB_DEFERRED_UPDATE,
    CB_MESSAGE,
    CB_MODAL,
    CB_UPDATE_MESSAGE,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    ITX_APPLICATION_COMMAND,
    ITX_AUTOCOMPLETE,
    ITX_MESSAGE_COMPONENT,
    ITX_MODAL_SUBMIT,
    JSON,
)
from fake_discord.errors import DiscordHTTPError, FormErrors
from fake_discord.interactions import FakeInteraction, FakeModal
from fake_discord.messages import FakeMessage
from fake_discord.rest.http import json_response, read_body
from fake_discord.validation import modal_errors

if TYPE_CHECKING:
    from fake_discord.world import WorldBuilding

ALL_UPDATES = {CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE_MESSAGE, CB_MODAL}


def _truthy(value: str | None) -> bool:
    return value in ("1", "true", "True")


class InteractionRoutes:
    def __init__(self, fake: WorldBuilding) -> None:
        self.fake = fake

    def register(self, r: web.UrlDispatcher, a: str) -> None:
        r.add_post(f"{a}/interactions/{{itx_id}}/{{token}}/callback", self.callback)
        hook = f"{a}/webhooks/{{app_id}}/{{token}}"
        r.add_post(hook, self.webhook_execute)
        r.add_get(hook + "/messages/{message_id}", self.webhook_get_message)
        r.add_patch(hook + "/messages/{message_id}", self.webhook_edit_message)
        r.add_delete(hook + "/messages/{message_id}", self.webhook_delete_message)

    def _channel_of(self, itx: FakeInteraction) -> FakeChannel:
        channel = self.fake.channels.get(itx.channel_id)
        if channel is None:
            raise DiscordHTTPError(404, 10003, "Unknown Channel")
        return channel

    # ----- the callback -----

    async def callback(self, request: web.Request) -> web.Response:
        fake = self.fake
        arrived = time.perf_counter()
        itx = fake.interactions.get(int(request.match_info["itx_id"]))
        if itx is None or itx.token != request.match_info["token"]:
            raise DiscordHTTPError(404, 10062, "Unknown interaction")
        body, files = await read_body(request)
        if itx.response_type is not None:
            raise DiscordHTTPError(400, 40060, "Interaction has already been acknowledged.")
        late = arrived - itx.dispatched_at > fake.ack_timeout
        if itx.status == "failed" or late:
            if itx.status == "pending":
                fake._ack_deadline_passed(itx)
            if fake.reject_late_acks:
                raise DiscordHTTPError(404, 10062, "Unknown interaction")
        cb_type = int(body.get("type", 0))
        data: JSON = body.get("data") or {}
        self._check_callback_type(itx, cb_type)
        message = await self._respond(itx, cb_type, data, files)
        if itx._deadline_handle is not None:
            itx._deadline_handle.cancel()
        if itx.status == "pending":
            itx.status = "acknowledged"
        itx.acknowledged_at = arrived
        itx.response_type = cb_type
        itx.response_data = data
        fake._notify()
        if message is not None and cb_type in (CB_MESSAGE, CB_UPDATE_MESSAGE):
            event = "MESSAGE_CREATE" if cb_type == CB_MESSAGE else "MESSAGE_UPDATE"
            await fake.store.dispatch(event, message)
        if not _truthy(request.query.get("with_response")):
            return web.Response(status=204)
        itx_info: JSON = {"id": str(itx.id), "type": itx.type}
        if message is not None and cb_type != CB_DEFERRED_UPDATE:
            itx_info.update(
                response_message_id=str(message.id),
                response_message_loading=cb_type == CB_DEFERRED_MESSAGE,
                response_message_ephemeral=message.is_ephemeral,
            )
        result: JSON = {"interaction": itx_info}
        if message is not None and cb_type in (CB_MESSAGE, CB_UPDATE_MESSAGE):
            result["resource"] = {"type": cb_type, "message": message.to_payload()}
        return json_response(result)

    @staticmethod
    def _check_callback_type(itx: FakeInteraction, cb_type: int) -> None:
        from_message = itx.source_message is not None
        allowed = {
            ITX_APPLICATION_COMMAND: {CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_MODAL},
            ITX_MESSAGE_COMPONENT: ALL_UPDATES,
            ITX_MODAL_SUBMIT: {CB_MESSAGE, CB_DEFERRED_MESSAGE}
            | ({CB_DEFERRED_UPDATE, CB_UPDATE_MESSAGE} if from_message else set()),
            ITX_AUTOCOMPLETE: {CB_AUTOCOMPLETE},
        }[itx.type]
        if cb_type not in allowed:
            errors = FormErrors()
            errors.add(
                ["type"],
                "INTERACTION_CALLBACK_TYPE_INVALID",
                f"Callback {cb_type} invalid for type {itx.type}",
            )
            errors.raise_if_any()

    async def _respond(
        self, itx: FakeInteraction, cb_type: int, data: JSON, files: list[tuple[str, bytes]]
    ) -> FakeMessage | None:
        """Apply the callback; the message it created or updated, if any."""
        fake = self.fake
        store = fake.store
        flags = int(data.get("flags") or 0)
        ephemeral_to = itx.user.id if flags & FLAG_EPHEMERAL else None
        msg_type = 20 if itx.type == ITX_APPLICATION_COMMAND else 0
        if cb_type == CB_MESSAGE:
            message = store.build(
                self._channel_of(itx),
                data,
                files,
                ephemeral_to=ephemeral_to,
                interaction=itx,
                type=msg_type,
            )
            itx.original = message
            store.record("create", message, "callback")
            return message
        if cb_type == CB_DEFERRED_MESSAGE:
            message = store.store(
                self._channel_of(itx),
                fake.bot_user,
                flags=FLAG_LOADING | (flags & FLAG_EPHEMERAL),
                type=msg_type,
                ephemeral_to=ephemeral_to,
                interaction=itx,
                webhook_id=fake.application_id,
            )
            itx.original = message
            return message
        if cb_type in (CB_DEFERRED_UPDATE, CB_UPDATE_MESSAGE):
            assert itx.source_message is not None
            message = fake.messages[itx.source_message.id]
            if message.deleted:
                raise DiscordHTTPError(404, 10008, "Unknown Message")
            if cb_type == CB_UPDATE_MESSAGE:
                store.apply_edit(message, data, files)
                store.record("edit", message, "callback")
            itx.original = message
            return message
        if cb_type == CB_MODAL:
            modal_errors(data).raise_if_any()
            components = copy.deepcopy(data.get("components") or [])
            assign_component_ids(components)
            itx.modal = FakeModal(data["custom_id"], data["title"], components, itx)
            return None
        choices = data.get("choices") or []
        if len(choices) > 25:
            errors = FormErrors()
            errors.add(["choices"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
            errors.raise_if_any()
        itx.autocomplete_choices = choices
        return None

    # ----- the interaction webhook -----

    def _webhook_itx(self, request: web.Request) -> FakeInteraction:
        """The interaction of the token: 401 Invalid Webhook Token once `token_ttl` passed."""
        fake = self.fake
        if request.match_info["app_id"] != str(fake.application_id):
            raise DiscordHTTPError(404, 10015, "Unknown Webhook")
        itx = fake._itx_by_token.get(request.match_info["token"])
        if itx is None or fake.now() - itx.created_at > fake.token_ttl:
            raise DiscordHTTPError(401, 50027, "Invalid Webhook Token")
        if itx.status != "acknowledged":
            raise DiscordHTTPError(404, 10015, "Unknown Webhook")
        return itx

    def _webhook_message(self, request: web.Request, itx: FakeInteraction) -> FakeMessage:
        """`@original` or a message this token sent (its followups, ephemeral ones too)."""
        mid = request.match_info["message_id"]
        app_id = self.fake.application_id
        if mid == "@original":
            msg = itx.original
        else:
            found = self.fake.messages.get(int(mid)) if mid.isdigit() else None
            own = {m.id for m in itx.followups} | ({itx.original.id} if itx.original else set())
            # Another interaction's ephemeral message is private to that token.
            if found is not None and found.id not in own and not self._shared(found, app_id):
                found = None
            msg = found
        if msg is None or msg.deleted:
            raise DiscordHTTPError(404, 10008, "Unknown Message")
        return msg

    @staticmethod
    def _shared(msg: FakeMessage, app_id: int) -> bool:
        return msg.ephemeral_to is None and msg.webhook_id == app_id

    async def webhook_execute(self, request: web.Request) -> web.Response:
        fake = self.fake
        itx = self._webhook_itx(request)
        body, files = await read_body(request)
        channel = self._channel_of(itx)
        original = itx.original
        if original is not None and original.is_loading:
            # Discord: the first followup after a deferred response *becomes* the original
            # response (and keeps the deferral's visibility).
            edit = {**body, "flags": int(body.get("flags") or 0) & ~FLAG_EPHEMERAL}
            fake.store.apply_edit(original, edit, files)
            original.allowed_mentions = body.get("allowed_mentions")
            msg = original
        else:
            flags = int(body.get("flags") or 0)
            msg = fake.store.build(
                channel,
                body,
                files,
                interaction=itx,
                ephemeral_to=itx.user.id if flags & FLAG_EPHEMERAL else None,
            )
        fake.store.record("create", msg, "webhook")
        itx.followups.append(msg)
        fake._notify()
        await fake.store.dispatch("MESSAGE_CREATE", msg)
        if _truthy(request.query.get("wait")):
            return json_response(msg.to_payload())
        return web.Response(status=204)

    async def webhook_get_message(self, request: web.Request) -> web.Response:
        itx = self._webhook_itx(request)
        return json_response(self._webhook_message(request, itx).to_payload())

    async def webhook_edit_message(self, request: web.Request) -> web.Response:
        fake = self.fake
        itx = self._webhook_itx(request)
        msg = self._webhook_message(request, itx)
        self._channel_of(itx)
        body, files = await read_body(request)
        was_loading = msg.is_loading
        fake.store.apply_edit(msg, body, files)
        if was_loading:  # filling a deferred placeholder is when the message really "sends"
            msg.allowed_mentions = body.get("allowed_mentions")
        fake.store.record("create" if was_loading else "edit", msg, "webhook")
        await fake.store.dispatch("MESSAGE_CREATE" if was_loading else "MESSAGE_UPDATE", msg)
        return json_response(msg.to_payload())

    async def webhook_delete_message(self, request: web.Request) -> web.Response:
        itx = self._webhook_itx(request)
        msg = self._webhook_message(request, itx)
        self._channel_of(itx)
        await self.fake.store.delete(msg, "webhook")
        return web.Response(status=204)
