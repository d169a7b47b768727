"""House rules through the real bot and the fake Discord: the host's panel, a stacked penalty
answered with Accept +N, a jump-in (and its race with the awaited player), a 7 swapped by a
select, a Wild Customizable effect, and /uno rules."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.engine import Game
from bot.engine.cards import CARD_INDEX, COLOR_INDEX
from fake_discord import BotRunner, FakeDiscord, FakeGuild
from tests.e2e.helpers import (
    card_button,
    enabled,
    new_lobby,
    open_hand,
    press,
    settle,
    shown_table,
    start,
    start_bot,
    user_of,
)
from tests.helpers import give, put_on_top


async def test_the_host_sets_house_rules_in_a_panel_that_the_lobby_and_table_show(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    h = await start_bot(fake_discord, bot_runner, tmp_path / "uno.db", fake_guild.default_channel)
    users = [await fake_discord.create_member(fake_guild, name) for name in ("ann", "bob")]
    lobby = await new_lobby(h, users, {"edition": "mario"})
    assert "Official rules" in lobby.text
    [table_id] = h.bot.tables.tables

    refused = await fake_discord.click(users[1], lobby, lobby.button(label_contains="House rules"))
    answer = (await refused.response()).message
    assert answer is not None and answer.is_ephemeral
    assert answer.text == "Only the host can choose the house rules."

    opened = await fake_discord.click(users[0], lobby, lobby.button(label_contains="House rules"))
    panel = (await opened.response()).message
    assert panel is not None and panel.is_ephemeral and panel.visible_to(users[0])
    assert "Official rules" in panel.text
    preset = f"uno:{table_id}:0:preset"
    assert panel.select(preset).values == ["official", "party", "chill"]
    await (await fake_discord.select(users[0], panel, preset, ["party"])).response()
    assert "House rules: stacking (all) · jump-in · 7-0" in panel.text
    assert "**Jump-in:** anyone holding a card identical" in panel.text
    await fake_discord.wait_for(lambda: "stacking (all) · jump-in · 7-0" in lobby.text)

    effect = f"uno:{table_id}:0:option:custom_effect"
    await (await fake_discord.select(users[0], panel, effect, ["play_again"])).response()
    must = panel.button(label_contains="Must play")
    assert must.label == "Must play: off"
    await (await fake_discord.click(users[0], panel, must)).response()
    assert panel.button(label_contains="Must play").label == "Must play: on"
    line = "House rules: stacking (all) · jump-in · 7-0 · must play · Wild Customizable: play again"
    await fake_discord.wait_for(lambda: line in lobby.text, what="the lobby's rules line")

    table, thread = await start(h, users, lobby)
    assert table.rules.house.must_play and table.rules.house.custom_effect.value == "play_again"
    assert line in (await shown_table(h, thread)).text
    rules = await fake_discord.slash(users[1], thread, "uno rules")  # type: ignore[arg-type]
    reply = (await rules.response()).message
    assert reply is not None and reply.is_ephemeral
    assert "**Must play:** no drawing while you hold a card you can play" in reply.text
    assert "**Wild Customizable:** besides naming a color, you play again at once" in reply.text
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()


async def test_a_stacked_penalty_is_answered_with_accept_n(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    h = await start_bot(fake_discord, bot_runner, tmp_path / "uno.db", fake_guild.default_channel)
    users = [await fake_discord.create_member(fake_guild, f"p{i}") for i in range(3)]
    lobby = await new_lobby(h, users, {"edition": "classic", "house_rules": "party"})
    table, thread = await start(h, users, lobby)
    game: Game = table.match.game  # type: ignore[union-attr]
    first = game.current
    second = game.next_seat(first)
    third = game.next_seat(second)
    put_on_top(game, "red-5")
    give(game, first, ["red-draw2"])
    give(game, second, ["blue-draw2"])

    hand = await open_hand(fake_discord, user_of(table, users, first), await shown_table(h, thread))
    await press(h, user_of(table, users, first), hand, card_button(hand, "red-draw2"))
    target = user_of(table, users, second)
    hand = await open_hand(fake_discord, target, await shown_table(h, thread))
    assert "**+2 on you** (Red Draw Two)! Accept or stack a draw card." in hand.text
    assert hand.button("Accept +2").custom_id is not None
    await press(h, target, hand, card_button(hand, "blue-draw2"))

    msg = await shown_table(h, thread)
    assert "**+4**" in msg.text and "accept or stack a draw card" in msg.text
    last = user_of(table, users, third)
    cards = len(game.hands[third])
    itx = await fake_discord.click(last, msg, msg.button("Accept +4"))
    reply = (await itx.response()).message
    assert reply is not None and reply.is_ephemeral
    assert len(game.hands[third]) == cards + 4
    assert "accepted +4" in (await shown_table(h, thread)).text
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()


async def test_a_jump_in_shows_in_a_waiting_hand_and_wins_or_loses_its_race(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    h = await start_bot(fake_discord, bot_runner, tmp_path / "uno.db", fake_guild.default_channel)
    users = [await fake_discord.create_member(fake_guild, f"p{i}") for i in range(3)]
    lobby = await new_lobby(h, users, {"edition": "classic", "house_rules": "party"})
    table, thread = await start(h, users, lobby)
    game: Game = table.match.game  # type: ignore[union-attr]
    mover = game.current
    awaited = game.next_seat(mover)
    jumper = game.next_seat(awaited)
    put_on_top(game, "green-3")
    give(game, mover, ["green-5"])
    give(game, awaited, ["green-9"])
    give(game, jumper, ["green-5"])

    # The jumper's hand is open while they wait; the mover's play makes a jump-in possible.
    waiting = await open_hand(
        fake_discord, user_of(table, users, jumper), await shown_table(h, thread)
    )
    assert "Waiting for the others." in waiting.text
    edits = waiting.edit_count
    hand = await open_hand(fake_discord, user_of(table, users, mover), await shown_table(h, thread))
    await press(h, user_of(table, users, mover), hand, card_button(hand, "green-5"))
    await fake_discord.wait_for(lambda: waiting.edit_count > edits, what="the jump-in offered")
    assert "**Jump in!** You hold Green 5, identical to the top card" in waiting.text
    assert "Jump-in: anyone holding Green 5 may play it now" in (await shown_table(h, thread)).text

    # The jump-in and the awaited player's card are clicked at once: the table's lock lets the
    # first through and the other is told who came first.
    slow = await open_hand(
        fake_discord, user_of(table, users, awaited), await shown_table(h, thread)
    )
    version = table.version
    jump = await fake_discord.click(
        user_of(table, users, jumper), waiting, card_button(waiting, "green-5")
    )
    turn = await fake_discord.click(
        user_of(table, users, awaited), slow, card_button(slow, "green-9")
    )
    await asyncio.gather(jump.response(), turn.response())
    await fake_discord.wait_for(
        lambda: "jumped in first" in slow.text or "Too late to jump in" in waiting.text,
        what="the slower player's note",
    )
    await settle(h)
    assert table.version == version + 1
    kinds = [getattr(line, "kind", "") for line in table.log]
    if "jumped in first" in slow.text:
        assert "jump_in" in kinds and game.discard[-1] == CARD_INDEX["green-5"]
        assert CARD_INDEX["green-9"] in game.hands[awaited]
    else:
        assert game.discard[-1] == CARD_INDEX["green-9"]
        assert CARD_INDEX["green-5"] in game.hands[jumper]
    assert "That button was out of date" not in slow.text + waiting.text
    # The live hands are remembered per table, and forgotten when it closes.
    live = h.bot.get_cog("UnoCog").clicks.live  # type: ignore[union-attr]
    assert set(live.tables) == {table.table_id}
    ended = await fake_discord.slash(users[0], thread, "uno end")  # type: ignore[arg-type]
    await ended.response()
    await settle(h)
    assert live.tables == {}
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()


async def test_a_seven_asks_whom_to_swap_with_and_the_swap_tells_no_card(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    h = await start_bot(fake_discord, bot_runner, tmp_path / "uno.db", fake_guild.default_channel)
    users = [await fake_discord.create_member(fake_guild, f"p{i}") for i in range(3)]
    lobby = await new_lobby(h, users, {"edition": "sonic", "house_rules": "party"})
    table, thread = await start(h, users, lobby)
    game: Game = table.match.game  # type: ignore[union-attr]
    seat = game.current
    other = game.next_seat(game.next_seat(seat))
    put_on_top(game, "red-5")
    give(game, seat, ["red-7"])
    player = user_of(table, users, seat)
    hand = await open_hand(fake_discord, player, await shown_table(h, thread))
    await press(h, player, hand, card_button(hand, "red-7"))
    assert "Choose whom to swap hands with." in hand.text
    [choose] = [s for s in hand.selects if ":target:" in s.custom_id]
    names = [table.seats[s].name for s in range(3) if s != seat]
    assert [label.split(" · ")[0] for label in choose.labels] == names
    theirs = sorted(game.hands[other])
    mine = list(game.hands[seat])
    mine.remove(CARD_INDEX["red-7"])
    edits = hand.edit_count
    await (await fake_discord.select(player, hand, choose.custom_id, [str(other)])).response()
    await fake_discord.wait_for(lambda: hand.edit_count > edits, what="the hand after the swap")
    assert sorted(game.hands[seat]) == theirs and sorted(game.hands[other]) == sorted(mine)
    msg = await shown_table(h, thread)
    assert f"swapped hands with **{table.seats[other].name}**" in msg.text
    assert f"Your hand · {len(theirs)} cards" in hand.text
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()


async def test_a_wild_customizable_swaps_hands_after_its_color_and_whom(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    h = await start_bot(fake_discord, bot_runner, tmp_path / "uno.db", fake_guild.default_channel)
    users = [await fake_discord.create_member(fake_guild, f"p{i}") for i in range(3)]
    lobby = await new_lobby(h, users, {"edition": "mario"})
    [table_id] = h.bot.tables.tables
    opened = await fake_discord.click(users[0], lobby, lobby.button(label_contains="House rules"))
    panel = (await opened.response()).message
    assert panel is not None
    effect = f"uno:{table_id}:0:option:custom_effect"
    await (await fake_discord.select(users[0], panel, effect, ["swap_hands"])).response()
    table, thread = await start(h, users, lobby)
    game: Game = table.match.game  # type: ignore[union-attr]
    seat = game.current
    other = game.next_seat(seat)
    put_on_top(game, "yellow-2")
    give(game, seat, ["wild-custom"])
    player = user_of(table, users, seat)
    hand = await open_hand(fake_discord, player, await shown_table(h, thread))
    await press(h, player, hand, card_button(hand, "wild-custom"))  # its color first
    assert "Choose the color." in hand.text
    blue = next(cid for cid in enabled(hand, "aim") if cid.endswith(".blue"))
    await press(h, player, hand, blue)  # then whom to swap with
    [choose] = [s for s in hand.selects if ":target:" in s.custom_id]
    theirs = sorted(game.hands[other])
    edits = hand.edit_count
    await (await fake_discord.select(player, hand, choose.custom_id, [str(other)])).response()
    await fake_discord.wait_for(lambda: hand.edit_count > edits, what="the hand after the swap")
    assert sorted(game.hands[seat]) == theirs and game.color == COLOR_INDEX["blue"]
    text = (await shown_table(h, thread)).text
    assert "Wild Customizable: swap hands" in text and "swapped hands with" in text
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()
