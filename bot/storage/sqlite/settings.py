"""SQLite guild settings."""

from __future__ import annotations

from ..models import GuildSettings
from ..rows import SETTINGS_COLUMNS, settings_from, settings_params
from .sql import Conn, one

_SAVE = f"""
INSERT INTO guild_settings (guild_id, {SETTINGS_COLUMNS})
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (guild_id) DO UPDATE SET
    edition = excluded.edition, scoring = excluded.scoring, target = excluded.target,
    turn_seconds = excluded.turn_seconds, timeout_action = excluded.timeout_action,
    timeouts_before_removal = excluded.timeouts_before_removal,
    lobby_minutes = excluded.lobby_minutes, computers_allowed = excluded.computers_allowed,
    computer_level = excluded.computer_level, computers_rated = excluded.computers_rated,
    rate_house_rules = excluded.rate_house_rules, house_rules = excluded.house_rules,
    language = excluded.language, tournaments_open = excluded.tournaments_open
"""


async def get_settings(conn: Conn, guild_id: int) -> GuildSettings:
    """A server's settings, or the defaults."""
    row = await one(
        conn, f"SELECT {SETTINGS_COLUMNS} FROM guild_settings WHERE guild_id = ?", (guild_id,)
    )
    return settings_from(guild_id, row)


async def save_settings(conn: Conn, settings: GuildSettings) -> None:
    """Insert or replace a server's settings."""
    await conn.execute(_SAVE, settings_params(settings))
