"""Values Discord would normally refuse, sent as a modified client could: each gets a worded
private answer and changes nothing. Names are escaped the same way in every message."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.storage.models import LeaderboardPage, MatchPlayer, MatchRecord
from cogs.league.items import MAX_OFFSET, LeaderboardPageButton, leaderboard_layout
from fake_discord import BotRunner, FakeDiscord, FakeGuild, FakeInteraction, FakeUser
from tests.e2e.helpers import Harness, start_bot

ITX_APPLICATION_COMMAND = 2


async def raw_slash(
    h: Harness, user: FakeUser, sub: str, options: list[dict[str, Any]]
) -> FakeInteraction:
    """``/uno <sub>`` with option values sent as they are, unchecked by the client."""
    [uno] = [c for c in h.fake.commands[None].values() if c["name"] == "uno"]
    data = {
        "id": uno["id"],
        "name": "uno",
        "type": 1,
        "options": [{"type": 1, "name": sub, "options": options}],
    }
    return await h.fake._dispatch_interaction(
        ITX_APPLICATION_COMMAND, user, h.channel, data, command_name=f"uno {sub}"
    )


async def private_answer(itx: FakeInteraction) -> str:
    reply = (await itx.response()).message
    assert reply is not None and reply.is_ephemeral
    return reply.text


@pytest.fixture
async def h(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> Harness:
    return await start_bot(
        fake_discord, bot_runner, tmp_path / "uno.db", fake_guild.default_channel
    )


@pytest.mark.parametrize("target", [-5, 49, 5001, 10**12, "abc", 12.5, True])
async def test_new_refuses_a_target_out_of_range(
    h: Harness, fake_guild: FakeGuild, bot_runner: BotRunner, target: object
) -> None:
    alice = await h.fake.create_member(fake_guild, "alice")
    itx = await raw_slash(h, alice, "new", [{"name": "target", "type": 4, "value": target}])
    assert "`target` must be a whole number from 50 to 5000." in await private_answer(itx)
    assert h.bot.tables.tables == {} and await h.storage.load_tables() == []
    assert not h.fake.failed_interactions()
    bot_runner.assert_no_errors()


async def test_new_accepts_the_ends_of_the_range(h: Harness, fake_guild: FakeGuild) -> None:
    alice = await h.fake.create_member(fake_guild, "alice")
    for target in (50, 5000):
        channel = await h.fake.create_channel(fake_guild, f"t{target}")
        itx = await h.fake.slash(alice, channel, "uno new", {"target": target})
        lobby = (await itx.response()).message
        assert lobby is not None and f"first to {target} points" in lobby.text


async def test_choices_and_members_that_were_never_offered(
    h: Harness, fake_guild: FakeGuild, bot_runner: BotRunner
) -> None:
    alice = await h.fake.create_member(fake_guild, "alice")
    itx = await raw_slash(h, alice, "rules", [{"name": "edition", "type": 3, "value": "bogus"}])
    assert "`edition` must be one of the choices in the list." in await private_answer(itx)
    itx = await raw_slash(h, alice, "new", [{"name": "length", "type": 3, "value": "forever"}])
    assert "`length` must be one of the choices" in await private_answer(itx)
    itx = await raw_slash(h, alice, "kick", [{"name": "player", "type": 3, "value": "x" * 101}])
    assert "`player`" in await private_answer(itx)
    itx = await raw_slash(h, alice, "leaderboard", [{"name": "season", "type": 4, "value": 0}])
    assert "`season` must be a whole number from 1 to 999999." in await private_answer(itx)
    assert not h.fake.failed_interactions()
    bot_runner.assert_no_errors()


async def test_kick_confirmation_escapes_markdown_and_mentions(
    h: Harness, fake_guild: FakeGuild, bot_runner: BotRunner
) -> None:
    host = await h.fake.create_member(fake_guild, "host")
    itx = await h.fake.slash(host, h.channel, "uno new", {})
    lobby = (await itx.response()).message
    assert lobby is not None
    zwsp = "\u200b"
    shown = {
        f"<@{host.id}>": f"<{zwsp}@{zwsp}{host.id}\\>",
        "@everyone *bold*": f"@{zwsp}everyone \\*bold\\*",
    }
    for name, escaped in shown.items():
        guest = await h.fake.create_member(fake_guild, f"g{len(name)}", global_name=name)
        await (await h.fake.click(guest, lobby, lobby.button("Join"))).response()
        itx = await h.fake.slash(host, h.channel, "uno kick", {"player": str(guest.id)})
        assert await private_answer(itx) == f"{escaped} was removed."
    bot_runner.assert_no_errors()


async def test_kick_offers_the_seated_players_and_refuses_anyone_else(
    h: Harness, fake_guild: FakeGuild, bot_runner: BotRunner
) -> None:
    host = await h.fake.create_member(fake_guild, "host", global_name="Host")
    lobby = (await (await h.fake.slash(host, h.channel, "uno new", {})).response()).message
    assert lobby is not None
    seated = []
    for name in ("Bea", "Bob", "Cy"):
        guest = await h.fake.create_member(fake_guild, name.lower(), global_name=name)
        await (await h.fake.click(guest, lobby, lobby.button("Join"))).response()
        seated.append(guest)
    outsider = await h.fake.create_member(fake_guild, "outsider", global_name="Bo Outside")

    async def offered(user: FakeUser, typed: str) -> list[tuple[str, str]]:
        itx = await h.fake.autocomplete(user, h.channel, "uno kick", {"player": typed}, "player")
        return [(c["name"], c["value"]) for c in (await itx.response()).data["choices"]]

    bea, bob, cy = seated
    assert await offered(host, "") == [
        ("Bea", str(bea.id)),
        ("Bob", str(bob.id)),
        ("Cy", str(cy.id)),
    ]
    assert await offered(host, "b") == [("Bea", str(bea.id)), ("Bob", str(bob.id))]
    assert await offered(bea, "") == []  # only the host may remove players
    for bad in (str(outsider.id), "Bo Outside", "nobody", "-5", str(host.id)):
        itx = await h.fake.slash(host, h.channel, "uno kick", {"player": bad})
        assert "Choose one of the players at your table" in await private_answer(itx)
    assert "Bea" in lobby.text and "Cy" in lobby.text
    itx = await h.fake.slash(host, h.channel, "uno kick", {"player": "cy"})  # a name typed out
    assert await private_answer(itx) == "Cy was removed."
    itx = await h.fake.slash(host, h.channel, "uno kick", {"player": str(bob.id)})
    assert await private_answer(itx) == "Bob was removed."
    assert await offered(host, "") == [("Bea", str(bea.id))]
    itx = await h.fake.slash(bea, h.channel, "uno kick", {"player": str(host.id)})
    assert "host" in (await private_answer(itx)).lower()
    assert not h.fake.failed_interactions()
    bot_runner.assert_no_errors()


async def test_leaderboard_offers_the_seasons_and_rules_describes_edition(
    h: Harness, fake_guild: FakeGuild, bot_runner: BotRunner
) -> None:
    ann = await h.fake.create_member(fake_guild, "ann")
    await h.storage.start_season(fake_guild.id, "Spring")
    await h.storage.start_season(fake_guild.id, None)
    itx = await h.fake.autocomplete(ann, h.channel, "uno leaderboard", {"season": ""}, "season")
    choices = (await itx.response()).data["choices"]
    assert choices == [
        {"name": "Season 3 (current)", "value": 3},
        {"name": "Season 2 · Spring", "value": 2},
        {"name": "Season 1", "value": 1},
    ]
    itx = await h.fake.autocomplete(ann, h.channel, "uno leaderboard", {"season": 2}, "season")
    assert [c["value"] for c in (await itx.response()).data["choices"]] == [2]
    [uno] = [c for c in h.fake.commands[None].values() if c["name"] == "uno"]
    rules = next(o for o in uno["options"] if o["name"] == "rules")
    [edition] = rules["options"]
    assert edition["description"] not in ("", "…") and edition["choices"]
    bot_runner.assert_no_errors()


async def test_history_values_the_select_never_offered(
    h: Harness, fake_guild: FakeGuild, bot_runner: BotRunner
) -> None:
    ann = await h.fake.create_member(fake_guild, "ann")
    players = [MatchPlayer(ann.id, "Ann", 0, 50, 1), MatchPlayer(1, "Bo", 1, 0, 2)]
    await h.storage.record_match(
        MatchRecord(
            match_uid="m1",
            guild_id=fake_guild.id,
            channel_id=h.channel.id,
            edition="classic",
            scoring="standard",
            target=500,
            started_at=1_700_000_000,
            finished_at=1_700_000_600,
            rounds=[[50, 0]],
            events=[],
            players=players,
            winners=[ann.id],
        )
    )
    msg = (await (await h.fake.slash(ann, h.channel, "uno history")).response()).message
    assert msg is not None
    select = msg.select(prefix="unohist:").custom_id
    for value in ("abc", "9" * 23, "-1", "0", "١"):
        itx = await h.fake.select(ann, msg, select, [value], force=True)
        assert "Pick a match from the list." in await private_answer(itx)
    assert not h.fake.failed_interactions()
    bot_runner.assert_no_errors()


def test_leaderboard_pages_never_outgrow_their_custom_id() -> None:
    page = LeaderboardPage(
        guild_id=1, season=None, sort="rating", offset=MAX_OFFSET, total=10**9, rows=[]
    )
    layout = leaderboard_layout(page, 0, "All time")
    buttons = [item for item in layout.walk_children() if isinstance(item, LeaderboardPageButton)]
    template = LeaderboardPageButton.__discord_ui_compiled_template__
    assert len(buttons) == 2
    assert all(template.fullmatch(b.custom_id) for b in buttons)
    assert buttons[1].item.disabled  # no page past the last one a custom id can name
