"""User simulation of components: clicking buttons, picking select options, submitting
modals (refused the way Discord's client refuses them) and typing plain messages."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from fake_discord.channels import FakeChannel
from fake_discord.components import Button
from fake_discord.constants import (
    C_ACTION_ROW,
    C_BUTTON,
    C_LABEL,
    C_STRING_SELECT,
    C_TEXT_DISPLAY,
    C_TEXT_INPUT,
    ITX_MESSAGE_COMPONENT,
    ITX_MODAL_SUBMIT,
    JSON,
)
from fake_discord.dispatch import InteractionDispatch
from fake_discord.interactions import FakeInteraction, FakeModal
from fake_discord.messages import FakeMessage
from fake_discord.users import FakeUser


class ComponentSimulation(InteractionDispatch):
    """`click`, `select`, `submit_modal` and `send_user_message`."""

    def _resolve_message(self, message: FakeMessage | int) -> FakeMessage:
        msg = self.messages[message] if isinstance(message, int) else message
        if msg.deleted:
            raise AssertionError(f"message {msg.id} was deleted")
        return msg

    def _message_channel(self, msg: FakeMessage) -> FakeChannel:
        channel = self.channels.get(msg.channel_id) or self.deleted_channels[msg.channel_id]
        return channel

    async def _component_interaction(
        self, user: FakeUser, msg: FakeMessage, data: JSON, locale: str | None
    ) -> FakeInteraction:
        channel = self._message_channel(msg)
        return await self._dispatch_interaction(
            ITX_MESSAGE_COMPONENT, user, channel, data, message=msg, locale=locale
        )

    def _check_can_use(self, user: FakeUser, msg: FakeMessage) -> None:
        if not msg.visible_to(user):
            raise AssertionError(f"{user.username} cannot see message {msg.id} (ephemeral)")

    async def click(
        self,
        user: FakeUser,
        message: FakeMessage | int,
        custom_id: str | Button,
        *,
        force: bool = False,
        locale: str | None = None,
    ) -> FakeInteraction:
        """Click a button of the message's *current* version. A missing or disabled button
        raises AssertionError unless `force=True` (e.g. simulating a stale client)."""
        msg = self._resolve_message(message)
        cid = custom_id.custom_id if isinstance(custom_id, Button) else custom_id
        assert cid is not None, "link buttons cannot be clicked by the bot's tests"
        if not force:
            self._check_can_use(user, msg)
            button = msg.button(custom_id=cid)
            if button.disabled:
                raise AssertionError(f"button {cid!r} ({button.label}) is disabled")
        data = {"custom_id": cid, "component_type": C_BUTTON}
        return await self._component_interaction(user, msg, data, locale)

    async def select(
        self,
        user: FakeUser,
        message: FakeMessage | int,
        custom_id: str,
        values: Sequence[str],
        *,
        force: bool = False,
        locale: str | None = None,
    ) -> FakeInteraction:
        """Pick `values` (option values) in a string select of the message."""
        msg = self._resolve_message(message)
        if not force:
            self._check_can_use(user, msg)
            sel = msg.select(custom_id)
            if sel.disabled:
                raise AssertionError(f"select {custom_id!r} is disabled")
            if sel.type == C_STRING_SELECT:
                bad = [v for v in values if v not in sel.values]
                if bad:
                    raise AssertionError(f"values {bad} not among options {sel.values}")
            if not sel.min_values <= len(values) <= sel.max_values:
                raise AssertionError(
                    f"{len(values)} values outside [{sel.min_values}, {sel.max_values}]"
                )
        comp_type = msg.select(custom_id).type if not force else C_STRING_SELECT
        data = {"custom_id": custom_id, "component_type": comp_type, "values": list(values)}
        return await self._component_interaction(user, msg, data, locale)

    async def submit_modal(
        self,
        user: FakeUser,
        modal: FakeModal | FakeInteraction,
        values: Mapping[str, str | Sequence[str]],
        *,
        locale: str | None = None,
    ) -> FakeInteraction:
        """Submit a modal the bot opened. `values` is keyed by input custom_id or label;
        string selects inside Labels take a list of values."""
        if isinstance(modal, FakeInteraction):
            if modal.modal is None:
                await modal.response()
            if modal.modal is None:
                raise AssertionError(f"interaction {modal.id} did not open a modal")
            modal = modal.modal
        opener = modal.interaction
        if user.id != opener.user.id:
            raise AssertionError("only the user who opened the modal can submit it")
        used: set[str] = set()

        def value_for(comp: JSON, label: str | None) -> str | Sequence[str] | None:
            for key in (comp["custom_id"], label):
                if key is not None and key in values:
                    used.add(key)
                    return values[key]
            return None

        def fill(comp: JSON, label: str | None) -> JSON:
            val = value_for(comp, label)
            if comp["type"] == C_TEXT_INPUT:
                text = str(val) if val is not None else comp.get("value", "") or ""
                required = comp.get("required", True)
                if required and not text:
                    raise AssertionError(f"modal input {comp['custom_id']!r} is required")
                lo, hi = comp.get("min_length", 0), comp.get("max_length", 4000)
                if text and not lo <= len(text) <= hi:
                    raise AssertionError(f"modal input {comp['custom_id']!r} length not in range")
                return {
                    "type": C_TEXT_INPUT,
                    "id": comp.get("id"),
                    "custom_id": comp["custom_id"],
                    "value": text,
                }
            chosen = [val] if isinstance(val, str) else list(val or [])
            return {
                "type": comp["type"],
                "id": comp.get("id"),
                "custom_id": comp["custom_id"],
                "values": chosen,
            }

        components: list[JSON] = []
        for comp in modal.components:
            if comp["type"] == C_ACTION_ROW:
                inner = [fill(c, c.get("label")) for c in comp["components"]]
                components.append({"type": C_ACTION_ROW, "id": comp.get("id"), "components": inner})
            elif comp["type"] == C_LABEL:
                filled = fill(comp["component"], comp.get("label"))
                components.append({"type": C_LABEL, "id": comp.get("id"), "component": filled})
            elif comp["type"] == C_TEXT_DISPLAY:
                components.append({"type": C_TEXT_DISPLAY, "id": comp.get("id")})
        if set(values) - used:
            raise AssertionError(f"unknown modal inputs {set(values) - used}; {modal.custom_ids}")
        channel = self.channels.get(opener.channel_id) or self.deleted_channels[opener.channel_id]
        data = {"custom_id": modal.custom_id, "components": components}
        source = opener.source_message
        return await self._dispatch_interaction(
            ITX_MODAL_SUBMIT,
            user,
            channel,
            data,
            message=self.messages.get(source.id) if source else None,
            locale=locale,
        )

    async def send_user_message(
        self, user: FakeUser, channel: FakeChannel, content: str
    ) -> FakeMessage:
        """A plain message typed by a user (MESSAGE_CREATE for bots with the intent)."""
        msg = self.store.store(channel, user, content=content)
        await self.store.dispatch("MESSAGE_CREATE", msg)
        return msg
