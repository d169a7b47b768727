"""What a long-running bot must not accumulate, and what it does at start, through the fake
Discord: a hand's view does not outlive its use, no lock is kept, the renderer is warmed up in
the background."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest
from discord import ui

from bot.engine.cards import Edition
from bot.render import edition_cards
from fake_discord import BotRunner, FakeDiscord, FakeGuild
from tests.e2e.helpers import (
    live_clicks,
    lobby_and_start,
    open_hand,
    play_turn,
    settle,
    start_bot,
    table_message,
)


def view_timeouts() -> list[asyncio.Task[object]]:
    """discord.py's pending view timeouts (one task per stored view with a timeout)."""
    return [t for t in asyncio.all_tasks() if "timeout_task_impl" in t.get_coro().__qualname__]  # type: ignore[union-attr]


def live_layouts() -> int:
    gc.collect()
    return sum(isinstance(o, ui.LayoutView) for o in gc.get_objects())


async def test_a_hand_view_does_not_outlive_its_use(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    channel = fake_guild.default_channel
    h = await start_bot(fake_discord, bot_runner, tmp_path / "uno.db", channel, seed=4)
    users = [await fake_discord.create_member(fake_guild, f"p{i}") for i in range(3)]
    by_id = {u.id: u for u in users}
    _, thread = await lobby_and_start(h, users, {"edition": "sonic"})
    store = h.bot._connection._view_store
    for step in range(3):
        await play_turn(h, by_id, thread, step)
    await settle(h)
    baseline = live_layouts()

    board = table_message(fake_discord, thread)  # type: ignore[arg-type]
    assert board is not None
    for _ in range(5):
        for user in users:
            hand = await open_hand(fake_discord, user, board)
            assert hand.is_ephemeral and "Your hand" in hand.text
    for step in range(3, 6):
        await play_turn(h, by_id, thread, step)
    await settle(h)

    # The game's buttons are dynamic items: no view kept per hand message, no timeout task.
    assert view_timeouts() == []
    assert store.persistent_views == []
    assert not store._synced_message_views
    assert live_layouts() <= baseline
    # Locks live only while held or awaited: none is left once the clicks are answered.
    cog = h.bot.get_cog("UnoCog")
    assert cog is not None
    assert len(h.bot.tables.registry.locks) == 0
    assert len(cog.clicks.hands) == 0  # type: ignore[attr-defined]


async def test_the_renderer_is_warmed_up_at_start_in_the_background(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    bot_runner: BotRunner,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[tuple[Edition, ...]] = []
    done: list[int] = []

    def steps(editions: tuple[Edition, ...]) -> list[Callable[[], object]]:
        asked.append(tuple(editions))
        return [partial(done.append, i) for i in range(3)]

    monkeypatch.setattr(live_clicks(), "warm_up_steps", steps)
    h = await start_bot(
        fake_discord, bot_runner, tmp_path / "uno.db", fake_guild.default_channel, seed=4
    )
    cog = h.bot.get_cog("UnoCog")
    assert cog is not None
    await fake_discord.wait_for(lambda: len(done) == 3, what="the warm-up")
    assert asked == [tuple(Edition)] and done == [0, 1, 2]
    assert cog.clicks.pictures.pending() == 0  # type: ignore[attr-defined]


def test_the_warm_up_steps_build_every_palette_and_card() -> None:
    from bot.render import cache_report, warm_up_steps
    from bot.render.cache import clear_caches

    clear_caches()
    for step in warm_up_steps([Edition.MARIO]):
        step()
    report = cache_report()
    assert report["palettes"].entries == 4  # hand, table, scores, leaderboard
    assert report["card sprites"].entries == len(edition_cards(Edition.MARIO)) + 1
