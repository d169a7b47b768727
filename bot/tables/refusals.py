"""The refusals a table answers with: a note saying why, and the table as it stands."""

from __future__ import annotations

from .notes import Note, Param, note
from .snapshot import Outcome


class TableError(Exception):
    """A request the table refuses; nothing changed. ``current`` is the table as it stands."""

    def __init__(self, key: str | Note, **params: Param) -> None:
        self.note = key if isinstance(key, Note) else note(key, **params)
        super().__init__(self.note.english())
        self.current: Outcome | None = None  # filled in by the manager, under the table's lock

    @property
    def message(self) -> str:
        """The refusal in English."""
        return self.note.english()


class StaleClick(TableError):
    """A click on buttons drawn for an older state of the table (``key`` says what happened
    meanwhile when the table knows: a jump-in that came first, say)."""

    def __init__(self, key: str = "stale_hand", **params: Param) -> None:
        super().__init__(key, **params)
