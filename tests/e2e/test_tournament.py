"""A server arena through the real bot: opened by a manager, joined with its buttons, tables
played in their threads (people and computers), standings kept on its message, the bot
killed and restarted mid-way, and the podium at the end, equal to a recount from the league's
match records."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.tables.names import safe_name
from bot.tables.scheduler import ManualScheduler
from bot.tournament.model import Finish, Tournament, standings
from fake_discord import BotRunner, FakeDiscord, FakeGuild
from tests.e2e.helpers import commands_granted_to_everyone, settle, start_bot
from tests.e2e.tournament_helpers import (
    play_a_while,
    play_to_podium,
    standings_message,
    start_with_admin,
    tournament_of,
)


async def test_an_arena_plays_through_discord_survives_a_restart_and_ends_on_its_podium(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    channel = fake_guild.default_channel
    db = tmp_path / "uno.db"
    h, admin = await start_with_admin(fake, fake_guild, bot_runner, db, seed=3)
    people = [await fake.create_member(fake_guild, f"p{i}", global_name=f"P{i}") for i in range(3)]

    # Only a manager may open one (unless the server lets anyone).
    with commands_granted_to_everyone():
        refused = await (
            await fake.slash(people[0], channel, "uno-admin tournament open", {})
        ).response()
    assert refused.message is not None and "Manage Server" in refused.message.text
    opened = await (
        await fake.slash(
            admin, channel, "uno-admin tournament open", {"minutes": 30, "computers": 4}
        )
    ).response()
    assert opened.message is not None and opened.message.is_ephemeral
    await h.scheduler.advance(0.0)  # the standings message's first write falls due
    board = await fake.wait_for(lambda: standings_message(h), what="the standings message")
    assert board.button("Join") and board.button("⚔️ Berserk")

    for index, person in enumerate(people):
        joined = await fake.click_for_private(person, board, board.button("Join"))
        assert "You are in" in joined.text
        if index == 1:  # waiting with one computer: berserk for the next table
            wild = await fake.click_for_private(person, board, board.button("⚔️ Berserk"))
            assert "half the turn timer" in wild.text
    await h.scheduler.advance(0.0)
    again = await fake.click_for_private(people[0], board, board.button("Join"))
    assert "already" in again.text
    # Four computers waited alone; the first person made a table of four, the others one of three.
    [t] = [tournament_of(h)]
    assert sorted(len(p) for p in t.tables.values()) == [3, 4]
    assert all(any(u > 0 for u in p) for p in t.tables.values())
    threads = await fake.wait_for(lambda: len(fake.threads_of(channel)) >= 2 or None)
    assert threads
    [wild_table] = [x for x in h.bot.tables.tables.values() if people[1].id in x.berserk]
    seat = wild_table.seat_of(people[1].id)
    other = wild_table.seat_of(people[2].id)
    assert seat is not None and other is not None
    assert wild_table.seconds_for(seat) == 30 and wild_table.seconds_for(other) == 60

    rng = random.Random(8)
    await play_a_while(h, rng, 600)
    await settle(h)
    middle = tournament_of(h)
    assert middle.finishes, "no table finished yet"
    board = await fake.wait_for(lambda: standings_message(h))
    for _ in range(10):  # a change is shown within the message's edit window (5 s)
        await h.scheduler.advance(5.0)
        await settle(h)
        leader = tournament_of(h).standings()[0]
        if f"{safe_name(leader.name)} · {leader.points} pts" in board.text:
            break
    else:
        raise AssertionError(f"the standings message is behind: {board.text}")

    # Killed mid-way; a new process on the same database takes the tournament up again.
    now = h.scheduler.now
    await bot_runner.kill(h.running)
    h = await start_bot(fake, bot_runner, db, channel, seed=4, scheduler=ManualScheduler(now))
    resumed = tournament_of(h)
    assert resumed.version >= middle.version and len(resumed.finishes) >= len(middle.finishes)
    await play_a_while(h, rng, 400)
    await h.scheduler.advance(1800.0)  # the end: no new tables, the last ones time out
    final_board = None
    for _ in range(100):
        await h.scheduler.advance(60.0)
        await settle(h)
        shown = standings_message(h)
        if shown is not None and "Podium" in shown.text:
            final_board = shown
            break
    assert final_board is not None, "no podium"
    assert not final_board.buttons
    [done] = await h.storage.finished_tournaments(fake_guild.id)
    final = Tournament.from_dict(done)
    played = await h.storage.tournament_matches(fake_guild.id, final.tournament_id)
    assert [tuple(m.placings) for m in played] == [f.placings for f in final.finishes]
    berserk = {f.table_id: f.berserk for f in final.finishes}
    recount = standings(
        final.entrants,
        [Finish(m.match_uid, tuple(m.placings), berserk[m.match_uid]) for m in played],
    )
    assert recount == final.standings()
    for place, s in enumerate(final.podium()):
        assert (
            safe_name(s.name) in final_board.text and ("🥇", "🥈", "🥉")[place] in final_board.text
        )
    history = await h.storage.recent_matches(fake_guild.id)
    assert history and all(m.tournament_id == final.tournament_id for m in history)
    fake.assert_no_errors()


async def test_a_knockout_opened_by_a_member_plays_to_its_final_with_a_bracket(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    channel = fake_guild.default_channel
    h, admin = await start_with_admin(fake, fake_guild, bot_runner, tmp_path / "uno.db")
    host = await fake.create_member(fake_guild, "host", global_name="Host")
    guest = await fake.create_member(fake_guild, "guest", global_name="Guest")
    # The server lets anyone open one (a manager's switch in the settings).
    panel = (await (await fake.slash(admin, channel, "uno-admin settings")).response()).message
    assert panel is not None and "opened by server managers" in panel.text
    await (await fake.click(admin, panel, f"unotog:{fake_guild.id}:tourney")).response()
    assert "opened by anyone" in panel.text
    with commands_granted_to_everyone():
        opened = await (
            await fake.slash(
                host, channel, "uno-admin tournament open", {"kind": "knockout", "computers": 6}
            )
        ).response()
        assert opened.message is not None and "knockout is open" in opened.message.text
        await h.scheduler.advance(0.0)
        board = await fake.wait_for(lambda: standings_message(h), what="the bracket message")
        joined = await fake.click_for_private(guest, board, board.button("Join"))
        assert "You are in" in joined.text
        refused = await (
            await fake.slash(guest, channel, "uno-admin tournament start", {})
        ).response()
        assert refused.message is not None and "Only the host" in refused.message.text
        started = await (
            await fake.slash(host, channel, "uno-admin tournament start", {})
        ).response()
        assert started.message is not None and "has started" in started.message.text
    first = tournament_of(h)
    assert [len(p) for p in first.tables.values()] == [4, 3]  # seven: a table of 4 and one of 3
    shown = await play_to_podium(h, random.Random(2))
    assert not shown.buttons
    [done] = await h.storage.finished_tournaments(fake_guild.id)
    final = Tournament.from_dict(done)
    assert [len(r) for r in final.rounds()] == [2, 1]
    assert len(final.rounds()[-1][0].placings) == 4  # the top two of each table
    assert shown.attachments[-1].filename == "standings.png"
    fake.assert_no_errors()


pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
