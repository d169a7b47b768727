"""The bot killed at chosen instants, in a process of its own, and restarted on the same
database: the acknowledged click survives, one live table message per table, the end shown."""

from __future__ import annotations

from pathlib import Path

from bot.engine.cards import FIRST_WILD
from bot.engine.game import Phase
from bot.tables.table import Status, Table
from fake_discord import FakeChannel, FakeDiscord, FakeGuild, FakeMessage, FakeUser
from tests.e2e.child import ChildBot, save_table, saved_tables
from tests.e2e.helpers import open_hand, patient_with_child_processes

ANSWERS = ("color", "accept", "draw")  # a hand button every awaited seat has, by phase


def table_messages(fake: FakeDiscord, thread: FakeChannel, table_id: str) -> list[FakeMessage]:
    """The live public messages in the thread that carry this table's buttons."""
    mine = f"uno:{table_id}:"
    return [
        m
        for m in fake.public_messages(thread)
        if any(b.custom_id and b.custom_id.startswith(mine) for b in m.buttons)
    ]


async def start_game(
    fake: FakeDiscord, guild: FakeGuild, users: list[FakeUser]
) -> tuple[FakeChannel, str]:
    channel = guild.default_channel
    itx = await fake.slash(users[0], channel, "uno new", {"edition": "classic", "length": "round"})
    lobby = (await itx.response(30)).message
    assert lobby is not None
    for user in users[1:]:
        await (await fake.click(user, lobby, lobby.button("Join"))).response(30)
    await (await fake.click(users[0], lobby, lobby.button("Start"))).response(30)
    thread = (await fake.wait_for(lambda: fake.threads_of(channel), 30))[-1]
    message = await fake.wait_for(
        lambda: next((m for m in fake.public_messages(thread) if m.buttons), None), 30
    )
    table_id = (message.buttons[0].custom_id or "").split(":")[1]
    return thread, table_id


async def awaited_hand(
    fake: FakeDiscord, by_id: dict[int, FakeUser], table: Table, thread: FakeChannel
) -> tuple[FakeUser, FakeMessage]:
    assert table.match is not None
    user = by_id[table.seats[table.match.game.current].user_id]
    [message] = table_messages(fake, thread, table.table_id)
    return user, await open_hand(fake, user, message)


def first_enabled(hand: FakeMessage, actions: tuple[str, ...]) -> str:
    for action in actions:
        for b in hand.buttons:
            if b.custom_id and not b.disabled and b.custom_id.split(":")[3] == action:
                return b.custom_id
    raise AssertionError(f"no {actions} button in {hand.text!r}")


def one_card_from_winning(table: Table) -> None:
    """Leave the awaited seat one card it may play now (the rest back into the draw pile)."""
    assert table.match is not None
    game = table.match.game
    if game.phase is Phase.DRAWN:  # the card just drawn stays in the hand: a plain turn
        game.phase, game.drawn = Phase.TURN, -1
    if game.phase is not Phase.TURN:
        raise AssertionError(f"the test needs a plain turn, not {game.phase}")
    hand = game.hands[game.current]
    plain = [card for card in hand if card < FIRST_WILD and game.can_play(card)]
    keep = plain[0] if plain else None
    if keep is None:  # nothing plain to play: hand the seat a copy of the top card's twin
        keep = next(c for c in game.draw_pile if c < FIRST_WILD and game.can_play(c))
        game.draw_pile.remove(keep)
        hand.append(keep)
    game.draw_pile.extend(c for c in hand if c != keep)
    hand[:] = [keep]


async def test_killed_at_the_ack_and_between_post_and_delete_then_restarted(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, tmp_path: Path
) -> None:
    fake = fake_discord
    patient_with_child_processes(fake)
    db = tmp_path / "uno.db"
    users = [await fake.create_member(fake_guild, f"p{i}") for i in range(2)]
    by_id = {u.id: u for u in users}

    # 1. Killed the instant a hand click is acknowledged.
    bot = await ChildBot.start(fake, db, crash_at="ack")
    try:
        await bot.wait("ready")
        await fake.wait_for(lambda: fake.commands[None], 30, "commands")
        thread, table_id = await start_game(fake, fake_guild, users)
        [before] = await saved_tables(db)
        user, hand = await awaited_hand(fake, by_id, before, thread)
        click = await fake.click(user, hand, first_enabled(hand, ANSWERS))
        await click.response(30)  # Discord showed it as accepted...
        assert await bot.crashed()  # ...and the bot died right then
    finally:
        await bot.stop()
    [after] = await saved_tables(db)
    assert after.version == before.version + 1  # the acknowledged click was saved first
    assert after.log != before.log

    # 2. Killed between posting a fresh table message and deleting the old one: every edit is
    # refused as too old (30046), so the restarted bot moves the table to a fresh message.
    [old] = table_messages(fake, thread, table_id)
    fake.old_message_age, fake.old_message_edit_limit = -1.0, 0
    bot = await ChildBot.start(fake, db, crash_at="table-posted")
    try:
        assert await bot.crashed(60)
    finally:
        await bot.stop()
    fake.old_message_age, fake.old_message_edit_limit = 3600.0, 10
    assert len(table_messages(fake, thread, table_id)) == 2  # the new one and the old one
    [pending] = await saved_tables(db)
    assert pending.post_nonce is not None  # saved before the post

    # Restarted: the same nonce brings back the same message; the old one is deleted.
    bot = await ChildBot.start(fake, db)
    try:
        await bot.wait("ready")
        await fake.wait_for(lambda: old.deleted, 30, "the old table message to go")
        [live] = table_messages(fake, thread, table_id)
        assert str(live.nonce) == pending.post_nonce
    finally:
        await bot.stop()
    [tidy] = await saved_tables(db)
    assert tidy.table_message_id == live.id and tidy.post_nonce is None
    assert set(tidy.old_messages) <= {old.id}  # deleted; its id dropped unless stopped first

    # 3. Killed the instant the winning click is acknowledged: the end is shown after restart.
    one_card_from_winning(tidy)
    await save_table(db, tidy)
    bot = await ChildBot.start(fake, db, crash_at="ack")
    try:
        await bot.wait("ready")
        [table] = await saved_tables(db)
        user, hand = await awaited_hand(fake, by_id, table, thread)
        await (await fake.click(user, hand, first_enabled(hand, ("play",)))).response(30)
        assert await bot.crashed()
    finally:
        await bot.stop()
    [ended] = await saved_tables(db)
    assert ended.status is Status.FINISHED  # kept until its end is shown
    bot = await ChildBot.start(fake, db)
    try:
        await bot.wait("ready")
        await fake.wait_for(
            lambda: any("won the match" in m.text for m in fake.public_messages(thread)),
            30,
            "the end to be shown",
        )
    finally:
        await bot.stop()
    shown = [m for m in fake.public_messages(thread) if "won the match" in m.text]
    assert len(shown) == 1
    assert table_messages(fake, thread, table_id) in ([], shown)  # no other live message
    # Forgotten once shown (unless the stop came between the edit and the forgetting).
    assert all(t.status is Status.FINISHED for t in await saved_tables(db))
    assert not fake.failed_interactions()
