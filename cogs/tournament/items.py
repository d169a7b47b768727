"""The tournament message's buttons: Join, Leave and Berserk, typed by their custom ids
(``unotour:<tournament>:<action>``), so they keep working after a restart."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Literal, Protocol, Self, cast

import discord
from discord import ui

from cogs.replies import reply_privately, sorry

if TYPE_CHECKING:
    from bot.client import UnoBot

Action = Literal["join", "leave", "berserk"]
TEMPLATE = r"unotour:(?P<tournament>[0-9a-z]{1,13}):(?P<action>join|leave|berserk)"
COG = "TournamentCog"


class _Desk(Protocol):
    async def on_button(
        self, interaction: discord.Interaction[UnoBot], tournament_id: str, action: Action
    ) -> None: ...


class TournamentButton(ui.DynamicItem[ui.Button[Any]], template=TEMPLATE):
    """One of the tournament message's buttons; what it asks is in its custom id."""

    def __init__(
        self,
        tournament_id: str,
        action: Action,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        custom_id = f"unotour:{tournament_id}:{action}"
        super().__init__(ui.Button(label=label, style=style, custom_id=custom_id))
        self.tournament_id = tournament_id
        self.action: Action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(match["tournament"], cast(Action, match["action"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = interaction.client.get_cog(COG)
        desk = cast("_Desk | None", getattr(cog, "desk", None))
        if desk is None:
            await reply_privately(interaction, sorry(interaction))
            return
        await desk.on_button(interaction, self.tournament_id, self.action)


TOURNAMENT_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (TournamentButton,)
