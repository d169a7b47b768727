"""End-to-end fixtures. The fake Discord's own (`fake_discord`, `fake_guild`, `fake_clock`,
`bot_runner`) come from its pytest plugin, registered in the root conftest.py."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest


@pytest.fixture(autouse=True)
async def close_storages() -> AsyncIterator[None]:
    """Set up first, torn down last: close every Storage the test opened after its bots."""
    from tests.e2e.helpers import OPEN_STORAGES

    yield
    while OPEN_STORAGES:
        await OPEN_STORAGES.pop().close()
