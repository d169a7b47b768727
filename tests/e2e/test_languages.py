"""A whole round in two languages: a German player on a Polish server. Private texts (hands,
replies) follow each player's client; public ones (lobby, table, result) the server's."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.engine.game import Phase
from bot.i18n import lang
from bot.storage import GuildSettings
from cogs.settings import apply_choice
from fake_discord import BotRunner, FakeChannel, FakeDiscord, FakeMessage, FakeUser
from fake_discord.constants import PERM_MANAGE_GUILD
from tests.e2e.helpers import Harness, enabled, press, settle, start_bot

GERMAN, POLISH, ENGLISH = lang("de"), lang("pl"), lang("en")
SHOW = POLISH.gettext("Show my hand")


def stem(template: str) -> str:
    """The longest piece of a translated template outside its placeholders."""
    pieces = [p for chunk in template.split("{") for p in [chunk.split("}")[-1]]]
    return max(pieces, key=len).strip()


def table_message(fake: FakeDiscord, thread: FakeChannel) -> FakeMessage | None:
    for msg in reversed(fake.public_messages(thread)):
        if any(b.label == SHOW for b in msg.buttons):
            return msg
    return None


async def open_hand(h: Harness, user: FakeUser, thread: FakeChannel) -> FakeMessage:
    """Show my hand (in Polish): a new hand message, or the newest one brought up to date."""
    fake = h.fake
    board = await fake.wait_for(lambda: table_message(fake, thread), what="the table")
    return await fake.click_for_private(user, board, board.button(SHOW))


async def play_turn(h: Harness, users: dict[int, FakeUser], thread: FakeChannel) -> FakeMessage:
    """The awaited player acts with their hand's buttons; returns the hand message."""
    [table] = h.bot.tables.tables.values()
    assert table.match is not None
    game = table.match.game
    user = users[table.seats[game.current].user_id]
    hand = await open_hand(h, user, thread)
    if game.phase is Phase.COLOR:
        await press(h, user, hand, enabled(hand, "color")[0])
    elif game.phase is Phase.RESPOND:
        await press(h, user, hand, enabled(hand, "accept")[0])
    else:
        cards = enabled(hand, "play") + enabled(hand, "pick")
        if not cards:
            await press(
                h, user, hand, enabled(hand, "draw" if enabled(hand, "draw") else "keep")[0]
            )
            cards = enabled(hand, "play") + enabled(hand, "pick")
            if not cards:
                return hand
        await press(h, user, hand, cards[0])
        if cards[0].split(":")[3] == "pick":
            await press(h, user, hand, enabled(hand, "play")[0])
    return hand


async def test_a_german_player_on_a_polish_server(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    guild = await fake.create_guild("Serwer", preferred_locale="pl")
    channel = guild.default_channel
    h = await start_bot(fake, bot_runner, tmp_path / "uno.db", channel, seed=5)
    anna = await fake.create_member(guild, "anna", global_name="Anna", locale="de")
    bob = await fake.create_member(guild, "bob", global_name="Bob", locale="en-US")
    users = {anna.id: anna, bob.id: bob}

    # The commands are offered in both languages (names and descriptions).
    [uno] = [c for scope in fake.commands.values() for c in scope.values() if c["name"] == "uno"]
    [new] = [o for o in uno["options"] if o["name"] == "new"]
    assert new["name_localizations"]["de"] == "neu" and new["name_localizations"]["pl"] == "nowa"
    assert new["description_localizations"]["de"] == GERMAN.gettext(new["description"])

    # The lobby is public: Polish, whoever opened it.
    itx = await fake.slash(anna, channel, "uno new", {"length": "round"})
    lobby = (await itx.response()).message
    assert lobby is not None and not lobby.is_ephemeral
    assert POLISH.gettext("Official rules") in lobby.text and "Anna" in lobby.text
    assert POLISH.gettext("Join") == "Dołącz"
    await (await fake.click(bob, lobby, lobby.button(POLISH.gettext("Join")))).response()
    await (await fake.click(anna, lobby, lobby.button(POLISH.gettext("Start")))).response()
    thread = (await fake.wait_for(lambda: fake.threads_of(channel)))[0]
    await fake.wait_for(lambda: table_message(fake, thread), what="the table message")
    await settle(h)
    started = stem(POLISH.gettext("The game is on in {thread}!"))
    await fake.wait_for(lambda: started in lobby.text, what="the lobby to show the start")

    # Each player's hand in their own language, the table in the server's.
    hands: dict[int, list[str]] = {anna.id: [], bob.id: []}
    for _ in range(400):
        if not h.bot.tables.tables:
            break
        [table] = h.bot.tables.tables.values()
        awaited = table.seats[table.match.game.current].user_id  # type: ignore[union-attr]
        hand = await play_turn(h, users, thread)
        hands[awaited].append(hand.text)
        board = table_message(fake, thread)
        if board is not None and h.bot.tables.tables:
            assert stem(POLISH.gettext("Direction: {direction}")) in board.text
            assert "Direction" not in board.text
    assert not h.bot.tables.tables, "the round did not finish"
    await settle(h)
    german_hand = stem(GERMAN.ngettext("Your hand · {count} card", "Your hand · {count} cards", 2))
    assert german_hand == "Deine Hand ·"
    scores = {anna.id: GERMAN.gettext("Scores"), bob.id: "Scores"}
    assert scores[anna.id] != "Scores"
    for user, heading in ((anna, german_hand), (bob, "Your hand")):
        texts = hands[user.id]
        shown = [text for text in texts if text.startswith("###")]
        assert shown and all(heading in text for text in shown)
        # A hand whose game ended meanwhile is closed to the scores, in its player's language.
        assert all(f"**{scores[user.id]}**" in text for text in texts if text not in shown)
    assert not any("Your hand" in text or "**Scores**" in text for text in hands[anna.id])

    # The result is public: Polish.
    final = fake.public_messages(thread)[-1]
    assert stem(POLISH.gettext("{players} won the match!")) in final.text
    assert "won the match" not in final.text
    log = [line for line in final.text.splitlines() if line.startswith("• ")]
    assert log and not any(" played " in line for line in log)

    # A private reply to each: German for Anna, English for Bob.
    for user, tongue in ((anna, GERMAN), (bob, ENGLISH)):
        reply = (await (await fake.slash(user, thread, "uno hand", {})).response()).message
        assert reply is not None and reply.is_ephemeral
        told = tongue.gettext("There is no UNO game here. Start one with `/uno new`.")
        assert reply.text.startswith(told.split("`")[0])  # the command itself is a mention
    assert not fake.failed_interactions()
    fake.assert_no_errors()
    bot_runner.assert_no_errors()


async def test_a_server_chooses_the_language_of_its_games(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    guild = await fake.create_guild("Guild", preferred_locale="en-US")
    channel = guild.default_channel
    h = await start_bot(fake, bot_runner, tmp_path / "uno.db", channel)
    admin = await fake.create_member(guild, "admin", locale="de")
    managers = await fake.create_role(guild, "managers", PERM_MANAGE_GUILD)
    await fake.set_member_roles(guild, admin, [managers])
    player = await fake.create_member(guild, "player")

    panel = (await (await fake.slash(admin, channel, "uno-admin settings")).response()).message
    assert panel is not None and panel.is_ephemeral
    languages = panel.select(f"unoset:{guild.id}:language")
    assert {o["label"] for o in languages.options} >= {"Deutsch", "Polski", "Русский", "Türkçe"}
    await (await fake.select(admin, panel, f"unoset:{guild.id}:language", ["pl"])).response()
    assert (await h.storage.get_settings(guild.id)).language == "pl"
    assert "Polski" in panel.text

    # The server's choice beats its Discord locale for public messages...
    lobby = (await (await fake.slash(player, channel, "uno new", {})).response()).message
    assert lobby is not None and lobby.button(POLISH.gettext("Join"))
    await (await fake.click(player, lobby, lobby.button(POLISH.gettext("Cancel")))).response()
    # ...and back to the server's own language.
    await (await fake.select(admin, panel, f"unoset:{guild.id}:language", ["auto"])).response()
    assert (await h.storage.get_settings(guild.id)).language is None
    lobby = (await (await fake.slash(player, channel, "uno new", {})).response()).message
    assert lobby is not None and lobby.button("Join")
    # Anything not offered is refused.
    with pytest.raises(ValueError):
        apply_choice(GuildSettings(guild.id), "language", "xx")
    fake.assert_no_errors()
    bot_runner.assert_no_errors()
