"""Sharding as Discord does it: each guild's events and interactions reach only the connection
that identified with the guild's shard, (guild_id >> 22) % shard_count."""

from __future__ import annotations

import aiohttp
import discord
import pytest

from fake_discord import BotRunner, FakeDiscord, FakeGuild
from fake_discord.minimal_bot import MinimalBot

# Fixed guild ids on shard 0 and on shard 1 of two.
ON_ZERO, ON_ONE = (4000 << 22) | 77, (4001 << 22) | 77


def shards_of(fake: FakeDiscord) -> list[tuple[int, ...]]:
    """The [shard_id, shard_count] each live gateway connection identified with."""
    return sorted(tuple(s.shard or ()) for s in fake.gateway.live_sessions())


@pytest.fixture
async def guilds(fake_discord: FakeDiscord) -> tuple[FakeGuild, FakeGuild]:
    zero = await fake_discord.create_guild("Zero", guild_id=ON_ZERO)
    one = await fake_discord.create_guild("One", guild_id=ON_ONE)
    return zero, one


async def test_each_shard_hears_only_its_guilds_and_their_interactions(
    fake_discord: FakeDiscord, guilds: tuple[FakeGuild, FakeGuild], bot_runner: BotRunner
) -> None:
    zero, one = guilds
    first = MinimalBot(shard_id=0, shard_count=2)
    second = MinimalBot(shard_id=1, shard_count=2)
    await bot_runner.start(first)
    await bot_runner.start(second)
    assert [g.id for g in first.guilds] == [zero.id]
    assert [g.id for g in second.guilds] == [one.id]
    assert shards_of(fake_discord) == [(0, 2), (1, 2)]

    # Gateway events go to the guild's shard alone.
    made = await fake_discord.create_channel(one, "later")
    await fake_discord.wait_for(lambda: second.get_channel(made.id), what="CHANNEL_CREATE")
    assert first.get_channel(made.id) is None

    # So do interactions: each one answered by the bot on the guild's shard.
    alice = await fake_discord.create_member(zero, "alice")
    bob = await fake_discord.create_member(one, "bob")
    await (await fake_discord.slash(alice, zero.default_channel, "demo hand")).response()
    await (await fake_discord.slash(bob, one.default_channel, "demo hand")).response()
    assert first.hand_versions == {alice.id: 1} and second.hand_versions == {bob.id: 1}
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()


async def test_a_guild_whose_shard_is_down_reaches_nobody(
    fake_discord: FakeDiscord, guilds: tuple[FakeGuild, FakeGuild], bot_runner: BotRunner
) -> None:
    zero, one = guilds
    first = MinimalBot(shard_id=0, shard_count=2)
    second = MinimalBot(shard_id=1, shard_count=2)
    await bot_runner.start(first)
    running = await bot_runner.start(second)
    await bot_runner.kill(running)
    bob = await fake_discord.create_member(one, "bob")
    with pytest.raises(AssertionError, match="no bot is connected on the shard"):
        await fake_discord.slash(bob, one.default_channel, "demo hand")
    alice = await fake_discord.create_member(zero, "alice")
    await (await fake_discord.slash(alice, zero.default_channel, "demo hand")).response()
    assert first.hand_versions == {alice.id: 1}

    # Back on its shard, a new process hears of its guild and answers again.
    again = MinimalBot(shard_id=1, shard_count=2)
    await bot_runner.start(again)
    assert [g.id for g in again.guilds] == [one.id]
    await (await fake_discord.slash(bob, one.default_channel, "demo hand")).response()
    assert again.hand_versions == {bob.id: 1}


async def test_an_unsharded_client_hears_every_guild(
    fake_discord: FakeDiscord, guilds: tuple[FakeGuild, FakeGuild], bot_runner: BotRunner
) -> None:
    client = MinimalBot()
    await bot_runner.start(client)
    assert sorted(g.id for g in client.guilds) == sorted(g.id for g in guilds)
    [session] = fake_discord.gateway.live_sessions()
    assert session.shard is None and session.handles(ON_ZERO) and session.handles(ON_ONE)


async def test_an_auto_sharded_client_opens_the_recommended_shards(
    fake_discord: FakeDiscord, guilds: tuple[FakeGuild, FakeGuild], bot_runner: BotRunner
) -> None:
    fake_discord.shards = 2
    client = discord.AutoShardedClient(intents=discord.Intents.default())
    await bot_runner.start(client)
    assert client.shard_count == 2
    assert shards_of(fake_discord) == [(0, 2), (1, 2)]
    assert sorted(g.id for g in client.guilds) == [ON_ZERO, ON_ONE]
    assert [g.shard_id for g in sorted(client.guilds, key=lambda g: g.id)] == [0, 1]


async def test_identify_with_a_shard_outside_the_count_is_refused(
    fake_discord: FakeDiscord,
) -> None:
    url = fake_discord.gateway_url + "?v=10&encoding=json"
    async with aiohttp.ClientSession() as http, http.ws_connect(url) as ws:
        await ws.receive_json()  # HELLO
        await ws.send_json({"op": 2, "d": {"token": fake_discord.token, "shard": [2, 2]}})
        closed = await ws.receive()
        assert closed.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
        assert ws.close_code == 4010
