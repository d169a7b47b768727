"""The league's buttons and select (leaderboard pages, match history, forget-me), what they do,
and the messages that carry them. Their state lives in custom ids ("uno:" ids are the game's)."""

from __future__ import annotations

import asyncio
import io
import logging
import re
from typing import TYPE_CHECKING, Any, Literal, Self, cast

import discord
from discord import ui

from bot.i18n import ENGLISH_LANG, N_, Lang
from bot.i18n.pictures import picture_words
from bot.render.leaderboard import render_leaderboard
from bot.storage import Storage
from bot.storage.models import LeaderboardPage, MatchSummary, Season
from cogs.lang import user_lang
from cogs.replies import NO_PINGS, let_go, say

from .common import guarded, public_lang, storage_of
from .presenters import (
    ACCENT,
    history_text,
    leaderboard_text,
    match_text,
    option_label,
    season_label,
    sort_name,
)
from .recap import RecapSelect
from .replay import REPLAY_ITEMS, ReplayRoundSelect
from .review import AgreementButton
from .rounds import RoundExportSelect

if TYPE_CHECKING:
    from bot.client import UnoBot

log = logging.getLogger(__name__)

PAGE_SIZE = 10
LEADERBOARD_IMAGE = "leaderboard.png"
SORTS = ("rating", "wins", "points")
SortName = Literal["rating", "wins", "points"]
MATCH_ID_MAX = 2**63 - 1  # SQLite's largest integer
MAX_OFFSET = 9_999_990  # the largest page start a leaderboard custom id can hold (7 digits)

LEADERBOARD_TEMPLATE = (
    r"unolb:(?P<guild>[0-9]{1,20}):(?P<season>[0-9]{1,6}):(?P<sort>rating|wins|points)"
    r":(?P<offset>[0-9]{1,7}):(?P<dir>[pn])(?::(?P<official>o))?"
)
OFFICIAL_ONLY = N_("official rules only")
HISTORY_TEMPLATE = r"unohist:(?P<guild>[0-9]{1,20})"
FORGET_TEMPLATE = r"unoforget:(?P<guild>[0-9]{1,20}):(?P<user>[0-9]{1,20}):(?P<answer>yes|no)"


async def find_season(storage: Storage, guild_id: int, number: int | None) -> Season | None:
    """The season asked for (None: the current one), or None if it does not exist."""
    if number is None:
        return await storage.current_season(guild_id)
    seasons = await storage.list_seasons(guild_id)
    return next((s for s in seasons if s.number == number), None)


# ----- leaderboard -----


class LeaderboardPageButton(ui.DynamicItem[ui.Button[Any]], template=LEADERBOARD_TEMPLATE):
    """◀ or ▶ on a leaderboard: the page to show is in the custom id (season 0: all time)."""

    def __init__(
        self,
        guild_id: int,
        season: int,
        sort: SortName,
        offset: int,
        direction: str,
        *,
        disabled: bool = False,
        official_only: bool = False,
    ) -> None:
        offset = min(max(offset, 0), MAX_OFFSET)
        flag = ":o" if official_only else ""
        super().__init__(
            ui.Button(
                emoji="◀" if direction == "p" else "▶",
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"unolb:{guild_id}:{season}:{sort}:{offset}:{direction}{flag}",
            )
        )
        self.guild_id = guild_id
        self.season = season
        self.sort: SortName = sort
        self.offset = offset
        self.official_only = official_only

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        sort = cast(SortName, match["sort"])
        offset = int(match["offset"])
        official = match["official"] is not None
        return cls(
            int(match["guild"]),
            int(match["season"]),
            sort,
            offset,
            match["dir"],
            official_only=official,
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await guarded(interaction, on_leaderboard_page(interaction, self))


def leaderboard_layout(
    page: LeaderboardPage, season: int, title: str, tongue: Lang = ENGLISH_LANG
) -> ui.LayoutView:
    """The leaderboard message: picture, text and the page buttons."""
    layout = ui.LayoutView(timeout=None)
    container = ui.Container[Any](accent_colour=ACCENT)
    container.add_item(
        ui.MediaGallery(discord.MediaGalleryItem(f"attachment://{LEADERBOARD_IMAGE}"))
    )
    container.add_item(ui.TextDisplay(leaderboard_text(page, title, tongue)))
    layout.add_item(container)
    previous = max(0, page.offset - PAGE_SIZE)
    following = page.offset + PAGE_SIZE
    last = following >= page.total or following > MAX_OFFSET
    row = ui.ActionRow[Any]()
    official = page.official_only
    row.add_item(
        LeaderboardPageButton(
            page.guild_id,
            season,
            page.sort,
            previous,
            "p",
            disabled=page.offset == 0,
            official_only=official,
        )
    )
    row.add_item(
        LeaderboardPageButton(
            page.guild_id, season, page.sort, following, "n", disabled=last, official_only=official
        )
    )
    layout.add_item(row)
    return layout


async def leaderboard_message(
    storage: Storage,
    guild_id: int,
    season: Season | None,
    sort: SortName,
    offset: int,
    *,
    official_only: bool = False,
    tongue: Lang = ENGLISH_LANG,
) -> tuple[ui.LayoutView, discord.File]:
    """A leaderboard page with its picture (drawn in a thread); ``official_only``: counted
    from official-rules matches alone."""
    _ = tongue.gettext
    number = season.number if season else None
    page = await storage.leaderboard(
        guild_id, number, sort, offset, PAGE_SIZE, official_only=official_only
    )
    title = f"{season_label(season, tongue)} · " + _("by {sort}").format(
        sort=sort_name(sort, tongue)
    )
    if official_only:
        title += " · " + _(OFFICIAL_ONLY)
    words = picture_words(tongue)
    png = await asyncio.to_thread(render_leaderboard, page.rows, title, sort, words=words)
    layout = leaderboard_layout(page, number or 0, title, tongue)
    return layout, discord.File(io.BytesIO(png), filename=LEADERBOARD_IMAGE)


async def on_leaderboard_page(
    interaction: discord.Interaction[UnoBot], button: LeaderboardPageButton
) -> None:
    """◀ / ▶: redraw the leaderboard message at the page in the button's id."""
    _ = user_lang(interaction).gettext
    if interaction.guild_id != button.guild_id:
        await say(interaction, _("That leaderboard belongs to another server."))
        return
    storage = storage_of(interaction)
    chosen: Season | None = None
    if button.season:
        chosen = await find_season(storage, button.guild_id, button.season)
        if chosen is None:
            text = _("There is no season {number} on this server.").format(number=button.season)
            await say(interaction, text)
            return
    tongue = await public_lang(interaction, storage)
    await interaction.response.defer()
    layout, file = await leaderboard_message(
        storage,
        button.guild_id,
        chosen,
        button.sort,
        button.offset,
        official_only=button.official_only,
        tongue=tongue,
    )
    await interaction.edit_original_response(
        view=layout, attachments=[file], allowed_mentions=NO_PINGS
    )


# ----- history -----


class HistorySelect(ui.DynamicItem[ui.Select[Any]], template=HISTORY_TEMPLATE):
    """The history's match picker; the chosen option is the match id."""

    def __init__(
        self,
        guild_id: int,
        matches: list[MatchSummary] | None = None,
        tongue: Lang = ENGLISH_LANG,
    ) -> None:
        _ = tongue.gettext
        options = [
            discord.SelectOption(label=option_label(m, tongue), value=str(m.match_id))
            for m in (matches or [])
        ] or [discord.SelectOption(label=_("No matches"), value="0")]
        super().__init__(
            ui.Select(
                custom_id=f"unohist:{guild_id}",
                placeholder=_("Open a match, round by round"),
                options=options,
            )
        )
        self.guild_id = guild_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["guild"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        data = cast(dict[str, Any], interaction.data or {})
        values = data.get("values") or [""]
        await guarded(interaction, on_history_pick(interaction, self, str(values[0])))


def history_layout(
    guild_id: int, matches: list[MatchSummary], tongue: Lang = ENGLISH_LANG
) -> ui.LayoutView:
    """The recent matches and the picker that opens one."""
    layout = ui.LayoutView(timeout=None)
    container = ui.Container[Any](accent_colour=ACCENT)
    container.add_item(ui.TextDisplay(history_text(matches, tongue)))
    layout.add_item(container)
    if matches:
        layout.add_item(ui.ActionRow[Any](HistorySelect(guild_id, matches, tongue)))
    return layout


def match_id_of(value: str) -> int | None:
    """A picked option's match id, or None for anything the select never offered."""
    if not (value.isascii() and value.isdigit()) or len(value) > 19:
        return None
    number = int(value)
    return number if 0 < number <= MATCH_ID_MAX else None


async def on_history_pick(
    interaction: discord.Interaction[UnoBot], select: HistorySelect, value: str
) -> None:
    """A match picked in the history: its round-by-round summary, privately."""
    tongue = user_lang(interaction)
    _ = tongue.gettext
    if interaction.guild_id != select.guild_id:
        await say(interaction, _("That history belongs to another server."))
        return
    match_id = match_id_of(value)
    if match_id is None:
        await say(interaction, _("Pick a match from the list."))
        return
    detail = await storage_of(interaction).match_detail(select.guild_id, match_id)
    if detail is None:
        await say(interaction, _("That match is no longer recorded."))
        return
    layout = ui.LayoutView(timeout=None)
    text = match_text(detail, tongue)
    layout.add_item(ui.Container[Any](ui.TextDisplay(text), accent_colour=ACCENT))
    if detail.rounds:
        rounds = len(detail.rounds)
        replay = ReplayRoundSelect(select.guild_id, detail.number, rounds, tongue)
        export = RoundExportSelect(select.guild_id, detail.number, rounds, tongue)
        layout.add_item(ui.ActionRow[Any](replay))
        layout.add_item(ui.ActionRow[Any](export))
        recap = RecapSelect(select.guild_id, detail.number, rounds, tongue)
        layout.add_item(ui.ActionRow[Any](recap))
        layout.add_item(ui.ActionRow[Any](AgreementButton(select.guild_id, detail.number, tongue)))
    await interaction.response.send_message(view=layout, ephemeral=True, allowed_mentions=NO_PINGS)
    let_go(layout)


# ----- forget-me -----


class ForgetButton(ui.DynamicItem[ui.Button[Any]], template=FORGET_TEMPLATE):
    """Confirm or cancel erasing one's own league records."""

    def __init__(
        self, guild_id: int, user_id: int, answer: str, tongue: Lang = ENGLISH_LANG
    ) -> None:
        yes = answer == "yes"
        super().__init__(
            ui.Button(
                label=tongue.gettext("Yes, erase my records") if yes else tongue.gettext("Cancel"),
                style=discord.ButtonStyle.danger if yes else discord.ButtonStyle.secondary,
                custom_id=f"unoforget:{guild_id}:{user_id}:{answer}",
            )
        )
        self.guild_id = guild_id
        self.user_id = user_id
        self.answer = answer

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["guild"]), int(match["user"]), match["answer"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await guarded(interaction, on_forget(interaction, self))


def forget_layout(guild_id: int, user_id: int, tongue: Lang = ENGLISH_LANG) -> ui.LayoutView:
    """The question, with its two answers."""
    _ = tongue.gettext
    layout = ui.LayoutView(timeout=None)
    container = ui.Container[Any](accent_colour=0xDD2D26)
    container.add_item(
        ui.TextDisplay(
            "### "
            + _("Erase your league records?")
            + "\n"
            + _(
                "Your standings and name are deleted on this server, and past matches name you "
                "only as “a former player”. This cannot be undone."
            )
        )
    )
    layout.add_item(container)
    layout.add_item(
        ui.ActionRow[Any](
            ForgetButton(guild_id, user_id, "yes", tongue),
            ForgetButton(guild_id, user_id, "no", tongue),
        )
    )
    return layout


async def on_forget(interaction: discord.Interaction[UnoBot], button: ForgetButton) -> None:
    """The forget-me confirmation: only its own member may answer it."""
    tongue = user_lang(interaction)
    if interaction.user.id != button.user_id or interaction.guild_id != button.guild_id:
        await say(interaction, tongue.gettext("Only the member who asked can confirm this."))
        return
    if button.answer != "yes":
        text = tongue.gettext("Nothing was erased.")
    else:
        changed = await storage_of(interaction).forget_user(button.guild_id, button.user_id)
        for forget in interaction.client.on_forget:  # e.g. the running tournaments
            try:
                await forget(button.guild_id, button.user_id)
            except Exception:  # the league's own records are erased all the same
                log.exception("a forget-me hook failed")
        text = tongue.ngettext(
            "Done: your league records are erased ({count} row changed).",
            "Done: your league records are erased ({count} rows changed).",
            changed,
        ).format(count=changed)
    layout = ui.LayoutView(timeout=None)
    layout.add_item(ui.Container[Any](ui.TextDisplay(text), accent_colour=ACCENT))
    await interaction.response.edit_message(view=layout, allowed_mentions=NO_PINGS)


LEAGUE_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (
    LeaderboardPageButton,
    HistorySelect,
    ForgetButton,
    RoundExportSelect,
    *REPLAY_ITEMS,
    AgreementButton,
    RecapSelect,
)
