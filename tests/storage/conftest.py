"""Fixtures: a Storage on a real temporary SQLite file and a settable clock."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import Storage

from .factories import Clock


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def storage(tmp_path: Path, clock: Clock) -> AsyncIterator[Storage]:
    store = await Storage.open(tmp_path / "uno.db", clock=clock)
    try:
        yield store
    finally:
        await store.close()
