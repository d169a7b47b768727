"""The fake's injectable clock: timestamps, token expiry, the age limit on edits."""

from __future__ import annotations

import datetime as dt

import aiohttp
import discord
import pytest

from fake_discord import BotRunner, FakeDiscord, FakeGuild, FakeUser, ManualClock
from fake_discord.minimal_bot import MinimalBot
from tests.fake_discord.helpers import call

HOUR = 3600.0


async def test_messages_are_dated_by_the_fake_clock(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    fake_clock: ManualClock,
    http: aiohttp.ClientSession,
) -> None:
    channel = fake_guild.default_channel
    start = fake_clock.time()
    _, first = await call(http, "POST", f"channels/{channel.id}/messages", {"content": "a"})
    fake_clock.advance(2 * HOUR)
    _, second = await call(http, "POST", f"channels/{channel.id}/messages", {"content": "b"})
    created = [dt.datetime.fromisoformat(m["timestamp"]).timestamp() for m in (first, second)]
    assert created == pytest.approx([start, start + 2 * HOUR], abs=0.01)
    # discord.py dates a message from its id: the id carries the fake clock's time too.
    assert discord.utils.snowflake_time(int(second["id"])).timestamp() == pytest.approx(
        start + 2 * HOUR, abs=0.01
    )
    fake_clock.advance(60)
    _, edited = await call(
        http, "PATCH", f"channels/{channel.id}/messages/{first['id']}", {"content": "a2"}
    )
    assert dt.datetime.fromisoformat(edited["edited_timestamp"]).timestamp() == pytest.approx(
        start + 2 * HOUR + 60, abs=0.01
    )


def test_a_manual_clock_only_moves_forward() -> None:
    clock = ManualClock(1000.0)
    clock.advance(5)
    assert clock.time() == 1005.0
    with pytest.raises(ValueError, match="backwards"):
        clock.advance(-1)
    with pytest.raises(ValueError, match="backwards"):
        clock.set(1000.0)


async def test_interaction_tokens_expire_after_15_minutes_of_the_clock(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    fake_clock: ManualClock,
    bot: MinimalBot,
    alice: FakeUser,
    http: aiohttp.ClientSession,
) -> None:
    itx = await fake_discord.slash(alice, fake_guild.default_channel, "demo secret")
    await itx.response()
    url = f"webhooks/{fake_discord.application_id}/{itx.token}/messages/@original"
    fake_clock.advance(15 * 60 - 1)
    assert (await call(http, "PATCH", url, {"content": "still mine"}))[0] == 200
    fake_clock.advance(2)
    status, body = await call(http, "PATCH", url, {"content": "too late"})
    assert (status, body["code"]) == (401, 50027)
    assert itx.original is not None and itx.original.content == "still mine"


async def test_the_three_second_deadline_runs_on_real_time(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    fake_clock: ManualClock,
    bot: MinimalBot,
    alice: FakeUser,
) -> None:
    itx = await fake_discord.slash(alice, fake_guild.default_channel, "demo secret")
    fake_clock.advance(HOUR)  # the bot answers within real milliseconds: still in time
    assert (await itx.response()).message is not None
    fake_discord.assert_no_errors()


async def test_an_old_message_with_many_edits_takes_no_more(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    fake_clock: ManualClock,
    http: aiohttp.ClientSession,
) -> None:
    channel = fake_guild.default_channel
    fake_discord.old_message_edit_limit = 3
    _, busy = await call(http, "POST", f"channels/{channel.id}/messages", {"content": "0"})
    _, quiet = await call(http, "POST", f"channels/{channel.id}/messages", {"content": "0"})
    for i in range(3):
        url = f"channels/{channel.id}/messages/{busy['id']}"
        assert (await call(http, "PATCH", url, {"content": str(i + 1)}))[0] == 200
    # Young messages take any number of edits.
    assert fake_discord.messages[int(busy["id"])].edit_count == 3

    fake_clock.advance(HOUR + 1)
    status, body = await call(
        http, "PATCH", f"channels/{channel.id}/messages/{busy['id']}", {"content": "late"}
    )
    assert status == 429 and body["code"] == 30046 and body["global"] is False
    assert fake_discord.messages[int(busy["id"])].content == "3"
    # An old message with few edits still takes them, up to the limit.
    url = f"channels/{channel.id}/messages/{quiet['id']}"
    assert (await call(http, "PATCH", url, {"content": "fine"}))[0] == 200
    assert [e.code for e in fake_discord.errors] == [30046]


async def test_discord_py_sees_the_age_limit_as_error_30046(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    fake_clock: ManualClock,
    bot_runner: BotRunner,
) -> None:
    bot = MinimalBot()
    await bot_runner.start(bot)
    channel = bot.get_channel(fake_guild.default_channel.id)
    assert isinstance(channel, discord.TextChannel)
    message = await channel.send("table")
    for turn in range(fake_discord.old_message_edit_limit):
        message = await message.edit(content=f"turn {turn}")
    fake_clock.advance(HOUR + 1)
    with pytest.raises(discord.HTTPException) as excinfo:
        await message.edit(content="one more")
    assert excinfo.value.code == 30046
    fake_discord.errors.clear()
    bot_runner.errors.clear()
