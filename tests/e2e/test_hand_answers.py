"""A hand click is answered by the redrawn hand itself: one request, picture included. When the
picture is not drawn in time, the click is acknowledged first and the hand shown right after."""

from __future__ import annotations

import time
from pathlib import Path
from types import SimpleNamespace

import pytest

import cogs.uno.clicks
from fake_discord import BotRunner, FakeChannel, FakeDiscord, FakeGuild, FakeMessage, FakeUser
from fake_discord.constants import (
    CB_DEFERRED_MESSAGE,
    CB_DEFERRED_UPDATE,
    CB_MESSAGE,
    CB_UPDATE_MESSAGE,
)
from fake_discord.interactions import FakeInteraction
from tests.e2e.helpers import (
    Harness,
    enabled,
    live_clicks,
    lobby_and_start,
    settle,
    start_bot,
    table_message,
)


def token_requests(fake: FakeDiscord, itx: FakeInteraction, since: int) -> list[str]:
    """Requests made with this interaction's token after the ``since``-th one: its answer
    (a POST to the callback route), follow-ups and edits (the webhook routes)."""
    return [
        f"{r.method} {r.route.split('/')[1]}"
        for r in fake.traffic.log[since:]
        if itx.token in r.path
    ]


async def game_of_two(
    fake: FakeDiscord, guild: FakeGuild, runner: BotRunner, db: Path
) -> tuple[Harness, FakeUser, FakeMessage]:
    """A started two-player game: the bot, the player whose turn it is, the table message."""
    h = await start_bot(fake, runner, db, guild.default_channel)
    users = [await fake.create_member(guild, f"p{i}") for i in range(2)]
    _, thread = await lobby_and_start(h, users, {"edition": "classic"})
    assert isinstance(thread, FakeChannel)
    [table] = h.bot.tables.tables.values()
    assert table.match is not None
    by_id = {u.id: u for u in users}
    user = by_id[table.seats[table.match.game.current].user_id]
    board = await fake.wait_for(lambda: table_message(fake, thread), what="the table")
    return h, user, board


async def test_show_my_hand_and_a_card_click_are_each_one_request_with_the_picture(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    bot_runner: BotRunner,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = fake_discord
    # A picture takes milliseconds; waiting up to just under Discord's 3 s keeps a loaded test
    # machine on the one-request path this test is about.
    monkeypatch.setattr(live_clicks(), "ANSWER_BY", 2.5)
    h, user, board = await game_of_two(fake, fake_guild, bot_runner, tmp_path / "uno.db")

    since = len(fake.traffic.log)
    itx = await fake.click(user, board, board.button("Show my hand"))
    response = await itx.response()
    hand = response.message
    assert response.type == CB_MESSAGE and hand is not None and hand.is_ephemeral
    assert [a.filename for a in hand.attachments] == ["hand.png"]
    assert token_requests(fake, itx, since) == ["POST interactions"]  # the answer alone

    since, edits = len(fake.traffic.log), hand.edit_count
    itx = await fake.click(user, hand, enabled(hand, "draw")[0])
    response = await itx.response()
    assert response.type == CB_UPDATE_MESSAGE
    assert hand.edit_count == edits + 1 and [a.filename for a in hand.attachments] == ["hand.png"]
    await settle(h)
    assert token_requests(fake, itx, since) == ["POST interactions"]
    assert not fake.failed_interactions()
    fake.assert_no_errors()
    bot_runner.assert_no_errors()


async def test_a_picture_drawn_late_is_shown_after_the_acknowledgement(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    bot_runner: BotRunner,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = fake_discord
    h, user, board = await game_of_two(fake, fake_guild, bot_runner, tmp_path / "uno.db")
    monkeypatch.setattr(live_clicks(), "ANSWER_BY", 0.0)  # no picture is ever in time

    since = len(fake.traffic.log)
    itx = await fake.click(user, board, board.button("Show my hand"))
    assert (await itx.response()).type == CB_DEFERRED_MESSAGE
    hand = await itx.original_message()
    assert hand.is_ephemeral and [a.filename for a in hand.attachments] == ["hand.png"]
    assert token_requests(fake, itx, since) == ["POST interactions", "PATCH webhooks"]

    since, edits = len(fake.traffic.log), hand.edit_count
    itx = await fake.click(user, hand, enabled(hand, "draw")[0])
    assert (await itx.response()).type == CB_DEFERRED_UPDATE
    await fake.wait_for(lambda: hand.edit_count > edits, what="the hand redrawn")
    assert [a.filename for a in hand.attachments] == ["hand.png"]
    assert token_requests(fake, itx, since) == ["POST interactions", "PATCH webhooks"]
    await settle(h)
    assert not fake.failed_interactions()
    fake.assert_no_errors()
    bot_runner.assert_no_errors()


def test_a_click_waits_for_its_picture_only_what_is_left_of_discords_time() -> None:
    by = cogs.uno.clicks.ANSWER_BY
    assert cogs.uno.clicks.answer_wait(100.0, 100.0) == by  # just made: the whole time
    assert cogs.uno.clicks.answer_wait(100.0, 100.0 + by - 0.5) == pytest.approx(0.5)
    assert cogs.uno.clicks.answer_wait(100.0, 100.0 + by + 1.0) == 0.0  # too late: at once
    assert cogs.uno.clicks.answer_wait(100.0, 90.0) == by  # a clock behind Discord's: no longer


async def test_a_click_that_reaches_the_bot_late_is_acknowledged_at_once(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    bot_runner: BotRunner,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = fake_discord
    h, user, board = await game_of_two(fake, fake_guild, bot_runner, tmp_path / "uno.db")
    # The bot reads every click as made ten seconds ago, as if it had waited that long in a
    # busy bot's queue: nothing is left of the time to answer with the picture.
    late = SimpleNamespace(time=lambda: time.time() + 10.0)
    monkeypatch.setattr(live_clicks(), "time", late)

    since = len(fake.traffic.log)
    itx = await fake.click(user, board, board.button("Show my hand"))
    assert (await itx.response()).type == CB_DEFERRED_MESSAGE
    hand = await itx.original_message()
    assert [a.filename for a in hand.attachments] == ["hand.png"]
    assert token_requests(fake, itx, since) == ["POST interactions", "PATCH webhooks"]
    await settle(h)
    assert not fake.failed_interactions()
    fake.assert_no_errors()
    bot_runner.assert_no_errors()
