"""A bot killed mid-match comes back on the same database, and the old buttons still work."""

from __future__ import annotations

from pathlib import Path

from bot.tables.scheduler import ManualScheduler
from bot.tables.table import Status
from fake_discord import BotRunner, FakeDiscord, FakeGuild
from tests.e2e.helpers import (
    lobby_and_start,
    maybe_catch,
    open_hand,
    play_turn,
    settle,
    start_bot,
    table_message,
)


async def test_kill_restart_and_finish_with_old_buttons(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    channel = fake_guild.default_channel
    db = tmp_path / "uno.db"
    first = await start_bot(fake_discord, bot_runner, db, channel, seed=5)
    users = [await fake_discord.create_member(fake_guild, f"p{i}") for i in range(3)]
    by_id = {u.id: u for u in users}
    _, thread = await lobby_and_start(first, users, {"edition": "mario", "length": "round"})
    for step in range(6):
        await play_turn(first, by_id, thread, step)
    # The next player opens their hand before the crash and plays from it afterwards.
    [before] = first.bot.tables.tables.values()
    waiting = by_id[before.seats[before.match.game.current].user_id]  # type: ignore[union-attr]
    early = table_message(fake_discord, thread)  # type: ignore[arg-type]
    assert early is not None
    old_hand = await open_hand(fake_discord, waiting, early)
    [before] = first.bot.tables.tables.values()
    saved = (before.version, before.match.to_dict())  # type: ignore[union-attr]
    old_board = table_message(fake_discord, thread)  # type: ignore[arg-type]
    assert old_board is not None

    # Abrupt death: no close(), no goodbye. Every acknowledged action is already on disk.
    await bot_runner.kill(first.running)
    second = await start_bot(fake_discord, bot_runner, db, channel, seed=6)
    [after] = second.bot.tables.tables.values()
    assert (after.version, after.match.to_dict()) == saved  # type: ignore[union-attr]
    await settle(second)

    # A button on the message the first bot drew opens a fresh hand from the second bot.
    current = after.match.game.current  # type: ignore[union-attr]
    user = by_id[after.seats[current].user_id]
    itx = await fake_discord.click(user, old_board, old_board.button("Show my hand"))
    hand = await itx.original_message()
    assert hand.is_ephemeral and "Your hand" in hand.text

    # A card button of the hand the first bot drew is played by the second bot.
    version = after.version
    buttons = [
        b for b in old_hand.buttons if not b.disabled and b.custom_id and ":draw" in b.custom_id
    ]
    edits = old_hand.edit_count
    await (await fake_discord.click(waiting, old_hand, buttons[0])).response()
    await fake_discord.wait_for(lambda: old_hand.edit_count > edits)
    assert second.bot.tables.tables[after.table_id].version > version
    await settle(second)
    tables = list(second.bot.tables.tables.values())
    if tables and tables[0].match is not None and tables[0].match.game.phase.name == "DRAWN":
        await (await fake_discord.click(waiting, old_hand, old_hand.button("Keep it"))).response()
        await fake_discord.wait_for(lambda: old_hand.edit_count > edits + 1)
        await settle(second)

    for step in range(6, 1500):
        tables = list(second.bot.tables.tables.values())
        if not tables or tables[0].status is not Status.PLAYING:
            break
        await play_turn(second, by_id, thread, step)
        await maybe_catch(second, by_id, thread)
    assert not second.bot.tables.tables
    matches = await second.storage.recent_matches(fake_guild.id, 10, 0)
    assert len(matches) == 1  # recorded exactly once
    assert await second.storage.load_tables() == []
    assert not fake_discord.failed_interactions()
    fake_discord.assert_no_errors()


async def test_a_lobby_closed_by_its_timer_after_a_restart_shows_so(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    channel = fake_guild.default_channel
    db = tmp_path / "uno.db"
    first = await start_bot(fake_discord, bot_runner, db, channel, seed=5)
    alice = await fake_discord.create_member(fake_guild, "alice")
    itx = await fake_discord.slash(alice, channel, "uno new", {"edition": "classic"})
    lobby = (await itx.response()).message
    assert lobby is not None and lobby.button("Join")

    # Killed before anyone joins: the lobby's message id is already saved with the table.
    await bot_runner.kill(first.running)
    later = ManualScheduler(start=first.scheduler.now + 60)
    second = await start_bot(fake_discord, bot_runner, db, channel, seed=6, scheduler=later)
    [table] = second.bot.tables.tables.values()
    assert table.lobby_message_id == lobby.id and table.lobby_deadline is not None
    edits = lobby.edit_count
    await later.advance(table.lobby_deadline - later.now + 1)
    await fake_discord.wait_for(lambda: lobby.edit_count > edits, what="the lobby to close")
    assert "This game was cancelled." in lobby.text and not lobby.buttons
    assert await second.storage.load_tables() == []
    assert not fake_discord.failed_interactions()
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()
