"""The processes of one bot agreeing through PostgreSQL: shard leases, identify turns and the
shared REST budget."""

from __future__ import annotations

import asyncpg
import pytest

from bot.scale.budget import LocalBudget, Pace, SharedBudget
from bot.storage import Storage, StorageError
from bot.storage.postgres.coordination import LEASE_CLASS, Coordination, HeldElsewhere


@pytest.fixture
def backend() -> str:
    return "postgres"


@pytest.fixture
async def url(storage: Storage, target: str) -> str:
    """A migrated database (the storage fixture migrated it)."""
    return target


async def test_a_shard_has_one_lease_holder_and_a_closed_one_frees_it_at_once(url: str) -> None:
    first = Coordination(url, [0, 1])
    await first.open()
    second = Coordination(url, [1, 2])
    with pytest.raises(HeldElsewhere, match="shard 1 is already run by another live process"):
        await second.open()
    # The refused process took nothing: shard 2 is free for a third.
    third = Coordination(url, [2])
    await third.open()
    await first.close()
    await third.close()
    await second.open()
    await second.close()


async def test_leases_are_taken_again_after_the_server_cut_their_connection(
    url: str, postgres_database: str
) -> None:
    mine = Coordination(url, [3])
    await mine.open()
    admin = await asyncpg.connect(postgres_database)
    try:
        cut = await admin.fetchval(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_locks "
            "WHERE locktype = 'advisory' AND classid = $1 AND objid = 3",
            LEASE_CLASS,
        )
        assert cut == 1
        await mine.keep()  # reconnected, the lease held again
        with pytest.raises(HeldElsewhere):
            await Coordination(url, [3]).open()
        # Cut again, and another process takes the shard meanwhile: this one must stop.
        await admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_locks "
            "WHERE locktype = 'advisory' AND classid = $1 AND objid = 3",
            LEASE_CLASS,
        )
        other = Coordination(url, [3])
        await other.open()
        with pytest.raises(HeldElsewhere):
            await mine.keep()
        await other.close()
    finally:
        await admin.close()
        await mine.close()


async def test_identify_turns_are_spaced_per_bucket_across_processes(url: str) -> None:
    # Turns 100 s apart: what the calls themselves take (a busy machine) stays far below.
    one, two = Coordination(url, []), Coordination(url, [])
    await one.open()
    await two.open()
    try:
        assert await one.identify_turn(0, 100.0) <= 0  # the bucket's first: at once
        assert 95.0 < await two.identify_turn(0, 100.0) <= 100.0  # the next, 100 s on
        assert 195.0 < await one.identify_turn(0, 100.0) <= 200.0
        assert await two.identify_turn(1, 100.0) <= 0  # another bucket does not wait
    finally:
        await one.close()
        await two.close()


async def test_the_shared_budget_spaces_every_processs_requests(url: str) -> None:
    pace = Pace(spacing=100.0, burst=0.0)
    one, two = Coordination(url, []), Coordination(url, [])
    await one.open()
    await two.open()
    try:
        waits = [await c.reserve("test", pace.spacing, pace.burst) for c in (one, two) * 3]
    finally:
        await one.close()
        await two.close()
    # Six requests from two processes: one slot each, 100 s apart on the server's clock.
    assert waits[0] <= 0.0
    for n, wait in enumerate(waits[1:], start=1):
        assert 100.0 * n - 5.0 < wait <= 100.0 * n


async def test_an_unreachable_shared_budget_falls_back_to_the_processs_own(url: str) -> None:
    down = Coordination(url, [])  # never opened: no connection
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    budget = SharedBudget(down, Pace(spacing=0.5, burst=0.0), sleep=sleep)
    await budget.take()
    await budget.take()
    assert len(slept) == 1 and 0 < slept[0] <= 0.5
    with pytest.raises(StorageError):
        await down.reserve("test", 0.5, 0.0)


def test_a_local_budget_lets_a_short_burst_go_then_spaces_requests() -> None:
    now = [100.0]
    budget = LocalBudget(Pace(spacing=0.1, burst=0.25), clock=lambda: now[0])
    waits = [budget.reserve() for _ in range(6)]
    # An idle budget: 0.25 s worth goes at once (three requests), then one every 0.1 s.
    assert [w <= 0 for w in waits] == [True, True, True, False, False, False]
    assert waits[3:] == pytest.approx([0.05, 0.15, 0.25])
    now[0] += 10.0  # idle again: another burst
    assert budget.reserve() <= 0


def test_a_pace_under_a_limit_keeps_its_worst_second_below_it() -> None:
    for limit in (10.0, 50.0):
        pace = Pace.under(limit)
        worst = (1.0 + pace.burst) / pace.spacing + 1
        assert worst == pytest.approx(0.9 * limit)
