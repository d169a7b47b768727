"""One live hand per player: "Show my hand" brings the player's newest private hand up to date
instead of posting yet another one, while Discord still lets the bot edit it.

An ephemeral message can only be edited through the interaction that drew it, for 15 minutes.
Each drawn hand is remembered per table and player with that means to edit it; entries go when
the table closes, when their time is up, or when an edit fails.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from bot.tables.snapshot import Outcome, TableSnapshot
from bot.tables.table import Status

from .open_hands import TOKEN_LIFE, Editor

CLOSED = (Status.FINISHED, Status.CANCELLED)


@dataclass(slots=True)
class LatestHand:
    """A player's newest hand message at a table and how to edit it."""

    edit: Editor
    version: int  # the table version it shows
    until: float  # monotonic time its interaction stops editing it


class LatestHands:
    """The newest hand message of each player, per table (at most one per seated player)."""

    def __init__(self) -> None:
        self.tables: dict[str, dict[int, LatestHand]] = {}

    def remember(self, outcome: Outcome, user_id: int, edit: Editor) -> None:
        """A hand message was just drawn from ``outcome`` for ``user_id``."""
        if outcome.hand is None or outcome.table.status in CLOSED:
            return
        self.tables.setdefault(outcome.table.table_id, {})[user_id] = LatestHand(
            edit, outcome.version, time.monotonic() + TOKEN_LIFE
        )

    def reusable(self, table_id: str, user_id: int, version: int) -> LatestHand | None:
        """The hand to bring up to date for ``version``, or None to post a new one: none is
        left that the bot may edit, or it already shows this version (asked again, so the player
        may no longer see it: dismissed, or lost to a reload)."""
        hands = self.tables.get(table_id)
        hand = hands.get(user_id) if hands is not None else None
        if hand is None or hand.until < time.monotonic() or hand.version >= version:
            self.forget(table_id, user_id)
            return None
        return hand

    def forget(self, table_id: str, user_id: int) -> None:
        hands = self.tables.get(table_id)
        if hands is not None:
            hands.pop(user_id, None)
            if not hands:
                del self.tables[table_id]

    def on_change(self, table: TableSnapshot) -> None:
        """A listener: a closed table's hands are forgotten."""
        if table.status in CLOSED:
            self.tables.pop(table.table_id, None)
