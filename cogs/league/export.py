"""The league's CSV export: one line per seat of every match, safe to open in a spreadsheet."""

from __future__ import annotations

import csv
import io
from typing import Any

MATCH_KEYS = ["match_id", "match_uid", "season", "edition", "scoring", "target"]
MATCH_KEYS += ["started_at", "finished_at", "tournament_id"]
SEAT_KEYS = ["seat", "user_id", "name", "points", "place", "winner", "computer"]
SEAT_KEYS += ["rating_before", "rating_after"]


def _csv_cell(value: Any) -> Any:
    # A name starting with = + - @ would run as a formula when the file is opened in a sheet.
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def export_csv(data: dict[str, Any]) -> str:
    """One line per seat of every match, with the match's own fields first."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(MATCH_KEYS + SEAT_KEYS)
    for match in data.get("matches", []):
        for seat in match.get("players", []):
            row = [match.get(k) for k in MATCH_KEYS] + [seat.get(k) for k in SEAT_KEYS]
            writer.writerow([_csv_cell(v) for v in row])
    return out.getvalue()
