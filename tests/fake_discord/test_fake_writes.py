"""Message writes as Discord counts and guards them: enforced nonces, injected faults, the
per-channel write counters and the count of channel requests."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
import pytest

from fake_discord import BotRunner, FakeDiscord, FakeGuild, FakeUser, ManualClock
from fake_discord.minimal_bot import MinimalBot
from tests.fake_discord.helpers import call


def text_channel(bot: MinimalBot, channel_id: int) -> discord.TextChannel:
    channel = bot.get_channel(channel_id)
    assert isinstance(channel, discord.TextChannel)
    return channel


# ----- nonces -----


async def test_an_enforced_nonce_returns_the_first_message(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, http: aiohttp.ClientSession
) -> None:
    channel = fake_guild.default_channel
    post = {"content": "table", "nonce": "table-7-v3", "enforce_nonce": True}
    _, first = await call(http, "POST", f"channels/{channel.id}/messages", post)
    status, again = await call(http, "POST", f"channels/{channel.id}/messages", post)
    assert status == 200 and again["id"] == first["id"] and again["nonce"] == "table-7-v3"
    assert [m.content for m in fake_discord.public_messages(channel)] == ["table"]
    assert fake_discord.channel_requests(channel)["create"] == 2  # both calls count
    assert fake_discord.message_bursts(channel) == 1  # one message was written

    # Without enforce_nonce, or elsewhere, a nonce does not deduplicate.
    loose = {"content": "loose", "nonce": "table-7-v3"}
    await call(http, "POST", f"channels/{channel.id}/messages", loose)
    other = await fake_discord.create_channel(fake_guild, "other")
    _, there = await call(http, "POST", f"channels/{other.id}/messages", post)
    assert there["id"] != first["id"]
    assert len(fake_discord.public_messages(channel)) == 2


async def test_a_nonce_is_remembered_for_a_few_minutes(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    fake_clock: ManualClock,
    http: aiohttp.ClientSession,
) -> None:
    channel = fake_guild.default_channel
    post = {"content": "x", "nonce": 42, "enforce_nonce": True}
    _, first = await call(http, "POST", f"channels/{channel.id}/messages", post)
    fake_clock.advance(fake_discord.nonce_window - 1)
    assert (await call(http, "POST", f"channels/{channel.id}/messages", post))[1]["id"] == first[
        "id"
    ]
    fake_clock.advance(2)
    assert (await call(http, "POST", f"channels/{channel.id}/messages", post))[1]["id"] != first[
        "id"
    ]


async def test_a_post_retried_after_a_lost_answer_stays_one_message(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, http: aiohttp.ClientSession
) -> None:
    channel = fake_guild.default_channel
    # Discord stored the message, then the answer was a 500: the client retries.
    fault = fake_discord.faults.inject(
        "POST", "/channels/{channel_id}/messages", status=500, after_handling=True
    )
    post = {"content": "table", "nonce": "t1", "enforce_nonce": True}
    assert (await call(http, "POST", f"channels/{channel.id}/messages", post))[0] == 500
    status, retried = await call(http, "POST", f"channels/{channel.id}/messages", post)
    assert status == 200 and fault.remaining == 0
    assert [m.id for m in fake_discord.public_messages(channel)] == [int(retried["id"])]


async def test_discord_py_sends_enforced_nonces(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot: MinimalBot
) -> None:
    channel = text_channel(bot, fake_guild.default_channel.id)
    first = await channel.send("table", nonce=123456)
    second = await channel.send("table", nonce=123456)
    assert first.id == second.id
    assert len(fake_discord.public_messages(fake_guild.default_channel)) == 1


# ----- faults -----


async def test_a_429_is_retried_by_discord_py(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot: MinimalBot, bot_runner: BotRunner
) -> None:
    channel = text_channel(bot, fake_guild.default_channel.id)
    fault = fake_discord.faults.inject(
        "POST", "/channels/*/messages", status=429, retry_after=0.01, times=2
    )
    await channel.send("after two 429s")
    assert fault.fired == 2 and fault.remaining == 0 and not fake_discord.faults.pending
    posts = [r.status for r in fake_discord.traffic.log if r.kind == "create"]
    assert posts == [429, 429, 200]
    assert len(fake_discord.public_messages(fake_guild.default_channel)) == 1
    fake_discord.assert_no_errors()  # injected faults are not rejections of the bot's calls
    bot_runner.errors.clear()  # discord.py logs the 429s as warnings only


async def test_a_5xx_before_handling_changes_nothing(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, http: aiohttp.ClientSession
) -> None:
    channel = fake_guild.default_channel
    other = await fake_discord.create_channel(fake_guild, "other")
    fake_discord.faults.inject("POST", f"/channels/{other.id}/messages", status=503, code=0)
    # A fault on one channel's path leaves the others alone.
    assert (await call(http, "POST", f"channels/{channel.id}/messages", {"content": "a"}))[0] == 200
    status, body = await call(http, "POST", f"channels/{other.id}/messages", {"content": "b"})
    assert status == 503 and body["code"] == 0
    assert fake_discord.public_messages(other) == []
    assert (await call(http, "POST", f"channels/{other.id}/messages", {"content": "c"}))[0] == 200


async def test_a_delay_holds_one_request_back(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, http: aiohttp.ClientSession
) -> None:
    channel = fake_guild.default_channel
    fake_discord.faults.inject("*", f"/channels/{channel.id}", delay=30.0)
    slow = asyncio.create_task(call(http, "GET", f"channels/{channel.id}"))
    await fake_discord.wait_for(lambda: fake_discord.faults.fired)
    assert (await call(http, "GET", "users/@me"))[0] == 200
    assert not slow.done()  # still held back while other requests are answered
    slow.cancel()


def test_faults_are_429_or_5xx_errors_or_delays(fake_discord: FakeDiscord) -> None:
    with pytest.raises(ValueError, match="429 or 5xx"):
        fake_discord.faults.inject("GET", "/gateway", status=404)
    with pytest.raises(ValueError, match="status, a delay"):
        fake_discord.faults.inject("GET", "/gateway")


# ----- counters -----


async def test_bursts_count_creates_edits_and_deletes_in_a_sliding_window(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    fake_clock: ManualClock,
    http: aiohttp.ClientSession,
) -> None:
    channel = fake_guild.default_channel
    base = f"channels/{channel.id}/messages"
    _, msg = await call(http, "POST", base, {"content": "0"})  # t=0
    for i in range(1, 4):  # t=1, 2, 3
        fake_clock.advance(1)
        await call(http, "PATCH", f"{base}/{msg['id']}", {"content": str(i)})
    fake_clock.advance(1)  # t=4
    await call(http, "DELETE", f"{base}/{msg['id']}")
    fake_clock.advance(1)  # t=5: the write at t=0 has left the 5 s window
    await call(http, "POST", base, {"content": "again"})
    assert fake_discord.message_bursts(channel) == 5
    assert fake_discord.message_bursts(channel, window=6.0) == 6
    assert fake_discord.message_bursts(channel, kinds=["edit"]) == 3
    assert fake_discord.message_bursts(channel, kinds=["delete", "create"]) == 2
    assert fake_discord.channel_requests(channel) == {"create": 2, "edit": 3, "delete": 1}


async def test_channel_requests_leave_out_interaction_responses(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot: MinimalBot, alice: FakeUser
) -> None:
    channel = fake_guild.default_channel
    itx = await fake_discord.slash(alice, channel, "demo announce", {"text": "hi"})
    original = await itx.original_message()
    await fake_discord.wait_for(lambda: original.content == "Posted")
    [thread] = fake_discord.threads_of(channel)
    # The reply and its edit went through the interaction: not counted.
    assert fake_discord.channel_requests(channel) == {"create": 1, "edit": 1, "thread": 1}
    assert fake_discord.channel_requests(thread) == {"create": 1}
    assert fake_discord.channel_requests() == {"create": 2, "edit": 1, "thread": 1}
    answers = [r for r in fake_discord.traffic.log if r.answers_interaction]
    assert len(answers) == 2  # the callback and the edit of the original response
    assert fake_discord.message_bursts(channel) == 4  # all writes, interaction ones included
    assert fake_discord.message_bursts(channel, via=["channel"]) == 2
