"""One live hand per player: the newest private hand follows the game by itself (nobody presses
Refresh or Show my hand once they hold one), Show my hand puts a fresh one where the player
looks and retires the old, every hand closes at a round's end, and a hand Discord no longer lets
the bot change falls back to a turn notice with a Show my hand button. A click on a hand that a
newer one replaced, or that went away, is applied and shown on the live hand, never on the
retired one, and never answered with an apology."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from bot.engine import Game, Phase
from bot.tables.table import Status, Table
from cogs.uno.live_hands import LiveHand, LiveHands
from fake_discord import BotRunner, FakeDiscord, FakeGuild, FakeMessage, FakeUser
from tests.e2e.helpers import (
    Harness,
    card_button,
    enabled,
    new_lobby,
    open_hand,
    press,
    settle,
    start,
    start_bot,
    user_of,
)
from tests.e2e.helpers import shown_table as board
from tests.helpers import give, put_on_top


def hands_of(fake: FakeDiscord, user: FakeUser, thread: object) -> list[FakeMessage]:
    """The private messages a player sees in the game's thread."""
    seen = fake.visible_messages(user, thread)  # type: ignore[arg-type]
    return [m for m in seen if m.is_ephemeral]


def live_buttons(msg: FakeMessage) -> list[str]:
    return [b.custom_id for b in msg.buttons if b.custom_id and not b.disabled]


async def act(h: Harness, user: FakeUser, hand: FakeMessage) -> None:
    """The player answers whatever their live hand asks, with its buttons alone."""
    for action in ("color", "accept"):
        if found := enabled(hand, action):
            await press(h, user, hand, found[0])
            return
    cards = enabled(hand, "pick") + enabled(hand, "play")
    if cards:
        await press(h, user, hand, cards[0])
        if cards[0].split(":")[3] == "pick":  # a wild: its color next
            await press(h, user, hand, hand.button("Red").custom_id)  # type: ignore[arg-type]
        return
    for action in ("draw", "pass"):
        if found := enabled(hand, action):
            await press(h, user, hand, found[0])
            return
    raise AssertionError(f"nothing to press in {[b.label for b in hand.buttons]}")


async def with_computers(h: Harness, user: FakeUser, computers: int) -> tuple[Table, object]:
    """A classic game of ``user`` against computers, started."""
    lobby = await new_lobby(h, [user], {"edition": "classic"})
    for _ in range(computers):
        add = next(b for b in lobby.buttons if b.label.startswith("Add computer"))
        await (await h.fake.click(user, lobby, add.custom_id)).response()  # type: ignore[arg-type]
    return await start(h, [user], lobby)


async def test_the_hand_lights_up_when_the_computers_have_moved_and_closes_at_the_round_end(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    h = await start_bot(fake_discord, bot_runner, tmp_path / "uno.db", fake_guild.default_channel)
    ann = await fake_discord.create_member(fake_guild, "ann")
    table, thread = await with_computers(h, ann, 2)
    hand = await open_hand(fake_discord, ann, await board(h, thread))  # the only press
    lit = 0
    for _ in range(600):
        await settle(h)
        if table.status is not Status.PLAYING:
            break
        assert hands_of(fake_discord, ann, thread) == [hand]  # one hand, followed in place
        game: Game = table.match.game  # type: ignore[union-attr]
        if table.seats[game.current].computer is None:
            assert "Waiting for the others." not in hand.text and live_buttons(hand)
            lit += 1
            await act(h, ann, hand)
        else:
            assert "Your turn" not in hand.text
            await h.scheduler.advance(1.0)  # the computer moves
    assert table.status is Status.ROUND_OVER and lit > 1
    # The round's end closes the hand: who went out, the scores, when the next round starts.
    await settle(h)
    assert "went out" in hand.text and "**Scores**" in hand.text
    assert "The next round starts" in hand.text and not hand.buttons and not hand.attachments
    # The next deal draws it again, cards and all, still without a press.
    await h.scheduler.advance(31.0)
    await settle(h)
    assert table.status is Status.PLAYING
    assert hand.text.startswith("### Your hand") and hand.attachments
    assert hands_of(fake_discord, ann, thread) == [hand]
    assert not fake_discord.failed_interactions()
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()


async def test_a_wild_draw_four_at_a_waiting_player_asks_them_to_accept_or_challenge(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    h = await start_bot(fake_discord, bot_runner, tmp_path / "uno.db", fake_guild.default_channel)
    users = [await fake_discord.create_member(fake_guild, f"p{i}") for i in range(3)]
    table, thread = await start(h, users, await new_lobby(h, users, {"edition": "classic"}))
    game: Game = table.match.game  # type: ignore[union-attr]
    mover, target = game.current, game.next_seat(game.current)
    third = game.next_seat(target)
    put_on_top(game, "red-5")
    give(game, mover, ["wild-draw4"])
    aimed, other = user_of(table, users, target), user_of(table, users, third)
    waiting = await open_hand(fake_discord, aimed, await board(h, thread))
    bystander = await open_hand(fake_discord, other, await board(h, thread))
    assert "Waiting for the others." in waiting.text
    edits = bystander.edit_count
    player = user_of(table, users, mover)
    hand = await open_hand(fake_discord, player, await board(h, thread))
    await press(h, player, hand, card_button(hand, "wild-draw4"))
    await press(h, player, hand, hand.button("Red").custom_id)  # type: ignore[arg-type]
    await settle(h)
    assert game.phase is Phase.RESPOND
    # The aimed player's hand turned into the answer, with no press of theirs.
    assert waiting.button("Accept +4").custom_id in live_buttons(waiting)
    assert waiting.button("Challenge").custom_id in live_buttons(waiting)
    assert bystander.edit_count == edits  # nothing changed for the third player: not redrawn
    await press(h, aimed, waiting, waiting.button("Accept +4").custom_id)  # type: ignore[arg-type]
    await settle(h)
    assert "Waiting for the others." in waiting.text  # their turn was skipped
    assert "Your turn" in bystander.text  # and the next player's hand lit up
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()


async def test_show_my_hand_posts_a_fresh_hand_and_retires_the_old_one(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    h = await start_bot(fake_discord, bot_runner, tmp_path / "uno.db", fake_guild.default_channel)
    users = [await fake_discord.create_member(fake_guild, f"p{i}") for i in range(2)]
    table, thread = await start(h, users, await new_lobby(h, users, {"edition": "classic"}))
    user = users[1]
    shown = [await open_hand(fake_discord, user, await board(h, thread)) for _ in range(5)]
    await settle(h)
    assert len({m.id for m in shown}) == 5  # each press a fresh hand, at the bottom
    assert hands_of(fake_discord, user, thread) == [shown[-1]]  # the older ones deleted
    assert all(m.deleted for m in shown[:-1])
    clicks = h.bot.get_cog("UnoCog").clicks  # type: ignore[union-attr]
    assert set(clicks.live.tables[table.table_id]) == {user.id}
    host = users[0]
    await (await fake_discord.slash(host, thread, "uno end")).response()  # type: ignore[arg-type]
    await settle(h)
    assert table.table_id not in clicks.live.tables  # forgotten with the table
    assert not shown[-1].buttons  # closed to a line
    assert not fake_discord.failed_interactions()
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()


async def test_a_hand_past_its_edit_window_falls_back_to_a_turn_notice_with_show_my_hand(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    h = await start_bot(fake_discord, bot_runner, tmp_path / "uno.db", fake_guild.default_channel)
    users = [await fake_discord.create_member(fake_guild, f"p{i}") for i in range(2)]
    table, thread = await start(h, users, await new_lobby(h, users, {"edition": "classic"}))
    game: Game = table.match.game  # type: ignore[union-attr]
    mover = user_of(table, users, game.current)
    waiting = user_of(table, users, game.next_seat(game.current))
    live = await open_hand(fake_discord, waiting, await board(h, thread))

    def notices() -> list[FakeMessage]:
        return [
            m
            for m in fake_discord.public_messages(thread)  # type: ignore[arg-type]
            if f"<@{waiting.id}>" in m.text and not m.deleted and not m.attachments
        ]

    # While the hand follows the game, it shows the turn: no notice is posted.
    hand = await open_hand(fake_discord, mover, await board(h, thread))
    await act(h, mover, hand)
    while table.seats[game.current].user_id != waiting.id:
        await act(h, mover, hand)
    await h.scheduler.advance(21.0)
    await settle(h)
    assert "Waiting for the others." not in live.text and not notices()
    await act(h, waiting, live)
    while table.seats[game.current].user_id == waiting.id:
        await act(h, waiting, live)

    # Its interaction is as old as Discord allows: the hand is closed to a line pointing at
    # Show my hand, and the next turn comes with a notice that has that button.
    await h.scheduler.advance(14 * 60.0)
    await settle(h)
    assert not live.buttons and "Show my hand" in live.text
    hand = await open_hand(fake_discord, mover, await board(h, thread))
    while table.seats[game.current].user_id != waiting.id:
        await act(h, mover, hand)
    assert not notices()
    await h.scheduler.advance(21.0)
    await settle(h)
    [notice] = notices()
    assert "waiting for your move" in notice.text
    fresh = await fake_discord.click_for_private(
        waiting,
        notice,
        notice.button("Show my hand"),  # type: ignore[arg-type]
    )
    assert fresh.is_ephemeral and "Your turn" in fresh.text and live_buttons(fresh)
    await act(h, waiting, fresh)
    await settle(h)
    assert not notices()  # the turn moved on: the notice is deleted
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()


async def test_when_every_turn_waits_past_the_notice_delay_a_move_costs_one_channel_request(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    h = await start_bot(fake_discord, bot_runner, tmp_path / "uno.db", fake_guild.default_channel)
    users = [await fake_discord.create_member(fake_guild, f"p{i}") for i in range(3)]
    table, thread = await start(h, users, await new_lobby(h, users, {"edition": "classic"}))
    hands = {u.id: await open_hand(fake_discord, u, await board(h, thread)) for u in users}
    by_id = {u.id: u for u in users}
    writes = fake_discord.traffic.write_counts

    def channel_writes() -> int:
        return sum(n for (via, _), n in writes.items() if via == "channel")

    before, moves = channel_writes(), 0
    while table.status is Status.PLAYING and moves < 30:
        await h.scheduler.advance(21.0)  # every turn waits past the notice delay
        await settle(h)
        game: Game = table.match.game  # type: ignore[union-attr]
        awaited = table.seats[game.current].user_id
        await act(h, by_id[awaited], hands[awaited])  # from the live hand, never pressed again
        moves += 1
    assert moves >= 10
    # The table message's edit alone: no notice (each live hand shows its turn), none deleted.
    assert (channel_writes() - before) / moves <= 1.1
    assert not [m for m in fake_discord.public_messages(thread) if not m.attachments]  # type: ignore[arg-type]
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()


def live_hands(h: Harness) -> LiveHands:
    clicks = h.bot.get_cog("UnoCog").clicks  # type: ignore[union-attr]
    live: LiveHands = clicks.live
    return live


def held_retirements(h: Harness, monkeypatch: pytest.MonkeyPatch) -> asyncio.Event:
    """Retired hands are deleted only once the event is set: until then the old hand is still
    on its player's screen, and they may click it."""
    live = live_hands(h)
    gate = asyncio.Event()
    retire = live._retire

    async def held(old: LiveHand) -> None:
        await gate.wait()
        await retire(old)

    monkeypatch.setattr(live, "_retire", held)
    return gate


def errors_logged(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def two_players(h: Harness, guild: FakeGuild) -> tuple[Table, object, FakeUser, FakeMessage]:
    """A started game of two; the awaited player holds a live hand."""
    users = [await h.fake.create_member(guild, f"p{i}") for i in range(2)]
    table, thread = await start(h, users, await new_lobby(h, users, {"edition": "classic"}))
    game: Game = table.match.game  # type: ignore[union-attr]
    player = user_of(table, users, game.current)
    return table, thread, player, await open_hand(h.fake, player, await board(h, thread))


async def replaced_hand(
    h: Harness, guild: FakeGuild, monkeypatch: pytest.MonkeyPatch
) -> tuple[Table, object, FakeUser, FakeMessage, FakeMessage, int, asyncio.Event]:
    """A game of two whose awaited player (holding ``held`` cards) opened a new hand over their
    old one; the old hand's deletion waits for ``gate``."""
    table, thread, player, old = await two_players(h, guild)
    game: Game = table.match.game  # type: ignore[union-attr]
    held = len(game.hands[game.current])
    gate = held_retirements(h, monkeypatch)
    new = await open_hand(h.fake, player, await board(h, thread))
    return table, thread, player, old, new, held, gate


def drawn_on_live_hand(
    h: Harness, table: Table, thread: object, player: FakeUser, new: FakeMessage, held: int
) -> None:
    """``player``'s draw was applied (``held`` cards before it) and shown on ``new``, their
    live hand, the only hand they see (no apology posted beside it)."""
    game: Game = table.match.game  # type: ignore[union-attr]
    seat = next(i for i, s in enumerate(table.seats) if s.user_id == player.id)
    assert len(game.hands[seat]) == held + 1
    assert hands_of(h.fake, player, thread) == [new]
    live = live_hands(h).tables[table.table_id][player.id]
    assert live.message.message_id == new.id and live.version == table.version


async def test_a_click_on_a_hand_a_newer_one_replaced_is_answered_on_the_newer_one(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    bot_runner: BotRunner,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    h = await start_bot(fake_discord, bot_runner, tmp_path / "uno.db", fake_guild.default_channel)
    table, thread, player, old, new, held, gate = await replaced_hand(h, fake_guild, monkeypatch)
    # The player draws from the old hand while the new one is already drawn below it.
    old_edits, new_edits = old.edit_count, new.edit_count
    await (await fake_discord.click(player, old, enabled(old, "draw")[0])).response()
    await fake_discord.wait_for(lambda: new.edit_count > new_edits, what="the new hand redrawn")
    gate.set()
    await settle(h)
    assert old.deleted and old.edit_count == old_edits  # the retired hand was never edited
    drawn_on_live_hand(h, table, thread, player, new, held)
    assert not fake_discord.failed_interactions()
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()
    assert not errors_logged(caplog)


async def test_a_click_on_a_hand_deleted_before_its_answer_is_shown_on_the_newer_one(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    bot_runner: BotRunner,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    h = await start_bot(fake_discord, bot_runner, tmp_path / "uno.db", fake_guild.default_channel)
    table, thread, player, old, new, held, gate = await replaced_hand(h, fake_guild, monkeypatch)
    new_edits = new.edit_count
    clicks = h.bot.get_cog("UnoCog").clicks  # type: ignore[union-attr]
    # The click on the old hand is made while it is still shown, and handled (after the hand
    # edits before it) only once the old hand is deleted.
    async with clicks.hands.hold((table.table_id, player.id)):
        await fake_discord.click(player, old, enabled(old, "draw")[0])
        gate.set()
        await fake_discord.wait_for(lambda: old.deleted, what="the old hand deleted")
    await fake_discord.wait_for(lambda: new.edit_count > new_edits, what="the new hand redrawn")
    await settle(h)
    drawn_on_live_hand(h, table, thread, player, new, held)
    # Only the acknowledgement Discord refuses for a deleted message; nothing logged as failed.
    assert [(e.status, e.code) for e in fake_discord.errors] == [(404, 10008)]
    bot_runner.assert_no_errors()
    assert not errors_logged(caplog)


async def test_a_click_on_the_live_hand_when_it_is_gone_leaves_the_game_saved_and_quiet(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    bot_runner: BotRunner,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    h = await start_bot(fake_discord, bot_runner, tmp_path / "uno.db", fake_guild.default_channel)
    table, thread, player, hand = await two_players(h, fake_guild)
    game: Game = table.match.game  # type: ignore[union-attr]
    seat, held = game.current, len(game.hands[game.current])
    clicks = h.bot.get_cog("UnoCog").clicks  # type: ignore[union-attr]
    # The player dismisses their hand just after clicking it, before the bot answers.
    async with clicks.hands.hold((table.table_id, player.id)):
        await fake_discord.click(player, hand, enabled(hand, "draw")[0])
        await fake_discord.store.delete(hand, "user")
    await fake_discord.wait_for(lambda: fake_discord.errors, what="the answer refused")
    await settle(h)
    assert len(game.hands[seat]) == held + 1  # the draw was saved
    assert not hands_of(fake_discord, player, thread)  # no apology
    assert player.id not in live_hands(h).tables.get(table.table_id, {})  # forgotten
    assert not live_hands(h).follows(table.table_id, player.id)  # turn notices take over
    bot_runner.assert_no_errors()
    assert not errors_logged(caplog)
