"""A process that spends the bot token's shared REST budget as the bot does: discord.py's HTTP
client with the bot's trace config, the budget kept in PostgreSQL; each request stamped with the
time it left.

``python tests/e2e/budget_process.py NAME COUNT`` with DATABASE_URL, REST_PER_SECOND,
DISCORD_TOKEN and FAKE_DISCORD_URL set: COUNT requests as fast as the budget lets them go, the
seconds each waited printed as JSON at the end.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys

from discord.http import HTTPClient
from shard_process import (
    stamped,
    tag_requests,
)  # beside this file, on the path of a script run by path

from bot.scale.budget import Pace, SharedBudget
from bot.scale.trace import rest_trace
from bot.storage.postgres.coordination import Coordination
from fake_discord.discord_py import URL_ENV, point_discord_py_at


class Waits:
    def __init__(self) -> None:
        self.seconds: list[float] = []

    def waited(self, seconds: float) -> None:
        self.seconds.append(seconds)

    def renewed(self, times: int) -> None:
        pass

    def answered(self, path: str, status: int, seconds: float) -> None:
        pass


async def main(count: int) -> None:
    coordination = Coordination(os.environ["DATABASE_URL"], [])
    await coordination.open()
    waits = Waits()
    budget = SharedBudget(coordination, Pace.under(float(os.environ["REST_PER_SECOND"])))
    http = HTTPClient(asyncio.get_running_loop(), http_trace=stamped(rest_trace(budget, waits)))
    try:
        await http.static_login(os.environ["DISCORD_TOKEN"])
        await asyncio.gather(*(http.get_bot_gateway() for _ in range(count)))
    finally:
        await http.close()
        await coordination.close()
    print(json.dumps(waits.seconds))


if __name__ == "__main__":
    tag_requests(sys.argv[1])
    with point_discord_py_at(os.environ[URL_ENV]):
        asyncio.run(main(int(sys.argv[2])))
