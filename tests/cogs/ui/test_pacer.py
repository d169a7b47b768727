"""The per-channel pacer: never more than five writes in any five seconds, in order, bounded."""

from __future__ import annotations

import asyncio
import contextlib

from cogs.ui.pacer import ChannelPacer


class Time:
    """A hand-driven clock whose sleeps move it."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.slept: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds
        await asyncio.sleep(0)


def worst_window(times: list[float], per: float) -> int:
    times = sorted(times)
    best = start = 0
    for end, t in enumerate(times):
        while t - times[start] >= per:
            start += 1
        best = max(best, end - start + 1)
    return best


async def test_a_burst_goes_five_at_once_then_one_as_each_slot_frees() -> None:
    t = Time()
    pacer = ChannelPacer(clock=t.clock, sleep=t.sleep, margin=0.0)
    sent: list[float] = []
    for _ in range(12):
        await pacer.wait(7)
        sent.append(t.now)
    assert sent[:5] == [1000.0] * 5
    assert sent[5] == 1005.0 and sent[10] == 1010.0
    assert worst_window(sent, 5.0) == 5


async def test_concurrent_writers_share_the_window_of_their_channel_only() -> None:
    t = Time()
    pacer = ChannelPacer(clock=t.clock, sleep=t.sleep, margin=0.0)
    sent: dict[int, list[float]] = {1: [], 2: []}

    async def writer(channel: int) -> None:
        await pacer.wait(channel)
        sent[channel].append(t.now)

    await asyncio.gather(*(writer(2) for _ in range(3)), *(writer(1) for _ in range(11)))
    assert worst_window(sent[1], 5.0) == 5 and len(sent[1]) == 11
    assert len(sent[2]) == 3


async def test_a_full_channel_never_delays_another() -> None:
    t = Time()
    pacer = ChannelPacer(clock=t.clock, sleep=t.sleep)
    for _ in range(5):
        await pacer.wait(1)
    await pacer.wait(2)
    assert not t.slept and pacer.delay(1) > 0


async def test_writes_spread_out_never_wait() -> None:
    t = Time()
    pacer = ChannelPacer(clock=t.clock, sleep=t.sleep)
    for _ in range(20):
        await pacer.wait(3)
        t.now += 1.5
    assert not t.slept


async def test_ready_waits_without_taking_a_slot() -> None:
    t = Time()
    pacer = ChannelPacer(clock=t.clock, sleep=t.sleep, margin=0.0)
    for _ in range(5):
        await pacer.wait(9)
    assert pacer.delay(9) == 5.0
    await pacer.ready(9)
    assert t.now == 1005.0 and pacer.delay(9) == 0.0


async def test_only_channels_written_to_within_the_window_are_remembered() -> None:
    t = Time()
    pacer = ChannelPacer(clock=t.clock, sleep=t.sleep)
    for channel in range(100):
        await pacer.wait(channel)
    assert len(pacer) == 100
    t.now += 60
    await pacer.wait(1000)
    assert len(pacer) == 1


async def test_a_write_counts_from_its_answer_and_counts_as_now_while_under_way() -> None:
    t = Time()
    pacer = ChannelPacer(clock=t.clock, sleep=t.sleep, margin=0.0)
    async with contextlib.AsyncExitStack() as stack:
        for _ in range(5):
            await stack.enter_async_context(pacer.slot(4))
        t.now += 30  # five slow requests still waiting for their answers
        assert pacer.delay(4) == 5.0
    t.now += 1  # answered a second later: the window runs from their answers
    assert pacer.delay(4) == 4.0
