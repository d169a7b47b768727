"""Two bot processes on the two shards of one fake Discord, sharing one PostgreSQL database.

Each process restores and drives only its own shard's tables, and Discord (the fake, like the
real one) sends each guild's clicks to its shard alone. One process killed mid-game (SIGKILL)
leaves its table untouched by the other, and its restart resumes the game.
"""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

from bot.storage import Storage, shard_of
from fake_discord import FakeDiscord
from tests.e2e.helpers import table_message
from tests.e2e.shards import (
    GUILD_ON,
    BotProcess,
    agents,
    launch,
    restored,
    start_game,
    stored,
    take_turn,
)


async def test_two_shard_processes_each_drive_only_their_own_tables(
    fake_discord: FakeDiscord,
    database: str,
    tmp_path: Path,
    processes: list[BotProcess],
) -> None:
    fake = fake_discord
    assert [shard_of(GUILD_ON[s], 2) for s in (0, 1)] == [0, 1]
    storage = await Storage.open(database)  # migrated once, before the processes start
    try:
        guilds = {s: await fake.create_guild(f"Shard {s}", guild_id=GUILD_ON[s]) for s in (0, 1)}
        zero = await launch(fake, database, 0, "zero", tmp_path, processes)
        one = await launch(fake, database, 1, "one", tmp_path, processes)
        await fake.wait_for(lambda: "uno" in fake.commands[None], what="the commands")
        assert restored(zero) == restored(one) == 0

        games = {s: await start_game(fake, guilds[s]) for s in (0, 1)}
        for _ in range(3):
            for s in (0, 1):
                await take_turn(fake, storage, games[s])

        # Killed mid-game, without a goodbye: every acknowledged click is already saved.
        one.process.send_signal(signal.SIGKILL)
        assert await one.process.wait() == -signal.SIGKILL
        killed = await stored(storage, GUILD_ON[1])
        await fake.wait_for(
            lambda: all(s.shard != [1, 2] for s in fake.gateway.live_sessions()),
            what="the gateway to notice the dead process",
        )
        # Discord sends shard 1's clicks to nobody else meanwhile...
        lost = games[1]
        board = table_message(fake, lost.thread)
        assert board is not None
        someone = next(iter(lost.users.values()))
        with pytest.raises(AssertionError, match="no bot is connected on the shard"):
            await fake.click(someone, board, board.button("Show my hand"))
        # ...while shard 0 plays on, and never touches the other table.
        for _ in range(3):
            await take_turn(fake, storage, games[0])
        untouched = await stored(storage, GUILD_ON[1])
        assert untouched.to_record() == killed.to_record()

        # Restarted on the same shard, the process restores its one table (of the two live
        # ones) and the game goes on from the old buttons.
        assert len(await storage.load_tables()) == 2
        again = await launch(fake, database, 1, "one-again", tmp_path, processes)
        assert restored(again) == 1
        for _ in range(3):
            await take_turn(fake, storage, games[1])
        resumed = await stored(storage, GUILD_ON[1])
        assert resumed.version > killed.version
        await take_turn(fake, storage, games[0])

        # Every request on a guild's channels came from the processes of its shard.
        shard_zero = (guilds[0].default_channel, games[0].thread)
        shard_one = (guilds[1].default_channel, games[1].thread)
        assert agents(fake, *shard_zero) == {"zero"}
        # A restored table is redrawn in the background, behind every player's picture.
        await fake.wait_for(
            lambda: "one-again" in agents(fake, *shard_one), what="the restored table redrawn"
        )
        assert agents(fake, *shard_one) == {"one", "one-again"}
        assert not fake.failed_interactions()
        fake.assert_no_errors()

        for bot in (zero, again):
            bot.process.send_signal(signal.SIGTERM)
            assert await asyncio.wait_for(bot.process.wait(), 30) == 0, bot.output()
        for bot in (zero, one, again):
            assert "Traceback" not in bot.output(), bot.output()
    finally:
        await storage.close()
