"""/uno settings: the panel, permissions, and a turn timer that reaches the next game."""

from __future__ import annotations

from pathlib import Path

import pytest

from fake_discord import BotRunner, FakeDiscord, FakeGuild
from fake_discord.constants import PERM_MANAGE_GUILD
from tests.e2e.helpers import (
    commands_granted_to_everyone,
    lobby_and_start,
    settle,
    start_bot,
    table_message,
)


async def test_settings_panel_changes_the_next_game(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    channel = fake_guild.default_channel
    h = await start_bot(fake_discord, bot_runner, tmp_path / "uno.db", channel)
    player = await fake_discord.create_member(fake_guild, "player")
    admin = await fake_discord.create_member(fake_guild, "admin")
    managers = await fake_discord.create_role(fake_guild, "managers", PERM_MANAGE_GUILD)
    await fake_discord.set_member_roles(fake_guild, admin, [managers])

    with pytest.raises(AssertionError, match="hidden"):
        await fake_discord.slash(player, channel, "uno-admin settings")
    with commands_granted_to_everyone():  # still refused when it runs
        itx = await fake_discord.slash(player, channel, "uno-admin settings")
    refused = (await itx.response()).message
    assert refused is not None and refused.is_ephemeral and "Manage Server" in refused.text

    panel = (
        await (await fake_discord.slash(admin, channel, "uno-admin settings")).response()
    ).message
    assert panel is not None and panel.is_ephemeral and "Turn timer:** off" in panel.text
    guild = fake_guild.id
    await (await fake_discord.select(admin, panel, f"unoset:{guild}:timer", ["1m"])).response()
    await (await fake_discord.select(admin, panel, f"unoset:{guild}:edition", ["sonic"])).response()
    await (await fake_discord.click(admin, panel, f"unotog:{guild}:computers")).response()
    assert "Turn timer:** 1m" in panel.text and "not allowed" in panel.text
    stored = await h.storage.get_settings(guild)
    assert stored.turn_seconds == 60 and stored.edition == "sonic" and not stored.computers_allowed

    # The next lobby uses the server's defaults: Sonic, no computers, a one-minute turn timer.
    other = await fake_discord.create_member(fake_guild, "other")
    lobby, thread = await lobby_and_start(h, [player, other], {})
    assert "Sonic" in lobby.text
    assert not [b for b in lobby.buttons if "computer" in b.label.lower()]
    board = table_message(fake_discord, thread)  # type: ignore[arg-type]
    assert board is not None and "time runs out <t:" in board.text
    [table] = h.bot.tables.tables.values()
    current = table.match.game.current  # type: ignore[union-attr]
    await h.scheduler.advance(61)  # nobody moved: the player's own safest choice is made
    await settle(h)
    assert table.match.game.current != current  # type: ignore[union-attr]
    board = table_message(fake_discord, thread)  # type: ignore[arg-type]
    assert board is not None and "ran out of time" in board.text
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()
