"""Bounded caches for the renderer, and a report of what they hold.

Every cache of ``bot.render`` is a :class:`BoundedCache`: least recently used entries go first
once the cache passes its number of entries or its bytes. The bytes are counted from each value
(pixels times Pillow's bytes per pixel), so a cache never holds more than its stated bound.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from PIL import Image

# The bound of all the renderer's caches together (the sum of their stated bounds stays below).
RENDER_BUDGET = 44 * 1024 * 1024

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

# Pillow keeps RGB in four bytes a pixel, like RGBA; L, P and 1 take one.
_PIXEL_BYTES = {"1": 1, "L": 1, "P": 1, "LA": 4, "La": 4, "RGB": 4, "RGBA": 4, "RGBa": 4}
PALETTE_BYTES = 1024


def image_bytes(img: Image.Image) -> int:
    """The memory Pillow holds for the pixels (and palette) of ``img``."""
    size = img.width * img.height * _PIXEL_BYTES.get(img.mode, 4)
    return size + (PALETTE_BYTES if img.mode == "P" else 0)


@dataclass(frozen=True, slots=True)
class CacheStats:
    """What one cache holds now, and its bounds."""

    name: str
    entries: int
    bytes: int
    max_entries: int
    max_bytes: int


class BoundedCache(Generic[K, V]):
    """A thread-safe LRU cache bounded by entries and by bytes."""

    def __init__(
        self, name: str, max_entries: int, max_bytes: int, size_of: Callable[[V], int]
    ) -> None:
        self.name = name
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self._size_of = size_of
        self._items: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        _REGISTRY[name] = self

    def get(self, key: K) -> V | None:
        """The cached value of ``key`` (now the most recently used), or None."""
        with self._lock:
            item = self._items.get(key)
            if item is None:
                return None
            self._items.move_to_end(key)
            return item[0]

    def put(self, key: K, value: V) -> V:
        """Keep ``value`` under ``key`` (unless it alone passes the bound) and return it."""
        size = self._size_of(value)
        if size > self.max_bytes:
            return value
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            self._items[key] = (value, size)
            self._bytes += size
            while self._bytes > self.max_bytes or len(self._items) > self.max_entries:
                _, (_, dropped) = self._items.popitem(last=False)
                self._bytes -= dropped
        return value

    def get_or_make(self, key: K, make: Callable[[], V]) -> V:
        """The cached value of ``key``, made (outside the lock) and kept when missing."""
        value = self.get(key)
        if value is None:
            value = self.put(key, make())
        return value

    def clear(self) -> None:
        """Drop every entry."""
        with self._lock:
            self._items.clear()
            self._bytes = 0

    def stats(self) -> CacheStats:
        """Entries and bytes held now, with the bounds."""
        with self._lock:
            return CacheStats(
                self.name, len(self._items), self._bytes, self.max_entries, self.max_bytes
            )


class _Reported(Protocol):
    def stats(self) -> CacheStats: ...
    def clear(self) -> None: ...


_REGISTRY: dict[str, _Reported] = {}


def cache_report() -> dict[str, CacheStats]:
    """Every cache of the renderer: entries and bytes held now, and their bounds."""
    return {name: cache.stats() for name, cache in sorted(_REGISTRY.items())}


def cache_totals() -> CacheStats:
    """All the renderer's caches together."""
    stats = list(cache_report().values())
    return CacheStats(
        "total",
        sum(s.entries for s in stats),
        sum(s.bytes for s in stats),
        sum(s.max_entries for s in stats),
        sum(s.max_bytes for s in stats),
    )


def clear_caches(*names: str) -> None:
    """Empty the caches called ``names``, or all of them (pictures stay the same)."""
    for name, cache in _REGISTRY.items():
        if not names or name in names:
            cache.clear()
