"""Rematch: a match played to its end offers a lobby with the same seats and options, once, to
its players, and the offer still answers after a restart."""

from __future__ import annotations

from pathlib import Path

from bot.engine import HouseRules
from bot.tables.table import Status
from fake_discord import BotRunner, FakeDiscord, FakeGuild, FakeMessage, FakeUser
from tests.e2e.helpers import Harness, lobby_and_start, maybe_catch, play_turn, settle, start_bot


async def private_answer(h: Harness, user: FakeUser, msg: FakeMessage, label: str) -> str:
    """Press ``label`` on ``msg`` and return the private answer's text."""
    itx = await h.fake.click(user, msg, msg.button(label))
    response = await itx.response()
    if response.message is not None and not response.message.is_loading:
        assert response.message.is_ephemeral
        return response.message.text
    reply = await itx.followup(0)
    assert reply.is_ephemeral
    return reply.text


async def test_a_finished_match_reopens_its_lobby_once_for_its_players(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    channel = fake_guild.default_channel
    db = tmp_path / "uno.db"
    h = await start_bot(fake_discord, bot_runner, db, channel, seed=3)
    users = [await fake_discord.create_member(fake_guild, f"p{i}") for i in range(2)]
    stranger = await fake_discord.create_member(fake_guild, "stranger")
    by_id = {u.id: u for u in users}
    options = {"edition": "sonic", "length": "round", "scoring": "lowest"}
    lobby, thread = await lobby_and_start(h, users, options)
    for step in range(600):
        if not h.bot.tables.tables:
            break
        await play_turn(h, by_id, thread, step)
        await maybe_catch(h, by_id, thread)
    assert not h.bot.tables.tables, "the match did not finish"
    await settle(h)
    final = fake_discord.public_messages(thread)[-1]  # type: ignore[arg-type]
    assert "won the match" in final.text
    assert [b.label for b in final.buttons] == ["Rematch", "Round recap"]

    # Only a player of the match may ask for it.
    refused = await private_answer(h, stranger, final, "Rematch")
    assert refused == "Only the players of this match can ask for a rematch."
    assert not h.bot.tables.tables

    # A player asks: a new lobby in the lobby's channel, the same seats and options.
    before = len(fake_discord.public_messages(channel))
    opened = await private_answer(h, users[1], final, "Rematch")
    assert opened.startswith("The rematch lobby is open: https://discord.com/channels/")
    posted = fake_discord.public_messages(channel)
    assert len(posted) == before + 1
    rematch = posted[-1]
    assert opened.endswith(f"/{channel.id}/{rematch.id}")
    assert rematch.id != lobby.id
    assert "UNO Sonic the Hedgehog · a single round · lowest score wins" in rematch.text
    assert users[0].display_name in rematch.text and users[1].display_name in rematch.text
    assert [b.label for b in rematch.buttons][:4] == ["Join", "Leave", "Start", "Cancel"]
    assert not rematch.pings_everyone and not rematch.pinged_user_ids
    [table] = h.bot.tables.tables.values()
    assert table.status is Status.LOBBY and table.host_id == users[1].id
    assert [s.user_id for s in table.seats] == [users[0].id, users[1].id]
    assert table.rules.edition.value == "sonic" and table.rules.target is None
    assert table.rules.scoring.value == "lowest"

    # A second press says where the rematch is and opens nothing.
    again = await private_answer(h, users[0], final, "Rematch")
    assert again == f"The rematch is already open: {opened.split(': ', 1)[1]}"
    assert len(h.bot.tables.tables) == 1

    # After a restart the offer still answers, from the saved lobby.
    await bot_runner.kill(h.running)
    second = await start_bot(fake_discord, bot_runner, db, channel, seed=4)
    await settle(second)
    after = await private_answer(second, users[0], final, "Rematch")
    assert after == again
    assert len(second.bot.tables.tables) == 1

    # The host starts it: the same two play again.
    itx = await fake_discord.click(users[1], rematch, rematch.button("Start"))
    await itx.response()
    await fake_discord.wait_for(
        lambda: any(t.status is Status.PLAYING for t in second.bot.tables.tables.values()),
        what="the rematch to start",
    )
    await settle(second)
    assert not fake_discord.failed_interactions()
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()


async def test_a_match_finished_before_a_restart_reopens_from_the_league(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    channel = fake_guild.default_channel
    db = tmp_path / "uno.db"
    h = await start_bot(fake_discord, bot_runner, db, channel, seed=8)
    users = [await fake_discord.create_member(fake_guild, f"q{i}") for i in range(2)]
    options = {"edition": "classic", "target": 50, "house_rules": "chill"}
    _, thread = await lobby_and_start(h, users, options)
    # The match ends by forfeit: the guest leaves, the host wins.
    board = fake_discord.public_messages(thread)[-1]  # type: ignore[arg-type]
    await (await fake_discord.click(users[1], board, board.button("Leave game"))).response()
    await settle(h)
    assert not h.bot.tables.tables
    final = fake_discord.public_messages(thread)[-1]  # type: ignore[arg-type]
    assert [b.label for b in final.buttons] == ["Rematch"]  # no card played: nothing to recap

    await bot_runner.kill(h.running)
    second = await start_bot(fake_discord, bot_runner, db, channel, seed=9)
    opened = await private_answer(second, users[1], final, "Rematch")
    assert opened.startswith("The rematch lobby is open:")
    [table] = second.bot.tables.tables.values()
    assert [s.user_id for s in table.seats] == [users[0].id, users[1].id]
    assert table.host_id == users[1].id and table.channel_id == channel.id
    assert table.rules.target == 50 and table.rules.edition.value == "classic"
    assert table.rules.house == HouseRules.preset("chill")
    rematch = fake_discord.public_messages(channel)[-1]
    assert "Classic UNO · first to 50 points wins" in rematch.text
    assert not fake_discord.failed_interactions()
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()
