"""The SQLite backend: a file on a local disk, the default."""

from .storage import SQLiteStorage

__all__ = ["SQLiteStorage"]
