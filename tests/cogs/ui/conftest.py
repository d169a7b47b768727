"""Fixtures of the views' tests: a real temporary SQLite storage."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import Storage


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    store = await Storage.open(tmp_path / "uno.db")
    try:
        yield store
    finally:
        await store.close()
