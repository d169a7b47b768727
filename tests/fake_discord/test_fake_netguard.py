"""Nothing driven against the fake leaves the machine, and discord.py is pointed back at
Discord once a test is done."""

from __future__ import annotations

import socket

import aiohttp
import pytest
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from fake_discord import FakeDiscord, NonLoopbackConnection, loopback_only, point_discord_py_at
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
