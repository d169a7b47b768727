"""/uno profile [member]: a player's card (rating over time, wins per edition, streaks,
achievements), drawn with Pillow on a worker thread, with its description for screen readers."""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any

import discord
from discord import ui

from bot.engine.achievements import ACHIEVEMENTS, Tally, earned, tally
from bot.engine.record import RecordError, RoundRecord
from bot.i18n import ENGLISH_LANG, N_, Lang
from bot.i18n.game_words import edition_short
from bot.render.profile import EditionLine, ProfileView, render_profile
from bot.storage.models import EDITIONS, PlayerHistory
from bot.storage.rating import display_rating
from bot.tables.names import safe_name
from cogs.ui.table import alt_text

from .presenters import ACCENT

log = logging.getLogger(__name__)

PROFILE_IMAGE = "profile.png"
CHART_POINTS = 60  # the newest rated matches the chart shows
TOURNAMENTS_COUNTED = 200  # a player's results in the server's newest finished tournaments
ACHIEVEMENT_NAMES = {
    "first_win": N_("First win"),
    "tournament_podium": N_("Tournament podium"),
    "every_edition": N_("A win in every edition"),
    "streak_5": N_("5 wins in a row"),
    "catches_10": N_("10 catches"),
    "stack_12": N_("Took a stack of 12"),
    "matches_50": N_("50 matches"),
}


def read_rounds(history: PlayerHistory) -> list[tuple[int, RoundRecord]]:
    """The player's recorded rounds that can be read (a damaged one is left out)."""
    rounds: list[tuple[int, RoundRecord]] = []
    for seat, text in history.rounds:
        try:
            rounds.append((seat, RoundRecord.from_text(text)))
        except RecordError:
            log.warning("unreadable round record in a profile")
    return rounds


def profile_tally(history: PlayerHistory, podiums: int = 0) -> Tally:
    """The player's tally (on a worker thread: it replays their rounds)."""
    return tally([(e, w) for e, w, _ in history.results], read_rounds(history), podiums)


def profile_view(history: PlayerHistory, name: str, t: Tally, tongue: Lang) -> ProfileView:
    """The card's contents in ``tongue``."""
    _ = tongue.gettext
    ratings = [display_rating(r) for _, _, r in history.results if r is not None]
    rating = ratings[-1] if ratings else display_rating(0.0)
    matches = tongue.ngettext("{count} match", "{count} matches", t.matches).format(count=t.matches)
    wins = tongue.ngettext("{count} win", "{count} wins", t.wins).format(count=t.wins)
    title = " · ".join([_("Rating {rating}").format(rating=rating), matches, wins])
    lines = []
    for edition in EDITIONS:
        played = [w for e, w, _ in history.results if e == edition]
        lines.append(EditionLine(edition, edition_short(edition, tongue), len(played), sum(played)))
    got = earned(t)
    return ProfileView(
        name=name,
        title=title,
        chart_title=_("Rating after each rated match"),
        history=tuple(ratings[-CHART_POINTS:]),
        no_history=_("Not enough rated matches for a chart yet"),
        editions_title=_("Wins per edition"),
        editions=tuple(lines),
        streaks=_("Win streak: {current} · best {best}").format(
            current=t.current_streak, best=t.best_streak
        ),
        achievements_title=_("Achievements"),
        achievements=tuple((_(ACHIEVEMENT_NAMES[key]), got[key]) for key in ACHIEVEMENTS),
    )


def profile_alt(view: ProfileView, tongue: Lang = ENGLISH_LANG) -> str:
    """The card in words."""
    _ = tongue.gettext
    editions = ", ".join(f"{e.label} {e.wins}/{e.matches}" for e in view.editions)
    have = [label for label, got in view.achievements if got]
    text = _(
        "Profile of {name}. {title}. Wins per edition: {editions}. {streaks}. "
        "Achievements: {achievements}."
    ).format(
        name=view.name,
        title=view.title,
        editions=editions,
        streaks=view.streaks,
        achievements=", ".join(have) or _("none yet"),
    )
    return alt_text(text)


async def profile_message(
    history: PlayerHistory, name: str, tongue: Lang, podiums: int = 0
) -> tuple[ui.LayoutView, discord.File]:
    """The profile message and its picture (tally and drawing on worker threads); ``podiums``:
    the server tournaments the player ended on the podium."""
    t = await asyncio.to_thread(profile_tally, history, podiums)
    view = profile_view(history, name, t, tongue)
    png = await asyncio.to_thread(render_profile, view)
    layout = ui.LayoutView(timeout=None)
    container = ui.Container[Any](accent_colour=ACCENT)
    container.add_item(ui.TextDisplay(f"### 🪪 {safe_name(name)}\n{view.title}\n{view.streaks}"))
    item = discord.MediaGalleryItem(
        f"attachment://{PROFILE_IMAGE}", description=profile_alt(view, tongue)
    )
    container.add_item(ui.MediaGallery(item))
    layout.add_item(container)
    return layout, discord.File(io.BytesIO(png), filename=PROFILE_IMAGE)
