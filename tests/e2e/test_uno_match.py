"""Whole matches played through the real bot by clicks alone, in every edition."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from bot.tables.table import Status
from fake_discord import BotRunner, FakeDiscord, FakeGuild, walk_components
from tests.e2e.helpers import (
    lobby_and_start,
    maybe_catch,
    play_turn,
    settle,
    start_bot,
)


@pytest.mark.parametrize("edition", ["classic", "sonic", "mario"])
async def test_three_players_play_a_whole_match_by_clicks(
    edition: str,
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    bot_runner: BotRunner,
    tmp_path: Path,
) -> None:
    channel = fake_guild.default_channel
    h = await start_bot(fake_discord, bot_runner, tmp_path / "uno.db", channel, seed=11)
    names = ["Crème", "Gökhan *bold*", "@everyone Zed"]
    users = [
        await fake_discord.create_member(fake_guild, f"u{i}", global_name=n)
        for i, n in enumerate(names)
    ]
    by_id = {u.id: u for u in users}
    _, thread = await lobby_and_start(h, users, {"edition": edition, "target": 50})
    seen: set[str] = set()
    for step in range(1500):
        tables = list(h.bot.tables.tables.values())
        if not tables:
            break
        table = tables[0]
        assert table.match is not None
        seen.update(e.TYPE for e in table.match.game.events)
        if table.status is Status.ROUND_OVER:
            board = await fake_discord.wait_for(
                lambda: next(
                    (
                        m
                        for m in reversed(fake_discord.public_messages(thread))
                        if any(b.label == "Next round" for b in m.buttons)
                    ),  # type: ignore[arg-type]
                    None,
                ),
                what="the scoreboard",
            )
            await (
                await fake_discord.click(users[step % 3], board, board.button("Next round"))
            ).response()
            await settle(h)
            continue
        await play_turn(h, by_id, thread, step)
        await maybe_catch(h, by_id, thread)
    assert not h.bot.tables.tables, "the match did not finish"
    await settle(h)
    # The league has it, exactly once, and the table record is gone.
    matches = await h.storage.recent_matches(fake_guild.id, 10, 0)
    assert len(matches) == 1 and matches[0].edition == edition
    assert await h.storage.load_tables() == []
    detail = await h.storage.match_detail(fake_guild.id, matches[0].match_id)
    assert detail is not None
    seen.update(str(e["type"]) for e in detail.events)
    assert {"play", "draw"} <= seen
    # Whoever went out passed through one card: they called UNO, or were caught at once.
    assert seen & {"uno", "catch"}
    # The final message announces the winner and shows the scoreboard picture.
    final = fake_discord.public_messages(thread)[-1]  # type: ignore[arg-type]
    assert "won the match" in final.text
    with Image.open(io.BytesIO(final.attachment("scores.png").data)) as img:
        assert img.width > 0
    # Every version of every table message showed one moment: its status line never asks to
    # play the drawn card once its log already tells what became of it.
    posted = fake_discord.channel_messages.get(thread.id, [])  # type: ignore[attr-defined]
    for msg in posted:  # deleted ones too: a table message is replaced when the turn passes
        if msg.ephemeral_to is not None:
            continue
        for payload in [*msg.history, msg.to_payload()]:
            text = "\n".join(
                c["content"]
                for c in walk_components(payload.get("components", []))
                if c.get("type") == 10
            )
            log = [line for line in text.splitlines() if line.startswith("• ")]
            if "play the card you drew or keep it" in text:
                assert log and log[-1].endswith("drew a card"), text
    # Nobody's cards ever went public: hands only ever appear in their owner's ephemerals.
    for msg in fake_discord.public_messages(thread):  # type: ignore[arg-type]
        assert "Your hand" not in msg.text
        assert all(a.filename != "hand.png" for a in msg.attachments)
    for user in users:
        for msg in fake_discord.visible_messages(user, thread):  # type: ignore[arg-type]
            if msg.is_ephemeral:
                assert msg.visible_to(user)
    assert not fake_discord.failed_interactions()
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()
