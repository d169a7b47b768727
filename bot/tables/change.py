"""What a command did to the live table, before the manager commits it and takes the outcome."""

from __future__ import annotations

from dataclasses import dataclass

from .notes import Note
from .snapshot import Reveal


@dataclass(slots=True)
class Change:
    """``changed`` False: nothing happened, so nothing is saved and the version stays."""

    changed: bool = True
    note: Note | None = None
    reveal: Reveal | None = None
    partners: tuple[Reveal, ...] = ()  # partners' hands, for the asker's eyes only
    round_over: bool = False
    match_over: bool = False
