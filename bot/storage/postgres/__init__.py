"""The PostgreSQL backend: a database server that several bot processes share."""

from .backend import PostgresBackend

__all__ = ["PostgresBackend"]
