"""Cheers from the audience: a few fixed emotes, counted per table, one per person at a time.

Spectators never change the game: cheers live beside the tables (not in them), never raise a
table's version and are not saved; a restart starts every count afresh.
"""

from __future__ import annotations

import time
from collections.abc import Callable

EMOTES = ("👏", "😂", "😮", "🔥")
COOLDOWN = 10.0  # seconds between two cheers of one person at one table


class Cheers:
    """Each table's cheer counts and each person's cooldown (the clock is injected)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, cooldown: float = COOLDOWN):
        self.clock = clock
        self.cooldown = cooldown
        self._counts: dict[str, list[int]] = {}
        self._last: dict[tuple[str, int], float] = {}

    def cheer(self, table_id: str, user_id: int, emote: int) -> float:
        """Count a cheer; returns 0, or the seconds this person must still wait (not counted)."""
        if not 0 <= emote < len(EMOTES):
            raise ValueError(f"no emote {emote}")
        now = self.clock()
        last = self._last.get((table_id, user_id))
        if last is not None and now - last < self.cooldown:
            return self.cooldown - (now - last)
        self._last[table_id, user_id] = now
        self._counts.setdefault(table_id, [0] * len(EMOTES))[emote] += 1
        return 0.0

    def counts(self, table_id: str) -> tuple[int, ...]:
        return tuple(self._counts.get(table_id, [0] * len(EMOTES)))

    def line(self, table_id: str) -> str:
        """The counts as the table message shows them: ``👏 3 · 🔥 1`` (empty: no cheers)."""
        counts = self._counts.get(table_id)
        if not counts:
            return ""
        return " · ".join(f"{EMOTES[i]} {n}" for i, n in enumerate(counts) if n)

    def forget(self, table_id: str) -> None:
        """A closed table's cheers go with it."""
        self._counts.pop(table_id, None)
        for key in [k for k in self._last if k[0] == table_id]:
            del self._last[key]
