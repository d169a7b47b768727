"""A tournament's table through the real bot: the berserk player marked on it with their halved
turn time, and its final scoreboard pointing back to the tournament (which seats the next
table) instead of offering a rematch."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.tables.scheduler import ManualScheduler
from bot.tables.table import Status
from fake_discord import BotRunner, FakeDiscord, FakeGuild, FakeMessage
from fake_discord.constants import PERM_MANAGE_GUILD
from tests.e2e.helpers import Harness, settle, start_bot
from tests.e2e.test_tournament import START, play_a_while, standings_message


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
    h = await start_bot(
        fake, bot_runner, tmp_path / "uno.db", channel, seed=5, scheduler=ManualScheduler(START)
    )
    admin = await fake.create_member(fake_guild, "admin", global_name="Admin")
    managers = await fake.create_role(fake_guild, "managers", PERM_MANAGE_GUILD)
    await fake.set_member_roles(fake_guild, admin, [managers])
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


pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
