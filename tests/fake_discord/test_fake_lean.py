"""A fake that runs for hours (`keep_history=False`): it keeps what Discord would still
serve and forgets what only tests read back, so its memory stays bounded."""

from __future__ import annotations

import io

import aiohttp
import pytest
from PIL import Image

from fake_discord import FakeDiscord, FakeGuild, FakeUser, ManualClock
from fake_discord.errors import DiscordHTTPError
from fake_discord.minimal_bot import MinimalBot


def png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (2, 2), "blue").save(out, "PNG")
    return out.getvalue()


def picture_message(n: int) -> dict[str, object]:
    return {
        "flags": 1 << 15,
        "attachments": [{"id": 0, "filename": f"p{n}.png"}],
        "components": [{"type": 12, "items": [{"media": {"url": f"attachment://p{n}.png"}}]}],
    }


async def test_replaced_and_deleted_pictures_are_freed(
    fake_discord: FakeDiscord, fake_guild: FakeGuild
) -> None:
    fake_discord.keep_history = False
    store = fake_discord.store
    msg = store.build(fake_guild.default_channel, picture_message(1), [("p1.png", png())])
    [first] = msg.attachments
    store.apply_edit(msg, picture_message(2), [("p2.png", png())])
    [second] = msg.attachments
    assert msg.edit_count == 1 and msg.history == []  # counted, not kept
    assert first.id not in fake_discord.attachments
    assert fake_discord.attachments[second.id] is second
    # A refused edit leaves nothing behind either.
    with pytest.raises(DiscordHTTPError):
        store.apply_edit(msg, {**picture_message(3), "content": "x" * 2001}, [("p3.png", png())])
    assert set(fake_discord.attachments) == {second.id}
    await store.delete(msg, "channel")
    assert fake_discord.attachments == {}


async def test_by_default_everything_stays_for_the_tests(
    fake_discord: FakeDiscord, fake_guild: FakeGuild
) -> None:
    store = fake_discord.store
    msg = store.build(fake_guild.default_channel, picture_message(1), [("p1.png", png())])
    [first] = msg.attachments
    store.apply_edit(msg, picture_message(2), [("p2.png", png())])
    assert msg.edit_count == 1 and len(msg.history) == 1
    assert first.id in fake_discord.attachments


async def test_records_are_bounded(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, http: aiohttp.ClientSession
) -> None:
    fake_discord.record_limit = 5
    fake_discord.keep_history = False
    for _ in range(30):
        async with http.get(f"channels/{fake_guild.default_channel.id}") as resp:
            assert resp.status == 200
        async with http.get("channels/1") as resp:
            assert resp.status == 404
    assert 5 <= len(fake_discord.traffic.log) <= 10
    assert 5 <= len(fake_discord.errors) <= 10
    assert fake_discord.errors[-1].path.endswith("/channels/1")
    fake_discord.errors.clear()


async def test_expired_interactions_are_forgotten_and_their_private_messages_stay(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    fake_clock: ManualClock,
    bot: MinimalBot,
    alice: FakeUser,
) -> None:
    fake_discord.keep_history = False
    channel = fake_guild.default_channel
    old = await fake_discord.slash(alice, channel, "demo secret")
    secret = (await old.response()).message
    assert secret is not None and fake_discord.visible_messages(alice, channel) == [secret]
    fake_clock.advance(fake_discord.token_ttl + 61)
    new = await fake_discord.slash(alice, channel, "demo panel")
    panel = (await new.response()).message
    assert set(fake_discord.interactions) == {new.id}  # nothing can edit the old one now
    # A client still shows the old message until it reloads: it stays, pictures and all.
    assert fake_discord.visible_messages(alice, channel) == [secret, panel]
    assert secret.id in fake_discord.messages
