"""Spectators through the real bot: Watch opens a private view that keeps up with the table
and never shows a hand; cheers show on the table message, one per person per cooldown, and
change nothing in the game."""

from __future__ import annotations

from pathlib import Path

from fake_discord import BotRunner, FakeDiscord, FakeGuild
from tests.e2e.helpers import lobby_and_start, play_turn, settle, start_bot, table_message


async def test_a_spectator_watches_and_cheers_without_changing_the_game(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    channel = fake_guild.default_channel
    h = await start_bot(fake, bot_runner, tmp_path / "uno.db", channel, seed=3)
    players = [await fake.create_member(fake_guild, f"p{i}", global_name=f"P{i}") for i in range(2)]
    fan = await fake.create_member(fake_guild, "fan", global_name="Fan")
    by_id = {u.id: u for u in players}
    _, thread = await lobby_and_start(h, players, {"edition": "sonic"})
    board = table_message(fake, thread)  # type: ignore[arg-type]
    assert board is not None
    [table] = h.bot.tables.tables.values()
    watch = await fake.click_for_private(fan, board, board.button("Watch"))
    assert watch.is_ephemeral and watch.visible_to(fan) and "Watching the table" in watch.text
    assert not any(watch.visible_to(p) for p in players)
    assert not watch.attachments and "Your hand" not in watch.text
    # The view keeps up: a move at the table redraws it.
    edits = watch.edit_count
    await play_turn(h, by_id, thread, 1)
    await settle(h)
    await fake.wait_for(lambda: watch.edit_count > edits, what="the watch to keep up")
    assert "Watching the table" in watch.text and "Your hand" not in watch.text
    # A cheer shows on the table message and changes nothing in the game.
    version, events = table.version, len(table.match.game.events)  # type: ignore[union-attr]
    board = table_message(fake, thread)  # type: ignore[arg-type]
    assert board is not None
    await (await fake.click(fan, board, board.button("👏"))).response()
    await settle(h)
    board = await fake.wait_for(
        lambda: next(
            (m for m in [table_message(fake, thread)] if m and "Cheers: 👏 1" in m.text),  # type: ignore[arg-type]
            None,
        ),
        what="the cheer on the table",
    )
    again = await fake.click_for_private(fan, board, board.button("🔥"))
    assert again.visible_to(fan) and "cheer again" in again.text
    await settle(h)
    assert "🔥 1" not in (table_message(fake, thread) or board).text  # type: ignore[arg-type]
    assert table.version == version and len(table.match.game.events) == events  # type: ignore[union-attr]
    assert not fake.failed_interactions()
    fake.assert_no_errors()
    bot_runner.assert_no_errors()
