"""A recorded round's recap from /uno history: an animated picture, one frame per card played,
drawn on the picture queue's background workers so that it never delays a game's click."""

from __future__ import annotations

import asyncio
import io
import logging
import re
from functools import partial
from typing import TYPE_CHECKING, Any, Self

import discord
from discord import ui

from bot.engine.match import ScoreView
from bot.engine.review import play_views
from bot.i18n import ENGLISH_LANG, Lang
from bot.i18n.pictures import picture_words
from bot.pictures import PictureQueue, Priority
from bot.render.recap import render_recap
from bot.storage.models import MatchDetail
from cogs.lang import user_lang
from cogs.replies import NO_PINGS, let_go, say
from cogs.ui.table import alt_text

from .common import guarded, storage_of
from .presenters import ACCENT
from .replay import NO_SUCH_MATCH, OTHER_SERVER, load_round
from .rounds import picked, present_names, round_of, round_select

if TYPE_CHECKING:
    from bot.client import UnoBot

log = logging.getLogger(__name__)

RECAP_IMAGE = "recap.webp"
RECAP_TEMPLATE = r"unocap:(?P<guild>[0-9]{1,20}):(?P<number>[0-9]{1,19})"


class RecapSelect(ui.DynamicItem[ui.Select[Any]], template=RECAP_TEMPLATE):
    """Under a match's details: pick a round for its animated recap."""

    def __init__(
        self, guild_id: int, number: int, rounds: int = 0, tongue: Lang = ENGLISH_LANG
    ) -> None:
        _ = tongue.gettext
        super().__init__(
            round_select(f"unocap:{guild_id}:{number}", _("Watch a round's recap"), rounds, tongue)
        )
        self.guild_id = guild_id
        self.number = number

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["guild"]), int(match["number"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await guarded(interaction, on_recap(interaction, self, picked(interaction)))


def scores_after(detail: MatchDetail, round_number: int, names: list[str]) -> ScoreView:
    """The scoreboard as it stood after ``round_number``."""
    rounds = detail.rounds[:round_number]
    totals = tuple(rounds[-1].totals) if rounds else (0,) * len(names)
    return ScoreView(
        edition=detail.edition,  # type: ignore[arg-type]
        names=tuple(names),
        rounds=tuple(tuple(r.points) for r in rounds),
        totals=totals,
        target=detail.target,
        scoring=detail.scoring,
        round_winners=tuple(r.winner_seat for r in rounds),
        winners=tuple(p.seat for p in detail.players if p.winner)
        if round_number == len(detail.rounds)
        else (),
        active=(True,) * len(names),
    )


def picture_queue(client: Any) -> PictureQueue | None:
    """The game's picture queue, where the game cog keeps it (None before it loads)."""
    for cog in getattr(client, "cogs", {}).values():
        queue = getattr(getattr(cog, "clicks", None), "pictures", None)
        if isinstance(queue, PictureQueue):
            return queue
    return None


async def on_recap(
    interaction: discord.Interaction[UnoBot], select: RecapSelect, value: str
) -> None:
    """Draw the picked round's recap and send it privately."""
    tongue = user_lang(interaction)
    _ = tongue.gettext
    if interaction.guild_id != select.guild_id:
        await say(interaction, _(OTHER_SERVER))
        return
    detail = await storage_of(interaction).match_detail(select.guild_id, select.number)
    if detail is None:
        await say(interaction, _(NO_SUCH_MATCH))
        return
    round_number = round_of(value, len(detail.rounds))
    if round_number is None:
        await say(interaction, _("Pick a round from the list."))
        return
    loaded = await load_round(interaction, select.guild_id, select.number, round_number)
    if loaded is None:
        return
    detail, record = loaded
    await interaction.response.defer(ephemeral=True, thinking=True)
    names = await present_names(interaction.guild, detail.players, tongue)
    views = await asyncio.to_thread(play_views, record, names, round_number)
    scores = scores_after(detail, round_number, names)
    draw = partial(render_recap, words=picture_words(tongue))
    queue = picture_queue(interaction.client)
    if queue is not None:
        data = await queue.draw(draw, views, scores, priority=Priority.BACKGROUND)
    else:
        data = await asyncio.to_thread(draw, views, scores)
    last = views[-1]
    winner = names[last.winner] if last.winner is not None else _("nobody")
    plays = len(views) - 1
    alt = tongue.ngettext(
        "Animated recap of round {round}: {count} card played, then {winner} went out.",
        "Animated recap of round {round}: {count} cards played, then {winner} went out.",
        plays,
    ).format(round=round_number, count=plays, winner=winner)
    head = "### 🎞 " + _("Recap · match #{number} · round {round}").format(
        number=detail.number, round=round_number
    )
    layout = ui.LayoutView(timeout=None)
    container = ui.Container[Any](accent_colour=ACCENT)
    container.add_item(ui.TextDisplay(head))
    container.add_item(
        ui.MediaGallery(
            discord.MediaGalleryItem(f"attachment://{RECAP_IMAGE}", description=alt_text(alt))
        )
    )
    layout.add_item(container)
    file = discord.File(io.BytesIO(data), filename=RECAP_IMAGE)
    await interaction.followup.send(
        view=layout, file=file, ephemeral=True, allowed_mentions=NO_PINGS
    )
    let_go(layout)
