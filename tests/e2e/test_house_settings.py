"""A server's default house rules in /uno settings, /uno new's preset, and the league's view of
house-ruled matches: the rules in the history, official-only standings, the rating setting."""

from __future__ import annotations

from pathlib import Path

from bot.engine import PRESETS
from bot.storage.models import MatchPlayer, MatchRecord
from fake_discord import BotRunner, FakeDiscord, FakeGuild, FakeUser
from fake_discord.constants import PERM_MANAGE_GUILD
from tests.e2e.helpers import Harness, start_bot


async def test_a_server_picks_default_house_rules_and_whether_they_are_rated(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    channel = fake_guild.default_channel
    h = await start_bot(fake_discord, bot_runner, tmp_path / "uno.db", channel)
    admin = await fake_discord.create_member(fake_guild, "admin")
    managers = await fake_discord.create_role(fake_guild, "managers", PERM_MANAGE_GUILD)
    await fake_discord.set_member_roles(fake_guild, admin, [managers])
    guild = fake_guild.id

    panel = (
        await (await fake_discord.slash(admin, channel, "uno-admin settings")).response()
    ).message
    assert panel is not None and "Default house rules:** Official rules" in panel.text
    assert "house-ruled matches are not rated" in panel.text
    await (await fake_discord.select(admin, panel, f"unoset:{guild}:house", ["party"])).response()
    assert "Default house rules:** stacking (all) · jump-in · 7-0 ·" in panel.text
    await (await fake_discord.click(admin, panel, f"unotog:{guild}:hrated")).response()
    assert "house-ruled matches change ratings" in panel.text
    stored = await h.storage.get_settings(guild)
    assert dict(stored.house_rules) == PRESETS["party"].to_dict() and stored.rate_house_rules

    # Option by option, on a page of its own.
    await (await fake_discord.click(admin, panel, f"unotog:{guild}:hopts")).response()
    assert "Default house rules for new tables" in panel.text
    await (await fake_discord.select(admin, panel, f"unoset:{guild}:h_hand_size", ["9"])).response()
    await (await fake_discord.click(admin, panel, f"unotog:{guild}:h_jump_in")).response()
    assert panel.button(label_contains="Jump-in").label == "Jump-in: off"
    stored = await h.storage.get_settings(guild)
    assert dict(stored.house_rules) == {"stack": "all", "seven_o": True, "hand_size": 9}
    await (await fake_discord.click(admin, panel, f"unotog:{guild}:back")).response()
    assert "UNO settings for this server" in panel.text

    # New lobbies start with the server's options, unless /uno new names a preset.
    itx = await fake_discord.slash(admin, channel, "uno new", {})
    lobby = (await itx.response()).message
    assert lobby is not None and "House rules: stacking (all) · 7-0 · 9 cards each" in lobby.text
    await (await fake_discord.click(admin, lobby, lobby.button("Cancel"))).response()
    itx = await fake_discord.slash(admin, channel, "uno new", {"house_rules": "chill"})
    lobby = (await itx.response()).message
    assert lobby is not None
    assert "House rules: draw until playable · no challenges (strict Wild Draw Four)" in lobby.text
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()


async def record(
    h: Harness,
    guild: FakeGuild,
    uid: str,
    winner: FakeUser,
    loser: FakeUser,
    house: dict[str, object],
    at: float,
) -> None:
    """A finished one-round match ``winner`` won, played with ``house``."""
    players = [
        MatchPlayer(user_id=winner.id, name=winner.username, seat=0, points=60, place=1),
        MatchPlayer(user_id=loser.id, name=loser.username, seat=1, points=0, place=2),
    ]
    await h.storage.record_match(
        MatchRecord(
            match_uid=uid,
            guild_id=guild.id,
            channel_id=guild.default_channel.id,
            edition="classic",
            scoring="standard",
            target=None,
            started_at=at - 300,
            finished_at=at,
            rounds=[[60, 0]],
            events=[],
            players=players,
            winners=[winner.id],
            house_rules=house,
        )
    )


async def test_history_shows_each_matchs_rules_and_standings_filter_official_ones(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    channel = fake_guild.default_channel
    h = await start_bot(fake_discord, bot_runner, tmp_path / "uno.db", channel)
    ann = await fake_discord.create_member(fake_guild, "ann")
    cal = await fake_discord.create_member(fake_guild, "cal")
    await record(h, fake_guild, "plain", ann, cal, {}, 1_700_000_000)
    party = PRESETS["party"].to_dict()
    await record(h, fake_guild, "party", cal, ann, party, 1_700_000_100)
    await record(h, fake_guild, "party2", cal, ann, party, 1_700_000_200)

    history = (await (await fake_discord.slash(ann, channel, "uno history")).response()).message
    assert history is not None
    lines = history.text.split("`#")
    assert "House rules: stacking \\(all\\) · jump\\-in · 7\\-0" in lines[1]  # newest first
    assert "Official rules" in lines[3]
    pick = await fake_discord.select(
        ann, history, history.select(prefix="unohist:").custom_id, ["3"]
    )
    detail = (await pick.response()).message
    assert detail is not None and "House rules: stacking" in detail.text

    # All matches: Cal leads on wins; official rules only: Ann's one official win.
    everyone = await (
        await fake_discord.slash(ann, channel, "uno leaderboard", {"sort": "wins"})
    ).followup(0)
    assert everyone.text.index("**cal**") < everyone.text.index("**ann**")
    itx = await fake_discord.slash(
        ann, channel, "uno leaderboard", {"sort": "wins", "rules": "official"}
    )
    official = await itx.followup(0)
    assert "official rules only" in official.text
    assert official.text.index("**ann**") < official.text.index("**cal**")
    assert "1/1 wins" in official.text
    assert all((b.custom_id or "").endswith(":o") for b in official.buttons)
    stats = await fake_discord.slash(cal, channel, "uno stats", {"rules": "official"})
    mine = (await stats.response()).message
    assert mine is not None and "official rules only" in mine.text
    assert "Matches 1 · wins 0" in mine.text
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()
