"""The host's form for the rule the Wild Customizable card announces."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import ui

from bot.engine.rules import HOUSE_RULE_MAX
from bot.i18n import ENGLISH_LANG, Lang
from bot.tables.commands import Actor, SetHouseRule
from bot.tables.manager import TableManager
from bot.tables.refusals import TableError
from cogs.lang import user_lang
from cogs.replies import NO_PINGS, reply_privately, say, sorry
from cogs.ui.lobby import lobby_view

log = logging.getLogger(__name__)


class HouseRuleModal(ui.Modal):
    """The host writes the rule; the lobby message shows it once saved (the form speaks the
    host's language)."""

    def __init__(
        self, manager: TableManager, table_id: str, current: str, tongue: Lang = ENGLISH_LANG
    ) -> None:
        _ = tongue.gettext
        super().__init__(title=_("Wild Customizable house rule"), timeout=600)
        self.manager = manager
        self.table_id = table_id
        self.rule: ui.TextInput[HouseRuleModal] = ui.TextInput(
            label=_("House rule (at most {limit} characters)").format(limit=HOUSE_RULE_MAX),
            style=discord.TextStyle.paragraph,
            max_length=HOUSE_RULE_MAX,
            required=False,
            placeholder=_("e.g. Everyone passes their hand to the left"),
            default=current,
        )
        self.add_item(self.rule)

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        actor = Actor(interaction.user.id, interaction.user.display_name)
        try:
            outcome = await self.manager.act(self.table_id, actor, SetHouseRule(self.rule.value))
        except TableError as exc:
            await say(interaction, exc.note.render(user_lang(interaction)))
            return
        await interaction.response.edit_message(
            view=lobby_view(outcome.table), allowed_mentions=NO_PINGS
        )

    async def on_error(  # type: ignore[override]  # Modal's own signature has no item
        self, interaction: discord.Interaction[Any], error: Exception, /
    ) -> None:
        log.error("house rule form failed", exc_info=error)
        await reply_privately(interaction, sorry(interaction))
