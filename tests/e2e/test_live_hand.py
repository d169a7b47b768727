"""One live hand per player: "Show my hand" brings the player's newest private hand up to date
instead of posting another, and a closed table forgets every hand it kept."""

from __future__ import annotations

from pathlib import Path

from fake_discord import BotRunner, FakeDiscord, FakeGuild, FakeUser
from tests.e2e.helpers import (
    lobby_and_start,
    open_hand,
    play_turn,
    settle,
    start_bot,
    table_message,
)


async def test_show_my_hand_edits_the_players_newest_hand(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    channel = fake_guild.default_channel
    h = await start_bot(fake_discord, bot_runner, tmp_path / "uno.db", channel, seed=12)
    users = [await fake_discord.create_member(fake_guild, f"p{i}") for i in range(2)]
    by_id = {u.id: u for u in users}
    _, thread = await lobby_and_start(h, users, {"edition": "classic"})
    [table] = h.bot.tables.tables.values()
    game = table.match.game  # type: ignore[union-attr]
    waiting = by_id[table.seats[game.next_seat(game.current)].user_id]

    def hands_of(user: FakeUser) -> int:
        seen = fake_discord.visible_messages(user, thread)  # type: ignore[arg-type]
        return sum(1 for m in seen if m.is_ephemeral)

    board = table_message(fake_discord, thread)  # type: ignore[arg-type]
    assert board is not None
    first = await open_hand(fake_discord, waiting, board)
    assert hands_of(waiting) == 1
    version = table.version
    await play_turn(h, by_id, thread, 1)  # the other player moves: the waiting hand is old
    assert h.bot.tables.tables[table.table_id].version > version
    board = table_message(fake_discord, thread)  # type: ignore[arg-type]
    assert board is not None
    edits = first.edit_count
    again = await open_hand(fake_discord, waiting, board)
    assert again.id == first.id and first.edit_count == edits + 1  # brought up to date in place
    assert hands_of(waiting) == 1
    seat = table.seat_of(waiting.id)
    assert seat is not None and f"Your hand · {len(game.hands[seat])} cards" in again.text

    # Asked again with nothing new: the old one may be out of sight (dismissed), so a new one.
    fresh = await open_hand(fake_discord, waiting, board)
    assert fresh.id != first.id and hands_of(waiting) == 2

    clicks = h.bot.get_cog("UnoCog").clicks  # type: ignore[union-attr]
    assert table.table_id in clicks.latest.tables
    host = by_id[table.host_id]
    await (await fake_discord.slash(host, thread, "uno end")).response()  # type: ignore[arg-type]
    await settle(h)
    assert table.table_id not in clicks.latest.tables  # forgotten with the table
    assert not fake_discord.failed_interactions()
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()
