"""Consistent copies of a SQLite database, made with SQLite's online backup API."""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from pathlib import Path

from ..errors import StorageError


def backup(source: str | Path, destination: str | Path) -> int:
    """Copy the database at source to a new file at destination; the copy's size in bytes.

    The copy is one consistent moment of the database even while the bot writes to it (the
    backup reads a single snapshot). It is written beside the destination first and moved
    into place once checked, so a failed backup leaves no half-written file.
    """
    source, destination = Path(source), Path(destination)
    if not source.is_file():
        raise StorageError(f"There is no SQLite database at {source}.")
    if destination.exists():
        raise StorageError(f"{destination} already exists; choose a new file name.")
    partial = destination.with_name(destination.name + ".partial")
    try:
        with closing(sqlite3.connect(source)) as src, closing(sqlite3.connect(partial)) as dst:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
            if dst.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise StorageError(f"The copy of {source} failed its integrity check.")
        os.replace(partial, destination)
    except sqlite3.Error as error:
        raise StorageError(f"Could not back up {source}: {error}.") from error
    except OSError as error:
        raise StorageError(f"Could not write {destination}: {error.strerror}.") from error
    finally:
        partial.unlink(missing_ok=True)
    return destination.stat().st_size
