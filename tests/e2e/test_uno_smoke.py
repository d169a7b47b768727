"""A first whole path through the bot: lobby, start, hand, a card played."""

from __future__ import annotations

from pathlib import Path

from fake_discord import BotRunner, FakeDiscord, FakeGuild
from tests.e2e.helpers import open_hand, start_bot, table_message


async def test_lobby_start_and_play(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    channel = fake_guild.default_channel
    await start_bot(fake_discord, bot_runner, tmp_path / "uno.db", channel)
    alice = await fake_discord.create_member(fake_guild, "alice", global_name="Crème")
    bob = await fake_discord.create_member(fake_guild, "bob", global_name="Bob @everyone")
    itx = await fake_discord.slash(alice, channel, "uno new", {"edition": "classic"})
    lobby = (await itx.response()).message
    assert lobby is not None and "Crème" in lobby.text
    await (await fake_discord.click(bob, lobby, lobby.button("Join"))).response()
    assert "Bob" in lobby.text
    # User text never pings nor formats: the mention is broken and nothing may ping.
    assert "@everyone" not in lobby.text and not lobby.pings_everyone
    await (await fake_discord.click(alice, lobby, lobby.button("Start"))).response()
    thread = (await fake_discord.wait_for(lambda: fake_discord.threads_of(channel)))[0]
    table = await fake_discord.wait_for(lambda: table_message(fake_discord, thread))
    assert "table.png" in table.attachments[0].filename
    hand = await open_hand(fake_discord, alice, table)
    assert hand.is_ephemeral and "Your hand" in hand.text
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()


async def test_help_names_every_command(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    channel = fake_guild.default_channel
    await start_bot(fake_discord, bot_runner, tmp_path / "uno.db", channel)
    alice = await fake_discord.create_member(fake_guild, "alice")
    names: list[str] = []
    groups: list[list[str]] = []  # a group of subcommands is named by one of them at least
    for scope in fake_discord.commands.values():
        for command in scope.values():
            for option in command.get("options", []):
                if option["type"] == 1:  # a subcommand
                    names.append(f"/{command['name']} {option['name']}")
                elif option["type"] == 2:  # a group of subcommands
                    groups.append(
                        [
                            f"/{command['name']} {option['name']} {sub['name']}"
                            for sub in option["options"]
                        ]
                    )
    assert "/uno new" in names and ["/uno-admin season new"] in groups
    reply = (await (await fake_discord.slash(alice, channel, "uno help", {})).response()).message
    assert reply is not None and reply.is_ephemeral
    # Every command is named as a clickable mention with the id Discord gave it.
    mentions = [fake_discord.command_mention(name.lstrip("/")) for name in names]
    assert [m for m in mentions if m not in reply.text] == []
    for group in groups:
        named = [fake_discord.command_mention(name.lstrip("/")) for name in group]
        assert any(m in reply.text for m in named), group
    assert "`/uno" not in reply.text and len(reply.text) <= 2000
