"""The packaged schema migrations of each backend (NNNN_name.sql), numbered alike."""

from __future__ import annotations

import re
import sqlite3
from importlib import resources
from typing import Literal

Backend = Literal["sqlite", "postgres"]

_MIGRATION_FILE = re.compile(r"^(\d{4})_[A-Za-z0-9_]+\.sql$")


def load_migrations(backend: Backend) -> list[tuple[int, str, str]]:
    """A backend's migrations as (number, file name, SQL), checked to run 1, 2, 3, ..."""
    found: list[tuple[int, str, str]] = []
    for entry in resources.files(f"{__name__}.{backend}").iterdir():
        match = _MIGRATION_FILE.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort()
    numbers = [number for number, _, _ in found]
    if numbers != list(range(1, len(found) + 1)):
        raise RuntimeError(f"{backend} migrations must be numbered 1..n without gaps: {numbers}")
    return found


def latest_version() -> int:
    """The schema version this code writes; both backends must reach the same number."""
    sqlite, postgres = len(load_migrations("sqlite")), len(load_migrations("postgres"))
    if sqlite != postgres:
        raise RuntimeError(f"sqlite has {sqlite} migrations but postgres has {postgres}")
    return sqlite


def split_statements(script: str) -> list[str]:
    """Split a SQLite migration into statements, respecting quotes, comments and triggers."""
    statements: list[str] = []
    start = 0
    for index, char in enumerate(script):
        if char == ";" and sqlite3.complete_statement(script[start : index + 1]):
            statement = script[start : index + 1].strip()
            if statement.strip(";").strip():
                statements.append(statement)
            start = index + 1
    if script[start:].strip() and not _only_comments(script[start:]):
        raise RuntimeError("a migration ends with an unterminated statement")
    return statements


def _only_comments(text: str) -> bool:
    return all(not line.strip() or line.strip().startswith("--") for line in text.splitlines())
