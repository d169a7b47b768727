"""The game's one dynamic button: its state is its custom id, decoded once when it is clicked."""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, Protocol, Self, cast

import discord
from discord import ui

from cogs.replies import reply_privately, sorry

from .ids import (
    BUTTON_TEMPLATE,
    SELECT_TEMPLATE,
    Broken,
    Choice,
    Click,
    Request,
    custom_id,
    decode,
    select_id,
)

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
        await reply_privately(interaction, sorry(interaction))


async def dispatch(interaction: discord.Interaction[Any], click: Click | Broken) -> None:
    """Hand a decoded click to the game cog's presenter (a polite answer if it is not loaded)."""
    itx = cast("discord.Interaction[UnoBot]", interaction)
    cog = cast("_HasClicks | None", itx.client.get_cog(GAME_COG))
    if cog is None:
        await reply_privately(itx, sorry(itx))  # the game extension is not loaded
        return
    await guarded(itx, cog.clicks.on_click(itx, click))


class GameButton(ui.DynamicItem[ui.Button[Any]], template=BUTTON_TEMPLATE):
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
        await dispatch(interaction, click)


class GameSelect(ui.DynamicItem[ui.Select[Any]], template=SELECT_TEMPLATE):
    """Every select of the game (presets, an option's values, whom to swap with): the custom id
    says what it asks, the picked value completes it."""

    def __init__(
        self,
        custom_id: str,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            ui.Select(
                custom_id=custom_id,
                placeholder=placeholder,
                options=options or [discord.SelectOption(label="-", value="-")],
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(match.string)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        data = cast(dict[str, Any], interaction.data or {})
        values = [str(v) for v in data.get("values") or []]
        await dispatch(interaction, decode(self.custom_id, values))


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


def select(
    table_id: str,
    version: int,
    choice: Choice,
    options: list[discord.SelectOption],
    *,
    placeholder: str | None = None,
) -> GameSelect:
    """A game select asking ``choice`` at ``version`` (0: it never goes out of date)."""
    return GameSelect(
        select_id(table_id, version, choice), options=options, placeholder=placeholder
    )


DYNAMIC_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (GameButton, GameSelect)
