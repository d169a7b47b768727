"""Interactions as tests see them: what the fake dispatched, how the bot answered, the modal
it opened and the messages it sent with the interaction's token."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from fake_discord.constants import (
    C_ACTION_ROW,
    C_LABEL,
    CB_MODAL,
    DEFAULT_LOCALE,
    ITX_APPLICATION_COMMAND,
    JSON,
)
from fake_discord.messages import FakeMessage
from fake_discord.users import FakeUser

T = TypeVar("T")


class Waiter(Protocol):
    """What an interaction waits on for the bot's answers (the fake's state)."""

    async def wait_for(
        self, predicate: Callable[[], T | None], timeout: float = 10.0, what: str = "condition"
    ) -> T: ...


@dataclass(eq=False)
class FakeModal:
    """A modal the bot opened (callback type 9); submit it with `FakeDiscord.submit_modal`."""

    custom_id: str
    title: str
    components: list[JSON]
    interaction: FakeInteraction

    @property
    def inputs(self) -> list[JSON]:
        """Text inputs and selects, each with `label` filled from an enclosing Label if any."""
        out = []
        for comp in self.components:
            if comp["type"] == C_LABEL:
                inner = dict(comp["component"])
                inner.setdefault("label", comp.get("label"))
                out.append(inner)
            elif comp["type"] == C_ACTION_ROW:
                out += comp["components"]
        return out

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.inputs]


@dataclass
class InteractionResponse:
    """The bot's acknowledgement of an interaction."""

    type: int
    data: JSON | None
    message: FakeMessage | None  # message created (4/5) or updated (6/7)
    modal: FakeModal | None
    latency: float  # seconds between dispatch and callback, server side


@dataclass(eq=False)
class FakeInteraction:
    id: int
    token: str
    type: int
    user: FakeUser
    channel_id: int
    guild_id: int | None
    payload: JSON
    dispatched_at: float  # perf_counter: the acknowledgement latency is measured in real time
    fake: Waiter = field(repr=False)
    command_name: str = ""
    source_message: FakeMessage | None = None  # for component / modal-from-component
    locale: str = DEFAULT_LOCALE
    created_at: float = 0.0  # the fake's clock: the token expires `token_ttl` after this
    acknowledged_at: float | None = None
    status: str = "pending"  # -> "acknowledged" | "failed"
    failure_reason: str | None = None
    response_type: int | None = None
    response_data: JSON | None = None
    original: FakeMessage | None = None
    modal: FakeModal | None = None
    autocomplete_choices: list[JSON] | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    _deadline_handle: asyncio.TimerHandle | None = field(default=None, repr=False)

    def metadata(self) -> JSON:
        """The ``interaction_metadata`` of the messages answering it, as Discord shows them."""
        meta: JSON = {
            "id": str(self.id),
            "type": self.type,
            "user": self.user.to_payload(),
            "authorizing_integration_owners": {"0": str(self.guild_id or 0)},
        }
        if self.type == ITX_APPLICATION_COMMAND:
            meta["name"] = self.command_name
        return meta

    @property
    def ack_latency(self) -> float | None:
        if self.acknowledged_at is None:
            return None
        return self.acknowledged_at - self.dispatched_at

    async def response(self, timeout: float = 10.0) -> InteractionResponse:
        """Wait for the acknowledgement; AssertionError if it failed or timed out."""
        await self.fake.wait_for(lambda: self.status != "pending", timeout, f"ack of {self}")
        if self.status == "failed":
            raise AssertionError(f"interaction {self.id} failed: {self.failure_reason}")
        assert self.response_type is not None and self.acknowledged_at is not None
        message = self.original if self.response_type != CB_MODAL else None
        return InteractionResponse(
            type=self.response_type,
            data=self.response_data,
            message=message,
            modal=self.modal,
            latency=self.acknowledged_at - self.dispatched_at,
        )

    async def original_message(self, timeout: float = 10.0) -> FakeMessage:
        """The response message once it is no longer a deferred "thinking" placeholder."""
        await self.response(timeout)
        return await self.fake.wait_for(
            lambda: self.original if self.original and not self.original.is_loading else None,
            timeout,
            f"final original response of interaction {self.id}",
        )

    async def followup(self, index: int = 0, timeout: float = 10.0) -> FakeMessage:
        """Wait for the index-th followup message (a followup that replaced a deferred
        placeholder counts too)."""
        return await self.fake.wait_for(
            lambda: self.followups[index] if len(self.followups) > index else None,
            timeout,
            f"followup #{index} of interaction {self.id}",
        )
