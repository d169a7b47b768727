"""Watching the fake world change, for a live view of it: messages, channels, calls the fake
rejected and interactions that failed. (Tests wait with `wait_for` instead.)

A watcher is a plain function called synchronously where the change happens; it should only
note what changed and read the state later (a change may be followed at once by another)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from fake_discord.channels import FakeChannel
from fake_discord.errors import RecordedError
from fake_discord.messages import FakeMessage

if TYPE_CHECKING:
    from fake_discord.interactions import FakeInteraction

log = logging.getLogger("fake_discord")


@dataclass(frozen=True, eq=False)
class MessageChanged:
    """A message was created, edited or deleted (read `message` for its state now)."""

    message: FakeMessage


@dataclass(frozen=True, eq=False)
class ChannelChanged:
    """A channel or thread was created, changed (name, archived, locked) or deleted."""

    channel: FakeChannel


@dataclass(frozen=True, eq=False)
class CallRejected:
    """The fake answered one of the bot's REST calls with an error (validation, 429, ...)."""

    error: RecordedError


@dataclass(frozen=True, eq=False)
class InteractionFailed:
    """An interaction was not acknowledged within the deadline (Discord: "This interaction
    failed")."""

    interaction: FakeInteraction


Change = MessageChanged | ChannelChanged | CallRejected | InteractionFailed
Watcher = Callable[[Change], None]


class Watchers:
    """The functions told about every change; one that raises is logged, never the fake's
    problem."""

    def __init__(self) -> None:
        self._watchers: list[Watcher] = []

    def add(self, watcher: Watcher) -> Callable[[], None]:
        """Start telling `watcher`; returns the function that stops it."""
        self._watchers.append(watcher)

        def remove() -> None:
            if watcher in self._watchers:
                self._watchers.remove(watcher)

        return remove

    def __len__(self) -> int:
        return len(self._watchers)

    def emit(self, change: Change) -> None:
        for watcher in list(self._watchers):
            try:
                watcher(change)
            except Exception:
                log.exception("a watcher of the fake failed on %s", type(change).__name__)
