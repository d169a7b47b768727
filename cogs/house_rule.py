"""The host's form for the rule the Wild Customizable card announces."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import ui

from bot.engine.rules import HOUSE_RULE_MAX
from bot.tables.commands import Actor, SetHouseRule
from bot.tables.notes import TableError

from .replies import NO_PINGS, SORRY, reply_privately, say
from .ui.lobby import lobby_view

if TYPE_CHECKING:
    from .clicks import GameClicks

log = logging.getLogger(__name__)


class HouseRuleModal(ui.Modal, title="Wild Customizable house rule"):
    """The host writes the rule; the lobby message shows it once saved."""

    rule: ui.TextInput[HouseRuleModal] = ui.TextInput(
        label=f"House rule (at most {HOUSE_RULE_MAX} characters)",
        style=discord.TextStyle.paragraph,
        max_length=HOUSE_RULE_MAX,
        required=False,
        placeholder="e.g. Everyone passes their hand to the left",
    )

    def __init__(self, clicks: GameClicks, table_id: str, current: str) -> None:
        super().__init__(timeout=600)
        self.clicks = clicks
        self.table_id = table_id
        self.rule.default = current

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        actor = Actor(interaction.user.id, interaction.user.display_name)
        try:
            outcome = await self.clicks.manager.act(
                self.table_id, actor, SetHouseRule(self.rule.value)
            )
        except TableError as exc:
            await say(interaction, exc.message)
            return
        await interaction.response.edit_message(
            view=lobby_view(outcome.table), allowed_mentions=NO_PINGS
        )

    async def on_error(  # type: ignore[override]  # Modal's own signature has no item
        self, interaction: discord.Interaction[Any], error: Exception, /
    ) -> None:
        log.error("house rule form failed", exc_info=error)
        await reply_privately(interaction, SORRY)
