"""Pointing discord.py at the fake (in this process or a child), and back at Discord once a
test is done; nothing driven against the fake leaves the machine."""

from __future__ import annotations

import asyncio
import os
import socket
import sys

import aiohttp
import pytest
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from fake_discord import FakeDiscord, NonLoopbackConnection, loopback_only, point_discord_py_at
from fake_discord.discord_py import URL_ENV
from fake_discord.netguard import LoopbackOnly, is_loopback_address
from fake_discord.server import is_loopback

DOCUMENTATION_ADDRESS = ("203.0.113.7", 443)  # TEST-NET-3: never a real host


def test_the_guard_refuses_anything_but_loopback() -> None:
    with loopback_only():
        sock = socket.socket()
        with sock, pytest.raises(NonLoopbackConnection, match=r"203\.0\.113\.7"):
            sock.connect(DOCUMENTATION_ADDRESS)
        with socket.socket() as sock, pytest.raises(NonLoopbackConnection):
            sock.connect_ex(("discord.com", 443))
    assert not LoopbackOnly.active()
    assert [is_loopback_address(a) for a in [("127.0.0.1", 1), ("::1", 1), ("localhost", 1)]] == [
        True,
        True,
        True,
    ]
    assert not is_loopback_address(("10.0.0.1", 1)) and is_loopback_address("/tmp/socket")
    assert is_loopback("127.0.0.1") and not is_loopback("0.0.0.0")


async def test_the_fixture_keeps_discord_py_on_the_fake(fake_discord: FakeDiscord) -> None:
    assert LoopbackOnly.active()
    assert fake_discord.api_base == Route.BASE
    assert yarl.URL(fake_discord.gateway_url) == DiscordWebSocket.DEFAULT_GATEWAY
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{fake_discord.api_base}/gateway") as resp:
            assert (await resp.json())["url"] == fake_discord.gateway_url
        # discord.py connects through aiohttp, like this session: leaving the machine fails.
        with pytest.raises(aiohttp.ClientConnectorError) as excinfo:
            await session.get("http://203.0.113.7/api/v10/users/@me")
    assert isinstance(excinfo.value.os_error, NonLoopbackConnection)


async def test_pointing_discord_py_is_undone(fake_discord: FakeDiscord) -> None:
    outer = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
    with point_discord_py_at("http://127.0.0.1:9", guard=False) as redirect:
        assert Route.BASE == "http://127.0.0.1:9/api/v10"
        assert str(DiscordWebSocket.DEFAULT_GATEWAY) == "ws://127.0.0.1:9/"
        assert redirect.base_url == "http://127.0.0.1:9"
    assert outer == (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
    redirect.restore()  # twice is harmless
    assert outer == (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)


CHILD = """
import asyncio, os, discord
from fake_discord import point_discord_py_at
from fake_discord.discord_py import URL_ENV

async def main():
    with point_discord_py_at(os.environ[URL_ENV]):
        client = discord.Client(intents=discord.Intents.none())
        await client.login(os.environ["BOT_TOKEN"])
        print(client.user.id)
        await client.close()

asyncio.run(main())
"""


async def test_a_bot_in_a_child_process_finds_the_fake(fake_discord: FakeDiscord) -> None:
    env = {**os.environ, URL_ENV: fake_discord.base_url, "BOT_TOKEN": fake_discord.token}
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-c", CHILD, env=env, stdout=asyncio.subprocess.PIPE
    )
    out, _ = await asyncio.wait_for(child.communicate(), 60)
    assert child.returncode == 0
    assert int(out.decode().strip()) == fake_discord.bot_user.id
    assert ("GET", "/users/@me") in fake_discord.requests
