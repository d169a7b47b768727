"""The state every part of the fake shares: the world's objects, the clock, ids, settings,
and the change signal that `wait_for` sleeps on. The parts (gateway, message store, command
registry) are built over it in `core.py`; none of them imports the core."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import Callable
from typing import TypeVar

from fake_discord.channels import FakeChannel
from fake_discord.clock import Clock, SystemClock
from fake_discord.constants import API_PREFIX, DISCORD_EPOCH_MS
from fake_discord.errors import RecordedError
from fake_discord.faults import Faults
from fake_discord.guilds import FakeGuild
from fake_discord.interactions import FakeInteraction
from fake_discord.messages import FakeAttachment, FakeMessage
from fake_discord.traffic import MessageEvent, Traffic, trim
from fake_discord.users import FakeUser
from fake_discord.watch import CallRejected, Change, InteractionFailed, Watcher, Watchers

T = TypeVar("T")


LOOPBACK_HOST = "127.0.0.1"


class FakeState:
    """World state and settings; the parts of the fake are built around one of these.

    Settings (all attributes a test may change at any time; `clock` too, e.g. a
    `ManualClock()` that starts at the current time):
    - `ack_timeout`: the deadline for an interaction's first answer (Discord: 3 s);
    - `token_ttl`: how long an interaction token serves followups and edits (15 minutes);
    - `reject_late_acks`: answer a late first response with 404 Unknown interaction;
    - `channel_rate_limit`: (writes, seconds) per channel on the REST message routes, answered
      with 429 (None: no limit; Discord's is about 5 per 5 s);
    - `old_message_age`, `old_message_edit_limit`: an edit through the channel routes to a
      message older than `old_message_age` seconds that already took `old_message_edit_limit`
      edits is refused with 429 code 30046. Discord publishes no figure for "many edits";
      10 is this fake's stand-in, low enough that a bot relying on old messages fails fast;
    - `nonce_window`: how long an enforced nonce makes a repeated post return the first
      message (Discord: "the past few minutes");
    - `shards`: how many shards GET /gateway/bot recommends (an AutoShardedClient without a
      shard count connects that many; each hears only of its guilds, see `gateway`);
    - `keep_history`: keep everything a test may read back (every version of a message and
      the attachments it dropped, every request, every interaction). False, for a fake that
      runs for hours (the playground), keeps what Discord itself would still serve: no old
      versions, no replaced attachments, the last `record_limit` requests, writes and
      rejected calls, and no interaction whose token expired (its private messages stay).
    """

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
        self.token = token
        self.ack_timeout = ack_timeout
        self.token_ttl = token_ttl
        self.reject_late_acks = reject_late_acks
        self.channel_rate_limit = channel_rate_limit
        self.clock: Clock = clock or SystemClock()
        self.old_message_age = old_message_age
        self.old_message_edit_limit = old_message_edit_limit
        self.nonce_window = nonce_window
        self.record_limit = record_limit
        self.shards = 1

        self._id_counter = itertools.count(1)
        self._last_snowflake = 0
        self.bot_user = FakeUser(self.snowflake(), bot_name, None, bot=True)
        self.application_id = self.bot_user.id
        self.owner_user = FakeUser(self.snowflake(), "app_owner", "App Owner")

        self.users: dict[int, FakeUser] = {
            self.bot_user.id: self.bot_user,
            self.owner_user.id: self.owner_user,
        }
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}  # live channels only
        self.deleted_channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.channel_messages: dict[int, list[FakeMessage]] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        self._itx_by_token: dict[str, FakeInteraction] = {}
        self.attachments: dict[int, FakeAttachment] = {}
        self.errors: list[RecordedError] = []
        self.rate_limited: list[tuple[str, str, float]] = []

        self.traffic = Traffic(self.now)
        self.faults = Faults()
        self.watchers = Watchers()
        self.keep_history = keep_history
        self._next_prune = 0.0

        self._changed = asyncio.Event()
        self.host = LOOPBACK_HOST
        self.port = 0

    # ----- addresses -----

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/"

    # ----- views on the record (stable names tests use) -----

    @property
    def requests(self) -> list[tuple[str, str]]:
        """Every REST request received, as (method, path without the API prefix)."""
        return [(r.method, r.path) for r in self.traffic.log]

    @property
    def message_events(self) -> list[MessageEvent]:
        return self.traffic.message_events

    # ----- time, ids, change notification -----

    def now(self) -> float:
        return self.clock.time()

    def snowflake(self) -> int:
        """Real-looking, strictly increasing snowflakes (discord.py derives created_at)."""
        ms = int(self.clock.time() * 1000) - DISCORD_EPOCH_MS
        value = (ms << 22) | (next(self._id_counter) & 0x3FFFFF)
        value = max(value, self._last_snowflake + 1)
        self._last_snowflake = value
        return value

    def _notify(self) -> None:
        """Wake every `wait_for` waiter: some state changed."""
        self._changed.set()
        self._changed = asyncio.Event()

    def watch(self, watcher: Watcher) -> Callable[[], None]:
        """Call `watcher(change)` on every change of messages and channels, every rejected
        call and every failed interaction (see `fake_discord.watch`); returns the function
        that stops it."""
        return self.watchers.add(watcher)

    def _emit(self, change: Change) -> None:
        self.watchers.emit(change)

    def record_error(self, error: RecordedError) -> None:
        """Keep a rejected call in `errors` and tell the watchers."""
        self.errors.append(error)
        if not self.keep_history:
            trim(self.errors, self.record_limit)
            trim(self.rate_limited, self.record_limit)
        self._emit(CallRejected(error))
        self._notify()

    # ----- a fake that runs for hours -----

    @property
    def keep_history(self) -> bool:
        return self._keep_history

    @keep_history.setter
    def keep_history(self, keep: bool) -> None:
        self._keep_history = keep
        self.traffic.limit = None if keep else self.record_limit

    async def wait_for(
        self, predicate: Callable[[], T | None], timeout: float = 10.0, what: str = "condition"
    ) -> T:
        """Wait until `predicate()` is truthy (re-checked on every state change); return it."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                errors = "\n".join(str(e) for e in self.errors[-5:])
                raise AssertionError(
                    f"timed out after {timeout}s waiting for {what}; recent errors:\n{errors}"
                )
            event = self._changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), remaining)

    # ----- lookups -----

    def guild_of(self, channel: FakeChannel | int) -> FakeGuild | None:
        ch = self.channels[channel] if isinstance(channel, int) else channel
        return self.guilds.get(ch.guild_id) if ch.guild_id else None

    def _ack_deadline_passed(self, itx: FakeInteraction) -> None:
        if itx.status == "pending":
            itx.status = "failed"
            itx.failure_reason = f"not acknowledged within {self.ack_timeout}s"
            self._emit(InteractionFailed(itx))
            self._notify()
