"""Watching the fake: every change of messages and channels, rejected calls and failed
interactions reach the watchers; fixed ids for a world that stays the same across runs."""

from __future__ import annotations

import aiohttp
import pytest

from fake_discord import BotRunner, FakeDiscord, FakeGuild, FakeUser
from fake_discord.minimal_bot import MinimalBot
from fake_discord.watch import (
    CallRejected,
    Change,
    ChannelChanged,
    InteractionFailed,
    MessageChanged,
)


async def test_watchers_see_messages_edits_threads_and_deletes(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot: MinimalBot, alice: FakeUser
) -> None:
    seen: list[Change] = []
    stop = fake_discord.watch(seen.append)
    channel = fake_guild.default_channel
    itx = await fake_discord.slash(alice, channel, "demo announce", {"text": "hi"})
    await itx.response()
    thread = (await fake_discord.wait_for(lambda: fake_discord.threads_of(channel)))[0]
    await fake_discord.wait_for(lambda: fake_discord.public_messages(thread))
    announcement = fake_discord.public_messages(channel)[0]
    changed = [c.message for c in seen if isinstance(c, MessageChanged)]
    # Created, edited, then marked as having a thread.
    assert changed.count(announcement) == 3
    assert itx.original in changed  # the ephemeral answer too
    assert [c.channel for c in seen if isinstance(c, ChannelChanged)][-1] is thread

    hand = await fake_discord.slash(alice, channel, "demo hand")
    private = await hand.followup(0)
    fold = await fake_discord.slash(alice, channel, "demo fold")
    await fold.response()
    await fake_discord.wait_for(lambda: private.deleted)
    assert isinstance(seen[-1], MessageChanged) and seen[-1].message is private

    stop()
    count = len(seen)
    await fake_discord.delete_channel(thread)
    assert len(seen) == count
    stop()  # stopping twice is harmless


async def test_watchers_see_rejected_calls_and_failed_interactions(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    bot: MinimalBot,
    alice: FakeUser,
    bot_runner: BotRunner,
    http: aiohttp.ClientSession,
) -> None:
    seen: list[Change] = []
    fake_discord.watch(seen.append)
    fake_discord.ack_timeout = 0.05
    bot.slow_delay = 0.15
    itx = await fake_discord.slash(alice, fake_guild.default_channel, "demo slow")
    await fake_discord.wait_for(lambda: any(isinstance(c, CallRejected) for c in seen))
    failed = [c.interaction for c in seen if isinstance(c, InteractionFailed)]
    assert failed == [itx]
    [rejected] = [c.error for c in seen if isinstance(c, CallRejected)]
    assert rejected is fake_discord.errors[-1] and rejected.code == 10062
    await fake_discord.wait_for(lambda: bot_runner.errors)
    bot_runner.errors.clear()

    async with http.post(f"channels/{fake_guild.default_channel.id}/messages", json={}) as resp:
        assert resp.status == 400
    assert isinstance(seen[-1], CallRejected) and seen[-1].error.code == 50006
    fake_discord.errors.clear()


async def test_a_failing_watcher_does_not_break_the_fake(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    bot: MinimalBot,
    alice: FakeUser,
    caplog: pytest.LogCaptureFixture,
) -> None:
    def broken(change: Change) -> None:
        raise RuntimeError("boom")

    seen: list[Change] = []
    fake_discord.watch(broken)
    fake_discord.watch(seen.append)
    itx = await fake_discord.slash(alice, fake_guild.default_channel, "demo secret")
    message = (await itx.response()).message
    assert message is not None and message.visible_to(alice)
    assert any(isinstance(c, MessageChanged) for c in seen)
    assert "a watcher of the fake failed" in caplog.text


async def test_fixed_ids_stay_what_they_were_asked_to_be(fake_discord: FakeDiscord) -> None:
    owner = await fake_discord.create_user("owner", user_id=1000)
    guild = await fake_discord.create_guild(
        "Fixed", owner=owner, guild_id=2000, channel_id=3000, channel_name="uno"
    )
    member = await fake_discord.create_member(guild, "zoe", user_id=4000)
    assert (owner.id, guild.id, guild.default_channel.id, member.id) == (1000, 2000, 3000, 4000)
    assert guild.default_channel.name == "uno" and member.id in guild.members
    with pytest.raises(ValueError, match="taken"):
        await fake_discord.create_member(guild, "again", user_id=4000)
    with pytest.raises(ValueError, match="taken"):
        await fake_discord.create_guild("Clash", owner=owner, guild_id=3000)
    # New snowflakes still come after, as on Discord.
    later = await fake_discord.create_user("later")
    assert later.id > 4000
