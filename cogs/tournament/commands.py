"""`/uno tournament …` and `/uno-admin tournament …`: open, join, leave, status, berserk, start and
close a server tournament. Thin: each finds the desk and makes one request."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import discord
from discord import app_commands

from bot.tournament.model import Kind
from cogs.replies import reply_privately, sorry

if TYPE_CHECKING:
    from bot.client import UnoBot

    from .desk import TournamentDesk

    Itx = discord.Interaction[UnoBot]

COG = "TournamentCog"


def desk_of(interaction: Itx) -> TournamentDesk | None:
    cog = interaction.client.get_cog(COG)
    return cast("TournamentDesk | None", getattr(cog, "desk", None))


async def _run(interaction: Itx, action: str) -> None:
    desk = desk_of(interaction)
    if desk is None:
        await reply_privately(interaction, sorry(interaction))
        return
    if action == "status":
        await desk.status(interaction)
    else:
        await desk.request(interaction, action)


def tournament_commands() -> app_commands.Group:
    """A fresh ``tournament`` group of every tournament command: one goes under /uno-admin
    (shown to managers), one under /uno (shown to everyone: joining is for anyone, and opening
    one when the server allows it; each command checks who may do it when it runs)."""
    group = app_commands.Group(
        name="tournament", description="Server tournaments: an arena or a knockout"
    )

    @group.command(name="open", description="Open a tournament in this channel")
    @app_commands.describe(
        kind="An arena (points for placing, for a fixed time) or a knockout (the top 2 go on)",
        minutes="How long an arena runs (default 30)",
        length="Each table plays a single round (default) or a match to the target score",
        computers="Computer players to enter (when the server allows them)",
        teams="Teams of two: every table two teams, partners sharing their place",
    )
    @app_commands.choices(
        kind=[
            app_commands.Choice(name="Arena", value="arena"),
            app_commands.Choice(name="Knockout", value="knockout"),
        ],
        length=[
            app_commands.Choice(name="Single round", value="round"),
            app_commands.Choice(name="Match to the target score", value="match"),
        ],
    )
    async def open_tournament(
        interaction: Itx,
        kind: str = "arena",
        minutes: app_commands.Range[int, 5, 180] = 30,
        length: str = "round",
        computers: app_commands.Range[int, 0, 12] = 0,
        teams: bool = False,
    ) -> None:
        desk = desk_of(interaction)
        if desk is None:
            await reply_privately(interaction, sorry(interaction))
            return
        chosen = Kind.KNOCKOUT if kind == "knockout" else Kind.ARENA
        await desk.open(interaction, chosen, minutes, length != "match", computers, teams)

    @group.command(name="join", description="Join the tournament in this channel")
    async def join(interaction: Itx) -> None:
        await _run(interaction, "join")

    @group.command(name="leave", description="Stop waiting for tables (points stay)")
    async def leave(interaction: Itx) -> None:
        await _run(interaction, "leave")

    @group.command(name="status", description="Where you stand in the tournament here")
    async def status(interaction: Itx) -> None:
        await _run(interaction, "status")

    @group.command(
        name="berserk",
        description="Half the turn timer at your next table, one point more if you win",
    )
    async def berserk(interaction: Itx) -> None:
        await _run(interaction, "berserk")

    @group.command(name="start", description="Start the knockout here (host or manager)")
    async def start(interaction: Itx) -> None:
        await _run(interaction, "start")

    @group.command(
        name="close", description="End the tournament here: no more tables (host or manager)"
    )
    async def close(interaction: Itx) -> None:
        await _run(interaction, "close")

    return group


tournament_group = tournament_commands()  # under /uno-admin
member_tournament_group = tournament_commands()  # under /uno
