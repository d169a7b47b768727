"""The /uno command group and the game buttons' handlers (thin: parse, defer, call, present)."""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands, ui
from discord.ext import commands

from bot.engine import RuleSet, Scoring
from bot.engine.cards import Edition
from bot.engine.rules import DEFAULT_TARGET, HOUSE_RULE_MAX
from bot.render import render_hand
from bot.storage import GuildSettings, StorageError
from bot.tables.manager import StaleClick, TableError, TableManager
from bot.tables.table import Status, Table

from .league import LeagueCommands
from .mixin import EDITION_CHOICES
from .settings import SettingsCommands
from .ui.board import TableBoard
from .ui.hand import HAND_IMAGE, hand_layout, reveal_text
from .ui.ids import Click, table_key
from .ui.lobby import lobby_view
from .ui.rules_text import HELP_TEXT, rules_summary

if TYPE_CHECKING:
    from bot.client import UnoBot

log = logging.getLogger(__name__)
NO_PINGS = discord.AllowedMentions.none()


class HouseRuleModal(ui.Modal, title="Wild Customizable house rule"):
    """The host writes the rule the Wild Customizable card announces."""

    rule: ui.TextInput[HouseRuleModal] = ui.TextInput(
        label="House rule (at most 200 characters)",
        style=discord.TextStyle.paragraph,
        max_length=HOUSE_RULE_MAX,
        required=False,
        placeholder="e.g. Everyone passes their hand to the left",
    )

    def __init__(self, cog: UnoCog, table_id: str, current: str) -> None:
        super().__init__(timeout=600)
        self.cog = cog
        self.table_id = table_id
        self.rule.default = current

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        try:
            outcome = await self.cog.manager.lobby_action(
                self.table_id, interaction.user.id, "", "rule", self.rule.value
            )
        except TableError as exc:
            await self.cog.say(interaction, exc.message)
            return
        await interaction.response.edit_message(
            view=lobby_view(outcome.table), allowed_mentions=NO_PINGS
        )


@app_commands.guild_only()
class UnoCog(
    LeagueCommands,
    SettingsCommands,
    commands.GroupCog,
    group_name="uno",
    group_description="Play UNO",
):
    """Slash commands and button handlers for lobbies, tables and hands."""

    def __init__(self, bot: UnoBot) -> None:
        self.bot = bot
        self.manager: TableManager = bot.tables
        self.board = TableBoard(bot, self.manager, min_interval=bot.edit_interval)
        self.pages: dict[tuple[str, int], int] = {}
        self._background: set[asyncio.Task[None]] = set()
        self.manager.listeners.append(self._on_change)
        super().__init__()

    async def _on_change(self, table: Table, outcome: Any) -> None:
        # A lobby closed by its timer (or emptied) shows so; a finished game forgets hand pages.
        if table.status is Status.CANCELLED and table.match is None:
            # Not awaited here: listeners run under the table's lock, REST calls must not.
            task = asyncio.get_running_loop().create_task(self._refresh_lobby(table))
            self._background.add(task)
            task.add_done_callback(self._background.discard)
        if table.status in (Status.FINISHED, Status.CANCELLED):
            for key in [k for k in self.pages if k[0] == table.table_id]:
                del self.pages[key]

    async def cog_unload(self) -> None:
        await self.board.close()

    # ----- helpers -----

    async def say(self, interaction: discord.Interaction[Any], text: str) -> None:
        """A private, ping-free answer, whether or not the interaction was answered yet."""
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_PINGS)
        else:
            await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_PINGS)

    def _threads_allowed(self, interaction: discord.Interaction[Any]) -> bool:
        channel = interaction.channel
        guild = interaction.guild
        if not isinstance(channel, discord.TextChannel) or guild is None:
            return False
        perms = channel.permissions_for(guild.me)
        return perms.create_public_threads and perms.send_messages_in_threads

    async def _hand_message(
        self,
        table: Table,
        seat: int,
        *,
        page: int | None = None,
        picking: str | None = None,
        note: str | None = None,
    ) -> tuple[ui.LayoutView, discord.File]:
        key = (table.table_id, seat)
        if page is None:
            page = self.pages.get(key, 0)
        self.pages[key] = page
        hand = self.manager.hand(table, seat)
        png = await asyncio.to_thread(render_hand, hand)
        layout = hand_layout(table, hand, page=page, picking=picking, note=note, image=HAND_IMAGE)
        return layout, discord.File(io.BytesIO(png), filename=HAND_IMAGE)

    # ----- commands -----

    @app_commands.command(name="new", description="Open a lobby for a new UNO game")
    @app_commands.describe(
        edition="Which UNO to play",
        length="A match to a target score, or a single round",
        scoring="Standard (winner scores the others' cards) or lowest (your own cards count)",
        target="Points that end the match (default 500)",
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
    )
    async def new(
        self,
        interaction: discord.Interaction[Any],
        edition: str | None = None,
        length: str = "match",
        scoring: str | None = None,
        target: app_commands.Range[int, 50, 5000] | None = None,
    ) -> None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        try:
            assert self.bot.storage is not None
            server = await self.bot.storage.get_settings(interaction.guild_id)
        except StorageError:
            server = GuildSettings(interaction.guild_id)  # the defaults still make a fine game
        edition = edition or server.edition
        scoring = scoring or server.scoring
        target = target or server.target or DEFAULT_TARGET
        try:
            rules = RuleSet(
                edition=Edition(edition),
                scoring=Scoring(scoring),
                target=None if length == "round" else target,
            )
        except ValueError:
            await self.say(interaction, "Choose an edition and scoring from the list.")
            return
        try:
            table = await self.manager.create(
                table_key(interaction.id),
                interaction.guild_id,
                interaction.channel_id,
                interaction.user.id,
                interaction.user.display_name,
                rules,
                threads=self._threads_allowed(interaction),
                turn_seconds=server.turn_seconds,
                timeout_limit=server.timeouts_before_removal,
                lobby_seconds=server.lobby_minutes * 60,
                computers=server.computer_level if server.computers_allowed else None,
            )
        except TableError as exc:
            await self.say(interaction, exc.message)
            return
        await interaction.response.send_message(view=lobby_view(table), allowed_mentions=NO_PINGS)
        message = await interaction.original_response()
        table.lobby_message_id = message.id

    @app_commands.command(name="hand", description="Show your cards (only you can see them)")
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.channel_id is not None
        table = self.manager.find_for(interaction.channel_id, interaction.user.id)
        if table is None:
            await self.say(interaction, "There is no UNO game here. Start one with `/uno new`.")
            return
        await self._show_hand(interaction, table.table_id)

    @app_commands.command(name="leave", description="Leave the UNO game in this channel")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.channel_id is not None
        table = self.manager.find_for(interaction.channel_id, interaction.user.id)
        if table is None or table.seat_of(interaction.user.id) is None:
            await self.say(interaction, "You are not playing in a game here.")
            return
        try:
            if table.status is Status.LOBBY:
                outcome = await self.manager.lobby_action(
                    table.table_id, interaction.user.id, "", "leave"
                )
                await self._refresh_lobby(outcome.table)
            else:
                outcome = await self.manager.leave(table.table_id, interaction.user.id)
        except TableError as exc:
            await self.say(interaction, exc.message)
            return
        await self.say(interaction, outcome.reply or "You left the game.")

    @app_commands.command(name="end", description="End the UNO game here (host or Manage Server)")
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.channel_id is not None
        table = self.manager.find_for(interaction.channel_id, interaction.user.id)
        if table is None:
            await self.say(interaction, "There is no UNO game here.")
            return
        perms = interaction.permissions
        try:
            outcome = await self.manager.end(
                table.table_id, interaction.user.id, admin=perms.manage_guild
            )
        except TableError as exc:
            await self.say(interaction, exc.message)
            return
        if outcome.table.match is None:
            await self._refresh_lobby(outcome.table)
        await interaction.response.send_message(
            "The UNO game was ended.", allowed_mentions=NO_PINGS
        )

    @app_commands.command(name="kick", description="Remove a player from your game (host only)")
    @app_commands.describe(member="The player to remove")
    async def kick(self, interaction: discord.Interaction[Any], member: discord.Member) -> None:
        assert interaction.channel_id is not None
        table = self.manager.find_for(interaction.channel_id, interaction.user.id)
        if table is None:
            await self.say(interaction, "There is no UNO game here.")
            return
        try:
            outcome = await self.manager.kick(table.table_id, interaction.user.id, member.id)
        except TableError as exc:
            await self.say(interaction, exc.message)
            return
        if outcome.table.status is Status.LOBBY:
            await self._refresh_lobby(outcome.table)
        await self.say(
            interaction, f"{discord.utils.escape_markdown(member.display_name)} was removed."
        )

    @app_commands.command(name="rules", description="The rules of the game here (or of an edition)")
    @app_commands.choices(edition=EDITION_CHOICES)
    async def rules(
        self, interaction: discord.Interaction[Any], edition: str | None = None
    ) -> None:
        assert interaction.channel_id is not None
        chosen = Edition(edition) if edition else None
        house_rule = ""
        if chosen is None:
            table = self.manager.find_for(interaction.channel_id, interaction.user.id)
            chosen = table.rules.edition if table else Edition.CLASSIC
            house_rule = table.rules.house_rule if table else ""
        await self.say(interaction, rules_summary(chosen, house_rule))

    @app_commands.command(name="help", description="How to play UNO with this bot")
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        await self.say(interaction, HELP_TEXT)

    # ----- buttons -----

    async def _refresh_lobby(self, table: Table) -> None:
        if table.lobby_message_id is None:
            return
        channel = self.bot.get_channel(table.channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            return
        try:
            await channel.get_partial_message(table.lobby_message_id).edit(
                view=lobby_view(table, thread_id=table.thread_id), allowed_mentions=NO_PINGS
            )
        except discord.HTTPException:
            log.warning("could not refresh the lobby of %s", table.table_id)

    async def on_lobby(self, interaction: discord.Interaction[Any], click: Click) -> None:
        user = interaction.user
        if click.action == "rule":
            table = self.manager.tables.get(click.table_id)
            if table is None or table.status is not Status.LOBBY:
                await self.say(interaction, "This lobby is closed.")
                return
            if user.id != table.host_id:
                await self.say(interaction, "Only the host can write the house rule.")
                return
            await interaction.response.send_modal(
                HouseRuleModal(self, table.table_id, table.rules.house_rule)
            )
            return
        if click.action == "start":
            await self._start(interaction, click)
            return
        try:
            outcome = await self.manager.lobby_action(
                click.table_id, user.id, user.display_name, click.action, click.arg
            )
        except TableError as exc:
            await self.say(interaction, exc.message)
            return
        await interaction.response.edit_message(
            view=lobby_view(outcome.table), allowed_mentions=NO_PINGS
        )

    async def _start(self, interaction: discord.Interaction[Any], click: Click) -> None:
        table = self.manager.tables.get(click.table_id)
        if table is None or table.status is not Status.LOBBY:
            await self.say(interaction, "This game has already started or was closed.")
            return
        if interaction.user.id != table.host_id:
            await self.say(interaction, "Only the host can start the game.")
            return
        if len(table.seats) < 2:
            await self.say(interaction, "At least 2 players are needed to start.")
            return
        await interaction.response.defer()
        thread_id: int | None = None
        if self._threads_allowed(interaction) and interaction.message is not None:
            try:
                thread = await interaction.message.create_thread(
                    name=f"UNO · {table.seats[0].name}"[:90], auto_archive_duration=1440
                )
                thread_id = thread.id
            except discord.HTTPException:
                log.warning(
                    "could not open a thread for %s; playing in the channel", table.table_id
                )
        try:
            outcome = await self.manager.lobby_action(
                click.table_id,
                interaction.user.id,
                "",
                "start",
                str(thread_id) if thread_id else None,
            )
        except TableError as exc:
            await self.say(interaction, exc.message)
            return
        await interaction.edit_original_response(
            view=lobby_view(outcome.table, thread_id=thread_id), allowed_mentions=NO_PINGS
        )

    async def _show_hand(
        self, interaction: discord.Interaction[Any], table_id: str, note: str | None = None
    ) -> None:
        try:
            table, seat = self.manager.seated(table_id, interaction.user.id)
        except TableError as exc:
            await self.say(interaction, exc.message)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        layout, file = await self._hand_message(table, seat, note=note)
        await interaction.followup.send(
            view=layout, file=file, ephemeral=True, allowed_mentions=NO_PINGS
        )

    async def on_table(self, interaction: discord.Interaction[Any], click: Click) -> None:
        user = interaction.user
        if click.action == "hand":
            await self._show_hand(interaction, click.table_id)
            return
        try:
            if click.action == "quit":
                outcome = await self.manager.leave(click.table_id, user.id)
            elif click.action == "next":
                outcome = await self.manager.act(click.table_id, user.id, None, "next")
            elif click.action == "catch":
                outcome = await self.manager.act(click.table_id, user.id, None, "catch", click.arg)
            elif click.action == "respond" and click.arg in ("accept", "challenge"):
                outcome = await self.manager.act(click.table_id, user.id, click.version, click.arg)
            else:
                raise TableError("That button does nothing any more.")
        except StaleClick:
            await self.say(interaction, "That prompt is over: the game has moved on.")
            return
        except TableError as exc:
            await self.say(interaction, exc.message)
            return
        note = outcome.reply or "Done."
        if click.action == "catch" and outcome.events:
            note = "Caught! They draw 2."
        if outcome.reveal is not None:
            note = reveal_text(outcome.table, self._challenged(outcome), outcome.reveal)
        await self.say(interaction, note)

    @staticmethod
    def _challenged(outcome: Any) -> int:
        for event in outcome.events:
            if event.get("type") == "challenge":
                return int(event["target"])
        return 0

    async def on_hand(self, interaction: discord.Interaction[Any], click: Click) -> None:
        user = interaction.user
        try:
            table, seat = self.manager.seated(click.table_id, user.id)
        except TableError as exc:
            await self.say(interaction, exc.message)
            return
        await interaction.response.defer()
        note: str | None = None
        picking: str | None = None
        page: int | None = None
        if click.action in ("page", "back"):
            page = _int(click.arg)
        elif click.action == "pick":
            if click.version != table.version:
                note = "That hand was out of date: here is your current hand."
            else:
                picking = click.arg
                note = "Choose the color."
        else:
            try:
                outcome = await self.manager.act(
                    click.table_id, user.id, click.version, click.action, click.arg
                )
                table = outcome.table
                note = outcome.reply
                if outcome.reveal is not None:
                    note = reveal_text(table, self._challenged(outcome), outcome.reveal)
            except StaleClick as exc:
                note = exc.message
            except TableError as exc:
                note = exc.message
            table = self.manager.tables.get(click.table_id, table)
        if table.match is None or table.status is Status.FINISHED:
            await interaction.edit_original_response(
                content=None, view=_closed_view(note or "This game is over."), attachments=[]
            )
            return
        layout, file = await self._hand_message(table, seat, page=page, picking=picking, note=note)
        await interaction.edit_original_response(view=layout, attachments=[file])


def _closed_view(text: str) -> ui.LayoutView:
    view = ui.LayoutView(timeout=None)
    view.add_item(ui.Container[Any](ui.TextDisplay(text)))
    return view


def _int(text: str | None) -> int:
    try:
        return int(text or "0")
    except ValueError:
        return 0
