"""Helpers for the tournament tests through the fake Discord: the tournament's message, people
playing its tables by the rules' legal actions, and the tournament as it stands."""

from __future__ import annotations

import dataclasses
import random

from bot.tables.commands import ANY_SEAT, Actor
from bot.tables.table import Status
from bot.tournament.model import Tournament
from fake_discord import FakeMessage
from tests.e2e.helpers import Harness

START = 1_000_000.0


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


def tournament_cog_desk(h: Harness) -> object:
    cog = h.bot.get_cog("TournamentCog")
    assert cog is not None
    return cog.desk  # type: ignore[attr-defined]


def tournament_of(h: Harness) -> Tournament:
    desk = tournament_cog_desk(h)
    [t] = desk.manager.tournaments.values()  # type: ignore[attr-defined]
    return Tournament.from_dict(t.to_dict())
