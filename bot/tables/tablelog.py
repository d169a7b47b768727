"""The table's recent actions as structured entries (a kind and its parameters), not sentences.

Entries name seats by index and cards and colors by code, so any presenter can tell them in any
language with the names it trusts. Tables saved before entries existed hold plain lines; those
load as strings and are shown as they are.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from typing import Any

from bot.engine import Event
from bot.engine.events import (
    Accepted,
    Bounced,
    Caught,
    Challenged,
    ColorChosen,
    CustomEffectDone,
    Drew,
    FirstCard,
    Forfeit,
    JumpedIn,
    Left,
    Passed,
    PlayAgain,
    Played,
    Reversed,
    Rotated,
    RoundOver,
    Skipped,
    Stacked,
    Swapped,
    UnoCalled,
)

LOG_LINES = 6  # entries a table keeps (the table message shows the last five)


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One line of the table's log: what happened (``kind``) and who and what it involved."""

    kind: str
    seat: int | None = None  # who acted (the winner for round_over and forfeit)
    target: int | None = None  # whom it was aimed at
    card: str | None = None
    color: str | None = None
    count: int | None = None  # cards, points or a round number, by kind
    direction: int | None = None
    legal: bool | None = None
    seats: tuple[int, ...] = ()
    text: str | None = None  # the Wild Customizable's house rule, as the host wrote it

    def to_dict(self) -> dict[str, Any]:
        """The entry as JSON-ready data, without its empty fields."""
        data: dict[str, Any] = {"kind": self.kind}
        for item in fields(self)[1:]:
            value = getattr(self, item.name)
            if value is not None and value != ():
                data[item.name] = list(value) if item.name == "seats" else value
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LogEntry:
        names = {item.name for item in fields(cls)}
        values = {k: v for k, v in data.items() if k in names}
        if "seats" in values:
            values["seats"] = tuple(int(s) for s in values["seats"])
        return cls(**values)


LogLine = LogEntry | str  # a str is a line saved by an older version of the bot


def load_line(data: object) -> LogLine:
    """A saved log line: an entry, or an old plain sentence kept as it is."""
    if isinstance(data, dict):
        return LogEntry.from_dict(data)
    return str(data)


def dump_line(line: LogLine) -> object:
    return line.to_dict() if isinstance(line, LogEntry) else line


def entries(events: Iterable[Event]) -> list[LogEntry]:
    """The entries worth telling the table for these engine events (one line each)."""
    out: list[LogEntry] = []
    typed = list(events)
    for index, event in enumerate(typed):
        match event:
            case Played(seat=seat, card=card, color=color, house_rule=rule):
                out.append(LogEntry("play", seat=seat, card=card, color=color))
                if rule:
                    out.append(LogEntry("house_rule", text=rule))
            case Bounced(seat=seat, target=target, color=color):
                out.append(LogEntry("bounce", seat=seat, target=target, color=color))
            case Drew(seat=seat, count=count, reason="draw"):
                out.append(LogEntry("draw", seat=seat, count=count))
            case Drew(seat=seat, count=count, reason=reason):
                if reason not in ("victory_lap", "catch") and count:  # told by the play or catch
                    out.append(LogEntry("draws", seat=seat, count=count))
            case Passed(seat=seat) | Skipped(seat=seat) | UnoCalled(seat=seat) | Left(seat=seat):
                out.append(LogEntry(event.TYPE, seat=seat))
            case ColorChosen(seat=seat, color=color):
                out.append(LogEntry("color", seat=seat, color=color))
            case Reversed(direction=direction):
                out.append(LogEntry("reverse", direction=direction))
            case Accepted(seat=seat, count=count):
                out.append(LogEntry("accept", seat=seat, count=count))
            case Challenged(seat=seat, target=target, legal=legal):
                out.append(LogEntry("challenge", seat=seat, target=target, legal=legal))
            case Caught(seat=seat, target=target):
                after = typed[index + 1 : index + 2]
                drawn = next(
                    (e.count for e in after if isinstance(e, Drew) and e.reason == "catch"), 0
                )
                out.append(LogEntry("catch", seat=seat, target=target, count=drawn))
            case JumpedIn(seat=seat):
                out.append(LogEntry("jump_in", seat=seat))
            case Stacked(seat=seat, target=target, total=total):
                out.append(LogEntry("stack", seat=seat, target=target, count=total))
            case Swapped(seat=seat, target=target):
                out.append(LogEntry("swap", seat=seat, target=target))
            case Rotated(direction=direction):
                out.append(LogEntry("rotate", direction=direction))
            case CustomEffectDone(seat=seat, effect=effect):
                out.append(LogEntry("custom_effect", seat=seat, text=effect))
            case PlayAgain(seat=seat):
                out.append(LogEntry("play_again", seat=seat))
            case FirstCard(card=card, effect="starts"):
                out.append(LogEntry("first_card", card=card))
            case RoundOver(winner=winner, points=points):
                out.append(LogEntry("round_over", seat=winner, count=points))
            case Forfeit(winner=winner):
                out.append(LogEntry("forfeit", seat=winner))
    return out


def keep_last(log: list[LogLine], added: Sequence[LogLine]) -> None:
    """Append lines to a table's log, keeping the last ``LOG_LINES``."""
    log.extend(added)
    del log[:-LOG_LINES]
