"""SQLite migrations: run by bot.storage.sqlite at open, tracked by PRAGMA user_version."""
