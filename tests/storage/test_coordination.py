"""The processes of one bot agreeing through PostgreSQL: shard leases, identify turns and the
shared REST budget."""

from __future__ import annotations

import asyncio
import itertools

import asyncpg
import pytest

from bot.scale.budget import STALE, LocalBudget, Pace, SharedBudget
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
            "WHERE locktype = 'advisory' AND classid = $1 AND objid = 3 "
            "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
            LEASE_CLASS,
        )
        assert cut == 1
        await mine.keep()  # reconnected, the lease held again
        with pytest.raises(HeldElsewhere):
            await Coordination(url, [3]).open()
        # Cut again, and another process takes the shard meanwhile: this one must stop.
        await admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_locks "
            "WHERE locktype = 'advisory' AND classid = $1 AND objid = 3 "
            "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
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
    one, two = Coordination(url, []), Coordination(url, [])
    await one.open()
    await two.open()
    try:
        first = await one.try_take("test", 100.0, 0.0)
        # Refused takes keep nothing: each still waits for the one slot 100 s on.
        refused = [await c.try_take("test", 100.0, 0.0) for c in (two, one) * 3]
        other = await two.try_take("other", 100.0, 0.0)  # another budget is its own
    finally:
        await one.close()
        await two.close()
    assert first == 0.0 and other == 0.0
    for wait in refused:
        assert 95.0 < wait <= 100.0


async def test_an_idle_shared_budget_lets_a_short_burst_go(url: str) -> None:
    one, two = Coordination(url, []), Coordination(url, [])
    await one.open()
    await two.open()
    try:
        waits = [await c.try_take("test", 100.0, 250.0) for c in (one, two, one, two)]
    finally:
        await one.close()
        await two.close()
    # 250 s of burst: three slots at once, then the next one 50 s on.
    assert waits[:3] == [0.0, 0.0, 0.0]
    assert 45.0 < waits[3] <= 50.0


async def test_an_unreachable_shared_budget_falls_back_to_the_processs_own(url: str) -> None:
    down = Coordination(url, [])  # never opened: no connection
    now = [0.0]
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    budget = SharedBudget(down, Pace(spacing=0.5, burst=0.0), sleep=sleep, clock=lambda: now[0])
    await budget.take()
    await budget.take()
    assert slept == [0.5]
    with pytest.raises(StorageError):
        await down.try_take("test", 0.5, 0.0)


class Loaded:
    """A clock and a sleep whose wake-ups come late, as on a loaded event loop."""

    def __init__(self, late: float) -> None:
        self.now = 100.0
        self.late = late

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(0)
        self.now += seconds + self.late


def worst_second(times: list[float]) -> int:
    return max(sum(1 for t in times if start <= t < start + 1.0) for start in times)


async def test_requests_woken_late_never_bunch_past_the_pace() -> None:
    loaded = Loaded(late=0.7)
    pace = Pace(spacing=0.25, burst=0.0)
    budget = LocalBudget(pace, clock=loaded.clock, sleep=loaded.sleep)
    sent: list[float] = []

    async def request() -> None:
        await budget.take()
        sent.append(loaded.now)

    await asyncio.gather(*(request() for _ in range(12)))
    # Each slot is taken when its request leaves, so a late wake-up only delays it.
    assert len(sent) == 12
    assert all(b - a >= pace.spacing for a, b in itertools.pairwise(sent))
    assert worst_second(sent) <= 1 / pace.spacing + 1


async def test_a_slot_granted_too_long_ago_is_given_up_for_a_fresh_one() -> None:
    now = [0.0]
    answers = [0.0, 0.0]  # both grants; the first answer comes back late

    class Slow:
        async def try_take(self, name: str, spacing: float, burst: float) -> float:
            if len(answers) == 2:
                now[0] += STALE * 2
            return answers.pop(0)

    async def sleep(seconds: float) -> None:
        raise AssertionError("no wait expected")

    budget = SharedBudget(Slow(), Pace(spacing=0.5, burst=0.0), sleep=sleep, clock=lambda: now[0])
    await budget.take()
    assert answers == []  # the late grant was not used


async def test_a_local_budget_lets_a_short_burst_go_then_spaces_requests() -> None:
    loaded = Loaded(late=0.0)
    budget = LocalBudget(Pace(spacing=0.1, burst=0.25), clock=loaded.clock, sleep=loaded.sleep)
    waits = [(await budget.take()).waited for _ in range(6)]
    # An idle budget: 0.25 s worth goes at once (three requests), then one every 0.1 s.
    assert waits == pytest.approx([0.0, 0.0, 0.0, 0.05, 0.1, 0.1])
    loaded.now += 10.0  # idle again: another burst
    assert (await budget.take()).waited == 0.0
