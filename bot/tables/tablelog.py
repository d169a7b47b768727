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
    events = list(events)
    for index, event in enumerate(events):
        kind = event.get("type")
        seat = event.get("seat")
        if kind == "play":
            out.append(LogEntry("play", seat=seat, card=event["card"], color=event.get("color")))
            if event.get("house_rule"):
                out.append(LogEntry("house_rule", text=str(event["house_rule"])))
        elif kind == "bounce":
            out.append(
                LogEntry("bounce", seat=seat, target=event["target"], color=event.get("color"))
            )
        elif kind == "draw":
            count = int(event["count"])
            reason = event.get("reason")
            if reason == "draw":
                out.append(LogEntry("draw", seat=seat, count=count))
            elif reason not in ("victory_lap", "catch") and count:  # told by the play or catch
                out.append(LogEntry("draws", seat=seat, count=count))
        elif kind in ("pass", "skip", "color", "uno", "leave"):
            out.append(LogEntry(kind, seat=seat, color=event.get("color")))
        elif kind == "reverse":
            out.append(LogEntry("reverse", direction=int(event["direction"])))
        elif kind == "accept":
            out.append(LogEntry("accept", seat=seat, count=int(event["count"])))
        elif kind == "challenge":
            out.append(
                LogEntry("challenge", seat=seat, target=event["target"], legal=bool(event["legal"]))
            )
        elif kind == "catch":
            drawn = next(
                (
                    int(e["count"])
                    for e in events[index + 1 : index + 2]
                    if e.get("type") == "draw" and e.get("reason") == "catch"
                ),
                0,
            )
            out.append(LogEntry("catch", seat=seat, target=event["target"], count=drawn))
        elif kind == "jump_in":
            out.append(LogEntry("jump_in", seat=seat))
        elif kind == "stack":
            out.append(LogEntry("stack", seat=seat, target=event["target"], count=event["total"]))
        elif kind == "swap":
            out.append(LogEntry("swap", seat=seat, target=event["target"]))
        elif kind == "rotate":
            out.append(LogEntry("rotate", direction=int(event["direction"])))
        elif kind == "custom_effect":
            out.append(LogEntry("custom_effect", seat=seat, text=str(event["effect"])))
        elif kind == "play_again":
            out.append(LogEntry("play_again", seat=seat))
        elif kind == "first_card" and event.get("effect") == "starts":
            out.append(LogEntry("first_card", card=event["card"]))
        elif kind == "round_over":
            out.append(LogEntry("round_over", seat=event["winner"], count=int(event["points"])))
        elif kind == "forfeit":
            out.append(LogEntry("forfeit", seat=event["winner"]))
    return out


def keep_last(log: list[LogLine], added: Sequence[LogLine]) -> None:
    """Append lines to a table's log, keeping the last ``LOG_LINES``."""
    log.extend(added)
    del log[:-LOG_LINES]
