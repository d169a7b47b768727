"""A fake Discord (REST API v10 and gateway, on 127.0.0.1) that runs real discord.py bots.

    fake = FakeDiscord()
    await fake.start()
    with point_discord_py_at(fake):
        runner = BotRunner(fake)
        await runner.start(MyBot())
        guild = await fake.create_guild()
        alice = await fake.create_member(guild, "alice")
        itx = await fake.slash(alice, guild.default_channel, "hello")
        message = await itx.original_message()

The layout: the world (users, guilds, channels, messages), components and `validation`
(Discord's limits, also callable offline), the user simulation (`slash`, `click`, `select`,
`submit_modal`), the `gateway`, the REST routes (`rest`), `traffic`, `faults`, `clock`, and
`pytest_plugin` for tests.
"""

from fake_discord.channels import FakeChannel
from fake_discord.clock import Clock, ManualClock, SystemClock
from fake_discord.components import Button, Select, walk_components
from fake_discord.discord_py import DiscordPyRedirect, point_discord_py_at
from fake_discord.errors import DiscordHTTPError, RecordedError
from fake_discord.faults import Fault
from fake_discord.guilds import FakeGuild, FakeMember, FakeRole
from fake_discord.interactions import FakeInteraction, FakeModal, InteractionResponse
from fake_discord.messages import FakeAttachment, FakeMessage
from fake_discord.netguard import NonLoopbackConnection, loopback_only
from fake_discord.runner import BotRunner, RunningBot
from fake_discord.server import FakeDiscord
from fake_discord.traffic import MessageEvent, RequestRecord
from fake_discord.users import FakeUser

__all__ = [
    "BotRunner",
    "Button",
    "Clock",
    "DiscordHTTPError",
    "DiscordPyRedirect",
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeInteraction",
    "FakeMember",
    "FakeMessage",
    "FakeModal",
    "FakeRole",
    "FakeUser",
    "Fault",
    "InteractionResponse",
    "ManualClock",
    "MessageEvent",
    "NonLoopbackConnection",
    "RecordedError",
    "RequestRecord",
    "RunningBot",
    "Select",
    "SystemClock",
    "loopback_only",
    "point_discord_py_at",
    "walk_components",
]
