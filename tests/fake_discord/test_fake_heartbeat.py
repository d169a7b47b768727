"""The gateway answers a heartbeat a network's time later, as Discord does: an instant answer
can beat discord.py's keep-alive thread to noting when it sent the heartbeat, and discord.py
then warns "Can't keep up ... 41.3s behind" (the whole interval) though nothing was late."""

from __future__ import annotations

import time

import aiohttp

from fake_discord import FakeDiscord


async def test_a_heartbeat_is_acknowledged_after_the_networks_delay_and_the_session_goes_on(
    fake_discord: FakeDiscord,
) -> None:
    fake_discord.gateway.ack_delay = 0.2
    url = fake_discord.gateway_url + "?v=10&encoding=json"
    async with aiohttp.ClientSession() as http, http.ws_connect(url) as ws:
        hello = await ws.receive_json()
        assert hello["op"] == 10
        sent = time.perf_counter()
        await ws.send_json({"op": 1, "d": None})
        # Meanwhile the session still answers: an identify is handled before the ack.
        await ws.send_json({"op": 2, "d": {"token": fake_discord.token, "intents": 0}})
        first = await ws.receive_json()
        assert first["t"] == "READY"
        while (message := await ws.receive_json())["op"] != 11:
            assert message["op"] == 0  # the guilds' events
        assert time.perf_counter() - sent >= 0.2
