"""Persistence: live tables, guild settings and the per-server league, behind one Storage.

``Storage.open(target)`` (or ``open_storage(settings)``) picks the backend: a SQLite file by
default, PostgreSQL for a ``postgresql://`` URL. The rest of the bot never knows which.
"""

from .base import Storage, is_postgres_url, open_storage, shard_of
from .errors import StaleTableError, StorageError, StorageWriteError
from .models import (
    ALL_TIME,
    FORMER_PLAYER_ID,
    FORMER_PLAYER_NAME,
    GuildSettings,
    HouseRules,
    LeaderboardPage,
    LeaderboardRow,
    MatchDetail,
    MatchPlayer,
    MatchRecord,
    MatchSummary,
    PlayerResult,
    PlayerStats,
    RoundSummary,
    Season,
    TableRecord,
    TournamentMatch,
    TournamentRecord,
)

__all__ = [
    "ALL_TIME",
    "FORMER_PLAYER_ID",
    "FORMER_PLAYER_NAME",
    "GuildSettings",
    "HouseRules",
    "LeaderboardPage",
    "LeaderboardRow",
    "MatchDetail",
    "MatchPlayer",
    "MatchRecord",
    "MatchSummary",
    "PlayerResult",
    "PlayerStats",
    "RoundSummary",
    "Season",
    "StaleTableError",
    "Storage",
    "StorageError",
    "StorageWriteError",
    "TableRecord",
    "TournamentMatch",
    "TournamentRecord",
    "is_postgres_url",
    "open_storage",
    "shard_of",
]
