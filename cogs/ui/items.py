"""The dynamic buttons: their state lives in the custom id, so they keep working after a restart."""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable
from typing import Any, Protocol, Self, cast

import discord
from discord import ui

from cogs.errors import SORRY, reply_privately

from .ids import Click, custom_id, template

log = logging.getLogger(__name__)

LOBBY_ACTIONS = ("join", "leave", "start", "cancel", "computer", "rule")
TABLE_ACTIONS = ("hand", "catch", "quit", "next", "respond")
HAND_ACTIONS = (
    "play",
    "pick",
    "draw",
    "keep",
    "uno",
    "color",
    "page",
    "accept",
    "challenge",
    "back",
)


class ClickHandler(Protocol):
    """What the buttons call: the Uno cog."""

    async def on_lobby(self, interaction: discord.Interaction[Any], click: Click) -> None: ...
    async def on_table(self, interaction: discord.Interaction[Any], click: Click) -> None: ...
    async def on_hand(self, interaction: discord.Interaction[Any], click: Click) -> None: ...


def handler(interaction: discord.Interaction[Any]) -> ClickHandler:
    return cast(ClickHandler, interaction.client.uno_handler)


async def guarded(interaction: discord.Interaction[Any], work: Awaitable[None]) -> None:
    """Run a click handler; an unexpected error still gets a polite private answer."""
    try:
        await work
    except Exception:
        log.exception("button handler failed")
        await reply_privately(interaction, SORRY)


class _UnoButton:
    """Shared by the three button kinds: the click decoded from the custom id."""

    def __init__(
        self,
        click: Click,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(  # type: ignore[call-arg]
            ui.Button(
                label=label,
                style=style,
                emoji=emoji,
                disabled=disabled,
                custom_id=custom_id(click.table_id, click.version, click.action, click.arg),
            )
        )
        self.click = click

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        click = Click(match["table"], int(match["version"]), match["action"], match["arg"])
        return cls(click)


class LobbyButton(_UnoButton, ui.DynamicItem[ui.Button[Any]], template=template(LOBBY_ACTIONS)):
    """Join, Leave, Start, Cancel, Add computer, House rule."""

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await guarded(interaction, handler(interaction).on_lobby(interaction, self.click))


class TableButton(_UnoButton, ui.DynamicItem[ui.Button[Any]], template=template(TABLE_ACTIONS)):
    """Show my hand, Catch, Leave, Next round, and the target's Accept / Challenge."""

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await guarded(interaction, handler(interaction).on_table(interaction, self.click))


class HandButton(_UnoButton, ui.DynamicItem[ui.Button[Any]], template=template(HAND_ACTIONS)):
    """A card, Draw, Keep, UNO!, a color, a page of the hand, Accept, Challenge, Bounce."""

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await guarded(interaction, handler(interaction).on_hand(interaction, self.click))


DYNAMIC_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (LobbyButton, TableButton, HandButton)
