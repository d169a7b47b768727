"""/uno-admin status: a server manager sees the bot's version, shard and latency and the
server's live tables, in their own language; anyone else is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogs.status import version
from fake_discord import BotRunner, FakeDiscord, FakeGuild
from fake_discord.constants import PERM_MANAGE_GUILD
from tests.e2e.helpers import commands_granted_to_everyone, start_bot


async def test_a_manager_sees_the_bot_and_the_servers_tables(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    channel = fake_guild.default_channel
    await start_bot(fake, bot_runner, tmp_path / "uno.db", channel)
    player = await fake.create_member(fake_guild, "player")
    admin = await fake.create_member(fake_guild, "admin")
    managers = await fake.create_role(fake_guild, "managers", PERM_MANAGE_GUILD)
    await fake.set_member_roles(fake_guild, admin, [managers])

    with pytest.raises(AssertionError, match="hidden"):
        await fake.slash(player, channel, "uno-admin status")
    with commands_granted_to_everyone():  # still refused when it runs
        itx = await fake.slash(player, channel, "uno-admin status")
    refused = (await itx.response()).message
    assert refused is not None and refused.is_ephemeral
    assert refused.text == "You need the Manage Server permission to see the bot's status."

    await (await fake.slash(player, channel, "uno new", {"edition": "classic"})).response()
    shown = (await (await fake.slash(admin, channel, "uno-admin status")).response()).message
    assert shown is not None and shown.is_ephemeral
    lines = shown.text.splitlines()
    assert lines[:3] == ["### UNO bot status", f"Version: {version()}", "Shard: 0 of 1"]
    assert lines[3].startswith("Gateway latency: ")
    assert lines[4:] == [
        "This server has 1 live table.",
        f"- <#{channel.id}>: a lobby, 1 player",
    ]
    assert version() != "unknown"


async def test_the_status_speaks_the_managers_language(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    channel = fake_guild.default_channel
    await start_bot(fake, bot_runner, tmp_path / "uno.db", channel)
    admin = await fake.create_member(fake_guild, "admin")
    managers = await fake.create_role(fake_guild, "managers", PERM_MANAGE_GUILD)
    await fake.set_member_roles(fake_guild, admin, [managers])
    itx = await fake.slash(admin, channel, "uno-admin status", locale="de")
    shown = (await itx.response()).message
    assert shown is not None
    assert shown.text.splitlines()[0] == "### Status des UNO-Bots"
    assert "Dieser Server hat 0 laufende Tische." in shown.text
