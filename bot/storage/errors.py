"""Storage errors: every driver failure becomes one of these, with text safe to show."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .models import TableRecord


class StorageError(Exception):
    """The database could not be opened or read; the message is safe to show to people."""


class StorageWriteError(StorageError):
    """A write failed and was rolled back; callers say "could not save, try again"."""


class StaleTableError(StorageError):
    """A table write was refused: the database no longer holds the version the writer saw.

    ``mine`` is the stored table when the row shows this very process wrote it (a write whose
    answer was lost on the way back): the writer adopts it rather than letting the table go.
    """

    def __init__(self, message: str, mine: TableRecord | None = None) -> None:
        super().__init__(message)
        self.mine = mine


def stale_table(
    table_id: str, stored: int | None, version: int, mine: TableRecord | None = None
) -> StaleTableError:
    """The error for a refused table write, saying what the database holds instead."""
    if stored is None:
        return StaleTableError(
            f"Table {table_id} no longer exists; version {version} was not saved."
        )
    whose = " (written by this process)" if mine is not None else ""
    return StaleTableError(
        f"Table {table_id} is already at version {stored}{whose}; version {version} was not saved.",
        mine,
    )


class Rollback(Exception):
    """Not an error: raised inside a transaction's work to undo it and return ``value``."""

    def __init__(self, value: Any) -> None:
        super().__init__(value)
        self.value = value
