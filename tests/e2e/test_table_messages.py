"""The public table message through the real bot: about one request a move, paced under the
channel limit, moved before it ages, one live message whatever fails, the end always shown, a
lost thread closed, and a late ping for the awaited player."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from bot.tables.snapshot import snapshot_of
from bot.tables.table import Status
from cogs.ui.board import TableBoard
from cogs.ui.pacer import ChannelPacer
from cogs.ui.table import log_text, status_line
from fake_discord import BotRunner, FakeChannel, FakeDiscord, FakeGuild, FakeMessage, FakeUser
from fake_discord.clock import ManualClock
from tests.e2e.helpers import (
    Harness,
    board,
    lobby_and_start,
    maybe_catch,
    open_hand,
    play_turn,
    settle,
    start_bot,
    table_message,
)

WRITES = ("create", "edit", "delete")


def table_messages(fake: FakeDiscord, thread: FakeChannel) -> list[FakeMessage]:
    """Every live message of the thread with a "Show my hand" button."""
    return [
        m for m in fake.public_messages(thread) if any(b.label == "Show my hand" for b in m.buttons)
    ]


def shows_latest(fake: FakeDiscord, thread: FakeChannel, h: Harness) -> bool:
    """The one table message says what the live table's newest snapshot says."""
    [table] = h.bot.tables.tables.values()
    snapshot = snapshot_of(table)
    [shown] = table_messages(fake, thread)
    return status_line(snapshot) in shown.text and log_text(snapshot) in shown.text


def writes(fake: FakeDiscord, thread: FakeChannel) -> int:
    counts = fake.channel_requests(thread)
    return sum(counts[kind] for kind in WRITES)


def on_manual_time(tb: TableBoard, clock: ManualClock) -> None:
    """The board dates messages and paces on the fake's clock; its sleeps move that clock."""

    async def sleep(seconds: float) -> None:
        clock.advance(max(0.0, seconds))
        await asyncio.sleep(0)

    tb.clock = clock.time
    tb.sleep = sleep
    tb.pacer = ChannelPacer(clock=clock.time, sleep=sleep)


async def four_humans(
    fake: FakeDiscord,
    guild: FakeGuild,
    runner: BotRunner,
    tmp_path: Path,
    n: int = 4,
    clock: ManualClock | None = None,
) -> tuple[Harness, dict[int, FakeUser], FakeChannel]:
    h = await start_bot(fake, runner, tmp_path / "uno.db", guild.default_channel, seed=3)
    if clock is not None:
        on_manual_time(board(h.bot), clock)
    users = [await fake.create_member(guild, f"p{i}") for i in range(n)]
    _, thread = await lobby_and_start(h, users, {"edition": "classic", "target": 500})
    assert isinstance(thread, FakeChannel)
    return h, {u.id: u for u in users}, thread


def live_table(h: Harness) -> object:
    [table] = h.bot.tables.tables.values()
    return table


async def test_a_four_human_game_costs_about_one_channel_request_a_move(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    h, by_id, thread = await four_humans(fake_discord, fake_guild, bot_runner, tmp_path)
    start_version = h.bot.tables.tables[next(iter(h.bot.tables.tables))].version
    before = writes(fake_discord, thread)
    for step in range(24):
        if not h.bot.tables.tables:
            break
        await play_turn(h, by_id, thread, step)
        await maybe_catch(h, by_id, thread)
    await settle(h)
    [table] = h.bot.tables.tables.values()
    moves = table.version - start_version
    assert moves >= 20
    assert (writes(fake_discord, thread) - before) / moves <= 1.1
    assert shows_latest(fake_discord, thread, h)
    fake_discord.assert_no_errors()


async def test_flat_out_clicks_never_pass_five_writes_in_five_seconds(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    bot_runner: BotRunner,
    tmp_path: Path,
    fake_clock: ManualClock,
) -> None:
    fake_discord.channel_rate_limit = (5, 5.0)  # Discord's: a sixth write would be refused
    h, by_id, thread = await four_humans(
        fake_discord, fake_guild, bot_runner, tmp_path, clock=fake_clock
    )
    table_id = next(iter(h.bot.tables.tables))
    # The awaited players draw and keep as fast as their hands come back, never waiting for
    # the table message: every change lands while it is still being refreshed.
    for _ in range(15):
        table = h.bot.tables.tables[table_id]
        assert table.match is not None
        user = by_id[table.seats[table.match.game.current].user_id]
        message = table_message(fake_discord, thread)
        assert message is not None
        hand = await open_hand(fake_discord, user, message)
        for action in ("draw", "keep"):
            ids = [b.custom_id for b in hand.buttons if b.custom_id and f":{action}" in b.custom_id]
            if not ids or any(b.disabled for b in hand.buttons if b.custom_id == ids[0]):
                break
            edits = hand.edit_count
            await (await fake_discord.click(user, hand, ids[0])).response()
            await fake_discord.wait_for(lambda h=hand, e=edits: h.edit_count > e)
    await settle(h)
    assert fake_discord.message_bursts(thread, via=["channel"]) <= 5
    assert not fake_discord.rate_limited
    assert shows_latest(fake_discord, thread, h)


async def test_a_burst_of_changes_is_paced_and_ends_on_the_latest_state(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    bot_runner: BotRunner,
    tmp_path: Path,
    fake_clock: ManualClock,
) -> None:
    fake_discord.channel_rate_limit = (5, 5.0)
    h, _, thread = await four_humans(
        fake_discord, fake_guild, bot_runner, tmp_path, clock=fake_clock
    )
    table_id = next(iter(h.bot.tables.tables))
    # Thirty changes as fast as the manager takes them (a page of the log each): the board
    # must never write more than five times in five seconds, and must end on the last.
    manager = h.bot.tables
    for _ in range(30):
        async with manager.registry.hold(table_id):
            table = manager.tables[table_id]
            await manager.registry.commit(table)
        await asyncio.sleep(0)
    await settle(h)
    assert fake_discord.message_bursts(thread, via=["channel"]) <= 5
    assert not fake_discord.rate_limited
    assert shows_latest(fake_discord, thread, h)


async def test_the_table_moves_to_a_fresh_message_before_the_age_limit(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    bot_runner: BotRunner,
    tmp_path: Path,
    fake_clock: ManualClock,
) -> None:
    h, by_id, thread = await four_humans(
        fake_discord, fake_guild, bot_runner, tmp_path, clock=fake_clock
    )
    first = table_message(fake_discord, thread)
    assert first is not None
    for step in range(12):  # more edits than Discord allows an old message
        await play_turn(h, by_id, thread, step)
    assert table_message(fake_discord, thread) is first and first.edit_count >= 10
    fake_clock.advance(3601)  # an edit now would be refused with 30046
    await play_turn(h, by_id, thread, 12)
    await settle(h)
    [fresh] = table_messages(fake_discord, thread)
    assert fresh is not first and first.deleted
    assert all(e.code == 50027 for e in fake_discord.errors)  # never a refused table edit
    # The move saved the new message as the table's, with nothing left to tidy.
    [table] = h.bot.tables.tables.values()
    assert table.table_message_id == fresh.id and not table.old_messages
    assert table.post_nonce is None
    # An hour on, the hand messages' interaction tokens have expired (401 on their edits).
    assert all(e.code == 50027 for e in fake_discord.errors)


async def test_a_retried_post_after_a_500_makes_no_second_table_message(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    bot_runner: BotRunner,
    tmp_path: Path,
    fake_clock: ManualClock,
) -> None:
    h, by_id, thread = await four_humans(
        fake_discord, fake_guild, bot_runner, tmp_path, clock=fake_clock
    )
    first = table_message(fake_discord, thread)
    assert first is not None
    # Discord stores the post but its answer is lost; discord.py posts again (same nonce).
    fake_discord.faults.inject(
        "POST", f"/channels/{thread.id}/messages", status=500, after_handling=True
    )
    fake_clock.advance(MAX_AGE)
    await play_turn(h, by_id, thread, 0)
    await settle(h)
    [fresh] = table_messages(fake_discord, thread)
    assert fresh is not first and fresh.nonce is not None
    fake_discord.assert_no_errors()


MAX_AGE = 50 * 60 + 1


async def test_a_finished_match_is_shown_finished_after_a_crash_before_its_edit(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    channel = fake_guild.default_channel
    db = tmp_path / "uno.db"
    h = await start_bot(fake_discord, bot_runner, db, channel, seed=5)
    users = [await fake_discord.create_member(fake_guild, f"p{i}") for i in range(2)]
    by_id = {u.id: u for u in users}
    _, thread = await lobby_and_start(h, users, {"edition": "classic", "length": "round"})
    assert isinstance(thread, FakeChannel)
    # Every table edit hangs from now on: the winning move is saved, but never shown.
    fake_discord.faults.inject("PATCH", f"/channels/{thread.id}/messages/*", delay=3600, times=999)
    tb = board(h.bot)
    for step in range(1500):
        tables = list(h.bot.tables.tables.values())
        if not tables or tables[0].status is not Status.PLAYING:
            break
        await play_turn_unsettled(h, by_id, thread, step, tb)
    assert not h.bot.tables.tables
    [match] = await h.storage.recent_matches(fake_guild.id, 10, 0)
    shown = table_message(fake_discord, thread)
    assert shown is not None and "won the match" not in shown.text
    await bot_runner.kill(h.running)
    fake_discord.faults.pending.clear()

    again = await start_bot(fake_discord, bot_runner, db, channel, seed=6)
    await settle(again)
    [final] = fake_discord.public_messages(thread)
    assert final is shown and "won the match" in final.text
    assert await again.storage.load_tables() == []  # forgotten once shown
    assert len(await again.storage.recent_matches(fake_guild.id, 10, 0)) == 1  # recorded once
    assert match.number == 1


async def play_turn_unsettled(
    h: Harness, by_id: dict[int, FakeUser], thread: FakeChannel, step: int, tb: TableBoard
) -> None:
    """A turn while the board cannot finish its edits: settle only waits for the manager."""
    saved = tb.settle

    async def nothing() -> None:
        await asyncio.sleep(0)

    tb.settle = nothing  # type: ignore[method-assign]
    try:
        await play_turn(h, by_id, thread, step)
    finally:
        tb.settle = saved  # type: ignore[method-assign]


async def test_a_deleted_thread_closes_its_table_and_frees_its_players(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    bot_runner: BotRunner,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    h, by_id, thread = await four_humans(fake_discord, fake_guild, bot_runner, tmp_path, n=2)
    await play_turn(h, by_id, thread, 0)
    await fake_discord.delete_channel(thread)
    await fake_discord.wait_for(lambda: not h.bot.tables.tables, what="the table to close")
    await settle(h)
    assert await h.storage.load_tables() == []
    assert not await h.storage.recent_matches(fake_guild.id, 10, 0)  # never recorded
    alice = next(iter(by_id.values()))
    itx = await fake_discord.slash(alice, h.channel, "uno hand")
    reply = (await itx.response()).message
    assert reply is not None and "Your hand" not in reply.text
    itx = await fake_discord.slash(alice, h.channel, "uno new")
    assert (await itx.response()).message is not None
    assert not [r for r in caplog.records if r.exc_info]


async def test_a_thread_deleted_while_the_bot_was_down_is_closed_at_start_quietly(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    bot_runner: BotRunner,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    h, by_id, thread = await four_humans(fake_discord, fake_guild, bot_runner, tmp_path, n=2)
    await play_turn(h, by_id, thread, 0)
    await bot_runner.kill(h.running)
    await fake_discord.delete_channel(thread)
    caplog.set_level(logging.WARNING)
    again = await start_bot(fake_discord, bot_runner, tmp_path / "uno.db", h.channel, seed=6)
    await settle(again)
    assert not again.bot.tables.tables
    assert await again.storage.load_tables() == []
    assert not [r for r in caplog.records if r.exc_info]
    assert any("channel is gone" in r.getMessage() for r in caplog.records)
    bot_runner.assert_no_errors()


async def test_the_awaited_player_is_pinged_after_a_wait_and_the_ping_goes_when_they_move(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    h, by_id, thread = await four_humans(fake_discord, fake_guild, bot_runner, tmp_path, n=2)
    [table] = h.bot.tables.tables.values()
    assert table.match is not None
    awaited = table.seats[table.match.game.current].user_id
    await h.scheduler.advance(10)
    await settle(h)
    assert len(fake_discord.public_messages(thread)) == 1  # not yet
    await h.scheduler.advance(11)
    await settle(h)
    [ping] = [m for m in fake_discord.public_messages(thread) if not m.attachments]
    assert f"<@{awaited}>" in ping.text
    assert ping.button("Show my hand").custom_id  # a way to a hand that follows the game
    assert ping.allowed_mentions is not None and ping.allowed_mentions.get("users") == [awaited]
    assert h.bot.tables.tables[table.table_id].ping_message_id == ping.id
    await play_turn(h, by_id, thread, 0)
    await settle(h)
    assert ping.deleted
    saved = h.bot.tables.tables[table.table_id]
    assert saved.ping_message_id is None and ping.id not in saved.old_messages  # gone for good
    assert [m.id for m in fake_discord.public_messages(thread)] == [
        table_message(fake_discord, thread).id  # type: ignore[union-attr]
    ]
    fake_discord.assert_no_errors()


async def test_a_failing_refresh_is_logged_and_the_refresher_goes_on(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    bot_runner: BotRunner,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    h, by_id, thread = await four_humans(fake_discord, fake_guild, bot_runner, tmp_path, n=2)
    tb = board(h.bot)
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    tb.sleep = sleep
    draw = tb._draw
    failures = iter([RuntimeError("boom"), None])

    async def flaky(*args: object) -> None:
        failure = next(failures, None)
        if failure is not None:
            raise failure
        await draw(*args)  # type: ignore[arg-type]

    tb._draw = flaky  # type: ignore[method-assign]
    await play_turn(h, by_id, thread, 0)
    await settle(h)
    assert any(r.exc_info and "could not refresh table" in r.getMessage() for r in caplog.records)
    assert slept  # waited before trying again
    assert shows_latest(fake_discord, thread, h)


async def test_a_ping_outlives_a_restart_and_nobody_is_pinged_twice_for_one_turn(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    h, by_id, thread = await four_humans(fake_discord, fake_guild, bot_runner, tmp_path, n=2)
    await h.scheduler.advance(21)
    await settle(h)
    [ping] = [m for m in fake_discord.public_messages(thread) if not m.attachments]
    await bot_runner.stop(h.running)
    again = await start_bot(fake_discord, bot_runner, tmp_path / "uno.db", h.channel, seed=6)
    await settle(again)
    await again.scheduler.advance(60)
    await settle(again)
    assert not ping.deleted
    assert [m for m in fake_discord.public_messages(thread) if not m.attachments] == [ping]
    await play_turn(again, by_id, thread, 0)
    await settle(again)
    assert ping.deleted  # the turn moved on: its ping goes
    # ...and is not left to delete once more: a third start deletes nothing already gone.
    await bot_runner.stop(again.running)
    third = await start_bot(fake_discord, bot_runner, tmp_path / "uno.db", h.channel, seed=6)
    await settle(third)
    assert not [e for e in fake_discord.errors if e.method == "DELETE"]
    fake_discord.assert_no_errors()
