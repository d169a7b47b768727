"""The game's one dynamic button: its state is its custom id, decoded once when it is clicked."""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, Protocol, Self, cast

import discord
from discord import ui

from cogs.replies import SORRY, reply_privately

from .ids import Broken, Click, Request, custom_id, decode

if TYPE_CHECKING:
    from bot.client import UnoBot

log = logging.getLogger(__name__)

GAME_COG = "UnoCog"  # the cog that answers game buttons (loaded by the cogs.uno extension)


class ClickHandler(Protocol):
    """What the buttons call: the game cog's click presenter."""

    async def on_click(
        self, interaction: discord.Interaction[UnoBot], click: Click | Broken
    ) -> None: ...


class _HasClicks(Protocol):
    clicks: ClickHandler


async def guarded(interaction: discord.Interaction[UnoBot], work: Awaitable[None]) -> None:
    """Run a click handler; an unexpected error is logged and still gets a polite answer."""
    try:
        await work
    except Exception:
        log.exception("button handler failed")
        await reply_privately(interaction, SORRY)


class GameButton(ui.DynamicItem[ui.Button[Any]], template=r"uno:.{0,96}"):
    """Every lobby, table and hand button of the game (``uno:`` ids, see ``ids``)."""

    def __init__(
        self,
        custom_id: str,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
        click: Click | Broken | None = None,
    ) -> None:
        super().__init__(
            ui.Button(label=label, style=style, emoji=emoji, disabled=disabled, custom_id=custom_id)
        )
        self.click = click

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(match.string, click=decode(match.string))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        click = self.click if self.click is not None else decode(self.custom_id)
        itx = cast("discord.Interaction[UnoBot]", interaction)
        cog = cast("_HasClicks | None", itx.client.get_cog(GAME_COG))
        if cog is None:
            await reply_privately(itx, SORRY)  # the game extension is not loaded
            return
        await guarded(itx, cog.clicks.on_click(itx, click))


def button(
    table_id: str,
    version: int,
    request: Request,
    *,
    label: str,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    emoji: str | None = None,
    disabled: bool = False,
    slot: int = 0,
) -> GameButton:
    """A game button asking ``request`` at ``version`` (0: it never goes out of date)."""
    return GameButton(
        custom_id(table_id, version, request, slot=slot),
        label=label,
        style=style,
        emoji=emoji,
        disabled=disabled,
    )


DYNAMIC_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (GameButton,)
