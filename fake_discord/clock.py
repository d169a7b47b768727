"""Clocks for the fake: the system clock, and a manual one a test moves by hand.

Everything the fake dates goes through its clock: snowflakes (from which discord.py derives
`created_at`), message timestamps, interaction-token expiry, the nonce window, the age limit
on edits and the windows of the traffic counters. The 3-second acknowledgement deadline stays
on the event loop's real time, because the bot under test answers in real time."""

from __future__ import annotations

import datetime as dt
import time
from typing import Protocol


class Clock(Protocol):
    """A source of wall-clock time in seconds since the Unix epoch."""

    def time(self) -> float: ...


class SystemClock:
    """The real wall clock."""

    def time(self) -> float:
        return time.time()


class ManualClock:
    """A clock that only moves when told to: `clock.advance(3600)`."""

    def __init__(self, start: float | None = None) -> None:
        self._now = time.time() if start is None else start

    def time(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("a clock cannot go backwards")
        self._now += seconds

    def set(self, now: float) -> None:
        if now < self._now:
            raise ValueError("a clock cannot go backwards")
        self._now = now


def iso(timestamp: float) -> str:
    """ISO 8601 in UTC, as Discord writes timestamps."""
    return dt.datetime.fromtimestamp(timestamp, dt.UTC).isoformat()
