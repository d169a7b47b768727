"""The fake Discord works with a real discord.py bot (fake_discord/minimal_bot.py)."""

from __future__ import annotations

import io
from typing import Any

import aiohttp
import pytest
from PIL import Image

from fake_discord import BotRunner, FakeDiscord, FakeGuild, FakeUser
from fake_discord.constants import (
    C_BUTTON,
    CB_DEFERRED_MESSAGE,
    CB_MESSAGE,
    CB_MODAL,
    CB_UPDATE_MESSAGE,
    FLAG_IS_COMPONENTS_V2,
    PERM_MANAGE_GUILD,
)
from fake_discord.minimal_bot import MinimalBot


async def test_login_sync_and_ready(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner
) -> None:
    client = MinimalBot()
    running = await bot_runner.start(client)
    assert client.user is not None and client.user.id == fake_discord.bot_user.id
    assert [g.id for g in client.guilds] == [fake_guild.id]
    guild = client.get_guild(fake_guild.id)
    assert guild is not None and guild.me is not None and guild.owner_id == fake_guild.owner_id
    assert set(fake_discord.commands[None]) == {"demo", "settings"}
    session = fake_discord.sessions[running.session_id or ""]
    assert session.compress  # discord.py asked for zlib-stream and decoded our frames
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()


async def test_layout_view_and_dynamic_button(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot: MinimalBot, alice: FakeUser
) -> None:
    channel = fake_guild.default_channel
    itx = await fake_discord.slash(alice, channel, "demo panel")
    resp = await itx.response()
    assert resp.type == CB_MESSAGE
    msg = resp.message
    assert msg is not None and msg.is_v2 and not msg.is_ephemeral
    assert msg.flags & FLAG_IS_COMPONENTS_V2
    assert "Count is **0**" in msg.text
    button = msg.button("Count: 0")
    assert button.custom_id == "counter:0" and not button.disabled
    assert msg.select("demo:color").values == ["red", "green", "blue"]
    assert all(isinstance(c.get("id"), int) for c in msg.walk())  # ids echoed like Discord

    click = await fake_discord.click(alice, msg, button)
    update = await click.response()
    assert update.type == CB_UPDATE_MESSAGE and update.message is msg
    assert update.latency > 0 and click.ack_latency == update.latency
    assert msg.button(prefix="counter:").custom_id == "counter:1"
    assert "Count is **1**" in msg.text and msg.edit_count == 1
    assert msg.history[0]["components"][0]["type"] == 17

    # Bob sees the same public message and can click it too.
    assert fake_discord.visible_messages(alice, channel) == [msg]
    await (await fake_discord.click(alice, msg, "counter:1")).response()
    assert msg.button(label_contains="Count").label == "Count: 2"
    fake_discord.assert_no_errors()


async def test_ephemeral_reply_visibility(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    bot: MinimalBot,
    alice: FakeUser,
    bob: FakeUser,
) -> None:
    channel = fake_guild.default_channel
    resp = await (await fake_discord.slash(alice, channel, "demo secret")).response()
    assert resp.message is not None and resp.message.is_ephemeral
    assert [m.text for m in fake_discord.visible_messages(alice, channel)] == [
        "Only you can see this"
    ]
    assert fake_discord.visible_messages(bob, channel) == []
    assert fake_discord.ephemeral_messages(alice, channel) == [resp.message]
    with pytest.raises(AssertionError, match="cannot see"):
        await fake_discord.click(bob, resp.message, "anything")


async def test_select_menu(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot: MinimalBot, alice: FakeUser
) -> None:
    channel = fake_guild.default_channel
    panel = await (await fake_discord.slash(alice, channel, "demo panel")).original_message()
    itx = await fake_discord.select(alice, panel, "demo:color", ["green"])
    resp = await itx.response()
    assert resp.message is not None and resp.message.is_ephemeral
    assert resp.message.content == "You picked green"
    with pytest.raises(AssertionError, match="not among options"):
        await fake_discord.select(alice, panel, "demo:color", ["purple"])


async def test_deferred_reply_followup_with_image(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot: MinimalBot, alice: FakeUser
) -> None:
    channel = fake_guild.default_channel
    itx = await fake_discord.slash(alice, channel, "demo image")
    resp = await itx.response()
    assert resp.type == CB_DEFERRED_MESSAGE
    original = await itx.original_message()
    # The first followup after a defer replaces the "thinking" placeholder (Discord behaviour).
    assert (await itx.followup(0)) is original
    assert original.is_v2 and "Here is your card" in original.text
    attachment = original.attachment("card.png")
    assert (attachment.width, attachment.height) == (64, 32)
    assert original.media_urls == [attachment.url]
    with Image.open(io.BytesIO(attachment.data)) as img:
        assert img.size == (64, 32) and img.getpixel((0, 0)) == (255, 0, 0)
    second = await itx.followup(1)
    assert second.is_ephemeral and second.content == "Image sent"
    assert fake_discord.public_messages(channel) == [original]
    fake_discord.assert_no_errors()


async def test_modal_submit(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot: MinimalBot, alice: FakeUser
) -> None:
    itx = await fake_discord.slash(alice, fake_guild.default_channel, "demo form")
    resp = await itx.response()
    assert resp.type == CB_MODAL and resp.modal is not None
    assert resp.modal.title == "Tell me your name"
    assert resp.modal.custom_ids == ["form:name", "form:comment"]
    # Values by custom_id or by label.
    submit = await fake_discord.submit_modal(alice, itx, {"form:name": "Zoë", "Comment": "hi"})
    reply = (await submit.response()).message
    assert reply is not None and reply.is_ephemeral and reply.content == "Hello Zoë (hi)"


async def test_channel_message_edit_and_thread(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot: MinimalBot, alice: FakeUser
) -> None:
    channel = fake_guild.default_channel
    itx = await fake_discord.slash(alice, channel, "demo announce", {"text": "hi **all**"})
    await itx.response()
    thread = (await fake_discord.wait_for(lambda: fake_discord.threads_of(channel)))[0]
    thread_msgs = await fake_discord.wait_for(lambda: fake_discord.public_messages(thread))
    assert thread_msgs[0].content == "Thread started"
    [announcement] = fake_discord.public_messages(channel)
    assert announcement.content == "Announcement (edited): hi **all**"
    assert [h["content"] for h in announcement.history] == ["Announcement: hi **all**"]
    assert thread.id == announcement.id and thread.name == "discussion"
    original = await itx.original_message()
    await fake_discord.wait_for(lambda: original.content == "Posted")  # the bot's last step
    # Channel routes: one create + one edit; plus the ephemeral reply and its edit.
    assert fake_discord.message_bursts(channel, via=["channel"]) == 2
    assert fake_discord.message_bursts(channel) == 4
    fake_discord.assert_no_errors()


async def test_subcommand_group_options_and_permissions(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    bot: MinimalBot,
    alice: FakeUser,
    bob: FakeUser,
) -> None:
    channel = fake_guild.default_channel
    itx = await fake_discord.slash(
        bob, channel, "demo admin greet", {"member": alice, "style": "formal"}
    )
    msg = (await itx.response()).message
    assert msg is not None
    assert msg.content == r"Good day, Zoë \*the\* \_great\_ @everyone!"
    with pytest.raises(AssertionError, match="not in choices"):
        await fake_discord.slash(bob, channel, "demo admin greet", {"member": alice, "style": "x"})
    with pytest.raises(AssertionError, match="missing required"):
        await fake_discord.slash(bob, channel, "demo admin greet", {"member": alice})

    # /settings is hidden from members without Manage Guild.
    with pytest.raises(AssertionError, match="hidden"):
        await fake_discord.slash(bob, channel, "settings")
    mods = await fake_discord.create_role(fake_guild, "Mods", PERM_MANAGE_GUILD)
    await fake_discord.set_member_roles(fake_guild, bob, [mods])
    resp = await (await fake_discord.slash(bob, channel, "settings")).response()
    assert resp.message is not None and resp.message.content == "Settings"
    owner = fake_discord.users[fake_guild.owner_id]
    await (await fake_discord.slash(owner, channel, "settings")).response()


async def test_ack_deadline_is_enforced(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    bot: MinimalBot,
    alice: FakeUser,
    bot_runner: BotRunner,
) -> None:
    fake_discord.ack_timeout = 0.05  # instead of Discord's 3 s
    bot.slow_delay = 0.15
    itx = await fake_discord.slash(alice, fake_guild.default_channel, "demo slow")
    await fake_discord.wait_for(lambda: itx.status == "failed")
    assert fake_discord.failed_interactions() == [itx]
    with pytest.raises(AssertionError, match="failed"):
        await itx.response()
    # The late callback is rejected like Discord does (404 Unknown interaction).
    late = await fake_discord.wait_for(lambda: [e for e in fake_discord.errors if e.code == 10062])
    assert late[0].status == 404
    await fake_discord.wait_for(lambda: bot_runner.errors)  # discord.py logged the NotFound
    bot_runner.errors.clear()


async def test_double_acknowledgement_rejected(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    bot: MinimalBot,
    alice: FakeUser,
    http: aiohttp.ClientSession,
) -> None:
    itx = await fake_discord.slash(alice, fake_guild.default_channel, "demo secret")
    await itx.response()
    async with http.post(
        f"interactions/{itx.id}/{itx.token}/callback", json={"type": 4, "data": {"content": "x"}}
    ) as resp:
        assert resp.status == 400
        body = await resp.json()
    assert body["code"] == 40060
    assert fake_discord.errors[-1].code == 40060


def _row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def _button(label: str = "ok", custom_id: str = "b") -> dict[str, Any]:
    return {"type": C_BUTTON, "style": 1, "label": label, "custom_id": custom_id}


def _text(content: str) -> dict[str, Any]:
    return {"type": 10, "content": content}


V2 = FLAG_IS_COMPONENTS_V2
INVALID_PAYLOADS: dict[str, dict[str, Any]] = {
    "content_too_long": {"content": "x" * 2001},
    "label_too_long": {"components": [_row(_button("x" * 81))]},
    "custom_id_too_long": {"components": [_row(_button(custom_id="x" * 101))]},
    "six_buttons_in_row": {"components": [_row(*(_button(custom_id=f"b{i}") for i in range(6)))]},
    "duplicate_custom_id": {"components": [_row(_button(), _button())]},
    "select_26_options": {
        "components": [
            _row(
                {
                    "type": 3,
                    "custom_id": "s",
                    "options": [{"label": str(i), "value": str(i)} for i in range(26)],
                }
            )
        ]
    },
    "v2_without_flag": {"components": [{"type": 17, "components": [_text("hi")]}]},
    "v2_with_content": {"flags": V2, "content": "hi", "components": [_text("hi")]},
    "v2_41_components": {"flags": V2, "components": [_text(str(i)) for i in range(41)]},
    "v2_text_over_4000": {"flags": V2, "components": [_text("x" * 2001), _text("y" * 2000)]},
    "missing_attachment": {
        "flags": V2,
        "components": [{"type": 12, "items": [{"media": {"url": "attachment://nope.png"}}]}],
    },
    "empty_message": {"content": ""},
}


@pytest.mark.parametrize("case", list(INVALID_PAYLOADS))
async def test_validation_errors(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, http: aiohttp.ClientSession, case: str
) -> None:
    channel = fake_guild.default_channel
    async with http.post(f"channels/{channel.id}/messages", json=INVALID_PAYLOADS[case]) as resp:
        body = await resp.json()
        assert resp.status == 400, body
    assert body["code"] in (50035, 50006)
    assert len(fake_discord.errors) == 1
    assert fake_discord.public_messages(channel) == []


async def test_valid_v2_message_with_attachment_via_rest(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, http: aiohttp.ClientSession
) -> None:
    channel = fake_guild.default_channel
    payload = {
        "flags": V2,
        "attachments": [{"id": 0, "filename": "a.png"}],
        "components": [
            {
                "type": 17,
                "components": [
                    _text("x" * 4000),
                    {"type": 12, "items": [{"media": {"url": "attachment://a.png"}}]},
                ],
            }
        ],
    }
    form = aiohttp.FormData()
    form.add_field("payload_json", __import__("json").dumps(payload))
    form.add_field("files[0]", b"\x89PNG-not-really", filename="a.png")
    async with http.post(f"channels/{channel.id}/messages", data=form) as resp:
        body = await resp.json()
        assert resp.status == 200, body
    assert body["attachments"][0]["filename"] == "a.png"
    gallery = body["components"][0]["components"][1]
    assert gallery["items"][0]["media"]["url"] == body["attachments"][0]["url"]
    async with http.get(body["attachments"][0]["url"]) as resp:
        assert await resp.read() == b"\x89PNG-not-really"
    fake_discord.assert_no_errors()


async def test_channel_rate_limit(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, http: aiohttp.ClientSession
) -> None:
    fake_discord.channel_rate_limit = (3, 5.0)
    channel = fake_guild.default_channel
    statuses = []
    for i in range(4):
        async with http.post(f"channels/{channel.id}/messages", json={"content": str(i)}) as resp:
            statuses.append(resp.status)
            body = await resp.json()
    assert statuses == [200, 200, 200, 429]
    assert body["retry_after"] > 0 and body["global"] is False
    assert fake_discord.message_bursts(channel, window=5.0) == 3
    assert len(fake_discord.rate_limited) == 1


async def test_unknown_route_is_logged(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    async with http.get("nowhere/at/all") as resp:
        assert resp.status == 404
    assert "no route GET" in fake_discord.errors[-1].message


async def test_restart_after_kill(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, alice: FakeUser
) -> None:
    first = MinimalBot()
    running = await bot_runner.start(first)
    channel = fake_guild.default_channel
    panel = await (await fake_discord.slash(alice, channel, "demo panel")).original_message()
    await bot_runner.kill(running)
    await fake_discord.wait_for(lambda: running.session_id not in fake_discord.sessions)

    second = MinimalBot()
    await bot_runner.start(second)
    # The DynamicItem button of a message sent by the dead process is handled by the new one.
    await (await fake_discord.click(alice, panel, "counter:0")).response()
    assert panel.button(prefix="counter:").custom_id == "counter:1"
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()


async def test_reconnect_after_dropped_connection(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, alice: FakeUser
) -> None:
    running = await bot_runner.start(MinimalBot())
    old_session = running.session_id
    fake_discord.drop_session(old_session)
    # discord.py tries RESUME, the fake answers INVALID_SESSION, the client re-IDENTIFYs.
    await fake_discord.wait_for(
        lambda: any(s.session_id != old_session for s in fake_discord._live_sessions())
    )
    resp = await (
        await fake_discord.slash(alice, fake_guild.default_channel, "demo secret")
    ).response()
    assert resp.message is not None
    bot_runner.assert_no_errors()


async def test_immediate_reply_with_file_and_channel_edit_with_new_attachment(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot: MinimalBot, alice: FakeUser
) -> None:
    import discord

    from fake_discord.minimal_bot import ImageView, make_png

    channel = fake_guild.default_channel
    msg = (await (await fake_discord.slash(alice, channel, "demo card")).response()).message
    assert msg is not None and msg.attachment("card.png").width == 64

    # Channel message with a file, then an edit that swaps the attachment (table re-render).
    text_channel = bot.get_channel(channel.id)
    assert isinstance(text_channel, discord.TextChannel)
    sent = await text_channel.send(
        view=ImageView(), file=discord.File(io.BytesIO(make_png(10, 10)), "card.png")
    )
    await sent.edit(
        view=ImageView(), attachments=[discord.File(io.BytesIO(make_png(20, 20)), "card.png")]
    )
    stored = fake_discord.messages[sent.id]
    assert [a.width for a in stored.attachments] == [20]
    assert stored.media_urls == [stored.attachments[0].url] and stored.edit_count == 1
    # An edit without attachments keeps them (and the view still resolves attachment://).
    await sent.edit(view=ImageView())
    assert [a.width for a in stored.attachments] == [20]
    # Content on a Components V2 message is rejected like Discord does.
    with pytest.raises(discord.HTTPException) as excinfo:
        await sent.edit(content="nope")
    assert excinfo.value.code == 50035
    fake_discord.errors.clear()

    # Interactions work inside threads too.
    thread = await fake_discord.create_channel(fake_guild, "t", type=11, parent=channel)
    resp = await (await fake_discord.slash(alice, thread, "demo secret")).response()
    assert resp.message is not None and resp.message.channel_id == thread.id
    fake_discord.assert_no_errors()


async def test_interaction_token_expiry(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    bot: MinimalBot,
    alice: FakeUser,
    http: aiohttp.ClientSession,
) -> None:
    itx = await fake_discord.slash(alice, fake_guild.default_channel, "demo secret")
    await itx.response()
    url = f"webhooks/{fake_discord.application_id}/{itx.token}/messages/@original"
    async with http.patch(url, json={"content": "edited"}) as resp:
        assert resp.status == 200
    assert itx.original is not None and itx.original.content == "edited"
    fake_discord.token_ttl = 0.0  # Discord: 15 minutes
    async with http.patch(url, json={"content": "late"}) as resp:
        assert resp.status == 401 and (await resp.json())["code"] == 50027


async def test_autocomplete_and_mentions(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    bot: MinimalBot,
    alice: FakeUser,
    bob: FakeUser,
) -> None:
    channel = fake_guild.default_channel
    itx = await fake_discord.autocomplete(alice, channel, "demo pick", {"fruit": "ap"}, "fruit")
    resp = await itx.response()
    assert resp.data is not None
    assert [c["value"] for c in resp.data["choices"]] == ["apple", "apricot"]

    msg = (
        await (await fake_discord.slash(alice, channel, "demo pick", {"fruit": "apple"})).response()
    ).message
    assert msg is not None and msg.pinged_user_ids == [alice.id]

    # alice's display name contains "@everyone": the greeting must not ping anyone.
    greet = await fake_discord.slash(
        bob, channel, "demo admin greet", {"member": alice, "style": "casual"}
    )
    greeting = (await greet.response()).message
    assert greeting is not None and "@everyone" in greeting.content
    assert not greeting.pings_everyone and greeting.pinged_user_ids == []
