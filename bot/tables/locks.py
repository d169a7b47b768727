"""Locks by key that live only while someone holds or awaits them, so their number stays bounded."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)


class KeyedLocks(Generic[K]):
    """One asyncio.Lock per key (first come, first served); forgotten when nobody needs it."""

    def __init__(self) -> None:
        self._locks: dict[K, tuple[asyncio.Lock, int]] = {}

    def __len__(self) -> int:
        return len(self._locks)

    def locked(self, key: K) -> bool:
        entry = self._locks.get(key)
        return entry is not None and entry[0].locked()

    @asynccontextmanager
    async def hold(self, key: K) -> AsyncIterator[None]:
        """Hold ``key``'s lock for the block."""
        lock, users = self._locks.get(key) or (asyncio.Lock(), 0)
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users == 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)
