"""Persistence: live tables, guild settings and the per-server league, behind one Storage class."""

from .db import Storage
from .errors import StaleTableError, StorageError, StorageWriteError
from .models import (
    ALL_TIME,
    FORMER_PLAYER_ID,
    FORMER_PLAYER_NAME,
    GuildSettings,
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
)

__all__ = [
    "ALL_TIME",
    "FORMER_PLAYER_ID",
    "FORMER_PLAYER_NAME",
    "GuildSettings",
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
]
