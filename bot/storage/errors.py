"""Storage errors: every driver failure becomes one of these, with text safe to show."""

from __future__ import annotations

from typing import Any


class StorageError(Exception):
    """The database could not be opened or read; the message is safe to show to people."""


class StorageWriteError(StorageError):
    """A write failed and was rolled back; callers say "could not save, try again"."""


class StaleTableError(StorageError):
    """A table write was refused: the database no longer holds the version the writer saw."""


def stale_table(table_id: str, stored: int | None, version: int) -> StaleTableError:
    """The error for a refused table write, saying what the database holds instead."""
    if stored is None:
        return StaleTableError(
            f"Table {table_id} no longer exists; version {version} was not saved."
        )
    return StaleTableError(
        f"Table {table_id} is already at version {stored}; version {version} was not saved."
    )


class Rollback(Exception):
    """Not an error: raised inside a transaction's work to undo it and return ``value``."""

    def __init__(self, value: Any) -> None:
        super().__init__(value)
        self.value = value
