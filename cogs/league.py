"""League commands (leaderboard, stats, history, seasons, export, forget-me) as a UnoCog mixin."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import logging
import re
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal, Self, cast

import discord
from discord import app_commands, ui

from bot.render.leaderboard import render_leaderboard
from bot.storage import Storage, StorageError
from bot.storage.models import LeaderboardPage, MatchDetail, MatchSummary, Season
from cogs.errors import SORRY, reply_privately
from cogs.mixin import CommandMixin

if TYPE_CHECKING:
    from bot.client import UnoBot

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
PAGE_SIZE = 10
HISTORY_SIZE = 10
LEADERBOARD_IMAGE = "leaderboard.png"
ACCENT = 0xF7C600
DB_DOWN = "The league database is not available right now; please try again."
NEEDS_MANAGE = "You need the Manage Server permission for that."
SORTS = ("rating", "wins", "points")
SortName = Literal["rating", "wins", "points"]
EDITION_NAMES = {"classic": "Classic", "sonic": "Sonic", "mario": "Super Mario"}
TEXT_LIMIT = 3500  # a V2 message allows 4000 characters of text in all


def clean(name: str) -> str:
    """A user-supplied name safe to show: no markdown, no mentions, never empty."""
    # A zero-width space after every @ keeps @everyone and <@id> from ever forming a mention.
    text = discord.utils.escape_markdown(name.strip()).replace("@", "@\u200b")
    return text or "Player"


def _when(timestamp: float) -> str:
    return f"<t:{int(timestamp)}:R>"


def _duration(seconds: float) -> str:
    minutes = max(0, round(seconds / 60))
    return f"{minutes // 60} h {minutes % 60} min" if minutes >= 60 else f"{minutes} min"


def _season_label(season: Season | None) -> str:
    if season is None:
        return "All time"
    return f"Season {season.number}" + (f" · {clean(season.name)}" if season.name else "")


# ----- custom ids (kept apart from the game's "uno:" ids) -----

LEADERBOARD_TEMPLATE = (
    r"unolb:(?P<guild>[0-9]{1,20}):(?P<season>[0-9]{1,6}):(?P<sort>rating|wins|points)"
    r":(?P<offset>[0-9]{1,7}):(?P<dir>[pn])"
)
HISTORY_TEMPLATE = r"unohist:(?P<guild>[0-9]{1,20})"
FORGET_TEMPLATE = r"unoforget:(?P<guild>[0-9]{1,20}):(?P<user>[0-9]{1,20}):(?P<answer>yes|no)"


def league(interaction: discord.Interaction[Any]) -> LeagueCommands:
    """The cog that carries the league commands (the Uno cog, with this mixin)."""
    return cast(LeagueCommands, interaction.client.uno_handler)


async def _guarded(interaction: discord.Interaction[Any], work: Awaitable[None]) -> None:
    """Run a league handler: storage trouble and surprises end in a polite private reply."""
    try:
        await work
    except StorageError:
        log.warning("league storage unavailable", exc_info=True)
        await reply_privately(interaction, DB_DOWN)
    except Exception:
        log.exception("league handler failed")
        await reply_privately(interaction, SORRY)


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
    ) -> None:
        super().__init__(
            ui.Button(
                emoji="◀" if direction == "p" else "▶",
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"unolb:{guild_id}:{season}:{sort}:{offset}:{direction}",
            )
        )
        self.guild_id = guild_id
        self.season = season
        self.sort: SortName = sort
        self.offset = offset

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        sort = cast(SortName, match["sort"])
        return cls(
            int(match["guild"]), int(match["season"]), sort, int(match["offset"]), match["dir"]
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _guarded(interaction, league(interaction).on_leaderboard_page(interaction, self))


class HistorySelect(ui.DynamicItem[ui.Select[Any]], template=HISTORY_TEMPLATE):
    """The history's match picker; the chosen option is the match id."""

    def __init__(self, guild_id: int, matches: list[MatchSummary] | None = None) -> None:
        options = [
            discord.SelectOption(label=_option_label(m), value=str(m.match_id))
            for m in (matches or [])
        ] or [discord.SelectOption(label="No matches", value="0")]
        super().__init__(
            ui.Select(
                custom_id=f"unohist:{guild_id}",
                placeholder="Open a match, round by round",
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
        values = data.get("values") or ["0"]
        await _guarded(
            interaction, league(interaction).on_history_pick(interaction, self, int(values[0]))
        )


class ForgetButton(ui.DynamicItem[ui.Button[Any]], template=FORGET_TEMPLATE):
    """Confirm or cancel erasing one's own league records."""

    def __init__(self, guild_id: int, user_id: int, answer: str) -> None:
        yes = answer == "yes"
        super().__init__(
            ui.Button(
                label="Yes, erase my records" if yes else "Cancel",
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
        await _guarded(interaction, league(interaction).on_forget(interaction, self))


LEAGUE_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (
    LeaderboardPageButton,
    HistorySelect,
    ForgetButton,
)


def _option_label(match: MatchSummary) -> str:
    when = datetime.fromtimestamp(match.finished_at, UTC).strftime("%Y-%m-%d %H:%M")
    winners = ", ".join(w.name for w in match.winners) or "no winner"
    edition = EDITION_NAMES.get(match.edition, match.edition)
    return f"#{match.match_id} · {edition} · {when} · {winners}"[:100]


# ----- presenters -----


def leaderboard_text(page: LeaderboardPage, title: str) -> str:
    """The page as text, for screen readers and search; names escaped."""
    lines = [f"### 🏆 {title}"]
    if not page.rows:
        lines.append("No ranked players yet: finish a match to appear here.")
    for row in page.rows:
        lines.append(
            f"`{row.rank:>3}` **{clean(row.name)}** · rating {row.rating:.1f} · "
            f"{row.wins}/{row.matches} wins ({row.win_rate:.0%}) · {row.points} pts"
        )
    if page.total:
        last = page.offset + len(page.rows)
        lines.append(f"-# Players {page.offset + 1}–{last} of {page.total} · sorted by {page.sort}")
    return "\n".join(lines)


def leaderboard_layout(page: LeaderboardPage, season: int, title: str) -> ui.LayoutView:
    """The leaderboard message: picture, text and the page buttons."""
    layout = ui.LayoutView(timeout=None)
    container = ui.Container[Any](accent_colour=ACCENT)
    container.add_item(
        ui.MediaGallery(discord.MediaGalleryItem(f"attachment://{LEADERBOARD_IMAGE}"))
    )
    container.add_item(ui.TextDisplay(leaderboard_text(page, title)))
    layout.add_item(container)
    previous = max(0, page.offset - PAGE_SIZE)
    following = page.offset + PAGE_SIZE
    row = ui.ActionRow[Any]()
    row.add_item(
        LeaderboardPageButton(
            page.guild_id, season, page.sort, previous, "p", disabled=page.offset == 0
        )
    )
    row.add_item(
        LeaderboardPageButton(
            page.guild_id, season, page.sort, following, "n", disabled=following >= page.total
        )
    )
    layout.add_item(row)
    return layout


def history_layout(guild_id: int, matches: list[MatchSummary]) -> ui.LayoutView:
    """The recent matches and the picker that opens one."""
    layout = ui.LayoutView(timeout=None)
    container = ui.Container[Any](accent_colour=ACCENT)
    lines = ["### 📜 Recent matches"]
    if not matches:
        lines.append("No finished matches yet.")
    for m in matches:
        winners = ", ".join(f"**{clean(w.name)}**" for w in m.winners) or "nobody"
        lines.append(
            f"`#{m.match_id}` {EDITION_NAMES.get(m.edition, m.edition)} · {m.players} players · "
            f"{m.rounds} rounds · won by {winners} · {_when(m.finished_at)}"
        )
    container.add_item(ui.TextDisplay("\n".join(lines)[:TEXT_LIMIT]))
    layout.add_item(container)
    if matches:
        row = ui.ActionRow[Any]()
        row.add_item(HistorySelect(guild_id, matches))
        layout.add_item(row)
    return layout


def match_text(detail: MatchDetail) -> str:
    """A match round by round: who went out, points added and running totals."""
    names = {p.seat: clean(p.name) for p in detail.players}
    target = f" to {detail.target}" if detail.target else " (single round)"
    lines = [
        f"### Match #{detail.match_id} · {EDITION_NAMES.get(detail.edition, detail.edition)}",
        f"{detail.scoring.title()} scoring{target} · season {detail.season} · "
        f"{_duration(detail.duration)} · {_when(detail.finished_at)}",
    ]
    for p in sorted(detail.players, key=lambda p: (p.place, p.seat)):
        star = "🏆 " if p.winner else ""
        change = ""
        if p.rating_before is not None and p.rating_after is not None:
            change = f" · rating {p.rating_before:.1f} → {p.rating_after:.1f}"
        lines.append(f"{p.place}. {star}**{names[p.seat]}** · {p.points} pts{change}")
    lines.append("**Rounds**")
    for r in detail.rounds:
        out = names.get(r.winner_seat, "?") if r.winner_seat is not None else "nobody"
        gains = ", ".join(
            f"{names.get(seat, '?')} +{pts}" for seat, pts in enumerate(r.points) if pts
        )
        totals = " · ".join(f"{names.get(seat, '?')} {t}" for seat, t in enumerate(r.totals))
        lines.append(
            f"{r.number}. {out} went out" + (f" ({gains})" if gains else "") + f" — {totals}"
        )
    text = "\n".join(lines)
    if len(text) > TEXT_LIMIT:
        text = text[: TEXT_LIMIT - 20].rsplit("\n", 1)[0] + "\n… (more rounds)"
    return text


def _csv_cell(value: Any) -> Any:
    # A name starting with = + - @ would run as a formula when the file is opened in a sheet.
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def export_csv(data: dict[str, Any]) -> str:
    """One line per seat of every match, with the match's own fields first."""
    out = io.StringIO()
    writer = csv.writer(out)
    match_keys = ["match_id", "match_uid", "season", "edition", "scoring", "target"]
    match_keys += ["started_at", "finished_at"]
    seat_keys = ["seat", "user_id", "name", "points", "place", "winner", "computer"]
    seat_keys += ["rating_before", "rating_after"]
    writer.writerow(match_keys + seat_keys)
    for match in data.get("matches", []):
        for seat in match.get("players", []):
            row = [match.get(k) for k in match_keys] + [seat.get(k) for k in seat_keys]
            writer.writerow([_csv_cell(v) for v in row])
    return out.getvalue()


class LeagueCommands(CommandMixin):
    """The league's slash commands; mixed into UnoCog so they sit under /uno."""

    bot: UnoBot
    say: Callable[[discord.Interaction[Any], str], Awaitable[None]]

    # ----- helpers -----

    @property
    def league_storage(self) -> Storage:
        """The bot's storage; StorageError when it is not open."""
        storage = self.bot.storage
        if storage is None:
            raise StorageError("storage is not open")
        return storage

    async def _run(self, interaction: discord.Interaction[Any], work: Awaitable[None]) -> None:
        try:
            await work
        except StorageError:
            log.warning("league storage unavailable", exc_info=True)
            await self.say(interaction, DB_DOWN)

    async def _season(self, guild_id: int, number: int | None) -> Season | None:
        """The season asked for (None: the current one), or None if it does not exist."""
        if number is None:
            return await self.league_storage.current_season(guild_id)
        seasons = await self.league_storage.list_seasons(guild_id)
        return next((s for s in seasons if s.number == number), None)

    async def _leaderboard_message(
        self, guild_id: int, season: Season | None, sort: SortName, offset: int
    ) -> tuple[ui.LayoutView, discord.File]:
        number = season.number if season else None
        page = await self.league_storage.leaderboard(guild_id, number, sort, offset, PAGE_SIZE)
        title = f"{_season_label(season)} · by {sort}"
        png = await asyncio.to_thread(render_leaderboard, page.rows, title, sort)
        layout = leaderboard_layout(page, number or 0, title)
        return layout, discord.File(io.BytesIO(png), filename=LEADERBOARD_IMAGE)

    @staticmethod
    def _may_manage(interaction: discord.Interaction[Any]) -> bool:
        return interaction.guild_id is not None and interaction.permissions.manage_guild

    # ----- commands -----

    @app_commands.command(name="leaderboard", description="The server's UNO standings")
    @app_commands.describe(
        scope="This season or all time",
        sort="What to rank by",
        season="An earlier season's number (default: the current season)",
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
    )
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        scope: str = "season",
        sort: str = "rating",
        season: app_commands.Range[int, 1, 999999] | None = None,
    ) -> None:
        await self._run(interaction, self._leaderboard(interaction, scope, sort, season))

    async def _leaderboard(
        self, interaction: discord.Interaction[Any], scope: str, sort: str, number: int | None
    ) -> None:
        assert interaction.guild_id is not None
        if sort not in SORTS:
            await self.say(interaction, "Sort by rating, wins or points.")
            return
        chosen: Season | None = None
        if scope != "all-time" or number is not None:
            chosen = await self._season(interaction.guild_id, number)
            if chosen is None:
                await self.say(interaction, f"There is no season {number} on this server.")
                return
        await interaction.response.defer(thinking=True)
        layout, file = await self._leaderboard_message(
            interaction.guild_id, chosen, cast(SortName, sort), 0
        )
        await interaction.followup.send(view=layout, file=file, allowed_mentions=NO_PINGS)

    async def on_leaderboard_page(
        self, interaction: discord.Interaction[Any], button: LeaderboardPageButton
    ) -> None:
        """◀ / ▶: redraw the leaderboard message at the page in the button's id."""
        if interaction.guild_id != button.guild_id:
            await self.say(interaction, "That leaderboard belongs to another server.")
            return
        chosen: Season | None = None
        if button.season:
            chosen = await self._season(button.guild_id, button.season)
        await interaction.response.defer()
        layout, file = await self._leaderboard_message(
            button.guild_id, chosen, button.sort, button.offset
        )
        await interaction.edit_original_response(
            view=layout, attachments=[file], allowed_mentions=NO_PINGS
        )

    @app_commands.command(name="stats", description="A player's league record")
    @app_commands.describe(member="Whose record (default: yours)")
    async def stats(
        self, interaction: discord.Interaction[Any], member: discord.Member | None = None
    ) -> None:
        await self._run(interaction, self._stats(interaction, member))

    async def _stats(
        self, interaction: discord.Interaction[Any], member: discord.Member | None
    ) -> None:
        assert interaction.guild_id is not None
        who: discord.abc.User = member or interaction.user
        storage = self.league_storage
        overall = await storage.player_stats(interaction.guild_id, who.id, None)
        if overall is None:
            subject = (
                "You have" if who.id == interaction.user.id else f"{clean(who.display_name)} has"
            )
            await self.say(
                interaction, f"{subject} not finished a league match on this server yet."
            )
            return
        current = await storage.current_season(interaction.guild_id)
        seasonal = await storage.player_stats(interaction.guild_id, who.id, current.number)
        name = clean(overall.name or who.display_name)
        favourite = EDITION_NAMES.get(overall.favourite_edition or "", "—")
        lines = [
            f"### 📊 {name}",
            f"**All time** · rank #{overall.rank} · rating **{overall.rating:.1f}**",
            f"Matches {overall.matches} · wins {overall.wins} · win rate {overall.win_rate:.0%}",
            f"Points {overall.points} · rounds won {overall.rounds_won} · "
            f"best round {overall.best_round}",
            f"Favourite edition: {favourite}",
        ]
        if seasonal is not None:
            lines.append(
                f"**{_season_label(current)}** · rank #{seasonal.rank} · rating "
                f"{seasonal.rating:.1f} · {seasonal.wins}/{seasonal.matches} wins · "
                f"{seasonal.points} pts"
            )
        else:
            lines.append(f"**{_season_label(current)}** · no matches yet")
        layout = ui.LayoutView(timeout=None)
        container = ui.Container[Any](accent_colour=ACCENT)
        container.add_item(ui.TextDisplay("\n".join(lines)))
        layout.add_item(container)
        await interaction.response.send_message(view=layout, allowed_mentions=NO_PINGS)

    @app_commands.command(name="history", description="The server's recent matches")
    async def history(self, interaction: discord.Interaction[Any]) -> None:
        await self._run(interaction, self._history(interaction))

    async def _history(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        matches = await self.league_storage.recent_matches(interaction.guild_id, HISTORY_SIZE)
        layout = history_layout(interaction.guild_id, matches)
        await interaction.response.send_message(view=layout, allowed_mentions=NO_PINGS)

    async def on_history_pick(
        self, interaction: discord.Interaction[Any], select: HistorySelect, match_id: int
    ) -> None:
        """A match picked in the history: its round-by-round summary, privately."""
        if interaction.guild_id != select.guild_id:
            await self.say(interaction, "That history belongs to another server.")
            return
        detail = await self.league_storage.match_detail(select.guild_id, match_id)
        if detail is None:
            await self.say(interaction, "That match is no longer recorded.")
            return
        layout = ui.LayoutView(timeout=None)
        container = ui.Container[Any](accent_colour=ACCENT)
        container.add_item(ui.TextDisplay(match_text(detail)))
        layout.add_item(container)
        await interaction.response.send_message(
            view=layout, ephemeral=True, allowed_mentions=NO_PINGS
        )

    season_group = app_commands.Group(name="season", description="League seasons")

    @season_group.command(name="new", description="End this season and start the next")
    @app_commands.describe(name="A name for the new season")
    @app_commands.default_permissions(manage_guild=True)
    async def season_new(
        self,
        interaction: discord.Interaction[Any],
        name: app_commands.Range[str, 1, 50] | None = None,
    ) -> None:
        await self._run(interaction, self._season_new(interaction, name))

    async def _season_new(self, interaction: discord.Interaction[Any], name: str | None) -> None:
        assert interaction.guild_id is not None
        if not self._may_manage(interaction):
            await self.say(interaction, NEEDS_MANAGE)
            return
        name = name.strip() if name else None
        season = await self.league_storage.start_season(interaction.guild_id, name or None)
        text = (
            f"🎉 **{_season_label(season)}** has begun. Standings start fresh; "
            f"season {season.number - 1} stays readable with "
            f"`/uno leaderboard season:{season.number - 1}`."
        )
        await interaction.response.send_message(text, allowed_mentions=NO_PINGS)

    @app_commands.command(name="export", description="Download this server's league data")
    @app_commands.describe(format="JSON (everything) or CSV (matches and players)")
    @app_commands.choices(
        format=[
            app_commands.Choice(name="JSON", value="json"),
            app_commands.Choice(name="CSV", value="csv"),
        ]
    )
    @app_commands.default_permissions(manage_guild=True)
    async def export(self, interaction: discord.Interaction[Any], format: str = "json") -> None:
        await self._run(interaction, self._export(interaction, format))

    async def _export(self, interaction: discord.Interaction[Any], fmt: str) -> None:
        assert interaction.guild_id is not None
        if not self._may_manage(interaction):
            await self.say(interaction, NEEDS_MANAGE)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        data = await self.league_storage.export_guild(interaction.guild_id)
        csv_wanted = fmt == "csv"
        body = export_csv(data) if csv_wanted else json.dumps(data, indent=2, ensure_ascii=False)
        filename = f"uno-{interaction.guild_id}.{'csv' if fmt == 'csv' else 'json'}"
        file = discord.File(io.BytesIO(body.encode("utf-8")), filename=filename)
        await interaction.followup.send(
            f"This server's league data: {len(data.get('matches', []))} matches.",
            file=file,
            ephemeral=True,
            allowed_mentions=NO_PINGS,
        )

    @app_commands.command(name="forget-me", description="Erase your league records on this server")
    async def forget_me(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        layout = ui.LayoutView(timeout=None)
        container = ui.Container[Any](accent_colour=0xDD2D26)
        container.add_item(
            ui.TextDisplay(
                "### Erase your league records?\nYour standings and name are deleted on this "
                "server, and your seats in past matches become “Former player”. "
                "This cannot be undone."
            )
        )
        layout.add_item(container)
        row = ui.ActionRow[Any]()
        row.add_item(ForgetButton(interaction.guild_id, interaction.user.id, "yes"))
        row.add_item(ForgetButton(interaction.guild_id, interaction.user.id, "no"))
        layout.add_item(row)
        await interaction.response.send_message(
            view=layout, ephemeral=True, allowed_mentions=NO_PINGS
        )

    async def on_forget(self, interaction: discord.Interaction[Any], button: ForgetButton) -> None:
        """The forget-me confirmation: only its own member may answer it."""
        if interaction.user.id != button.user_id or interaction.guild_id != button.guild_id:
            await self.say(interaction, "Only the member who asked can confirm this.")
            return
        if button.answer != "yes":
            text = "Nothing was erased."
        else:
            changed = await self.league_storage.forget_user(button.guild_id, button.user_id)
            text = f"Done: your league records are erased ({changed} rows changed)."
        layout = ui.LayoutView(timeout=None)
        container = ui.Container[Any](accent_colour=ACCENT)
        container.add_item(ui.TextDisplay(text))
        layout.add_item(container)
        await interaction.response.edit_message(view=layout, allowed_mentions=NO_PINGS)
