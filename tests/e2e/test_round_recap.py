"""The Recap under a finished round at the table, through the fake Discord: acknowledged at once,
the animated picture sent privately to whoever asks (drawn once for several), and still sent
from the league once the match is over, the table gone and the bot restarted."""

from __future__ import annotations

import importlib
import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.engine.record import RoundRecord
from bot.engine.review import play_views
from bot.tables.table import Status
from fake_discord import BotRunner, FakeDiscord, FakeGuild, FakeMessage, FakeUser
from fake_discord.components import C_MEDIA_GALLERY
from tests.e2e.helpers import Harness, lobby_and_start, maybe_catch, play_turn, settle, start_bot


def recap_of(msg: FakeMessage) -> Any:
    """The Recap button of a table message."""
    [found] = [b for b in msg.buttons if (b.custom_id or "").split(":")[3:4] == ["recap"]]
    return found


async def press_recap(fake: FakeDiscord, user: FakeUser, msg: FakeMessage) -> FakeMessage:
    """Press Recap: the press is acknowledged before anything is drawn; the recap follows."""
    itx = await fake.click(user, msg, recap_of(msg))
    acknowledged = await itx.response()
    assert acknowledged.message is not None and acknowledged.message.is_ephemeral
    sent = await itx.followup(0, timeout=60.0)
    assert sent.is_ephemeral and sent.visible_to(user)
    return sent


def frames_and_alt(sent: FakeMessage) -> tuple[int, str]:
    """The recap's frame count and its alt text."""
    picture = Image.open(io.BytesIO(sent.attachment("recap.webp").data))
    assert picture.format == "WEBP"
    [alt] = [
        item.get("description", "")
        for comp in sent.walk()
        if comp["type"] == C_MEDIA_GALLERY
        for item in comp.get("items", [])
    ]
    return picture.n_frames, alt


async def play_round(h: Harness, users: list[FakeUser], thread: object) -> None:
    """The players click until the round is over."""
    by_id = {u.id: u for u in users}
    for step in range(800):
        tables = list(h.bot.tables.tables.values())
        if not tables or tables[0].status is not Status.PLAYING:
            break
        await play_turn(h, by_id, thread, step)
        await maybe_catch(h, by_id, thread)
    await settle(h)


async def test_the_end_of_a_round_offers_its_recap_privately_drawn_once(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    bot_runner: BotRunner,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    h = await start_bot(fake_discord, bot_runner, tmp_path / "uno.db", fake_guild.default_channel)
    users = [await fake_discord.create_member(fake_guild, f"r{i}") for i in range(2)]
    watcher = await fake_discord.create_member(fake_guild, "watcher")
    _, thread = await lobby_and_start(h, users, {"edition": "classic", "target": 500})
    await play_round(h, users, thread)
    [table] = h.bot.tables.tables.values()
    assert table.status is Status.ROUND_OVER and table.match is not None
    board = next(
        m
        for m in reversed(fake_discord.public_messages(thread))  # type: ignore[arg-type]
        if any(b.label == "Next round" for b in m.buttons)
    )
    button = recap_of(board)
    assert button.label == "Round recap" and button.custom_id == f"uno:{table.table_id}:0:recap:1"
    version = table.version

    recap = importlib.import_module("cogs.league.recap")  # the module the bot loaded
    drawings: list[int] = []
    draw = recap.draw_recap

    def counted(*args: Any) -> Any:
        drawings.append(1)
        return draw(*args)

    monkeypatch.setattr(recap, "draw_recap", counted)
    first = await press_recap(fake_discord, users[1], board)
    again = await press_recap(fake_discord, watcher, board)  # anyone watching may ask
    assert not again.visible_to(users[1]) and not first.visible_to(watcher)
    record = RoundRecord.from_text(table.match.records[0])
    views = play_views(record, table.names())
    frames, alt = frames_and_alt(first)
    assert frames == len(views) + 1  # a frame per play, then the scores
    winner = table.names()[views[-1].winner]  # type: ignore[index]
    assert alt.startswith("Animated recap of round 1:") and alt.endswith(f"{winner} went out.")
    assert "Recap · round 1" in first.text
    assert again.attachment("recap.webp").data == first.attachment("recap.webp").data
    assert drawings == [1]  # the second asker got the same drawing
    assert table.version == version  # asking changed nothing at the table
    assert not fake_discord.failed_interactions()
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()
    await bot_runner.stop(h.running)


async def test_a_finished_matchs_recap_is_sent_from_the_league_after_a_restart(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    db = tmp_path / "uno.db"
    channel = fake_guild.default_channel
    h = await start_bot(fake_discord, bot_runner, db, channel, seed=3)
    users = [await fake_discord.create_member(fake_guild, f"s{i}") for i in range(2)]
    options = {"edition": "sonic", "length": "round", "scoring": "lowest"}
    _, thread = await lobby_and_start(h, users, options)
    await play_round(h, users, thread)
    assert not h.bot.tables.tables, "the match did not finish"
    final = fake_discord.public_messages(thread)[-1]  # type: ignore[arg-type]
    assert "won the match" in final.text
    assert [b.label for b in final.buttons] == ["Rematch", "Round recap"]
    [summary] = await h.storage.recent_matches(fake_guild.id, 10, 0)
    text = await h.storage.round_record(fake_guild.id, summary.match_id, 1)
    assert text is not None
    expected = len(play_views(RoundRecord.from_text(text), ["a", "b"])) + 1
    sent = await press_recap(fake_discord, users[0], final)
    assert frames_and_alt(sent)[0] == expected

    await bot_runner.kill(h.running)
    second = await start_bot(fake_discord, bot_runner, db, channel, seed=4)
    await settle(second)
    assert not second.bot.tables.tables and not second.bot.tables.registry.ended
    del fake_guild.members[users[1].id]  # gone from the server since: not named any more
    after = await press_recap(fake_discord, users[0], final)
    frames, alt = frames_and_alt(after)
    assert frames == expected and users[1].display_name not in alt
    assert not fake_discord.failed_interactions()
    bot_runner.assert_no_errors()
    await bot_runner.stop(second.running)


async def test_a_round_forfeited_before_any_card_was_played_offers_no_recap(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    channel = fake_guild.default_channel
    h = await start_bot(fake_discord, bot_runner, tmp_path / "uno.db", channel, seed=8)
    users = [await fake_discord.create_member(fake_guild, f"f{i}") for i in range(2)]
    _, thread = await lobby_and_start(h, users, {"edition": "classic", "target": 50})
    board = fake_discord.public_messages(thread)[-1]  # type: ignore[arg-type]
    await (await fake_discord.click(users[1], board, board.button("Leave game"))).response()
    await settle(h)
    assert not h.bot.tables.tables
    final = fake_discord.public_messages(thread)[-1]  # type: ignore[arg-type]
    assert "won the match" in final.text
    assert [b.label for b in final.buttons] == ["Rematch"]
    # The league still lists the round; its recap is a polite word, not an empty picture.
    msg = (await (await fake_discord.slash(users[0], channel, "uno history")).response()).message
    assert msg is not None
    pick = await fake_discord.select(users[0], msg, msg.select(prefix="unohist:").custom_id, ["1"])
    detail = (await pick.response()).message
    assert detail is not None
    chosen = await fake_discord.select(
        users[0], detail, detail.select(prefix="unocap:").custom_id, ["1"]
    )
    answer = await chosen.followup(0)
    assert answer.is_ephemeral and not answer.attachments
    assert "No card was played in that round" in answer.text
    assert not fake_discord.failed_interactions()
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()
    await bot_runner.stop(h.running)
