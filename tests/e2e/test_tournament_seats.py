"""A tournament's tables through the real bot: the berserk player marked on it with their halved
turn time, its final scoreboard pointing back to the tournament (which seats the next table)
instead of offering a rematch, and the podium's first tournament podium told privately."""

from __future__ import annotations

import csv
import io
import json
import random
from pathlib import Path

import pytest

from bot.storage import FORMER_PLAYER_ID
from bot.storage.models import FORMER_PLAYER_NAME
from bot.tables.table import Status
from bot.tournament.model import Tournament
from fake_discord import BotRunner, FakeDiscord, FakeGuild, FakeMessage, FakeUser
from tests.e2e.helpers import Harness, settle
from tests.e2e.tournament_helpers import (
    announcements_sent,
    play_a_while,
    play_to_podium,
    podium_news,
    standings_message,
    start_with_admin,
)


def table_post(h: Harness, thread_id: int) -> FakeMessage | None:
    """The table message in a tournament table's thread (the newest with a picture)."""
    for message in reversed(h.fake.public_messages(thread_id)):
        if message.attachments and message.buttons:
            return message
    return None


async def test_a_tournament_table_marks_berserk_and_points_back_to_the_tournament(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    channel = fake_guild.default_channel
    h, admin = await start_with_admin(fake, fake_guild, bot_runner, tmp_path / "uno.db", seed=5)
    wild, calm = [await fake.create_member(fake_guild, n, global_name=n) for n in ("Wild", "Calm")]
    await (
        await fake.slash(admin, channel, "uno-admin tournament open", {"computers": 1})
    ).response()
    await h.scheduler.advance(0.0)
    board = await fake.wait_for(lambda: standings_message(h), what="the standings message")
    await fake.click_for_private(wild, board, board.button("Join"))
    berserk = await fake.click_for_private(wild, board, board.button("⚔️ Berserk"))
    assert "half the turn timer" in berserk.text
    await fake.click_for_private(calm, board, board.button("Join"))  # three wait: a table
    [table] = [t for t in h.bot.tables.tables.values() if t.tournament_id is not None]
    assert table.thread_id is not None
    await settle(h)
    shown = await fake.wait_for(lambda: table_post(h, table.thread_id or 0), what="the table")
    # The berserk player's seat says so, with the turn time halved; nobody else's does.
    [marked] = [line for line in shown.text.splitlines() if "⚔️" in line]
    assert "Wild" in marked and "berserk: 30 s a turn" in marked
    assert shown.button("Show my hand")

    await play_a_while(h, random.Random(4), 400)
    await settle(h)
    assert table.status is Status.FINISHED
    final = await fake.wait_for(lambda: table_post(h, table.thread_id or 0))
    # No rematch: the tournament decides the next table; the way back to its message instead.
    assert not final.find_buttons("Rematch")
    back = final.button("Tournament standings")
    link = f"https://discord.com/channels/{fake_guild.id}/{channel.id}/{board.id}"
    assert back.url == link and back.custom_id is None
    assert link in final.text and "next table" in final.text
    # Remembered as a tournament's table: an older scoreboard's Rematch is refused too.
    cog = h.bot.get_cog("UnoCog")
    assert cog is not None
    assert cog.clicks.rematches.finished[table.table_id].tournament  # type: ignore[attr-defined]
    fake.assert_no_errors()


async def play_knockout(h: Harness, host: FakeUser, people: list[FakeUser], seed: int) -> None:
    """Open a knockout, everyone joins, the host starts it; played until its podium shows."""
    fake, channel = h.fake, h.channel
    await (
        await fake.slash(host, channel, "uno-admin tournament open", {"kind": "knockout"})
    ).response()
    await h.scheduler.advance(0.0)
    board = await fake.wait_for(lambda: standings_message(h), what="the bracket message")
    for person in people:
        await fake.click_for_private(person, board, board.button("Join"))
    await (await fake.slash(host, channel, "uno-admin tournament start", {})).response()
    await play_to_podium(h, random.Random(seed), tries=40)


async def test_a_first_tournament_podium_is_told_privately_once(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    channel = fake_guild.default_channel
    h, admin = await start_with_admin(fake, fake_guild, bot_runner, tmp_path / "uno.db", seed=6)
    people = [await fake.create_member(fake_guild, f"p{i}", global_name=f"P{i}") for i in range(3)]
    await play_knockout(h, admin, people, seed=1)  # three players: one final, all on the podium
    await announcements_sent(h)
    told = (
        "🏅 New achievement in this server's UNO league: **Tournament podium**. See `/uno profile`."
    )
    for person in people:
        assert await fake.wait_for(lambda p=person: podium_news(h, p) or None) == [told]
    assert podium_news(h, admin) == []  # the host did not play
    await play_knockout(h, admin, people, seed=2)  # a second podium earns nothing new
    await announcements_sent(h)
    assert all(podium_news(h, person) == [told] for person in people)

    # The league's export holds both tournaments' results, and names each match's tournament;
    # a member who asked to be forgotten is the former player there too.
    ask = (await (await fake.slash(people[2], channel, "uno forget-me")).response()).message
    assert ask is not None
    await (await fake.click(people[2], ask, ask.button("Yes, erase my records"))).response()
    itx = await fake.slash(admin, channel, "uno-admin export", {"format": "json"})
    data = json.loads((await itx.followup(0)).attachment(f"uno-{fake_guild.id}.json").data)
    forgotten_id = people[2].id
    finished = [
        Tournament.from_dict(t) for t in await h.storage.finished_tournaments(fake_guild.id)
    ]
    # The stored tournaments no longer hold the forgotten member's name.
    assert any(forgotten_id in t.entrants for t in finished)
    assert all(t.entrants[forgotten_id].name == FORMER_PLAYER_NAME for t in finished)
    exported = {t["tournament_id"]: t for t in data["tournaments"]}
    assert sorted(exported) == sorted(t.tournament_id for t in finished)
    forgotten = people[2].id
    for t in finished:
        shown = exported[t.tournament_id]
        assert shown["kind"] == "knockout" and shown["finished"]
        hidden = [FORMER_PLAYER_ID if s.user_id == forgotten else s.user_id for s in t.podium()]
        assert shown["podium"] == hidden
        assert [f["match_uid"] for f in shown["tables"]] == [f.table_id for f in t.finishes]
        assert str(forgotten) not in json.dumps(shown) and "P2" not in json.dumps(shown)
    assert sorted(m["match_uid"] for m in data["matches"] if m["tournament_id"]) == sorted(
        f.table_id for t in finished for f in t.finishes
    )
    itx = await fake.slash(admin, channel, "uno-admin export", {"format": "csv"})
    rows = csv.DictReader(
        io.StringIO(
            (await itx.followup(0)).attachment(f"uno-{fake_guild.id}.csv").data.decode("utf-8")
        )
    )
    assert {r["tournament_id"] for r in rows} == {t.tournament_id for t in finished}
    fake.assert_no_errors()


async def test_members_reach_tournaments_under_uno_when_the_server_lets_anyone_open_them(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    channel = fake_guild.default_channel
    h, admin = await start_with_admin(fake, fake_guild, bot_runner, tmp_path / "uno.db")
    host, guest = [
        await fake.create_member(fake_guild, n, global_name=n) for n in ("Host", "Guest")
    ]

    async def ask(user: FakeUser, command: str, options: dict[str, object] | None = None) -> str:
        answer = await (await fake.slash(user, channel, command, options or {})).response()
        assert answer.message is not None and answer.message.is_ephemeral
        return answer.message.text

    # /uno-admin stays hidden from members; /uno tournament is theirs, and checks the server.
    with pytest.raises(AssertionError, match="hidden"):
        await fake.slash(host, channel, "uno-admin tournament open", {})
    assert "Manage Server" in await ask(host, "uno tournament open", {"kind": "knockout"})
    assert "no tournament" in await ask(guest, "uno tournament join")
    panel = (await (await fake.slash(admin, channel, "uno-admin settings")).response()).message
    assert panel is not None
    await (await fake.click(admin, panel, f"unotog:{fake_guild.id}:tourney")).response()
    assert "opened by anyone" in panel.text

    opened = await ask(host, "uno tournament open", {"kind": "knockout", "computers": 2})
    assert "knockout is open" in opened
    await h.scheduler.advance(0.0)
    board = await fake.wait_for(lambda: standings_message(h), what="the bracket message")
    assert "/uno tournament start" in board.text and "/uno-admin" not in board.text
    for person in (host, guest):
        assert "You are in" in await ask(person, "uno tournament join")
    assert "already" in await ask(guest, "uno tournament join")
    assert "not waiting" not in await ask(guest, "uno tournament status")
    assert "Only the host" in await ask(guest, "uno tournament start")
    assert "has started" in await ask(host, "uno tournament start")
    [t] = [t for t in h.bot.tables.tables.values() if t.tournament_id is not None]
    assert {s.user_id for s in t.seats if s.computer is None} == {host.id, guest.id}
    assert "playing a table" in await ask(guest, "uno tournament status")
    fake.assert_no_errors()


async def test_forget_me_takes_the_name_out_of_a_running_tournament_and_its_message(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    channel = fake_guild.default_channel
    h, admin = await start_with_admin(fake, fake_guild, bot_runner, tmp_path / "uno.db", seed=7)
    shy = await fake.create_member(fake_guild, "shy", global_name="Shyguy")
    await (await fake.slash(admin, channel, "uno-admin tournament open", {})).response()
    await h.scheduler.advance(0.0)
    board = await fake.wait_for(lambda: standings_message(h), what="the standings message")
    await fake.click_for_private(shy, board, board.button("Join"))
    await h.scheduler.advance(10.0)
    await settle(h)
    assert "Shyguy" in (standings_message(h) or board).text

    ask = (await (await fake.slash(shy, channel, "uno forget-me")).response()).message
    assert ask is not None
    await (await fake.click(shy, ask, ask.button("Yes, erase my records"))).response()
    await h.scheduler.advance(10.0)
    await settle(h)
    cog = h.bot.get_cog("TournamentCog")
    assert cog is not None
    [running] = cog.desk.manager.tournaments.values()  # type: ignore[attr-defined]
    assert running.entrants[shy.id].name == FORMER_PLAYER_NAME  # still entered, unnamed
    [stored] = await h.storage.load_tournaments()
    assert Tournament.from_dict(stored).entrants[shy.id].name == FORMER_PLAYER_NAME
    shown = await fake.wait_for(
        lambda: ((m := standings_message(h)) and "Shyguy" not in m.text and m) or None,
        what="the standings without the name",
    )
    assert FORMER_PLAYER_NAME in shown.text
    fake.assert_no_errors()


pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
