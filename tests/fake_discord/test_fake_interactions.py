"""Interactions as Discord sends them: locales, commands gated by default permissions, stable
command ids and mentions, and private messages a bot keeps editing through the webhook."""

from __future__ import annotations

import aiohttp
import discord
import pytest

from fake_discord import BotRunner, FakeDiscord, FakeGuild, FakeUser, ManualClock
from fake_discord.constants import PERM_ADMINISTRATOR, PERM_MANAGE_GUILD
from fake_discord.minimal_bot import MinimalBot
from tests.fake_discord.helpers import call

# ----- locales -----


async def test_interactions_carry_the_users_locale_and_the_guilds(
    fake_discord: FakeDiscord, bot_runner: BotRunner
) -> None:
    guild = await fake_discord.create_guild("Table ronde", preferred_locale="fr")
    bot = MinimalBot()
    await bot_runner.start(bot)
    hans = await fake_discord.create_member(guild, "hans", locale="de")
    channel = guild.default_channel

    itx = await fake_discord.slash(hans, channel, "demo whoami")
    reply = (await itx.response()).message
    assert reply is not None and reply.content == "locale=de guild_locale=fr"
    assert itx.locale == "de" and itx.payload["guild_locale"] == "fr"

    # One interaction may come from a client in another language.
    other = await fake_discord.slash(hans, channel, "demo whoami", locale="pt-BR")
    reply = (await other.response()).message
    assert reply is not None and reply.content == "locale=pt-BR guild_locale=fr"

    cached = bot.get_guild(guild.id)
    assert cached is not None and cached.preferred_locale == discord.Locale.french


async def test_clicks_selects_and_modals_take_a_locale(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot: MinimalBot, alice: FakeUser
) -> None:
    channel = fake_guild.default_channel
    panel = await (await fake_discord.slash(alice, channel, "demo panel")).original_message()
    click = await fake_discord.click(alice, panel, "counter:0", locale="ja")
    pick = await fake_discord.select(alice, panel, "demo:color", ["red"], locale="ko")
    form = await fake_discord.slash(alice, channel, "demo form")
    submit = await fake_discord.submit_modal(alice, form, {"form:name": "Zoë"}, locale="fr")
    for itx in (click, pick, submit):
        await itx.response()
    assert [i.payload["locale"] for i in (click, pick, form, submit)] == ["ja", "ko", "en-US", "fr"]
    assert pick.payload["guild_locale"] == fake_guild.preferred_locale == "en-US"


async def test_only_discord_locales_exist(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot: MinimalBot, alice: FakeUser
) -> None:
    with pytest.raises(AssertionError, match="not a Discord locale"):
        await fake_discord.create_member(fake_guild, "x", locale="fr-FR")
    with pytest.raises(AssertionError, match="not a Discord locale"):
        await fake_discord.slash(alice, fake_guild.default_channel, "demo secret", locale="xx")


# ----- commands -----


async def test_default_member_permissions_hide_commands(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    bot: MinimalBot,
    bob: FakeUser,
    http: aiohttp.ClientSession,
) -> None:
    channel = fake_guild.default_channel
    assert fake_discord.commands[None]["settings"]["default_member_permissions"] == str(
        PERM_MANAGE_GUILD
    )
    with pytest.raises(AssertionError, match=r"hidden from bob .*default_member_permissions=32"):
        await fake_discord.slash(bob, channel, "settings")

    # "0": nobody but administrators (and the owner).
    status, _ = await call(
        http,
        "POST",
        f"applications/{fake_discord.application_id}/commands",
        {"name": "wipe", "description": "Admins only", "default_member_permissions": "0"},
    )
    assert status == 201
    managers = await fake_discord.create_role(fake_guild, "managers", PERM_MANAGE_GUILD)
    await fake_discord.set_member_roles(fake_guild, bob, [managers])
    await (await fake_discord.slash(bob, channel, "settings")).response()
    with pytest.raises(AssertionError, match="hidden from bob"):
        await fake_discord.slash(bob, channel, "wipe")
    admins = await fake_discord.create_role(fake_guild, "admins", PERM_ADMINISTRATOR)
    await fake_discord.set_member_roles(fake_guild, bob, [admins])
    assert (await fake_discord.slash(bob, channel, "wipe")).command_name == "wipe"
    owner = fake_discord.users[fake_guild.owner_id]
    assert (await fake_discord.slash(owner, channel, "wipe")).command_name == "wipe"


async def test_command_ids_survive_a_resync_and_make_mentions(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    bot_runner: BotRunner,
    alice: FakeUser,
    http: aiohttp.ClientSession,
) -> None:
    first = MinimalBot()
    running = await bot_runner.start(first)
    demo_id = fake_discord.command_id("demo")
    assert fake_discord.command_mention("demo panel") == f"</demo panel:{demo_id}>"
    assert fake_discord.command_mention("/demo admin greet") == f"</demo admin greet:{demo_id}>"
    with pytest.raises(AssertionError, match="no subcommand path"):
        fake_discord.command_mention("demo nope")

    synced = {c.name: c for c in await first.tree.fetch_commands()}
    assert synced["demo"].id == demo_id and synced["demo"].mention == f"</demo:{demo_id}>"

    # A restarted bot syncs again: Discord keeps each command's id, so do mentions.
    await bot_runner.stop(running)
    await bot_runner.start(MinimalBot())
    assert fake_discord.command_id("demo") == demo_id
    # An edit keeps the id too.
    url = f"applications/{fake_discord.application_id}/commands/{demo_id}"
    status, edited = await call(http, "PATCH", url, {"description": "Demo, edited"})
    assert status == 200 and edited["id"] == str(demo_id)

    channel = fake_guild.default_channel
    mention = fake_discord.command_mention("demo panel")
    _, posted = await call(
        http, "POST", f"channels/{channel.id}/messages", {"content": f"Try {mention}!"}
    )
    message = fake_discord.messages[int(posted["id"])]
    assert message.command_mentions == [("demo panel", demo_id)]
    assert fake_discord.registry.resolve_mention("demo panel", demo_id)
    assert not fake_discord.registry.resolve_mention("demo panel", demo_id + 1)


# ----- private messages kept alive through the interaction webhook -----


async def test_a_bot_keeps_one_live_private_hand(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot: MinimalBot, alice: FakeUser
) -> None:
    channel = fake_guild.default_channel
    first = await fake_discord.slash(alice, channel, "demo hand")
    hand = await first.followup(0)
    assert hand.is_ephemeral and hand.content == "Hand #1"

    second = await fake_discord.slash(alice, channel, "demo hand")
    await second.response()
    await fake_discord.wait_for(lambda: hand.content == "Hand #2")
    assert second.followups == [] and hand.edit_count == 1
    assert [m.content for m in fake_discord.ephemeral_messages(alice, channel)] == [
        "Dealing…",
        "Hand #2",
        "Dealing…",
    ]

    await (await fake_discord.slash(alice, channel, "demo fold")).response()
    await fake_discord.wait_for(lambda: hand.deleted)
    fake_discord.assert_no_errors()


async def test_a_private_hand_cannot_be_edited_once_its_token_expired(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    fake_clock: ManualClock,
    bot: MinimalBot,
    alice: FakeUser,
) -> None:
    channel = fake_guild.default_channel
    old = await (await fake_discord.slash(alice, channel, "demo hand")).followup(0)
    fake_clock.advance(15 * 60 + 1)
    again = await fake_discord.slash(alice, channel, "demo hand")
    new = await again.followup(0)
    assert (old.content, new.content) == ("Hand #1", "Hand #2") and old.edit_count == 0
    assert [(e.status, e.code) for e in fake_discord.errors] == [(401, 50027)]
    fake_discord.errors.clear()


async def test_ephemeral_messages_answer_to_their_own_token_only(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    bot: MinimalBot,
    alice: FakeUser,
    bob: FakeUser,
    http: aiohttp.ClientSession,
) -> None:
    channel = fake_guild.default_channel
    mine = await fake_discord.slash(alice, channel, "demo secret")
    theirs = await fake_discord.slash(bob, channel, "demo secret")
    await mine.response()
    await theirs.response()
    assert mine.original is not None
    app = fake_discord.application_id
    by_other_token = f"webhooks/{app}/{theirs.token}/messages/{mine.original.id}"
    status, body = await call(http, "PATCH", by_other_token, {"content": "hijack"})
    assert (status, body["code"]) == (404, 10008)
    own = f"webhooks/{app}/{mine.token}/messages/{mine.original.id}"
    assert (await call(http, "PATCH", own, {"content": "edited"}))[0] == 200
    assert (await call(http, "DELETE", f"webhooks/{app}/{mine.token}/messages/@original"))[0] == 204
    assert mine.original.deleted and mine.original.content == "edited"
    fake_discord.errors.clear()
