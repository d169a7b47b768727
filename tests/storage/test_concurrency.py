"""Two processes (two Storages on one database) recording one server's matches at once."""

from __future__ import annotations

import asyncio
import random
from itertools import cycle
from typing import Any

from bot.storage import Storage

from .helpers import StorageOpener, TargetFactory, random_match


def league_of(exported: dict[str, Any]) -> dict[str, Any]:
    """What must match between two databases: standings, ratings and every seat's change."""
    return {
        "standings": exported["standings"],
        "matches": [
            {key: value for key, value in match.items() if key != "players"}
            | {"players": match["players"]}
            for match in exported["matches"]
        ],
    }


async def test_concurrent_matches_equal_a_sequential_replay(
    target: str, new_target: TargetFactory, open_store: StorageOpener
) -> None:
    first, second = await open_store(target), await open_store(target)
    rng = random.Random(5)
    # Few players, so almost every match reads ratings the one before it wrote.
    matches = [random_match(rng, f"race{i}", 1, list(range(1, 7))) for i in range(40)]
    matches += [random_match(rng, f"other{i}", 2, list(range(1, 7))) for i in range(6)]
    stores: list[Storage] = [first, second]
    recorded = await asyncio.gather(
        *(store.record_match(m) for m, store in zip(matches, cycle(stores), strict=False)),
        # Each match twice, from the other process: exactly one of the two counts.
        *(store.record_match(m) for m, store in zip(matches, cycle(stores[::-1]), strict=False)),
    )
    assert recorded.count(True) == len(matches)

    replayed = await open_store(await new_target())
    for guild in (1, 2):
        exported = await first.export_guild(guild)
        numbers = [m["match_id"] for m in exported["matches"]]
        assert numbers == list(range(1, len(numbers) + 1))  # every number once, no gaps
        by_uid = {m.match_uid: m for m in matches}
        for match in exported["matches"]:  # in the order the league counted them
            assert await replayed.record_match(by_uid[match["match_uid"]])
        again = await replayed.export_guild(guild)
        assert league_of(again) == league_of(exported)
        assert league_of(await second.export_guild(guild)) == league_of(exported)
