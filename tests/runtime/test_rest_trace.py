"""The REST trace: a counted request takes its slot when it starts and renews it at the last
hook before its bytes leave (its headers', and its body's first chunk when it has a body);
interaction answers never touch the budget."""

from __future__ import annotations

import aiohttp

from bot.scale.budget import Slot
from bot.scale.trace import rest_trace
from fake_discord import FakeDiscord, FakeGuild


class Recording:
    """A budget that always has a slot, and notes what was asked of it."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    async def take(self) -> Slot:
        self.calls.append("take")
        return Slot(asked=0.0, waited=0.25)

    async def renew(self, slot: Slot) -> Slot:
        self.calls.append("renew")
        return Slot(slot.asked, slot.waited, slot.renewed + 1)


class Heard:
    def __init__(self) -> None:
        self.waits: list[float] = []
        self.renewals: list[int] = []

    def waited(self, seconds: float) -> None:
        self.waits.append(seconds)

    def renewed(self, times: int) -> None:
        self.renewals.append(times)

    def answered(self, path: str, status: int, seconds: float) -> None:
        pass


async def test_a_counted_request_renews_its_slot_at_the_headers_and_the_first_chunk(
    fake_discord: FakeDiscord, fake_guild: FakeGuild
) -> None:
    budget, heard = Recording(), Heard()
    api = fake_discord.api_base
    headers = {"Authorization": f"Bot {fake_discord.token}"}
    async with aiohttp.ClientSession(
        headers=headers, trace_configs=[rest_trace(budget, heard)]
    ) as http:
        async with http.get(f"{api}/users/@me") as answer:
            assert answer.status == 200
        assert budget.calls == ["take", "renew"]  # no body: its headers leave at once

        budget.calls.clear()
        form = aiohttp.FormData()
        form.add_field("payload_json", '{"content": "hi"}')
        form.add_field("files[0]", b"\x89PNG" * 50_000, filename="a.png")
        channel = fake_guild.default_channel.id
        async with http.post(f"{api}/channels/{channel}/messages", data=form) as answer:
            assert answer.status == 200
        # A body is written by a task of its own: renewed again as it begins, once.
        assert budget.calls == ["take", "renew", "renew"]

        budget.calls.clear()
        async with http.post(f"{api}/interactions/1/token/callback", json={"type": 1}):
            pass
        assert budget.calls == []  # interaction answers are not counted
    assert heard.waits == [0.25, 0.25]  # once per counted request, with what it waited
    assert heard.renewals == [1, 2]
