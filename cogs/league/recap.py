"""A finished round's recap: an animated picture, one frame per card played, the scores at the
end, sent privately from /uno history or from the Recap under a round at the table. It is drawn
on the picture queue's background workers, so that it never delays a game's click."""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Self
from weakref import WeakKeyDictionary

import discord
from discord import ui

from bot.engine.errors import RuleError
from bot.engine.match import ScoreView
from bot.engine.record import RecordError, RoundRecord
from bot.engine.review import play_views, round_plays, team_scores_around
from bot.i18n import ENGLISH_LANG, N_, Lang
from bot.i18n.pictures import picture_words
from bot.pictures import PictureQueue, Priority
from bot.render.recap import render_recap
from bot.render.words import Words
from cogs.lang import user_lang
from cogs.replies import NO_PINGS, let_go, say
from cogs.ui.table import alt_text

from .common import guarded, storage_of
from .former import SeatNames
from .presenters import ACCENT
from .replay import NO_SUCH_MATCH, OTHER_SERVER, load_round
from .rounds import (
    DAMAGED,
    NOT_RECORDED,
    picked,
    present_seat_names,
    round_of,
    round_select,
    scores_after,
)

if TYPE_CHECKING:
    from bot.client import UnoBot

log = logging.getLogger(__name__)

RECAP_IMAGE = "recap.webp"
RECAPS_KEPT = 4  # table recaps kept drawn (a long round's is under 1 MB)
RECAP_TEMPLATE = r"unocap:(?P<guild>[0-9]{1,20}):(?P<number>[0-9]{1,19})"
NOTHING_PLAYED = N_(
    "No card was played in that round (it was forfeited): there is nothing to recap."
)


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


def picture_queue(client: Any) -> PictureQueue | None:
    """The game's picture queue, where the game cog keeps it (None before it loads)."""
    for cog in getattr(client, "cogs", {}).values():
        queue = getattr(getattr(cog, "clicks", None), "pictures", None)
        if isinstance(queue, PictureQueue):
            return queue
    return None


@dataclass(frozen=True, slots=True)
class Recap:
    """A drawn recap: the picture and what its alt text tells (no picture when no card was
    played)."""

    data: bytes
    plays: int
    winner: int | None  # the seat that went out


def draw_recap(
    record: RoundRecord, names: list[str], round_number: int, scores: ScoreView, words: Words
) -> Recap:
    """Replay the round and draw its recap (slow: on a worker thread)."""
    played = round_plays(record.to_text())
    views = play_views(record, names, round_number, team_scores_around(scores))
    if not played:
        return Recap(b"", 0, views[-1].winner)
    return Recap(render_recap(views, scores, words=words), played, views[-1].winner)


async def drawn(client: Any, *args: Any) -> Recap:
    """``draw_recap(*args)`` behind every game picture (never delaying a click)."""
    queue = picture_queue(client)
    if queue is not None:
        return await queue.draw(draw_recap, *args, priority=Priority.BACKGROUND)
    return await asyncio.to_thread(draw_recap, *args)


class RecentRecaps:
    """The table recaps drawn lately: the players pressing Recap together share one drawing."""

    def __init__(self, kept: int = RECAPS_KEPT) -> None:
        self.kept = kept
        self._drawn: OrderedDict[Hashable, asyncio.Task[Recap]] = OrderedDict()

    async def get(self, key: Hashable, draw: Callable[[], Awaitable[Recap]]) -> Recap:
        """The recap under ``key``, drawn by ``draw`` unless it is drawn or being drawn."""
        task = self._drawn.get(key)
        if task is None or (task.done() and (task.cancelled() or task.exception())):
            task = asyncio.ensure_future(draw())
            self._drawn[key] = task
            while len(self._drawn) > self.kept:
                self._drawn.popitem(last=False)
        self._drawn.move_to_end(key)
        return await asyncio.shield(task)  # one asker giving up stops nobody else's


# Per running bot (a test process runs several, one after another, each on its own loop).
RECENT: WeakKeyDictionary[Any, RecentRecaps] = WeakKeyDictionary()


def recent_recaps(client: Any) -> RecentRecaps:
    """The bot's recently drawn table recaps."""
    found = RECENT.get(client)
    if found is None:
        found = RECENT[client] = RecentRecaps()
    return found


async def send_recap(
    interaction: discord.Interaction[UnoBot],
    recap: Recap,
    head: str,
    told: list[str],
    round_number: int,
) -> None:
    """The recap, privately, with its alt text (the interaction answered already; ``told``: the
    names as a sentence tells them)."""
    tongue = user_lang(interaction)
    if not recap.data:
        await say(interaction, tongue.gettext(NOTHING_PLAYED))
        return
    winner = told[recap.winner] if recap.winner is not None else tongue.gettext("nobody")
    alt = tongue.ngettext(
        "Animated recap of round {round}: {count} card played, then {winner} went out.",
        "Animated recap of round {round}: {count} cards played, then {winner} went out.",
        recap.plays,
    ).format(round=round_number, count=recap.plays, winner=winner)
    layout = ui.LayoutView(timeout=None)
    container = ui.Container[Any](accent_colour=ACCENT)
    container.add_item(ui.TextDisplay(head))
    container.add_item(
        ui.MediaGallery(
            discord.MediaGalleryItem(f"attachment://{RECAP_IMAGE}", description=alt_text(alt))
        )
    )
    layout.add_item(container)
    file = discord.File(io.BytesIO(recap.data), filename=RECAP_IMAGE)
    await interaction.followup.send(
        view=layout, file=file, ephemeral=True, allowed_mentions=NO_PINGS
    )
    let_go(layout)


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
    seats = await present_seat_names(interaction.guild, detail.players, tongue)
    names = seats.labels
    scores = scores_after(detail, round_number, names)
    recap = await drawn(
        interaction.client, record, names, round_number, scores, picture_words(tongue)
    )
    head = "### 🎞 " + _("Recap · match #{number} · round {round}").format(
        number=detail.number, round=round_number
    )
    await send_recap(interaction, recap, head, seats.told, round_number)


# ----- the end-of-round message's Recap -----


async def table_round(
    interaction: discord.Interaction[UnoBot], table_id: str, round_number: int
) -> tuple[RoundRecord, SeatNames, ScoreView] | None:
    """The round's record, names and scores: from the live table, else from the league (names
    there only of members still in the server); None when neither has it."""
    live = await interaction.client.tables.finished_round(table_id, round_number)
    if live is not None:
        if live.guild_id != interaction.guild_id:
            return None
        names = list(live.names)
        return RoundRecord.from_text(live.record), SeatNames(names, names), live.scores
    if interaction.guild_id is None:
        return None
    storage = storage_of(interaction)
    detail = await storage.match_by_uid(interaction.guild_id, table_id)
    if detail is None or not 1 <= round_number <= len(detail.rounds):
        return None
    text = await storage.round_record(detail.guild_id, detail.number, round_number)
    if text is None:
        return None
    seats = await present_seat_names(interaction.guild, detail.players, user_lang(interaction))
    return RoundRecord.from_text(text), seats, scores_after(detail, round_number, seats.labels)


async def table_recap(
    interaction: discord.Interaction[UnoBot], table_id: str, round_number: int
) -> None:
    """The Recap button under a finished round at the table (``cogs.ui.ids.Recap``)."""
    await guarded(interaction, on_table_recap(interaction, table_id, round_number))


async def on_table_recap(
    interaction: discord.Interaction[UnoBot], table_id: str, round_number: int
) -> None:
    """Recap under a finished round: acknowledged at once, the recap sent privately once drawn
    (drawn once for every player who asks for it together)."""
    tongue = user_lang(interaction)
    _ = tongue.gettext
    await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        found = await table_round(interaction, table_id, round_number)
        if found is None:
            await say(interaction, _(NOT_RECORDED))
            return
        record, seats, scores = found
        names = seats.labels
        words = picture_words(tongue)
        key = (table_id, round_number, tongue.code, tuple(names))
        recap = await recent_recaps(interaction.client).get(
            key, lambda: drawn(interaction.client, record, names, round_number, scores, words)
        )
    except (RecordError, RuleError):
        log.warning("unreadable round record: table %s round %s", table_id, round_number)
        await say(interaction, _(DAMAGED))
        return
    head = "### 🎞 " + _("Recap · round {round}").format(round=round_number)
    await send_recap(interaction, recap, head, seats.told, round_number)
