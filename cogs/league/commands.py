"""The league's slash commands (leaderboard, stats, history, seasons, export, forget-me).

They are plain functions: the ``cogs.league`` extension adds them to the /uno group, and the
Manage Server ones (season new, export) to /uno-admin.
"""

from __future__ import annotations

import io
import json
import logging
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands, ui

from bot.i18n import ENGLISH_LANG, N_, Lang
from bot.i18n.game_words import edition_short
from bot.storage import StorageError
from bot.storage.models import Season
from bot.tables.names import safe_name
from bot.tournament.model import Tournament, record_of
from cogs.group import Subcommand
from cogs.lang import user_lang
from cogs.replies import NO_PINGS, let_go, link_commands, say

from .common import DB_DOWN, public_lang, storage_of
from .export import export_csv
from .items import (
    OFFICIAL_ONLY,
    SORTS,
    SortName,
    find_season,
    forget_layout,
    history_layout,
    leaderboard_message,
)
from .presenters import ACCENT, points, provisional_note, rating_text, season_label
from .profile import TOURNAMENTS_COUNTED, profile_message
from .tournaments_export import tournament_documents

if TYPE_CHECKING:
    from collections.abc import Awaitable

    from bot.client import UnoBot

    Itx = discord.Interaction[UnoBot]

log = logging.getLogger(__name__)

HISTORY_SIZE = 10
NEEDS_MANAGE = N_("You need the Manage Server permission for that.")


async def run(interaction: Itx, work: Awaitable[None]) -> None:
    """Run a league command; storage trouble gets a polite private answer."""
    try:
        await work
    except StorageError:
        log.warning("league storage unavailable", exc_info=True)
        await say(interaction, user_lang(interaction).gettext(DB_DOWN))


def may_manage(interaction: Itx) -> bool:
    return interaction.guild_id is not None and interaction.permissions.manage_guild


RULES_CHOICES = [
    app_commands.Choice(name="All matches", value="all"),
    app_commands.Choice(name="Official rules only", value="official"),
]
RULES_HELP = "All matches, or only those played by the official rules (no house rules)"


@app_commands.command(name="leaderboard", description="The server's UNO standings")
@app_commands.describe(
    scope="This season or all time",
    sort="What to rank by",
    season="A season (default: the current one)",
    rules=RULES_HELP,
)
@app_commands.choices(
    scope=[
        app_commands.Choice(name="This season", value="season"),
        app_commands.Choice(name="All time", value="all-time"),
    ],
    sort=[
        app_commands.Choice(name="Rating", value="rating"),
        app_commands.Choice(name="Wins", value="wins"),
        app_commands.Choice(name="Points", value="points"),
    ],
    rules=RULES_CHOICES,
)
async def leaderboard(
    interaction: Itx,
    scope: str = "season",
    sort: str = "rating",
    season: app_commands.Range[int, 1, 999999] | None = None,
    rules: str = "all",
) -> None:
    await run(interaction, _leaderboard(interaction, scope, sort, season, rules == "official"))


@leaderboard.autocomplete("season")
async def leaderboard_seasons(interaction: Itx, typed: int | str) -> list[app_commands.Choice[int]]:
    """The server's seasons, newest first, those whose number starts with what was typed."""
    if interaction.guild_id is None:
        return []
    try:
        seasons = await storage_of(interaction).list_seasons(interaction.guild_id)
    except StorageError:
        return []
    typed = str(typed or "").strip()
    tongue = user_lang(interaction)
    return [
        app_commands.Choice(name=season_choice(s, tongue), value=s.number)
        for s in sorted(seasons, key=lambda s: -s.number)
        if str(s.number).startswith(typed)
    ][:25]


def season_choice(season: Season, tongue: Lang = ENGLISH_LANG) -> str:
    """A season as an autocomplete choice (plain text: Discord shows it as written)."""
    _ = tongue.gettext
    name = _("Season {number}").format(number=season.number)
    name += f" · {season.name}" if season.name else ""
    current = " " + _("(current)") if season.ended_at is None else ""
    return name[: 100 - len(current)] + current


async def _leaderboard(
    interaction: Itx, scope: str, sort: str, number: int | None, official_only: bool
) -> None:
    assert interaction.guild_id is not None
    _ = user_lang(interaction).gettext
    if sort not in SORTS:
        await say(interaction, _("Sort by rating, wins or points."))
        return
    storage = storage_of(interaction)
    chosen = None
    if scope != "all-time" or number is not None:
        chosen = await find_season(storage, interaction.guild_id, number)
        if chosen is None:
            await say(
                interaction, _("There is no season {number} on this server.").format(number=number)
            )
            return
    tongue = await public_lang(interaction, storage)
    await interaction.response.defer(thinking=True)
    layout, file = await leaderboard_message(
        storage,
        interaction.guild_id,
        chosen,
        cast(SortName, sort),
        0,
        official_only=official_only,
        tongue=tongue,
    )
    await interaction.followup.send(view=layout, file=file, allowed_mentions=NO_PINGS)


@app_commands.command(name="stats", description="A player's league record")
@app_commands.describe(member="Whose record (default: yours)", rules=RULES_HELP)
@app_commands.choices(rules=RULES_CHOICES)
async def stats(interaction: Itx, member: discord.Member | None = None, rules: str = "all") -> None:
    await run(interaction, _stats(interaction, member, rules == "official"))


async def _stats(interaction: Itx, member: discord.Member | None, official_only: bool) -> None:
    assert interaction.guild_id is not None
    tongue = user_lang(interaction)  # a private answer to who asked: their language
    _ = tongue.gettext
    who: discord.abc.User = member or interaction.user
    storage = storage_of(interaction)
    guild = interaction.guild_id
    overall = await storage.player_stats(guild, who.id, None, official_only=official_only)
    if overall is None:
        if who.id == interaction.user.id:
            text = (
                _("You have not finished an official-rules match on this server yet.")
                if official_only
                else _("You have not finished a league match on this server yet.")
            )
        else:
            text = (
                _("{name} has not finished an official-rules match on this server yet.")
                if official_only
                else _("{name} has not finished a league match on this server yet.")
            ).format(name=safe_name(who.display_name))
        await say(interaction, text)
        return
    current = await storage.current_season(guild)
    seasonal = await storage.player_stats(
        guild, who.id, current.number, official_only=official_only
    )
    name = safe_name(overall.name or who.display_name)
    favourite = (
        edition_short(overall.favourite_edition, tongue) if overall.favourite_edition else "—"
    )
    lines = [
        f"### 📊 {name}" + (" · " + _(OFFICIAL_ONLY) if official_only else ""),
        _("**All time** · rank #{rank} · rating **{rating}**").format(
            rank=overall.rank, rating=rating_text(overall.display_rating, overall.provisional)
        ),
        _("Matches {matches} · wins {wins} · win rate {rate}").format(
            matches=overall.matches, wins=overall.wins, rate=tongue.percent(overall.win_rate)
        ),
        _("Points {points} · rounds won {rounds} · best round {best}").format(
            points=overall.points, rounds=overall.rounds_won, best=overall.best_round
        ),
        _("Favourite edition: {edition}").format(edition=favourite),
    ]
    if overall.team_matches:
        lines.insert(
            3,
            _("Team matches {matches} · team wins {wins}").format(
                matches=overall.team_matches, wins=overall.team_wins
            ),
        )
    season = season_label(current, tongue)
    if seasonal is not None:
        lines.append(
            f"**{season}** · "
            + _("rank #{rank} · rating {rating} · {wins}/{matches} wins · {points}").format(
                rank=seasonal.rank,
                rating=rating_text(seasonal.display_rating, seasonal.provisional),
                wins=seasonal.wins,
                matches=seasonal.matches,
                points=points(seasonal.points, tongue),
            )
        )
    else:
        lines.append(f"**{season}** · " + _("no matches yet"))
    finished = await storage.finished_tournaments(guild, TOURNAMENTS_COUNTED)
    cups = record_of((Tournament.from_dict(t) for t in finished), who.id)
    if cups.played:
        lines.append(
            "🏆 "
            + _("Tournaments {played} · on the podium {podiums} · won {won}").format(
                played=cups.played, podiums=cups.podiums, won=cups.won
            )
        )
    if overall.provisional or (seasonal is not None and seasonal.provisional):
        lines.append(provisional_note(tongue))
    layout = ui.LayoutView(timeout=None)
    layout.add_item(ui.Container[Any](ui.TextDisplay("\n".join(lines)), accent_colour=ACCENT))
    await interaction.response.send_message(view=layout, allowed_mentions=NO_PINGS)


@app_commands.command(name="profile", description="A player's card: rating, wins, achievements")
@app_commands.describe(member="Whose card (default: yours)")
async def profile(interaction: Itx, member: discord.Member | None = None) -> None:
    await run(interaction, _profile(interaction, member))


async def _profile(interaction: Itx, member: discord.Member | None) -> None:
    assert interaction.guild_id is not None
    tongue = user_lang(interaction)
    _ = tongue.gettext
    who: discord.abc.User = member or interaction.user
    history = await storage_of(interaction).player_history(interaction.guild_id, who.id)
    if history is None:
        if who.id == interaction.user.id:
            text = _("You have not finished a league match on this server yet.")
        else:
            text = _("{name} has not finished a league match on this server yet.").format(
                name=safe_name(who.display_name)
            )
        await say(interaction, text)
        return
    await interaction.response.defer(thinking=True)
    finished = await storage_of(interaction).finished_tournaments(
        interaction.guild_id, TOURNAMENTS_COUNTED
    )
    cups = record_of((Tournament.from_dict(t) for t in finished), who.id)
    name = history.name or who.display_name
    layout, file = await profile_message(history, name, tongue, cups.podiums)
    await interaction.followup.send(view=layout, file=file, allowed_mentions=NO_PINGS)


@app_commands.command(name="history", description="The server's recent matches")
async def history(interaction: Itx) -> None:
    await run(interaction, _history(interaction))


async def _history(interaction: Itx) -> None:
    assert interaction.guild_id is not None
    storage = storage_of(interaction)
    matches = await storage.recent_matches(interaction.guild_id, HISTORY_SIZE)
    layout = history_layout(interaction.guild_id, matches, await public_lang(interaction, storage))
    await interaction.response.send_message(view=layout, allowed_mentions=NO_PINGS)


season_group = app_commands.Group(name="season", description="League seasons")


@season_group.command(name="new", description="End this season and start the next")
@app_commands.describe(name="A name for the new season")
async def season_new(interaction: Itx, name: app_commands.Range[str, 1, 50] | None = None) -> None:
    await run(interaction, _season_new(interaction, name))


async def _season_new(interaction: Itx, name: str | None) -> None:
    assert interaction.guild_id is not None
    if not may_manage(interaction):
        await say(interaction, user_lang(interaction).gettext(NEEDS_MANAGE))
        return
    name = name.strip() if name else None
    storage = storage_of(interaction)
    season = await storage.start_season(interaction.guild_id, name or None)
    tongue = await public_lang(interaction, storage)  # an announcement to the server
    text = "🎉 " + tongue.gettext(
        "**{season}** has begun. Standings start fresh; season {previous} stays readable with "
        "{command}."
    ).format(
        season=season_label(season, tongue),
        previous=season.number - 1,
        command=f"/uno leaderboard season:{season.number - 1}",
    )
    await interaction.response.send_message(
        link_commands(interaction.client, text, interaction.guild_id), allowed_mentions=NO_PINGS
    )


@app_commands.command(name="export", description="Download this server's league data")
@app_commands.describe(format="JSON (everything) or CSV (matches and players)")
@app_commands.choices(
    format=[
        app_commands.Choice(name="JSON", value="json"),
        app_commands.Choice(name="CSV", value="csv"),
    ]
)
async def export(interaction: Itx, format: str = "json") -> None:
    await run(interaction, _export(interaction, format))


async def _export(interaction: Itx, fmt: str) -> None:
    assert interaction.guild_id is not None
    tongue = user_lang(interaction)
    if not may_manage(interaction):
        await say(interaction, tongue.gettext(NEEDS_MANAGE))
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    data = await storage_of(interaction).export_guild(interaction.guild_id)
    known = {player["user_id"] for player in data["players"]}
    data["tournaments"] = tournament_documents(data.get("tournaments", []), known)
    csv_wanted = fmt == "csv"
    body = export_csv(data) if csv_wanted else json.dumps(data, indent=2, ensure_ascii=False)
    filename = f"uno-{interaction.guild_id}.{'csv' if csv_wanted else 'json'}"
    file = discord.File(io.BytesIO(body.encode("utf-8")), filename=filename)
    count = len(data.get("matches", []))
    await interaction.followup.send(
        tongue.ngettext(
            "This server's league data: {count} match.",
            "This server's league data: {count} matches.",
            count,
        ).format(count=count),
        file=file,
        ephemeral=True,
        allowed_mentions=NO_PINGS,
    )


@app_commands.command(name="forget-me", description="Erase your league records on this server")
async def forget_me(interaction: Itx) -> None:
    assert interaction.guild_id is not None
    layout = forget_layout(interaction.guild_id, interaction.user.id, user_lang(interaction))
    await interaction.response.send_message(view=layout, ephemeral=True, allowed_mentions=NO_PINGS)
    let_go(layout)


LEAGUE_COMMANDS: tuple[Subcommand, ...] = (
    leaderboard,
    stats,
    profile,
    history,
    forget_me,
)
# Under /uno-admin: Discord shows them to server managers only.
LEAGUE_ADMIN_COMMANDS: tuple[Subcommand, ...] = (season_group, export)
