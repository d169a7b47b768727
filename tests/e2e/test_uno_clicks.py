"""Bad and tricky clicks through the real bot: strangers, stale and double clicks, a challenge."""

from __future__ import annotations

from pathlib import Path

from bot.engine.cards import CARD_INDEX, CODES, COLOR_INDEX
from bot.engine.events import Caught
from bot.engine.game import Phase
from fake_discord import BotRunner, FakeDiscord, FakeGuild
from tests.e2e.helpers import (
    enabled,
    lobby_and_start,
    open_hand,
    press,
    settle,
    start_bot,
    table_message,
)


async def test_strangers_stale_and_double_clicks_and_a_challenge(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    channel = fake_guild.default_channel
    h = await start_bot(fake_discord, bot_runner, tmp_path / "uno.db", channel, seed=3)
    users = [await fake_discord.create_member(fake_guild, f"p{i}") for i in range(3)]
    stranger = await fake_discord.create_member(fake_guild, "stranger")
    by_id = {u.id: u for u in users}
    _, thread = await lobby_and_start(h, users, {"edition": "classic"})
    [table] = h.bot.tables.tables.values()
    game = table.match.game  # type: ignore[union-attr]
    if game.phase is Phase.COLOR:
        game.choose_color(game.current, 0)
    board = table_message(fake_discord, thread)  # type: ignore[arg-type]
    assert board is not None

    # Someone not seated gets a polite private refusal.
    itx = await fake_discord.click(stranger, board, board.button("Show my hand"))
    refusal = (await itx.response()).message
    assert refusal is not None and refusal.is_ephemeral and "not playing" in refusal.text

    # Arrange the next play: the current player holds a Wild Draw Four and a card of the
    # color in force, so the Wild Draw Four is illegal (cards are swapped with the draw pile,
    # so every card stays accounted for).
    seat = game.current
    color = game.color
    hand = game.hands[seat]
    wanted = [CARD_INDEX["wild-draw4"], color * 13 + 5]
    for card in wanted:
        if card in hand:
            continue
        source = next(i for i, c in enumerate(game.draw_pile) if c == card)
        game.draw_pile[source], hand[0] = hand[0], game.draw_pile[source]
    player = by_id[table.seats[seat].user_id]
    target_seat = game.next_seat(seat)
    target = by_id[table.seats[target_seat].user_id]
    culprit_cards = len(hand)

    private = await open_hand(fake_discord, player, board)
    stale_id = enabled(private, "pick")[0]
    await press(h, player, private, stale_id)  # pick the Wild Draw Four: choose a color
    play_id = next(cid for cid in enabled(private, "play") if cid.endswith(".blue"))
    # A double click: both clicks arrive before the hand is redrawn; the card is played once.
    version = h.bot.tables.tables[table.table_id].version
    first = await fake_discord.click(player, private, play_id)
    second = await fake_discord.click(player, private, play_id)
    await first.response()
    await second.response()
    await fake_discord.wait_for(lambda: "out of date" in private.text)
    await settle(h)
    assert game.phase is Phase.RESPOND and game.color == COLOR_INDEX["blue"]
    assert h.bot.tables.tables[table.table_id].version == version + 1
    assert len(game.hands[seat]) == culprit_cards - 1

    # The target challenges from the table message; only they see the revealed hand.
    await settle(h)
    board = table_message(fake_discord, thread)  # type: ignore[arg-type]
    assert board is not None
    itx = await fake_discord.click(target, board, board.button("Challenge"))
    reveal = (await itx.response()).message
    assert reveal is not None and reveal.is_ephemeral and reveal.visible_to(target)
    assert "Wild Draw Four" in reveal.text and "hand" in reveal.text
    assert not any(reveal.visible_to(u) for u in users if u is not target)
    assert len(game.hands[seat]) == culprit_cards - 1 + 4  # illegal: the culprit draws 4
    assert game.current == target_seat  # and the challenger plays on
    await settle(h)
    for user in users:
        if user is not target:
            assert reveal not in fake_discord.visible_messages(user, thread)  # type: ignore[arg-type]
    assert not fake_discord.failed_interactions()
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()


async def test_ten_catches_at_once_catch_once_and_raise_the_version_once(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    channel = fake_guild.default_channel
    h = await start_bot(fake_discord, bot_runner, tmp_path / "uno.db", channel, seed=4)
    users = [await fake_discord.create_member(fake_guild, f"p{i}") for i in range(3)]
    by_id = {u.id: u for u in users}
    _, thread = await lobby_and_start(h, users, {"edition": "classic"})
    [table] = h.bot.tables.tables.values()
    game = table.match.game  # type: ignore[union-attr]
    if game.phase is Phase.COLOR:
        game.choose_color(game.current, 0)
    # The current player is left with two cards, the first of the color in force; the rest go
    # back into the draw pile, so every card stays accounted for.
    seat = game.current
    hand = game.hands[seat]
    fits = next(i for i, c in enumerate(game.draw_pile) if c == game.color * 13 + 5)
    game.draw_pile[fits], hand[0] = hand[0], game.draw_pile[fits]
    game.draw_pile.extend(hand[2:])
    del hand[2:]
    player = by_id[table.seats[seat].user_id]
    board = table_message(fake_discord, thread)  # type: ignore[arg-type]
    assert board is not None
    private = await open_hand(fake_discord, player, board)
    play = next(cid for cid in enabled(private, "play") if cid.endswith(f".{CODES[hand[0]]}"))
    await press(h, player, private, play)  # played without calling UNO: catchable
    await settle(h)
    board = table_message(fake_discord, thread)  # type: ignore[arg-type]
    assert board is not None
    catch = next(b for b in board.buttons if b.label.startswith("Catch") and not b.disabled)
    version = h.bot.tables.tables[table.table_id].version
    catchers = [u for u in users if u is not player]
    clicks = [await fake_discord.click(catchers[i % 2], board, catch) for i in range(10)]
    answers = [(await itx.response()).message for itx in clicks]
    texts = [a.text for a in answers if a is not None and a.is_ephemeral]
    assert len(texts) == 10
    assert texts.count("Caught! They draw 2.") == 1
    assert texts.count("Too late, or they were safe: nothing happens.") == 9
    assert h.bot.tables.tables[table.table_id].version == version + 1
    assert sum(1 for e in game.events if isinstance(e, Caught)) == 1 and len(hand) == 3
    await settle(h)
    assert not fake_discord.failed_interactions()
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()
