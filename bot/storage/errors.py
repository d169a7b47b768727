"""Storage errors: every driver failure becomes one of these, with text safe to show."""

from __future__ import annotations


class StorageError(Exception):
    """The database could not be opened or read; the message is safe to show to people."""


class StorageWriteError(StorageError):
    """A write failed and was rolled back; callers say "could not save, try again"."""


class StaleTableError(StorageError):
    """A table record was saved with a version not newer than the stored one."""
