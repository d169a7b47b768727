"""A match's review from /uno history: how often a player chose what the hard computer player
would have chosen in their place, round by round (bot/engine/review.py judges)."""

from __future__ import annotations

import asyncio
import logging
import re
from typing import TYPE_CHECKING, Any, Self

import discord
from discord import ui

from bot.engine.errors import RuleError
from bot.engine.record import RecordError, RoundRecord
from bot.engine.review import Agreement, agreement
from bot.i18n import ENGLISH_LANG, Lang
from bot.storage.models import MatchDetail
from cogs.lang import user_lang
from cogs.replies import NO_PINGS, say

from .common import guarded, storage_of
from .presenters import ACCENT

if TYPE_CHECKING:
    from bot.client import UnoBot

log = logging.getLogger(__name__)

AGREEMENT_TEMPLATE = r"unoagree:(?P<guild>[0-9]{1,20}):(?P<number>[0-9]{1,19})"


class AgreementButton(ui.DynamicItem[ui.Button[Any]], template=AGREEMENT_TEMPLATE):
    """Under a match's details: the clicking player's agreement with the hard computer."""

    def __init__(self, guild_id: int, number: int, tongue: Lang = ENGLISH_LANG) -> None:
        super().__init__(
            ui.Button(
                label=tongue.gettext("My moves next to the hard computer's"),
                emoji="🧠",
                style=discord.ButtonStyle.secondary,
                custom_id=f"unoagree:{guild_id}:{number}",
            )
        )
        self.guild_id = guild_id
        self.number = number

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["guild"]), int(match["number"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await guarded(interaction, on_agreement(interaction, self))


def agreement_text(
    detail: MatchDetail, results: list[tuple[int, Agreement | None]], tongue: Lang
) -> str:
    """Round by round, then over the match: decisions agreed with the hard computer player (its
    very move, or one its search cannot tell from that)."""
    _ = tongue.gettext
    lines = [
        "### 🧠 "
        + _("Match #{number}: your moves next to the hard computer's").format(number=detail.number),
        "-# "
        + _(
            "Each of your turn decisions, compared with what the hard computer player would "
            "have done in your place at that moment; a move its search rates as good as its own "
            "counts too."
        ),
    ]
    made = agreed = 0
    for round_number, result in results:
        label = _("Round {n}").format(n=round_number)
        if result is None:
            lines.append(f"{label}: " + _("not recorded"))
            continue
        made += result.decisions
        agreed += result.agreed
        lines.append(f"{label}: " + share_text(result.agreed, result.decisions, tongue))
    lines.append("**" + _("Whole match") + "**: " + share_text(agreed, made, tongue))
    return "\n".join(lines)


def share_text(agreed: int, made: int, tongue: Lang) -> str:
    """ "12 of 15 decisions (80 %)"."""
    text = tongue.ngettext(
        "{agreed} of {count} decision", "{agreed} of {count} decisions", made
    ).format(agreed=agreed, count=made)
    return f"{text} ({tongue.percent(agreed / made)})" if made else text


def judge(records: list[RoundRecord | None], seat: int) -> list[Agreement | None]:
    """Each round's agreement for ``seat`` (on a worker thread: the hard player searches)."""
    results: list[Agreement | None] = []
    for record in records:
        try:
            results.append(None if record is None else agreement(record, [seat])[seat])
        except RuleError:  # a record that no longer replays: not judged
            results.append(None)
    return results


async def judged(
    turn: asyncio.Semaphore, records: list[RoundRecord | None], seat: int
) -> list[Agreement | None]:
    """``judge`` on a worker thread once ``turn`` lets it: the bot judges one match at a time."""
    async with turn:
        return await asyncio.to_thread(judge, records, seat)


async def on_agreement(interaction: discord.Interaction[UnoBot], button: AgreementButton) -> None:
    """Judge the clicking player's decisions in every recorded round of the match, privately."""
    tongue = user_lang(interaction)
    _ = tongue.gettext
    if interaction.guild_id != button.guild_id:
        await say(interaction, _("That history belongs to another server."))
        return
    storage = storage_of(interaction)
    detail = await storage.match_detail(button.guild_id, button.number)
    if detail is None:
        await say(interaction, _("That match is no longer recorded."))
        return
    seat = next((p.seat for p in detail.players if p.user_id == interaction.user.id), None)
    if seat is None:
        await say(interaction, _("You did not play in this match."))
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    records: list[RoundRecord | None] = []
    for summary in detail.rounds:
        text = await storage.round_record(button.guild_id, button.number, summary.number)
        try:
            records.append(RoundRecord.from_text(text) if text is not None else None)
        except RecordError:
            log.warning("unreadable round record: match %s round %s", detail.number, summary.number)
            records.append(None)
    results = await judged(interaction.client.reviews, records, seat)
    numbered = [(s.number, r) for s, r in zip(detail.rounds, results, strict=True)]
    layout = ui.LayoutView(timeout=None)
    text = agreement_text(detail, numbered, tongue)
    layout.add_item(ui.Container[Any](ui.TextDisplay(text), accent_colour=ACCENT))
    await interaction.followup.send(view=layout, ephemeral=True, allowed_mentions=NO_PINGS)
