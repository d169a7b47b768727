"""Channels as Discord guards them: deleted ones are unknown, hidden ones out of reach, and
their history can be read back page by page."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
import pytest

from fake_discord import BotRunner, FakeDiscord, FakeGuild, FakeUser
from fake_discord.constants import (
    CH_PRIVATE_THREAD,
    CH_PUBLIC_THREAD,
    DEFAULT_BOT_PERMISSIONS,
    PERM_MANAGE_THREADS,
    PERM_READ_MESSAGE_HISTORY,
    PERM_VIEW_CHANNEL,
)
from fake_discord.minimal_bot import MinimalBot
from tests.fake_discord.helpers import call


async def test_a_deleted_thread_is_an_unknown_channel(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    bot: MinimalBot,
    alice: FakeUser,
    http: aiohttp.ClientSession,
) -> None:
    channel = fake_guild.default_channel
    # The bot's cache follows the gateway: wait for its own events, not the fake's.
    created = asyncio.ensure_future(bot.wait_for("thread_create", timeout=10))
    thread = await fake_discord.create_channel(
        fake_guild, "game", type=CH_PUBLIC_THREAD, parent=channel
    )
    assert (await created).id == thread.id and bot.get_channel(thread.id) is not None
    _, posted = await call(http, "POST", f"channels/{thread.id}/messages", {"content": "x"})

    deleted = asyncio.ensure_future(bot.wait_for("raw_thread_delete", timeout=10))
    await fake_discord.delete_channel(thread)
    assert (await deleted).thread_id == thread.id and bot.get_channel(thread.id) is None
    assert thread.deleted and fake_discord.threads_of(channel) == []
    for method, path in [
        ("GET", f"channels/{thread.id}"),
        ("POST", f"channels/{thread.id}/messages"),
        ("PATCH", f"channels/{thread.id}/messages/{posted['id']}"),
    ]:
        status, body = await call(http, method, path, {"content": "y"})
        assert (status, body["code"]) == (404, 10003)
    with pytest.raises(discord.NotFound) as excinfo:
        await bot.http.send_message(
            thread.id, params=discord.http.MultipartParameters({"content": "z"}, None, None)
        )
    assert excinfo.value.code == 10003
    with pytest.raises(AssertionError, match="deleted"):
        await fake_discord.slash(alice, thread, "demo secret")
    fake_discord.errors.clear()


async def test_deleting_a_channel_takes_its_threads_and_needs_the_right(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, http: aiohttp.ClientSession
) -> None:
    channel = await fake_discord.create_channel(fake_guild, "games")
    _, thread = await call(
        http, "POST", f"channels/{channel.id}/threads", {"name": "table", "type": 11}
    )
    # The bot may delete its own thread, not a channel without Manage Channels.
    assert (await call(http, "DELETE", f"channels/{channel.id}"))[1]["code"] == 50013
    assert (await call(http, "DELETE", f"channels/{thread['id']}"))[0] == 200
    assert int(thread["id"]) in fake_discord.deleted_channels
    other = await fake_discord.create_channel(fake_guild, "more")
    sub = await fake_discord.create_channel(fake_guild, "t", type=CH_PUBLIC_THREAD, parent=other)
    await fake_discord.delete_channel(other)
    assert sub.deleted and sub.id not in fake_discord.channels
    fake_discord.errors.clear()


async def test_a_channel_the_bot_cannot_see_is_missing_access(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot: MinimalBot, http: aiohttp.ClientSession
) -> None:
    hidden = await fake_discord.create_channel(
        fake_guild,
        "staff",
        overwrites=[{"id": str(fake_guild.id), "type": 0, "deny": str(PERM_VIEW_CHANNEL)}],
    )
    for method, path in [
        ("GET", f"channels/{hidden.id}"),
        ("GET", f"channels/{hidden.id}/messages"),
        ("POST", f"channels/{hidden.id}/messages"),
    ]:
        status, body = await call(http, method, path, {"content": "psst"})
        assert (status, body["code"]) == (403, 50001)
    channel = bot.get_channel(hidden.id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.Forbidden) as excinfo:
        await channel.send("psst")
    assert excinfo.value.code == 50001
    fake_discord.errors.clear()


async def test_a_private_thread_is_out_of_reach_unless_joined_or_managed(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    guild = await fake_discord.create_guild(
        "No threads", bot_permissions=DEFAULT_BOT_PERMISSIONS & ~PERM_MANAGE_THREADS
    )
    private = await fake_discord.create_channel(
        guild, "secret", type=CH_PRIVATE_THREAD, parent=guild.default_channel
    )
    assert (await call(http, "GET", f"channels/{private.id}"))[1]["code"] == 50001
    private.thread_members.add(fake_discord.bot_user.id)
    assert (await call(http, "GET", f"channels/{private.id}"))[0] == 200
    fake_discord.errors.clear()


async def test_history_pages_like_discord(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    bot: MinimalBot,
    alice: FakeUser,
    http: aiohttp.ClientSession,
) -> None:
    channel = fake_guild.default_channel
    sent = [await fake_discord.send_user_message(alice, channel, str(i)) for i in range(130)]
    await (await fake_discord.slash(alice, channel, "demo secret")).response()  # ephemeral
    ids = [m.id for m in sent]
    url = f"channels/{channel.id}/messages"

    _, page = await call(http, "GET", url)
    assert [int(m["id"]) for m in page] == ids[::-1][:50]  # newest first, 50 by default
    _, page = await call(http, "GET", f"{url}?limit=3&before={ids[10]}")
    assert [int(m["id"]) for m in page] == [ids[9], ids[8], ids[7]]
    _, page = await call(http, "GET", f"{url}?limit=3&after={ids[10]}")
    assert [int(m["id"]) for m in page] == [ids[13], ids[12], ids[11]]
    _, page = await call(http, "GET", f"{url}?limit=4&around={ids[10]}")
    assert sorted(int(m["id"]) for m in page) == ids[8:12]
    for bad in ("limit=0", "limit=101", "limit=x", "before=x"):
        status, body = await call(http, "GET", f"{url}?{bad}")
        assert (status, body["code"]) == (400, 50035)

    # discord.py pages through it all (100 at a time) to reconcile after a restart.
    text = bot.get_channel(channel.id)
    assert isinstance(text, discord.TextChannel)
    seen = [m.id async for m in text.history(limit=None)]
    assert seen == ids[::-1]
    oldest_first = [m.id async for m in text.history(limit=5, after=discord.Object(ids[100]))]
    assert oldest_first == ids[101:106]

    # Without Read Message History the history is empty.
    hide = {"id": str(fake_guild.id), "type": 0, "deny": str(PERM_READ_MESSAGE_HISTORY)}
    channel.overwrites = [hide]
    assert (await call(http, "GET", url))[1] == []
    fake_discord.errors.clear()


async def test_a_fake_started_by_default_listens_on_loopback_only(
    fake_discord: FakeDiscord, bot_runner: BotRunner
) -> None:
    assert fake_discord.host == "127.0.0.1"
    assert fake_discord.base_url.startswith("http://127.0.0.1:")
    assert fake_discord._runner is not None
    assert [host for host, *_ in fake_discord._runner.addresses] == ["127.0.0.1"]
