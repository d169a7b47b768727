"""The project's test configuration: the fake Discord's fixtures for every test."""

pytest_plugins = ["fake_discord.pytest_plugin"]
