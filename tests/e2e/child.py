"""The real bot in a process of its own against an in-process fake Discord, for crash tests.

``bench/_bot_child.py`` runs it (as ``python -m bot`` would, on a SQLite file) and reports its
milestones as JSON lines. ``crash_at`` sets ``UNO_CRASH_AT`` (``bot.crashpoints``), so the
process ends exactly at that point, like ``kill -9``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
from pathlib import Path
from typing import Any

from bot.crashpoints import CRASH_EXIT, ENV
from bot.storage import Storage
from bot.tables.table import Table
from fake_discord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
CHILD = ROOT / "bench" / "_bot_child.py"


class ChildBot:
    """One bot process; ``await wait("ready")``, ``await exited()``, ``await stop()``."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.events: dict[str, dict[str, Any]] = {}
        self._changed = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def start(
        cls, fake: FakeDiscord, database: Path, crash_at: str | None = None
    ) -> ChildBot:
        env = {k: v for k, v in os.environ.items() if k != ENV}
        env |= {"PYTHONPATH": str(ROOT), "PYTHONSAFEPATH": "1"}
        if crash_at is not None:
            env[ENV] = crash_at
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            str(CHILD),
            "--api-base",
            fake.api_base,
            "--gateway",
            fake.gateway_url,
            "--token",
            fake.token,
            "--database",
            str(database),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
            cwd=str(database.parent),
            env=env,
        )
        return cls(proc)

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        async for raw in self.proc.stdout:
            with contextlib.suppress(ValueError, KeyError, TypeError):
                event = json.loads(raw)
                self.events[event["event"]] = event
            self._changed.set()
            self._changed = asyncio.Event()
        self._changed.set()

    async def wait(self, name: str, timeout: float = 60.0) -> dict[str, Any]:
        """A milestone (``ready``...); RuntimeError if the process ends first."""
        async with asyncio.timeout(timeout):
            while name not in self.events:
                if self._reader.done():
                    raise RuntimeError(f"the bot exited ({self.proc.returncode}) before {name}")
                await self._changed.wait()
        return self.events[name]

    async def crashed(self, timeout: float = 30.0) -> bool:
        """Wait for the process to end; True when it ended at its crash point."""
        async with asyncio.timeout(timeout):
            code = await self.proc.wait()
        await self._reader
        return code == CRASH_EXIT

    async def stop(self) -> None:
        """End the process (a clean stop, or a kill if it hangs)."""
        if self.proc.returncode is None:
            with contextlib.suppress(Exception):
                assert self.proc.stdin is not None
                self.proc.stdin.write(b"stop\n")
                await self.proc.stdin.drain()
            try:
                await asyncio.wait_for(self.proc.wait(), 15)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        with contextlib.suppress(Exception):
            await self._reader


async def saved_tables(database: Path) -> list[Table]:
    """The tables saved in the database right now (read beside the running bot)."""
    storage = await Storage.open(database)
    try:
        return [Table.from_record(r.state) for r in await storage.load_tables()]
    finally:
        await storage.close()


async def save_table(database: Path, table: Table) -> None:
    """Write a table changed by the test (the bot is not running) under a new version."""
    storage = await Storage.open(database)
    try:
        from bot.storage import TableRecord

        table.bump()
        record = TableRecord(
            table.table_id,
            table.guild_id,
            table.game_channel_id,
            table.version,
            table.to_record(),
            0.0,
        )
        await storage.save_table(record)
    finally:
        await storage.close()
