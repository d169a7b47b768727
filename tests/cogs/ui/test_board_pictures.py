"""The table board draws a table as restored at start in the background, any other at once."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from bot.pictures import PictureQueue, Priority
from bot.storage import Storage
from bot.tables.snapshot import TableSnapshot
from cogs.ui.board import TableBoard
from tests.tables.helpers import manager_on, move, started


class RecordingQueue(PictureQueue):
    """Draws at once, in the caller, and notes each picture's priority."""

    def __init__(self) -> None:
        super().__init__(workers=1)
        self.priorities: list[tuple[Priority, Hashable]] = []

    async def draw(
        self,
        work: Callable[..., Any],
        *args: Any,
        priority: Priority = Priority.INTERACTIVE,
        key: Hashable | None = None,
    ) -> Any:
        self.priorities.append((priority, key))
        return work(*args)


async def test_restored_tables_are_drawn_behind_players_pictures(storage: Storage) -> None:
    await started(manager_on(storage))
    fresh = manager_on(storage)
    heard: list[TableSnapshot] = []
    fresh.subscribe(heard.append)
    queue = RecordingQueue()
    board = TableBoard(None, fresh, min_interval=0, pictures=queue)  # type: ignore[arg-type]
    await fresh.restore()
    file = await board._picture(heard[-1])
    assert file.filename and file.fp.read().startswith(b"\x89PNG")
    await move(fresh)  # someone played: their table is drawn as soon as a worker is free
    await board._picture(heard[-1])
    assert queue.priorities == [(Priority.BACKGROUND, "t1"), (Priority.INTERACTIVE, "t1")]
