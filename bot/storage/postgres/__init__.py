"""The PostgreSQL backend: a database server that several bot processes share."""

from .storage import PostgresStorage

__all__ = ["PostgresStorage"]
