"""Test-only crash points: the process ends at once, as under ``kill -9``, at a named moment.

Crash tests start the bot with ``UNO_CRASH_AT=<point>`` (or ``<point>:<n>``, the n-th time the
point is reached) to stop it exactly there. Unset, as in every real run, a point costs one
dictionary lookup. The points: ``ack`` (a hand click just answered, by its picture or a
deferral), ``table-posted`` (a table message posted, its id not yet saved, the old message not
yet deleted).
"""

from __future__ import annotations

import os

ENV = "UNO_CRASH_AT"
CRASH_EXIT = 70  # the exit status of a crash point, so a test tells it from other deaths

_reached: dict[str, int] = {}


def crash_point(name: str) -> None:
    """End the process now if ``UNO_CRASH_AT`` names this point (and this is its time)."""
    wanted = os.environ.get(ENV)
    if not wanted:
        return
    point, _, nth = wanted.partition(":")
    if point != name:
        return
    _reached[name] = _reached.get(name, 0) + 1
    if _reached[name] >= (int(nth) if nth.isdigit() else 1):
        os._exit(CRASH_EXIT)
