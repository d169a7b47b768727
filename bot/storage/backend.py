"""What a backend hands the Storage facade: its operations, and a way to run one of them.

A backend is a package (``sqlite/``, ``postgres/``) whose modules ``tables``, ``settings``,
``league`` and ``tournaments`` define the same operations over its own kind of connection; the
facade in ``base.py`` checks the arguments, picks the operation and says how it must run (``Mode``).
Backends import this module and the shared ones (models, rows, ledger), never the facade.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar, Generic, Literal, Protocol, TypeVar

from .models import (
    GuildSettings,
    LeaderboardPage,
    LeaderboardSort,
    MatchDetail,
    MatchRecord,
    MatchSummary,
    PlayerHistory,
    PlayerStats,
    Season,
    TableRecord,
    TournamentMatch,
    TournamentRecord,
)

T = TypeVar("T")
C = TypeVar("C")  # the backend's connection
C_contra = TypeVar("C_contra", contravariant=True)

Synchronous = Literal["NORMAL", "FULL"]

# How an operation must run:
#   statement    one statement, atomic on its own (no BEGIN/COMMIT needed)
#   reads        several reads that need not see one moment (a page and its total)
#   snapshot     several reads that must see one moment (a match and its seats, an export)
#   transaction  several writes, all or nothing
Mode = Literal["statement", "reads", "snapshot", "transaction"]


class Landed(Generic[C, T]):
    """How to tell whether a write is in the database (``check``) and its result if so."""

    def __init__(self, check: Callable[[C], Awaitable[bool]], result: T) -> None:
        self.check = check
        self.result = result


class TableOperations(Protocol[C_contra]):
    """The live tables (a backend's ``tables`` module)."""

    async def save_table(self, conn: C_contra, record: TableRecord, seen: int | None) -> None: ...

    async def touch_table(self, conn: C_contra, record: TableRecord) -> bool: ...

    async def load_tables(
        self, conn: C_contra, shards: list[int] | None, count: int
    ) -> list[TableRecord]: ...

    async def delete_table(self, conn: C_contra, table_id: str, seen: int | None) -> bool: ...

    # What a write whose answer was lost left behind (``Backend.run``'s ``landed``).
    async def holds(self, conn: C_contra, record: TableRecord) -> bool: ...

    async def is_gone(self, conn: C_contra, table_id: str) -> bool: ...


class SettingsOperations(Protocol[C_contra]):
    """The servers' settings (a backend's ``settings`` module)."""

    async def get_settings(self, conn: C_contra, guild_id: int) -> GuildSettings: ...

    async def save_settings(self, conn: C_contra, settings: GuildSettings) -> None: ...


class LeagueOperations(Protocol[C_contra]):
    """Seasons, matches and standings (a backend's ``league`` module)."""

    async def current_season(self, conn: C_contra, guild_id: int) -> Season: ...

    async def list_seasons(self, conn: C_contra, guild_id: int) -> list[Season]: ...

    async def start_season(
        self, conn: C_contra, guild_id: int, name: str | None, now: float
    ) -> Season: ...

    async def record_match(
        self,
        conn: C_contra,
        record: MatchRecord,
        table_id: str | None,
        table_version: int | None,
    ) -> bool: ...

    async def leaderboard(
        self,
        conn: C_contra,
        guild_id: int,
        season: int | None,
        scope: int,
        sort: LeaderboardSort,
        order: str,
        offset: int,
        limit: int,
        official_only: bool,
    ) -> LeaderboardPage: ...

    async def player_stats(
        self,
        conn: C_contra,
        guild_id: int,
        user_id: int,
        season: int | None,
        scope: int,
        official_only: bool,
    ) -> PlayerStats | None: ...

    async def recent_matches(
        self, conn: C_contra, guild_id: int, limit: int, offset: int
    ) -> list[MatchSummary]: ...

    async def match_detail(
        self, conn: C_contra, guild_id: int, number: int
    ) -> MatchDetail | None: ...

    async def match_by_uid(
        self, conn: C_contra, guild_id: int, match_uid: str
    ) -> MatchDetail | None: ...

    async def round_record(
        self, conn: C_contra, guild_id: int, number: int, round_number: int
    ) -> str | None: ...

    async def player_history(
        self, conn: C_contra, guild_id: int, user_id: int, rounds: int
    ) -> PlayerHistory | None: ...

    async def export_guild(self, conn: C_contra, guild_id: int, now: float) -> dict[str, Any]: ...

    async def forget_user(self, conn: C_contra, guild_id: int, user_id: int) -> int: ...

    async def is_recorded(self, conn: C_contra, guild_id: int, match_uid: str) -> bool: ...


class TournamentOperations(Protocol[C_contra]):
    """Server tournaments (a backend's ``tournaments`` module)."""

    async def save_tournament(self, conn: C_contra, record: TournamentRecord) -> bool: ...

    async def load_tournaments(
        self, conn: C_contra, shards: list[int] | None, count: int
    ) -> list[TournamentRecord]: ...

    async def finished_tournaments(
        self, conn: C_contra, guild_id: int, limit: int
    ) -> list[TournamentRecord]: ...

    async def tournament_matches(
        self, conn: C_contra, guild_id: int, tournament_id: str
    ) -> list[TournamentMatch]: ...


class Backend(ABC, Generic[C]):
    """One open database of one kind: its operations and the connection(s) they run on."""

    name: ClassVar[str]  # "sqlite" or "postgres"
    target: str  # the file path, or the server URL without its password
    tables: TableOperations[C]
    settings: SettingsOperations[C]
    league: LeagueOperations[C]
    tournaments: TournamentOperations[C]

    @abstractmethod
    async def run(
        self,
        work: Callable[[C], Awaitable[T]],
        action: str,
        *,
        write: bool,
        mode: Mode,
        landed: Landed[C, T] | None = None,
    ) -> T:
        """work(connection), run as mode says; driver errors become StorageError.

        action names the operation for messages ("save the table"); a failed write raises
        StorageWriteError (nothing was changed), a failed read StorageError. A Rollback raised
        by work undoes the transaction and returns its value. landed: for a write whose answer
        a server may lose on the way back (the connection broke after the statement went
        out), how to tell from the database whether it is in, and what it returns then.
        """

    @abstractmethod
    async def schema_version(self) -> int:
        """The schema version the database is at."""

    @abstractmethod
    async def close(self) -> None:
        """Release the connections (twice is fine)."""
