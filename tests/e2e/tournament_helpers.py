"""Helpers for the tournament tests through the fake Discord: a bot with a server manager, the
tournament's message, people playing its tables by the rules' legal actions until the podium,
and the tournament as it stands."""

from __future__ import annotations

import dataclasses
import importlib
import random
from pathlib import Path

from bot.tables.commands import ANY_SEAT, Actor
from bot.tables.scheduler import ManualScheduler
from bot.tables.table import Status
from bot.tournament.model import Tournament
from fake_discord import BotRunner, FakeDiscord, FakeGuild, FakeMessage, FakeUser
from fake_discord.constants import PERM_MANAGE_GUILD
from tests.e2e.helpers import Harness, settle, start_bot

START = 1_000_000.0


async def start_with_admin(
    fake: FakeDiscord, guild: FakeGuild, runner: BotRunner, db: Path, seed: int = 7
) -> tuple[Harness, FakeUser]:
    """The bot on ``db`` in the guild's default channel, its clock by hand from ``START``, and
    a member whose role has Manage Server."""
    h = await start_bot(
        fake, runner, db, guild.default_channel, seed=seed, scheduler=ManualScheduler(START)
    )
    admin = await fake.create_member(guild, "admin", global_name="Admin")
    managers = await fake.create_role(guild, "managers", PERM_MANAGE_GUILD)
    await fake.set_member_roles(guild, admin, [managers])
    return h, admin


def standings_message(h: Harness) -> FakeMessage | None:
    for message in reversed(h.fake.public_messages(h.channel)):
        if "🏆" in message.text and message.attachments:
            return message
    return None


async def play_a_while(h: Harness, rng: random.Random, moves: int) -> None:
    """People's moves by the rules' legal actions; computers on their own timers."""
    for _ in range(moves):
        playing = [
            t
            for t in h.bot.tables.tables.values()
            if t.tournament_id is not None and t.status is Status.PLAYING and t.match is not None
        ]
        human = [t for t in playing if t.seats[t.match.game.current].computer is None]  # type: ignore[union-attr]
        if not human:
            await h.scheduler.advance(1.0)
            continue
        table = rng.choice(human)
        assert table.match is not None
        game = table.match.game
        seat = table.seats[game.current]
        action = rng.choice(game.legal_actions(game.current))
        actor = Actor(seat.user_id, seat.name)
        await h.bot.tables.act(table.table_id, actor, dataclasses.replace(action, seat=ANY_SEAT))
        await h.scheduler.advance(0.1)


async def play_to_podium(h: Harness, rng: random.Random, tries: int = 150) -> FakeMessage:
    """Play the tournament's tables (people by legal actions, computers on their timers) until
    its message shows the podium; that message. ``tries`` bounds the rounds of play, not time:
    on a busy machine the tables' messages and pictures lag behind the clock by hand, so a
    tournament may need many more of them than on a quiet one."""
    for _ in range(tries):
        await play_a_while(h, rng, 100)
        await h.scheduler.advance(30.0)
        await settle(h)
        shown = standings_message(h)
        if shown is not None and "Podium" in shown.text:
            return shown
    raise AssertionError("no podium")


async def announcements_sent(h: Harness) -> None:
    """Wait for the achievements under way (the league the bot loaded, not an older import)."""
    await importlib.import_module("cogs.league").ANNOUNCERS[id(h.bot)].wait()


def podium_news(h: Harness, user: FakeUser) -> list[str]:
    """The achievement messages a member got about a tournament podium."""
    dm = h.fake.dm_channel(user)
    return [m.text for m in h.fake.public_messages(dm) if "Tournament podium" in m.text]


def tournament_cog_desk(h: Harness) -> object:
    cog = h.bot.get_cog("TournamentCog")
    assert cog is not None
    return cog.desk  # type: ignore[attr-defined]


def tournament_of(h: Harness) -> Tournament:
    desk = tournament_cog_desk(h)
    [t] = desk.manager.tournaments.values()  # type: ignore[attr-defined]
    return Tournament.from_dict(t.to_dict())
