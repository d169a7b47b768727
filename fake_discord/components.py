"""Message components as trees: walking them, reading buttons and selects the way a user sees
them, and numbering them the way Discord does."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from fake_discord.constants import C_FILE, C_MEDIA_GALLERY, C_THUMBNAIL, JSON


def walk_components(components: Iterable[JSON]) -> Iterator[JSON]:
    """Depth-first walk over nested components (rows, containers, sections incl. accessory)."""
    for comp in components:
        yield comp
        if "components" in comp:
            yield from walk_components(comp["components"])
        if "accessory" in comp:
            yield from walk_components([comp["accessory"]])
        if "component" in comp:  # Label (modals)
            yield from walk_components([comp["component"]])


def media_of(comp: JSON) -> list[JSON]:
    """The unfurled media items a component refers to (gallery items, thumbnail, file)."""
    if comp["type"] == C_MEDIA_GALLERY:
        return [item.get("media") or {} for item in comp.get("items", [])]
    if comp["type"] == C_THUMBNAIL:
        return [comp.get("media") or {}]
    if comp["type"] == C_FILE:
        return [comp.get("file") or {}]
    return []


def assign_component_ids(components: list[JSON]) -> None:
    """Discord numbers components without an `id` sequentially, depth first."""
    used = {c["id"] for c in walk_components(components) if c.get("id") is not None}
    counter = itertools.count(1)
    for comp in walk_components(components):
        if comp.get("id") is None:
            nxt = next(counter)
            while nxt in used:
                nxt = next(counter)
            comp["id"] = nxt
            used.add(nxt)


@dataclass
class Button:
    """A parsed button of a message, as a user would see it."""

    custom_id: str | None
    label: str | None
    style: int
    disabled: bool
    emoji: JSON | None
    url: str | None
    raw: JSON


@dataclass
class Select:
    """A parsed select menu of a message."""

    custom_id: str
    type: int
    options: list[JSON]
    placeholder: str | None
    min_values: int
    max_values: int
    disabled: bool
    raw: JSON

    @property
    def values(self) -> list[str]:
        return [o["value"] for o in self.options]

    @property
    def labels(self) -> list[str]:
        return [o["label"] for o in self.options]
