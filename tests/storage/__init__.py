"""Tests of bot.storage on real temporary SQLite files."""
