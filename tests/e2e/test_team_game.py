"""A team game through the real bot: teams set in the lobby, a start that does not fit refused,
partners' hands shown privately to partners alone, the match played out and recorded as teams."""

from __future__ import annotations

from pathlib import Path

from bot.engine.cards import CODES
from bot.engine.record import RoundRecord
from bot.i18n import ENGLISH_LANG
from bot.i18n.game_words import card_name
from bot.tables.table import Status
from fake_discord import BotRunner, FakeDiscord, FakeGuild
from tests.e2e.helpers import maybe_catch, play_turn, settle, start_bot, table_message


async def test_two_teams_play_a_match_with_private_partner_views(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    channel = fake_guild.default_channel
    h = await start_bot(fake, bot_runner, tmp_path / "uno.db", channel, seed=5)
    users = [await fake.create_member(fake_guild, f"t{i}", global_name=f"P{i}") for i in range(4)]
    outsider = await fake.create_member(fake_guild, "watcher", global_name="Watcher")
    by_id = {u.id: u for u in users}
    itx = await fake.slash(users[0], channel, "uno new", {"edition": "classic", "target": 50})
    lobby = (await itx.response()).message
    assert lobby is not None
    for user in users[1:3]:
        await (await fake.click(user, lobby, lobby.button("Join"))).response()
    await (await fake.click(users[0], lobby, lobby.button("Teams: off"))).response()
    await (await fake.click(users[0], lobby, lobby.button("Partners see hands: off"))).response()
    assert "2 teams" in lobby.text and "partners see each other's hands" in lobby.text
    # Three players cannot make two teams: the start is refused, saying which counts fit.
    refused = await fake.click_for_private(users[0], lobby, lobby.button("Start"))
    assert refused.is_ephemeral and "4, 6, 8, 10" in refused.text
    await (await fake.click(users[3], lobby, lobby.button("Join"))).response()
    team_two = next(b for b in lobby.buttons if b.label.endswith("Team 2"))
    await (await fake.click(users[0], lobby, team_two)).response()
    await (await fake.click(users[0], lobby, lobby.button("Start"))).response()
    thread = (await fake.wait_for(lambda: fake.threads_of(channel)))[-1]
    board = await fake.wait_for(lambda: table_message(fake, thread), what="the table message")
    await settle(h)
    [table] = h.bot.tables.tables.values()
    assert table.match is not None and table.match.teams == 2
    assert table.seats[1].user_id == users[0].id  # the host picked team 2: seat 1 or 3
    assert "🟥" in board.text and "🟦" in board.text
    # A partner's hand, to that player alone; everyone else is refused.
    seat = 0
    me = by_id[table.seats[seat].user_id]
    shown = await fake.click_for_private(me, board, board.button("Partners' hands"))
    assert shown.is_ephemeral and shown.visible_to(me)
    partner = table.seats[2]
    assert partner.name in shown.text
    for code in table.match.game.hands[2]:
        assert card_name(CODES[code], ENGLISH_LANG) in shown.text
    for other in users:
        if other is not me:
            assert not shown.visible_to(other)
    stranger = await fake.click_for_private(outsider, board, board.button("Partners' hands"))
    assert stranger.visible_to(outsider) and "not playing" in stranger.text
    # Play the match out by clicks.
    for step in range(2000):
        tables = list(h.bot.tables.tables.values())
        if not tables:
            break
        if tables[0].status is Status.ROUND_OVER:
            board = await fake.wait_for(
                lambda: next(
                    (
                        m
                        for m in reversed(fake.public_messages(thread))
                        if any(b.label == "Next round" for b in m.buttons)
                    ),
                    None,
                ),
                what="the scoreboard",
            )
            await (await fake.click(users[step % 4], board, board.button("Next round"))).response()
            await settle(h)
            continue
        await play_turn(h, by_id, thread, step)
        await maybe_catch(h, by_id, thread)
    assert not h.bot.tables.tables, "the match did not finish"
    await settle(h)
    final = fake.public_messages(thread)[-1]
    assert "won the match!" in final.text and "Team" in final.text
    [summary] = await h.storage.recent_matches(fake_guild.id, 10, 0)
    detail = await h.storage.match_detail(fake_guild.id, summary.match_id)
    assert detail is not None
    winners = [p for p in detail.players if p.winner]  # type: ignore[attr-defined]
    assert len(winners) == 2 and winners[0].seat % 2 == winners[1].seat % 2
    assert detail.teams == 2 and [p.team for p in detail.players] == [0, 1, 0, 1]
    # Every round is recorded with its teams and replays to the points it scored.
    for number, played in enumerate(detail.rounds, start=1):
        text = await h.storage.round_record(fake_guild.id, summary.match_id, number)
        assert text is not None
        record = RoundRecord.from_text(text)
        assert record.teams == 2 and record.replayed_points() == played.points
    # The league shows the teams: marks in the history, team matches and wins in stats.
    history = (await (await fake.slash(users[0], channel, "uno history")).response()).message
    assert history is not None and "2 teams" in history.text
    assert "🟥 **" in history.text or "🟦 **" in history.text
    stats = await (await fake.slash(by_id[winners[0].user_id], channel, "uno stats")).response()
    stats = stats.message
    assert stats is not None and "Team matches 1 · team wins 1" in stats.text
    for msg in fake.public_messages(thread):
        assert "Your partners' hands" not in msg.text
    assert not fake.failed_interactions()
    fake.assert_no_errors()
    bot_runner.assert_no_errors()
