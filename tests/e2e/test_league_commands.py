"""The league commands through the fake Discord: leaderboard pages, stats, history, seasons,
export and forget-me, on the real UnoBot with a SQLite file."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from PIL import Image

from bot.storage.models import MatchPlayer, MatchRecord
from cogs.league.commands import LEAGUE_ADMIN_COMMANDS, LEAGUE_COMMANDS, NEEDS_MANAGE
from cogs.league.common import DB_DOWN
from cogs.league.items import LEAGUE_ITEMS
from cogs.ui.items import DYNAMIC_ITEMS
from fake_discord import BotRunner, FakeDiscord, FakeGuild, FakeMessage, FakeUser
from fake_discord.constants import PERM_MANAGE_GUILD
from tests.e2e.helpers import Harness, commands_granted_to_everyone, start_bot

ODD_NAME = "**Boss** @everyone <@123456789012345678>"


async def record(
    h: Harness,
    guild: FakeGuild,
    uid: str,
    seats: list[tuple[FakeUser | int, str, int]],
    at: float,
    *,
    one_round: bool = False,
) -> None:
    """A finished two-round match (or one round); the first seat wins with the most points."""
    players = [
        MatchPlayer(
            user_id=u if isinstance(u, int) else u.id,
            name=name,
            seat=seat,
            points=points,
            place=1 if seat == 0 else 2,
        )
        for seat, (u, name, points) in enumerate(seats)
    ]
    first = [p.points // 2 if p.seat == 0 else 0 for p in players]
    second = [p.points - f for p, f in zip(players, first, strict=True)]
    await h.storage.record_match(
        MatchRecord(
            match_uid=uid,
            guild_id=guild.id,
            channel_id=guild.default_channel.id,
            edition="classic",
            scoring="standard",
            target=500,
            started_at=at - 600,
            finished_at=at,
            rounds=[[p.points for p in players]] if one_round else [first, second],
            events=[],
            players=players,
            winners=[players[0].user_id],
        )
    )


def assert_no_pings(msg: FakeMessage) -> None:
    """Names are escaped in the text, and the message itself allows no mentions at all."""
    assert not msg.pings_everyone and not msg.pinged_user_ids
    assert msg.allowed_mentions is not None and not msg.allowed_mentions.get("parse")


@pytest.fixture
async def h(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> AsyncIterator[Harness]:
    """The real bot on a SQLite file; the bot stops and the storage closes afterwards (an open
    aiosqlite worker thread would keep the test process alive)."""
    harness = await start_bot(
        fake_discord, bot_runner, tmp_path / "uno.db", fake_guild.default_channel
    )
    try:
        yield harness
    finally:
        await bot_runner.stop(harness.running)
        await harness.storage.close()


async def test_league_commands_sit_under_uno_and_items_are_apart(
    fake_discord: FakeDiscord, h: Harness
) -> None:
    names = {c.name for c in LEAGUE_COMMANDS}
    assert names == {"leaderboard", "stats", "profile", "history", "forget-me"}
    [uno] = [c for c in fake_discord.commands[None].values() if c["name"] == "uno"]
    assert names <= {option["name"] for option in uno["options"]}
    assert {"season", "export"}.isdisjoint(option["name"] for option in uno["options"])
    # The Manage Server commands: a top-level group that Discord hides from other members.
    admin = fake_discord.commands[None]["uno-admin"]
    assert {c.name for c in LEAGUE_ADMIN_COMMANDS} | {"settings", "status", "tournament"} == {
        option["name"] for option in admin["options"]
    }
    assert admin["default_member_permissions"] == str(PERM_MANAGE_GUILD)
    assert admin["contexts"] == [0] or admin.get("dm_permission") is False
    templates = [item.__discord_ui_compiled_template__ for item in LEAGUE_ITEMS]
    for item in DYNAMIC_ITEMS:
        game = item.__discord_ui_compiled_template__
        for own in ("unolb:1:0:rating:0:n", "unohist:1", "unoforget:1:2:yes"):
            assert game.fullmatch(own) is None
    assert all(t.pattern.startswith("uno") and not t.pattern.startswith("uno:") for t in templates)


async def test_leaderboard_orders_rows_and_pages(
    fake_discord: FakeDiscord, h: Harness, fake_guild: FakeGuild, bot_runner: BotRunner
) -> None:
    channel = fake_guild.default_channel
    viewer = await fake_discord.create_member(fake_guild, "viewer")
    # 12 players in six matches; by points: p0 (150) > p2 (140) > ... > p11.
    for i in range(6):
        await record(
            h,
            fake_guild,
            f"m{i}",
            [(1000 + 2 * i, f"Winner {i}", 150 - 10 * i), (1001 + 2 * i, f"Loser {i}", 50 - i)],
            at=1_700_000_000 + i,
        )
    itx = await fake_discord.slash(viewer, channel, "uno leaderboard", {"sort": "points"})
    msg = await itx.followup(0)
    assert not msg.is_ephemeral and msg.is_v2
    assert msg.media_urls and msg.media_urls[0].endswith("leaderboard.png")
    img = Image.open(io.BytesIO(msg.attachment("leaderboard.png").data))
    assert img.format == "PNG"
    order = [f"Winner {i}" for i in range(6)] + [f"Loser {i}" for i in range(4)]
    positions = [msg.text.index(f"**{name}**") for name in order]
    assert positions == sorted(positions)
    assert "Loser 4" not in msg.text and "Players 1–10 of 12" in msg.text
    assert_no_pings(msg)
    back = msg.button(prefix="unolb:")
    assert back.disabled and back.custom_id is not None and back.custom_id.endswith(":p")
    forward = next(b for b in msg.buttons if (b.custom_id or "").endswith(":n"))
    assert not forward.disabled
    await (await fake_discord.click(viewer, msg, forward)).response()
    await fake_discord.wait_for(lambda: "Players 11–12 of 12" in msg.text)
    assert "**Loser 4**" in msg.text and "**Loser 5**" in msg.text and "Winner 0" not in msg.text
    assert "` 11`" in msg.text
    assert next(b for b in msg.buttons if (b.custom_id or "").endswith(":n")).disabled
    back = next(b for b in msg.buttons if (b.custom_id or "").endswith(":p"))
    await (await fake_discord.click(viewer, msg, back)).response()
    await fake_discord.wait_for(lambda: "Players 1–10 of 12" in msg.text)
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()


async def test_stats_for_a_member_without_pings(
    fake_discord: FakeDiscord, h: Harness, fake_guild: FakeGuild, bot_runner: BotRunner
) -> None:
    channel = fake_guild.default_channel
    boss = await fake_discord.create_member(fake_guild, "boss", global_name=ODD_NAME)
    bob = await fake_discord.create_member(fake_guild, "bob")
    await record(h, fake_guild, "a", [(boss, ODD_NAME, 120), (bob, "Bob", 0)], 1_700_000_000)
    await record(h, fake_guild, "b", [(bob, "Bob", 90), (boss, ODD_NAME, 0)], 1_700_000_100)
    await record(h, fake_guild, "c", [(boss, ODD_NAME, 60), (bob, "Bob", 0)], 1_700_000_200)
    itx = await fake_discord.slash(bob, channel, "uno stats", {"member": boss})
    msg = (await itx.response()).message
    assert msg is not None and not msg.is_ephemeral
    text = msg.text
    assert "Matches 3 · wins 2 · win rate 67%" in text
    assert "Points 180" in text and "best round 60" in text and "Classic" in text
    assert (
        "@everyone" not in text and "<@123456789012345678>" not in text and "**Boss**" not in text
    )
    assert "\\*\\*Boss\\*\\*" in text
    assert_no_pings(msg)
    itx = await fake_discord.slash(bob, channel, "uno stats")
    own = (await itx.response()).message
    assert own is not None and "### 📊 Bob" in own.text and "Matches 3 · wins 1" in own.text
    stranger = await fake_discord.create_member(fake_guild, "stranger")
    itx = await fake_discord.slash(stranger, channel, "uno stats")
    none = (await itx.response()).message
    assert none is not None and none.is_ephemeral
    assert "not finished a league match" in none.text
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()


async def test_history_lists_matches_and_opens_one(
    fake_discord: FakeDiscord, h: Harness, fake_guild: FakeGuild, bot_runner: BotRunner
) -> None:
    channel = fake_guild.default_channel
    ann = await fake_discord.create_member(fake_guild, "ann")
    cal = await fake_discord.create_member(fake_guild, "cal")
    await record(h, fake_guild, "old", [(ann, "Ann", 80), (cal, ODD_NAME, 0)], 1_700_000_000)
    await record(h, fake_guild, "new", [(cal, ODD_NAME, 70), (ann, "Ann", 0)], 1_700_000_500)
    itx = await fake_discord.slash(ann, channel, "uno history")
    msg = (await itx.response()).message
    assert msg is not None and not msg.is_ephemeral
    assert msg.text.index("`#2`") < msg.text.index("`#1`")  # newest first
    assert "@everyone" not in msg.text
    assert_no_pings(msg)
    select = msg.select(prefix="unohist:")
    assert select.values == ["2", "1"]
    pick = await fake_discord.select(cal, msg, select.custom_id, ["1"])
    detail = (await pick.response()).message
    assert detail is not None and detail.is_ephemeral and detail.visible_to(cal)
    assert not detail.visible_to(ann)
    text = detail.text
    assert "Match #1" in text and "1. Ann went out (Ann +40)" in text
    assert "2. Ann went out (Ann +40)" in text and "Ann 80" in text
    assert "@everyone" not in text
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()


async def test_league_texts_use_plurals_and_the_display_rating(
    fake_discord: FakeDiscord, h: Harness, fake_guild: FakeGuild, bot_runner: BotRunner
) -> None:
    channel = fake_guild.default_channel
    ann = await fake_discord.create_member(fake_guild, "ann")
    cal = await fake_discord.create_member(fake_guild, "cal")
    await record(h, fake_guild, "one", [(ann, "Ann", 1), (cal, "Cal", 0)], 1.7e9, one_round=True)
    msg = (await (await fake_discord.slash(ann, channel, "uno history")).response()).message
    assert msg is not None
    assert "2 players · 1 round · won by" in msg.text and "1 rounds" not in msg.text
    pick = await fake_discord.select(cal, msg, msg.select(prefix="unohist:").custom_id, ["1"])
    detail = (await pick.response()).message
    assert detail is not None and "**Ann** · 1 pt · rating 1000 → 1" in detail.text
    await record(h, fake_guild, "two", [(cal, "Cal", 70), (ann, "Ann", 0)], 1.7e9 + 9)
    board = await (await fake_discord.slash(ann, channel, "uno leaderboard")).followup(0)
    # New players: the 1000-based display rating with the provisional mark, never negative.
    ratings = re.findall(r"rating (-?\d+(?:\.\d+)?)(\??)", board.text)
    assert len(ratings) == 2 and all(int(r) > 900 and mark == "?" for r, mark in ratings)
    assert "? provisional: fewer than 5 rated matches" in board.text
    stats = (await (await fake_discord.slash(ann, channel, "uno stats")).response()).message
    assert stats is not None and re.search(r"rating \*\*\d{3,4}\?\*\*", stats.text)
    assert "70 pts" not in stats.text and "1 pt" in stats.text
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()


async def test_season_new_needs_manage_server_and_keeps_old_standings(
    fake_discord: FakeDiscord, h: Harness, fake_guild: FakeGuild, bot_runner: BotRunner
) -> None:
    channel = fake_guild.default_channel
    player = await fake_discord.create_member(fake_guild, "player")
    admin = await fake_discord.create_member(fake_guild, "admin")
    managers = await fake_discord.create_role(fake_guild, "managers", PERM_MANAGE_GUILD)
    await fake_discord.set_member_roles(fake_guild, admin, [managers])
    await record(h, fake_guild, "s1", [(player, "Pat", 100), (admin, "Ada", 0)], 1_700_000_000)

    with pytest.raises(AssertionError, match="hidden"):
        await fake_discord.slash(player, channel, "uno-admin season new", {"name": "Spring"})
    with commands_granted_to_everyone():  # still refused when it runs
        itx = await fake_discord.slash(player, channel, "uno-admin season new", {"name": "Spring"})
    refused = (await itx.response()).message
    assert refused is not None and refused.is_ephemeral and NEEDS_MANAGE in refused.text
    assert (await h.storage.current_season(fake_guild.id)).number == 1

    itx = await fake_discord.slash(
        admin, channel, "uno-admin season new", {"name": "@everyone party"}
    )
    started = (await itx.response()).message
    assert started is not None and not started.is_ephemeral
    assert "Season 2" in started.text and "@everyone" not in started.text
    mention = fake_discord.command_mention("uno leaderboard")
    assert f"season 1 stays readable with {mention} season:1." in started.text
    assert_no_pings(started)
    assert (await h.storage.current_season(fake_guild.id)).number == 2

    itx = await fake_discord.slash(player, channel, "uno leaderboard")
    fresh = await itx.followup(0)
    assert "Season 2" in fresh.text and "No ranked players yet" in fresh.text
    itx = await fake_discord.slash(player, channel, "uno leaderboard", {"season": 1})
    old = await itx.followup(0)
    assert "Season 1" in old.text and "**Pat**" in old.text
    itx = await fake_discord.slash(player, channel, "uno leaderboard", {"scope": "all-time"})
    ever = await itx.followup(0)
    assert "All time" in ever.text and "**Pat**" in ever.text
    itx = await fake_discord.slash(player, channel, "uno leaderboard", {"season": 9})
    missing = (await itx.response()).message
    assert missing is not None and missing.is_ephemeral and "no season 9" in missing.text
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()


@pytest.mark.parametrize("fmt", ["json", "csv"])
async def test_export_is_a_private_decodable_file(
    fake_discord: FakeDiscord,
    h: Harness,
    fake_guild: FakeGuild,
    bot_runner: BotRunner,
    fmt: str,
) -> None:
    channel = fake_guild.default_channel
    admin = await fake_discord.create_member(fake_guild, "admin")
    other = await fake_discord.create_member(fake_guild, "other")
    managers = await fake_discord.create_role(fake_guild, "managers", PERM_MANAGE_GUILD)
    await fake_discord.set_member_roles(fake_guild, admin, [managers])
    await record(h, fake_guild, "x", [(admin, "=HYPERLINK()", 100), (other, "Oz", 0)], 1.7e9)

    with pytest.raises(AssertionError, match="hidden"):
        await fake_discord.slash(other, channel, "uno-admin export", {"format": fmt})
    with commands_granted_to_everyone():  # still refused when it runs
        itx = await fake_discord.slash(other, channel, "uno-admin export", {"format": fmt})
    refused = (await itx.response()).message
    assert refused is not None and refused.is_ephemeral and NEEDS_MANAGE in refused.text

    itx = await fake_discord.slash(admin, channel, "uno-admin export", {"format": fmt})
    msg = await itx.followup(0)
    assert msg.is_ephemeral and msg.visible_to(admin) and not msg.visible_to(other)
    assert "This server's league data: 1 match." in msg.text
    data = msg.attachment(f"uno-{fake_guild.id}.{fmt}").data.decode("utf-8")
    if fmt == "json":
        export = json.loads(data)
        assert export["guild_id"] == fake_guild.id and len(export["matches"]) == 1
        assert {p["name"] for p in export["matches"][0]["players"]} == {"=HYPERLINK()", "Oz"}
    else:
        rows = list(csv.DictReader(io.StringIO(data)))
        assert [r["name"] for r in rows] == ["'=HYPERLINK()", "Oz"]
        assert rows[0]["winner"] == "True" and rows[0]["points"] == "100"
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()


async def test_forget_me_asks_first_then_erases(
    fake_discord: FakeDiscord, h: Harness, fake_guild: FakeGuild, bot_runner: BotRunner
) -> None:
    channel = fake_guild.default_channel
    zed = await fake_discord.create_member(fake_guild, "zed")
    yan = await fake_discord.create_member(fake_guild, "yan")
    await record(h, fake_guild, "f", [(zed, "Zed", 100), (yan, "Yan", 0)], 1_700_000_000)

    itx = await fake_discord.slash(zed, channel, "uno forget-me")
    ask = (await itx.response()).message
    assert ask is not None and ask.is_ephemeral and "Erase your league records?" in ask.text
    assert await h.storage.player_stats(fake_guild.id, zed.id) is not None  # nothing yet
    cancel = ask.button("Cancel")
    await (await fake_discord.click(zed, ask, cancel)).response()
    assert "Nothing was erased" in ask.text
    assert await h.storage.player_stats(fake_guild.id, zed.id) is not None

    itx = await fake_discord.slash(zed, channel, "uno forget-me")
    ask = (await itx.response()).message
    assert ask is not None
    await (await fake_discord.click(zed, ask, ask.button("Yes, erase my records"))).response()
    assert "rows changed" in ask.text and "(0 rows" not in ask.text
    assert await h.storage.player_stats(fake_guild.id, zed.id) is None
    assert await h.storage.player_stats(fake_guild.id, yan.id) is not None
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()


async def test_a_closed_database_gets_a_friendly_private_answer(
    fake_discord: FakeDiscord, h: Harness, fake_guild: FakeGuild, bot_runner: BotRunner
) -> None:
    channel = fake_guild.default_channel
    user = await fake_discord.create_member(fake_guild, "user")
    await h.storage.close()
    for command in ("uno stats", "uno history", "uno leaderboard"):
        itx = await fake_discord.slash(user, channel, command)
        msg = (await itx.response()).message
        assert msg is not None and msg.is_ephemeral and DB_DOWN in msg.text, command
    fake_discord.assert_no_errors()
