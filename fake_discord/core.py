"""FakeCore: the fake's shared state with its parts built over it: the gateway, the message
store and the command registry (each takes the state, never the core)."""

from __future__ import annotations

from fake_discord.clock import Clock
from fake_discord.commands import CommandRegistry
from fake_discord.constants import JSON
from fake_discord.gateway import Gateway
from fake_discord.state import LOOPBACK_HOST, FakeState
from fake_discord.store import MessageStore

__all__ = ["LOOPBACK_HOST", "FakeCore"]


class FakeCore(FakeState):
    """The state and its parts; settings are described on `FakeState`."""

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        bot_name: str = "UNO Bot",
        ack_timeout: float = 3.0,
        token_ttl: float = 15 * 60,
        reject_late_acks: bool = True,
        channel_rate_limit: tuple[int, float] | None = None,
        clock: Clock | None = None,
        old_message_age: float = 3600.0,
        old_message_edit_limit: int = 10,
        nonce_window: float = 5 * 60,
        keep_history: bool = True,
        record_limit: int = 1000,
    ) -> None:
        super().__init__(
            token=token,
            bot_name=bot_name,
            ack_timeout=ack_timeout,
            token_ttl=token_ttl,
            reject_late_acks=reject_late_acks,
            channel_rate_limit=channel_rate_limit,
            clock=clock,
            old_message_age=old_message_age,
            old_message_edit_limit=old_message_edit_limit,
            nonce_window=nonce_window,
            keep_history=keep_history,
            record_limit=record_limit,
        )
        self.registry = CommandRegistry(self)
        self.gateway = Gateway(self)
        self.store = MessageStore(self, self.gateway)

    @property
    def commands(self) -> dict[int | None, dict[str, JSON]]:
        """Registered commands: key None = global, else a guild id; then name -> payload."""
        return self.registry.commands

    def forget_expired(self) -> None:
        """Without history: drop interactions whose token expired (nothing can answer or
        edit through them any more). Their private messages stay, pictures and all, as in
        Discord's client, which shows them until it reloads; a bot that keeps one live hand
        per player deletes the older ones itself. Runs at most once a minute of the fake's
        clock."""
        now = self.now()
        if self.keep_history or now < self._next_prune:
            return
        self._next_prune = now + 60.0
        expired = [
            itx
            for itx in self.interactions.values()
            if itx.status != "pending" and now - itx.created_at > self.token_ttl
        ]
        for itx in expired:
            del self.interactions[itx.id]
            self._itx_by_token.pop(itx.token, None)
