"""PostgreSQL migrations: run by bot.storage.postgres at open, tracked in schema_version."""
