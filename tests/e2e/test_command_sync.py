"""Slash commands sync only when the tree changed; the synced ids make replies' command names
clickable; /uno about shows the version and an invite link."""

from __future__ import annotations

import dataclasses
from importlib import metadata
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from discord import app_commands

from bot.client import UnoBot
from bot.config import ConfigError, Settings
from cogs.about import INVITE_PERMISSIONS, project_url
from cogs.errors import UnoTree
from fake_discord import BotRunner, FakeDiscord, FakeGuild
from tests.e2e.helpers import start_bot


def syncs(fake: FakeDiscord) -> int:
    """The bulk overwrites of the global commands the bot sent (a sync)."""
    return sum(
        1
        for r in fake.traffic.log
        if r.method == "PUT" and r.path.endswith("/commands") and "/guilds/" not in r.path
    )


async def test_a_restart_with_the_same_tree_does_not_sync_again(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    db = tmp_path / "uno.db"
    first = await start_bot(fake_discord, bot_runner, db, fake_guild.default_channel)
    assert syncs(fake_discord) == 1
    assert Settings(token=first.bot.settings.token, database_path=db).sync_state_path.exists()
    ids = {name: cmd["id"] for name, cmd in fake_discord.commands[None].items()}
    await bot_runner.stop(first.running)

    second = await start_bot(fake_discord, bot_runner, db, fake_guild.default_channel)
    assert syncs(fake_discord) == 1  # unchanged: only fetched, for the ids
    assert second.bot.command_ids.mention("uno new") == f"</uno new:{ids['uno']}>"
    assert second.bot.command_ids.mention("uno-admin season new") == (
        f"</uno-admin season new:{ids['uno-admin']}>"
    )
    assert second.bot.command_ids.mention("uno") is None  # a group is not runnable

    # A changed tree syncs; forcing syncs; commands deleted by hand on Discord sync again.
    @app_commands.command(name="extra", description="A command added by an update")
    async def extra(interaction: object) -> None: ...

    second.bot.tree.add_command(extra)
    assert await second.bot.sync_commands() == [None]
    assert "extra" in fake_discord.commands[None]
    assert await second.bot.sync_commands() == []
    assert await second.bot.sync_commands(force=True) == [None]
    fake_discord.commands[None].clear()
    assert await second.bot.sync_commands() == [None] and fake_discord.commands[None]
    assert syncs(fake_discord) == 4
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()


async def test_a_process_that_does_not_sync_still_learns_the_ids(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    first = await start_bot(fake_discord, bot_runner, tmp_path / "a.db", fake_guild.default_channel)
    await bot_runner.stop(first.running)
    settings = Settings(token=first.bot.settings.token, database_path=tmp_path / "b" / "uno.db")
    quiet = UnoBot(
        dataclasses.replace(settings, sync_commands=False), tree=UnoTree, storage=first.storage
    )
    await bot_runner.start(quiet)
    assert syncs(fake_discord) == 1
    assert quiet.command_ids.mention("uno new") == fake_discord.command_mention("uno new")
    assert not settings.sync_state_path.exists()
    bot_runner.assert_no_errors()


async def test_replies_mention_commands_and_about_links_the_invite(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    channel = fake_guild.default_channel
    await start_bot(fake_discord, bot_runner, tmp_path / "uno.db", channel)
    ann = await fake_discord.create_member(fake_guild, "ann")
    reply = (await (await fake_discord.slash(ann, channel, "uno hand")).response()).message
    assert reply is not None and fake_discord.command_mention("uno new") in reply.text
    assert reply.command_mentions == [("uno new", fake_discord.command_id("uno"))]

    about = (await (await fake_discord.slash(ann, channel, "uno about")).response()).message
    assert about is not None and about.is_ephemeral
    assert f"UNO bot {metadata.version('uno-bot')}" in about.text
    [invite] = [w for w in about.text.replace("(", " ").replace(")", " ").split() if "oauth2" in w]
    query = parse_qs(urlparse(invite).query)
    assert query["client_id"] == [str(fake_discord.application_id)]
    assert set(query["scope"][0].split()) == {"bot", "applications.commands"}
    assert query["permissions"] == [str(INVITE_PERMISSIONS.value)] == ["309237763072"]
    assert fake_discord.command_mention("uno help") in about.text
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()


class Meta:
    """Package metadata with only Project-URL entries."""

    def __init__(self, *urls: str) -> None:
        self.urls = list(urls)

    def get_all(self, name: str) -> list[str] | None:
        return self.urls if name == "Project-URL" else None


def test_the_project_link_comes_from_the_package_urls() -> None:
    meta = Meta("Changelog, https://x.example/changes", "Source, https://x.example/src")
    assert project_url(meta) == "https://x.example/src"  # type: ignore[arg-type]
    assert project_url(Meta("Docs, https://x.example/docs")) == "https://x.example/docs"  # type: ignore[arg-type]
    assert project_url(Meta()) is None  # type: ignore[arg-type]


def test_sync_commands_setting() -> None:
    def read(value: str) -> tuple[bool, bool]:
        settings = Settings.from_env({"DISCORD_TOKEN": "t", "SYNC_COMMANDS": value})
        return settings.sync_commands, settings.force_sync

    assert read("1") == read("") == (True, False)
    assert read("0") == read("no") == (False, False)
    assert read("always") == (True, True)
    with pytest.raises(ConfigError, match="SYNC_COMMANDS"):
        read("sometimes")
    settings = Settings.from_env({"DISCORD_TOKEN": "t", "DATABASE_PATH": "/srv/uno/uno.db"})
    assert settings.sync_state_path == Path("/srv/uno/commands-synced.json")
