"""The /uno command group with the game's commands (``UnoCog``).

The league and settings extensions add their commands to this group when they load.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import HouseRules, RuleSet, Scoring
from bot.engine.cards import Edition
from bot.engine.rules import DEFAULT_TARGET
from bot.storage import GuildSettings, StorageError
from bot.tables.commands import EndGame, Kick, Leave, Look
from bot.tables.names import safe_name
from bot.tables.notes import note
from bot.tables.refusals import TableError
from bot.tables.table import Status
from cogs.about import about_text, project_url
from cogs.lang import server_locale, table_lang, user_lang
from cogs.replies import NO_PINGS, let_go, say
from cogs.ui.ids import table_key
from cogs.ui.lobby import lobby_view
from cogs.ui.rules_text import EDITION_CHOICES, PRESET_CHOICES, help_text, rules_view

from .clicks import GameClicks, actor_of, threads_allowed

if TYPE_CHECKING:
    from bot.client import UnoBot

    Itx = discord.Interaction[UnoBot]

log = logging.getLogger(__name__)

TARGET_MIN, TARGET_MAX = 50, 5000


@app_commands.guild_only()
class UnoCog(commands.GroupCog, group_name="uno", group_description="Play UNO"):
    """The game's slash commands; its buttons are answered by ``clicks``."""

    def __init__(self, bot: UnoBot) -> None:
        self.bot = bot
        self.manager = bot.tables
        self.clicks = GameClicks(bot)
        super().__init__()

    async def cog_load(self) -> None:
        # Before the tables are restored: their pictures queue behind the warm-up, and the
        # first picture of each edition costs no more than the next.
        self.clicks.warm_up()

    async def cog_unload(self) -> None:
        await self.clicks.close()

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A game's thread was deleted: its table closes, unrecorded."""
        await self.clicks.board.channel_gone(payload.thread_id)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.clicks.board.channel_gone(channel.id)

    @app_commands.command(name="new", description="Open a lobby for a new UNO game")
    @app_commands.describe(
        edition="Which UNO to play",
        length="A match to a target score, or a single round",
        scoring="Standard (winner scores the others' cards) or lowest (your own cards count)",
        target="Points that end the match (default 500)",
        house_rules="A preset of house rules (default: this server's; the host can change it)",
    )
    @app_commands.choices(
        edition=EDITION_CHOICES,
        length=[
            app_commands.Choice(name="Match to the target score", value="match"),
            app_commands.Choice(name="Single round", value="round"),
        ],
        scoring=[
            app_commands.Choice(name="Standard", value="standard"),
            app_commands.Choice(name="Lowest score wins", value="lowest"),
        ],
        house_rules=PRESET_CHOICES,
    )
    async def new(
        self,
        interaction: Itx,
        edition: str | None = None,
        length: str = "match",
        scoring: str | None = None,
        target: app_commands.Range[int, TARGET_MIN, TARGET_MAX] | None = None,
        house_rules: str | None = None,
    ) -> None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        _ = user_lang(interaction).gettext
        try:
            assert self.bot.storage is not None
            server = await self.bot.storage.get_settings(interaction.guild_id)
        except StorageError:
            server = GuildSettings(interaction.guild_id)  # the defaults still make a fine game
        try:
            rules = RuleSet(
                edition=Edition(edition or server.edition),
                scoring=Scoring(scoring or server.scoring),
                target=None if length == "round" else target or server.target or DEFAULT_TARGET,
                house=HouseRules.preset(house_rules) if house_rules else server_house(server),
            )
        except ValueError:
            await say(interaction, _("Choose an edition, scoring and house rules from the list."))
            return
        table_id = table_key(interaction.id)
        try:
            outcome = await self.manager.create(
                table_id,
                interaction.guild_id,
                interaction.channel_id,
                actor_of(interaction),
                rules,
                threads=threads_allowed(interaction),
                turn_seconds=server.turn_seconds,
                timeout_limit=server.timeouts_before_removal,
                lobby_seconds=server.lobby_minutes * 60,
                computers=server.computer_level if server.computers_allowed else None,
                locale=server_locale(interaction, server.language),
            )
        except TableError as exc:
            await say(interaction, exc.note.render(user_lang(interaction)))
            return
        sent = await interaction.response.send_message(
            view=lobby_view(outcome.table), allowed_mentions=NO_PINGS
        )
        if sent.message_id is not None:
            await self.manager.set_lobby_message(table_id, sent.message_id)

    @app_commands.command(name="hand", description="Show your cards (only you can see them)")
    async def hand(self, interaction: Itx) -> None:
        assert interaction.channel_id is not None
        found = self.manager.find_for(interaction.channel_id, interaction.user.id)
        if found is None:
            text = user_lang(interaction).gettext(
                "There is no UNO game here. Start one with `/uno new`."
            )
            await say(interaction, text)
            return
        await self.clicks.show_hand(interaction, found.table_id)

    @app_commands.command(name="leave", description="Leave the UNO game in this channel")
    async def leave(self, interaction: Itx) -> None:
        assert interaction.channel_id is not None
        found = self.manager.find_for(interaction.channel_id, interaction.user.id)
        tongue = user_lang(interaction)
        if found is None or not found.seated:
            await say(interaction, note("not_playing_here").render(tongue))
            return
        try:
            outcome = await self.manager.act(found.table_id, actor_of(interaction), Leave())
        except TableError as exc:
            await say(interaction, exc.note.render(tongue))
            return
        await say(interaction, (outcome.note or note("left")).render(tongue))
        if outcome.table.status is Status.LOBBY:
            self.clicks.spawn(self.clicks.refresh_lobby(outcome.table))

    @app_commands.command(name="end", description="End the UNO game here (host or Manage Server)")
    async def end(self, interaction: Itx) -> None:
        assert interaction.channel_id is not None
        found = self.manager.find_for(interaction.channel_id, interaction.user.id)
        tongue = user_lang(interaction)
        if found is None:
            await say(interaction, tongue.gettext("There is no UNO game here."))
            return
        try:
            outcome = await self.manager.act(found.table_id, actor_of(interaction), EndGame())
        except TableError as exc:
            await say(interaction, exc.note.render(tongue))
            return
        await interaction.response.send_message(
            table_lang(outcome.table).gettext("The UNO game was ended."), allowed_mentions=NO_PINGS
        )

    @app_commands.command(name="kick", description="Remove a player from your game (host only)")
    @app_commands.describe(player="One of the players at your table")
    async def kick(self, interaction: Itx, player: app_commands.Range[str, 1, 100]) -> None:
        assert interaction.channel_id is not None
        found = self.manager.find_for(interaction.channel_id, interaction.user.id)
        tongue = user_lang(interaction)
        if found is None:
            await say(interaction, tongue.gettext("There is no UNO game here."))
            return
        seated = self.manager.kickable(interaction.channel_id, interaction.user.id)
        user_id = chosen_player(player, seated)
        if user_id is None and seated:
            text = tongue.gettext("Choose one of the players at your table from the list.")
            await say(interaction, text)
            return
        try:
            outcome = await self.manager.act(
                found.table_id, actor_of(interaction), Kick(user_id or 0)
            )
        except TableError as exc:
            await say(interaction, exc.note.render(tongue))
            return
        name = safe_name(next(name for uid, name in seated if uid == user_id))
        await say(interaction, tongue.gettext("{name} was removed.").format(name=name))
        if outcome.table.status is Status.LOBBY:
            self.clicks.spawn(self.clicks.refresh_lobby(outcome.table))

    @kick.autocomplete("player")
    async def kick_players(self, interaction: Itx, typed: str) -> list[app_commands.Choice[str]]:
        """The players the host could remove, filtered by what was typed."""
        if interaction.channel_id is None:
            return []
        typed = typed.casefold().strip()
        return [
            app_commands.Choice(name=name[:100] or str(uid), value=str(uid))
            for uid, name in self.manager.kickable(interaction.channel_id, interaction.user.id)
            if typed in name.casefold()
        ][:25]

    @app_commands.command(name="rules", description="The rules of the game here (or of an edition)")
    @app_commands.describe(edition="An edition's rules (default: the rules of your table)")
    @app_commands.choices(edition=EDITION_CHOICES)
    async def rules(self, interaction: Itx, edition: str | None = None) -> None:
        assert interaction.channel_id is not None
        tongue = user_lang(interaction)
        try:
            view = rules_view(Edition(edition or "classic"), lang=tongue)
        except ValueError:
            await say(interaction, tongue.gettext("Choose an edition from the list."))
            return
        found = (
            None
            if edition is not None
            else self.manager.find_for(interaction.channel_id, interaction.user.id)
        )
        if found is not None:
            try:
                table = (
                    await self.manager.act(found.table_id, actor_of(interaction), Look())
                ).table
            except TableError:
                pass
            else:
                view = rules_view(table.rules.edition, table.house_rule, table.rules.house, tongue)
        await interaction.response.send_message(
            view=view, ephemeral=True, allowed_mentions=NO_PINGS
        )
        let_go(view)

    @app_commands.command(name="help", description="How to play UNO with this bot")
    async def help(self, interaction: Itx) -> None:
        await say(interaction, help_text(user_lang(interaction)))

    @app_commands.command(name="about", description="The bot's version, invite link and project")
    async def about(self, interaction: Itx) -> None:
        text = about_text(self.bot.application_id, project_url(), user_lang(interaction))
        await say(interaction, text)


def chosen_player(value: str, seated: list[tuple[int, str]]) -> int | None:
    """The seated player a /uno kick value names: the id an autocomplete choice carries, or a
    name typed out in full (ignoring case); None if it names nobody at the table."""
    value = value.strip()
    for user_id, _name in seated:
        if value == str(user_id):
            return user_id
    named = [user_id for user_id, name in seated if name.casefold() == value.casefold()]
    return named[0] if len(named) == 1 else None


def server_house(server: GuildSettings) -> HouseRules:
    """The server's default house rules (the printed rules if what is stored is not valid)."""
    try:
        return HouseRules.parse(server.house_rules)
    except ValueError:
        log.warning("server %s has unreadable default house rules", server.guild_id)
        return HouseRules()
