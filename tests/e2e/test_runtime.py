"""The bot as a host runs it: secrets never logged at DEBUG, a clean stop on SIGTERM, and one
clear line when Discord refuses the token."""

from __future__ import annotations

import asyncio
import io
import logging
import signal
from pathlib import Path

import pytest

from bot.config import Secret, Settings
from bot.logs import setup_logging
from bot.runner import StartError, serve
from bot.storage import Storage
from bot.tables.table import Status
from fake_discord import BotRunner, FakeDiscord, FakeGuild
from tests.e2e.helpers import lobby_and_start, open_hand, start_bot, table_message


@pytest.fixture
def debug_log() -> io.StringIO:
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    stream = io.StringIO()
    yield stream
    root.handlers[:], level = saved
    root.setLevel(level)


async def test_a_debug_run_logs_no_token_of_any_kind(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    bot_runner: BotRunner,
    tmp_path: Path,
    debug_log: io.StringIO,
) -> None:
    setup_logging("DEBUG", secrets=[fake_discord.token], stream=debug_log)
    h = await start_bot(fake_discord, bot_runner, tmp_path / "uno.db", fake_guild.default_channel)
    alice = await fake_discord.create_member(fake_guild, "alice")
    bob = await fake_discord.create_member(fake_guild, "bob")
    _, thread = await lobby_and_start(h, [alice, bob], {})
    table = table_message(fake_discord, thread)  # type: ignore[arg-type]
    assert table is not None
    await open_hand(fake_discord, alice, table)
    text = debug_log.getvalue()
    assert "INTERACTION_CREATE" in text  # the gateway's DEBUG lines were written...
    assert fake_discord.token not in text  # ...without the bot token
    assert "itx-token-" not in text  # ...or any interaction token
    assert "[redacted]" in text


async def test_sigterm_stops_the_bot_cleanly_with_its_tables_saved(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, tmp_path: Path
) -> None:
    db = tmp_path / "uno.db"
    storage = await Storage.open(db)
    settings = Settings(token=Secret(fake_discord.token), database_path=db, sync_commands=True)
    service = asyncio.create_task(serve(settings, storage, edit_interval=0.0))
    try:
        await fake_discord.wait_for(lambda: fake_discord.gateway.live_sessions(), what="ready")
        await fake_discord.wait_for(lambda: fake_discord.commands[None], what="commands")
        alice = await fake_discord.create_member(fake_guild, "alice")
        itx = await fake_discord.slash(alice, fake_guild.default_channel, "uno new")
        await itx.response()
        signal.raise_signal(signal.SIGTERM)
        await asyncio.wait_for(service, 10)
    finally:
        service.cancel()
        await storage.close()
    assert not fake_discord.gateway.live_sessions()
    reopened = await Storage.open(db)
    try:
        [record] = await reopened.load_tables()
        assert f'"status":"{Status.LOBBY.value}"' in record.state
    finally:
        await reopened.close()


async def test_a_refused_token_is_one_clear_line(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    storage = await Storage.open(tmp_path / "uno.db")
    settings = Settings(token=Secret("not-the-token"), database_path=tmp_path / "uno.db")
    try:
        with pytest.raises(StartError, match="refused the bot token"):
            await serve(settings, storage)
    finally:
        await storage.close()
