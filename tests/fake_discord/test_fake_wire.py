"""The stamp at the wire: every request through the proxy carries the time its first bytes
came off the socket, and reaches the fake byte for byte otherwise."""

from __future__ import annotations

import random

import aiohttp

from fake_discord import FakeDiscord
from fake_discord.traffic import WIRE_AT_HEADER
from fake_discord.wire import Stamper, WireStamp

GET = b"GET /a HTTP/1.1\r\nHost: x\r\n\r\n"
SIZED = b"POST /b HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello"
CHUNKED = (
    b"POST /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
    b"3\r\nabc\r\n10;ext=1\r\n0123456789abcdef\r\n0\r\nX-Trailer: 1\r\n\r\n"
)


def stamped(request: bytes, at: float) -> bytes:
    head, body = request.split(b"\r\n\r\n", 1)
    return head + f"\r\n{WIRE_AT_HEADER}: {at!r}\r\n\r\n".encode() + body


def test_each_request_is_stamped_with_when_its_first_byte_came_in_any_split() -> None:
    stream = GET + SIZED + CHUNKED + GET
    starts = [0, len(GET), len(GET) + len(SIZED), len(GET) + len(SIZED) + len(CHUNKED)]
    rng = random.Random(7)
    for _ in range(200):
        cuts = sorted(rng.sample(range(1, len(stream)), rng.randint(1, 12)))
        pieces = [stream[a:b] for a, b in zip([0, *cuts], [*cuts, len(stream)], strict=True)]
        stamper = Stamper()
        out = b"".join(stamper.feed(piece, float(n)) for n, piece in enumerate(pieces))
        # the feed that held each request's first byte
        edges = [0, *cuts]
        came = [float(max(n for n, edge in enumerate(edges) if edge <= s)) for s in starts]
        want = b"".join(
            stamped(r, at) for r, at in zip((GET, SIZED, CHUNKED, GET), came, strict=True)
        )
        assert out == want


def test_an_upgraded_connection_is_piped_untouched_after_its_head() -> None:
    stamper = Stamper()
    upgrade = b"GET / HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"
    frames = b"\x81\x05hello\r\n\r\nGET / HTTP/1.1\r\n\r\n"
    assert stamper.feed(upgrade + frames, 1.5) == stamped(upgrade, 1.5) + frames


async def test_the_fake_records_the_wire_stamp_of_requests_through_the_proxy(
    fake_discord: FakeDiscord,
) -> None:
    guild = await fake_discord.create_guild("wired")
    proxy = WireStamp(fake_discord.port, clock=lambda: 1234.5)
    await proxy.start()
    headers = {"Authorization": f"Bot {fake_discord.token}"}
    base = f"http://127.0.0.1:{proxy.port}/api/v10"
    try:
        async with aiohttp.ClientSession(headers=headers) as http:
            for _ in range(2):  # one connection, kept alive: each request stamped
                form = aiohttp.FormData()
                form.add_field("payload_json", '{"content": "hi"}')
                form.add_field("files[0]", b"\x89PNG" * 5000, filename="a.png")
                url = f"{base}/channels/{guild.default_channel.id}/messages"
                async with http.post(url, data=form) as answer:
                    assert answer.status == 200
                async with http.get(f"{base}/users/@me") as answer:
                    assert answer.status == 200
    finally:
        await proxy.stop()
    records = [r for r in fake_discord.traffic.log if r.route != "/gateway/bot"]
    assert [r.wire_at for r in records] == [1234.5] * 4
    posted = fake_discord.public_messages(guild.default_channel)
    assert [len(m.attachments) for m in posted] == [1, 1]
