"""The tournament extension's working parts: the manager and its tables wired to the bot, the
standings message kept up to date, and every request presented (the manager owns the state).

Each request is one call to the ``TournamentManager``; the standings message is written by the
manager's publisher, at most 5 times in any 5 s per tournament (its edit window), each write
taking a slot of the channel's pacer shared with the tables. After a restart the manager takes
up the saved tournaments before the tables come back (their ends are counted as they are
restored), then ``resume`` counts the tables that ended while the bot was down, from the
league's records.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.engine import HouseRules, RuleSet, Scoring
from bot.engine.cards import Edition
from bot.engine.rules import DEFAULT_TARGET
from bot.i18n import Lang, lang
from bot.storage import GuildSettings, StorageError
from bot.tables.lobby import COMPUTER_NAMES
from bot.tables.names import safe_name, seat_name
from bot.tables.snapshot import TableSnapshot
from bot.tournament.bridge import ManagedTables
from bot.tournament.manager import TableFate, TournamentManager
from bot.tournament.model import Entrant, Kind, Tournament, TournamentError
from cogs.lang import server_locale, user_lang
from cogs.replies import NO_PINGS, say
from cogs.ui.ids import table_key
from cogs.ui.pacer import ChannelPacer

from .items import Action
from .presenter import STANDINGS_IMAGE, refusal, standings_layout, standings_picture

if TYPE_CHECKING:
    from bot.client import UnoBot

    Itx = discord.Interaction[UnoBot]

log = logging.getLogger(__name__)

TURN_SECONDS = 60  # a tournament table's turn timer when the server sets none (berserk halves it)
THREAD_NAME_LIMIT = 100
TEAMS = 2  # a team tournament's tables: two teams of two


class BotStore:
    """The bot's storage as the manager's store (this process's shards only)."""

    def __init__(self, bot: UnoBot) -> None:
        self.bot = bot

    def _storage(self) -> Any:
        if self.bot.storage is None:
            raise StorageError("storage is not open")
        return self.bot.storage

    async def save_tournament(self, record: dict[str, Any]) -> None:
        await self._storage().save_tournament(record)

    async def load_tournaments(self) -> list[dict[str, Any]]:
        from bot.client import owned_shards

        records: list[dict[str, Any]] = await self._storage().load_tournaments(
            *owned_shards(self.bot.settings)
        )
        return records


def may_manage(interaction: discord.Interaction[Any]) -> bool:
    return interaction.guild_id is not None and bool(interaction.permissions.manage_guild)


class TournamentDesk:
    """Takes tournament requests from commands and buttons and keeps their messages shown."""

    def __init__(self, bot: UnoBot, pacer: ChannelPacer | None = None) -> None:
        self.bot = bot
        self.pacer = pacer or ChannelPacer()
        self.tables = ManagedTables(bot.tables, RuleSet(target=None), self._thread_for)
        self.manager = TournamentManager(
            self.tables, BotStore(bot), bot.tables.scheduler, self._publish
        )
        self.tables.tournaments = self.manager
        self.threads: dict[str, int] = {}  # tournament table -> its thread
        self._writing: dict[str, asyncio.Lock] = {}
        bot.tables.subscribe(self._on_table)

    def close(self) -> None:
        self.bot.tables.unsubscribe(self._on_table)
        self.bot.tables.unsubscribe(self.tables.on_commit)

    # ----- start -----

    async def load(self) -> None:
        try:
            loaded = await self.manager.load()
        except StorageError:
            log.exception("could not load the tournaments")
            return
        log.info("loaded %d tournaments", len(loaded))

    async def resume(self) -> None:
        """After the tables are restored: count what ended meanwhile, seat, show."""
        await self.manager.resume(self._fate)

    def _on_table(self, table: TableSnapshot) -> None:
        if table.thread_id is not None and self.manager.owner_of(table.table_id) is not None:
            self.threads[table.table_id] = table.thread_id

    async def _fate(self, t: Tournament, table_id: str) -> TableFate:
        if table_id in self.bot.tables.tables_in(t.channel_id):
            return TableFate(playing=True)  # live, or ended and being counted as restored
        storage = self.bot.storage
        if storage is None:
            return TableFate(playing=True)
        found = await storage.match_by_uid(t.guild_id, table_id)
        if found is None:
            return TableFate(playing=False)
        ordered = sorted(found.players, key=lambda p: (p.place, p.seat))
        placings = tuple(p.user_id for p in ordered)
        if not found.teams:
            return TableFate(playing=False, placings=placings)
        # A team match records each seat at its team's place: partners share it.
        ranks = sorted({p.place for p in ordered})
        places = tuple(ranks.index(p.place) for p in ordered)
        return TableFate(playing=False, placings=placings, places=places)

    # ----- tables and their threads -----

    async def _thread_for(self, t: Tournament, table_id: str) -> int | None:
        channel = self.bot.get_channel(t.channel_id)
        if not isinstance(channel, discord.TextChannel):
            return None
        tongue = lang(str(t.options.get("locale", "en")))
        name = tongue.gettext("Tournament table {number}").format(
            number=table_id.rsplit("t", 1)[-1]
        )
        try:
            thread = await channel.create_thread(
                name=f"🏆 {name}"[:THREAD_NAME_LIMIT],
                type=discord.ChannelType.public_thread,
                auto_archive_duration=1440,
            )
        except discord.HTTPException:
            log.warning("no thread for tournament table %s; it plays in the channel", table_id)
            return None
        self.threads[table_id] = thread.id
        return thread.id

    # ----- the standings message -----

    async def _publish(self, t: Tournament) -> None:
        lock = self._writing.setdefault(t.tournament_id, asyncio.Lock())
        async with lock:
            await self._write(t)

    async def _write(self, t: Tournament) -> None:
        finished = t.finished(self.manager.clock())
        tongue = lang(str(t.options.get("locale", "en")))
        png = await asyncio.to_thread(standings_picture, t, tongue)
        layout = standings_layout(t, tongue, self.threads, finished=finished)
        file = discord.File(io.BytesIO(png), filename=STANDINGS_IMAGE)
        channel = self.bot.get_partial_messageable(t.channel_id, guild_id=t.guild_id)
        try:
            async with self.pacer.slot(t.channel_id):
                if t.standings_message_id is None:
                    sent = await channel.send(view=layout, file=file, allowed_mentions=NO_PINGS)
                    await self.manager.set_standings_message(t.tournament_id, sent.id)
                else:
                    message = channel.get_partial_message(t.standings_message_id)
                    await message.edit(view=layout, attachments=[file])
        except discord.HTTPException as error:
            log.warning("could not show tournament %s: %s", t.tournament_id, error)
        if finished:
            self._writing.pop(t.tournament_id, None)
            self.bot.dispatch("uno_tournament_finished", t)  # e.g. its podium's achievements

    # ----- requests -----

    async def open(
        self,
        interaction: Itx,
        kind: Kind,
        minutes: int,
        single_round: bool,
        computers: int,
        teams: bool = False,
    ) -> None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        tongue = user_lang(interaction)
        _ = tongue.gettext
        server = await self._settings(interaction.guild_id)
        if not (may_manage(interaction) or server.tournaments_open):
            await say(interaction, _("You need the Manage Server permission to open a tournament."))
            return
        if not isinstance(interaction.channel, discord.TextChannel):
            await say(
                interaction, _("Open a tournament in a text channel: its tables get threads.")
            )
            return
        rules = RuleSet(
            edition=Edition(server.edition),
            scoring=Scoring(server.scoring),
            target=None if single_round else server.target or DEFAULT_TARGET,
            house=_house(server),
            teams=TEAMS if teams else 0,
        )
        options = {
            "rules": rules.to_dict(),
            "turn_seconds": server.turn_seconds or TURN_SECONDS,
            "timeout_limit": server.timeouts_before_removal,
            "locale": server_locale(interaction, server.language),
            "teams": rules.teams,
        }
        tournament_id = table_key(interaction.id)
        try:
            await self.manager.open(
                tournament_id,
                kind,
                interaction.guild_id,
                interaction.channel_id,
                interaction.user.id,
                minutes=minutes,
                seed=interaction.id & 0xFFFFFFFF,
                options=options,
            )
            level = server.computer_level if server.computers_allowed else None
            for index in range(computers if level is not None else 0):
                name = f"{COMPUTER_NAMES[index % len(COMPUTER_NAMES)]} (bot)"
                await self.manager.join(tournament_id, Entrant(-(index + 1), name, level))
        except TournamentError as error:
            await say(interaction, refusal(error, tongue))
            return
        text = (
            _("The arena is open for {minutes} minutes: join with the button below.").format(
                minutes=minutes
            )
            if kind is Kind.ARENA
            else _(
                "The team knockout is open: join with the button below, then start it with "
                "an even number of players (partners are drawn at the start)."
            )
            if teams
            else _("The knockout is open: join with the button below, then start it.")
        )
        await say(interaction, text)

    async def _settings(self, guild_id: int) -> GuildSettings:
        try:
            assert self.bot.storage is not None
            return await self.bot.storage.get_settings(guild_id)
        except (StorageError, AssertionError):
            return GuildSettings(guild_id)

    def here(self, interaction: Itx) -> Tournament | None:
        assert interaction.channel_id is not None
        return self.manager.in_channel(interaction.channel_id)

    async def on_button(self, interaction: Itx, tournament_id: str, action: Action) -> None:
        await self.request(interaction, action, tournament_id)

    async def request(
        self, interaction: Itx, action: str, tournament_id: str | None = None
    ) -> None:
        """Join, leave, berserk, start or close, answered privately."""
        tongue = user_lang(interaction)
        _ = tongue.gettext
        if tournament_id is None:
            found = self.here(interaction)
            tournament_id = found.tournament_id if found is not None else ""
        t = self.manager.view(tournament_id)
        if t is None:
            await say(interaction, refusal(TournamentError("tournament_unknown"), tongue))
            return
        user = interaction.user
        try:
            if action == "join":
                entrant = Entrant(user.id, seat_name(user.display_name))
                await self.manager.join(tournament_id, entrant)
                text = _("You are in: a table opens as soon as enough players wait.")
            elif action == "leave":
                await self.manager.leave(tournament_id, user.id)
                text = _("You left the tournament; your points stay.")
            elif action == "berserk":
                await self.manager.berserk(tournament_id, user.id)
                text = _(
                    "Berserk: half the turn timer at your next table, one point more if you win."
                )
            elif not (may_manage(interaction) or user.id == t.host_id):
                text = _("Only the host or a server manager can do that.")
            elif action == "start":
                await self.manager.start_knockout(tournament_id)
                text = _("The knockout has started.")
            else:
                await self.manager.close(tournament_id)
                text = _("The tournament is closed: no more tables open; the ones playing count.")
        except TournamentError as error:
            text = refusal(error, tongue)
        await say(interaction, text)

    async def status(self, interaction: Itx) -> None:
        tongue = user_lang(interaction)
        t = self.here(interaction)
        if t is None:
            await say(interaction, refusal(TournamentError("tournament_unknown"), tongue))
            return
        await say(interaction, status_text(t, interaction.user.id, tongue))


def status_text(t: Tournament, user_id: int, tongue: Lang) -> str:
    """Where the asker stands in the tournament here."""
    _ = tongue.gettext
    mine = next((s for s in t.standings() if s.user_id == user_id), None)
    if mine is None:
        return _("You are not in this tournament yet: press Join on its message.")
    where = (
        _("playing a table")
        if t.playing(user_id)
        else _("waiting for a table")
        if user_id in t.waiting
        else _("not waiting")
    )
    text = _("Rank {rank} · {points} pts · {games} games · {where}").format(
        rank=mine.rank, points=mine.points, games=mine.games, where=where
    )
    partners = [u for u in t.team_of(user_id) if u != user_id] if t.pairs else []
    if partners:  # a team knockout's partner, drawn at its start
        names = ", ".join(safe_name(t.entrants[u].name) for u in partners)
        text += " · " + _("partner: {name}").format(name=names)
    return text


def _house(server: GuildSettings) -> HouseRules:
    try:
        return HouseRules.parse(server.house_rules)
    except ValueError:
        return HouseRules()


__all__ = ["TournamentDesk"]
