"""The SQLite backend: a file on a local disk, the default."""

from .backend import SQLiteBackend

__all__ = ["SQLiteBackend"]
