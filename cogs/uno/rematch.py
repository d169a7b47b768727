"""Rematch: a finished match's scoreboard reopens a lobby in its channel with the same seats
(humans and computers) and options, once, for a player of that match."""

from __future__ import annotations

import contextlib
import logging
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from bot.engine import HouseRules, RuleSet, Scoring
from bot.engine.cards import Edition
from bot.storage import FORMER_PLAYER_ID, GuildSettings, StorageError
from bot.tables.commands import Actor, Cancel
from bot.tables.manager import TableManager, lobby_link
from bot.tables.notes import note
from bot.tables.refusals import TableError
from bot.tables.snapshot import SeatInfo, TableSnapshot
from bot.tables.table import Seat, Status
from cogs.lang import server_locale, user_lang
from cogs.replies import NO_PINGS, say
from cogs.ui.ids import table_key
from cogs.ui.lobby import lobby_view

if TYPE_CHECKING:
    from bot.client import UnoBot

    Itx = discord.Interaction[UnoBot]

log = logging.getLogger(__name__)

KEPT = 512  # finished matches whose rematch this process remembers (the oldest go first)


@dataclass(frozen=True, slots=True)
class Finished:
    """What a rematch of a finished match needs: where, which rules, who sat where."""

    table_id: str
    guild_id: int
    channel_id: int  # where the lobby was posted
    rules: RuleSet
    seats: tuple[SeatInfo, ...]
    active: tuple[bool, ...]  # still playing at the end (those who left are not seated again)
    tournament: bool = False  # a tournament's table: the tournament seats its players again

    def player(self, user_id: int) -> bool:
        return any(s.user_id == user_id and s.computer is None for s in self.seats)


class Rematches:
    """Finished matches' setups (bounded) and the Rematch button's answer."""

    def __init__(self, bot: UnoBot, manager: TableManager) -> None:
        self.bot = bot
        self.manager = manager
        self.finished: OrderedDict[str, Finished] = OrderedDict()

    def on_change(self, table: TableSnapshot) -> None:
        """A listener: remember each finished match for its rematch."""
        if table.status is not Status.FINISHED or table.public is None:
            return
        active = tuple(seat.active for seat in table.public.seats)
        self._keep(
            Finished(
                table.table_id,
                table.guild_id,
                table.channel_id,
                table.rules,
                table.seats,
                active,
                tournament=table.tournament_id is not None,
            )
        )

    def _keep(self, finished: Finished) -> None:
        self.finished[finished.table_id] = finished
        self.finished.move_to_end(finished.table_id)
        while len(self.finished) > KEPT:
            self.finished.popitem(last=False)

    async def press(self, interaction: Itx, table_id: str, actor: Actor) -> None:
        """The Rematch button of the finished table ``table_id``, pressed by ``actor``."""
        manager = self.manager
        tongue = user_lang(interaction)
        opened = manager.rematch_for(table_id)
        if opened is not None:
            await say(interaction, note("rematch_open", link=lobby_link(opened)).render(tongue))
            return
        finished = self.finished.get(table_id) or await self._recorded(interaction, table_id)
        if finished is None:
            await say(interaction, note("rematch_gone").render(tongue))
            return
        if finished.tournament:  # an old scoreboard's button: the tournament decides
            await say(interaction, note("rematch_tournament").render(tongue))
            return
        if not finished.player(interaction.user.id):
            await say(interaction, note("rematch_players_only").render(tongue))
            return
        channel = self.bot.get_channel(finished.channel_id)
        if not isinstance(channel, discord.TextChannel | discord.Thread | discord.VoiceChannel):
            await say(interaction, note("rematch_gone").render(tongue))
            return
        server = await self._server(finished.guild_id)
        seats = [
            Seat(s.user_id, s.name, s.computer)
            for s, active in zip(finished.seats, finished.active, strict=True)
            if active
        ]
        new_id = table_key(interaction.id)
        try:
            outcome = await manager.create(
                new_id,
                finished.guild_id,
                finished.channel_id,
                actor,
                finished.rules,
                threads=threads_allowed_in(channel),
                turn_seconds=server.turn_seconds,
                timeout_limit=server.timeouts_before_removal,
                lobby_seconds=server.lobby_minutes * 60,
                computers=server.computer_level if server.computers_allowed else None,
                seats=seats,
                rematch_of=table_id,
                locale=server_locale(interaction, server.language),
            )
        except TableError as exc:
            await say(interaction, exc.note.render(tongue))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            sent = await channel.send(view=lobby_view(outcome.table), allowed_mentions=NO_PINGS)
        except discord.HTTPException:
            log.warning("could not post the rematch lobby of %s", table_id)
            with contextlib.suppress(TableError):  # closed meanwhile: nothing to undo
                await manager.act(new_id, actor, Cancel())
            await say(interaction, note("rematch_gone").render(tongue))
            return
        await manager.set_lobby_message(new_id, sent.id)
        where = f"https://discord.com/channels/{finished.guild_id}/{channel.id}/{sent.id}"
        await say(interaction, note("rematch_opened", link=where).render(tongue))

    async def _recorded(self, interaction: Itx, table_id: str) -> Finished | None:
        """A finished match this process never saw (it finished before a restart), as the
        league recorded it: its seats (computers at the server's level) and options; the Wild
        Customizable's written rule is not recorded and is written again in the lobby."""
        storage = self.bot.storage
        guild_id = interaction.guild_id
        if storage is None or guild_id is None:
            return None
        try:
            detail = await storage.match_by_uid(guild_id, table_id)
            server = await self._server(guild_id)
        except StorageError:
            log.warning("could not read match %s for its rematch", table_id)
            return None
        if detail is None:
            return None
        try:
            rules = RuleSet(
                edition=Edition(detail.edition),
                scoring=Scoring(detail.scoring),
                target=detail.target,
                house=HouseRules.parse(dict(detail.house_rules)),
            )
        except ValueError:
            return None
        channel = interaction.channel
        # The scoreboard is in the game's thread, opened from the lobby's message.
        lobby = channel.parent_id if isinstance(channel, discord.Thread) else detail.channel_id
        level = server.computer_level
        seats = tuple(
            SeatInfo(p.user_id, p.name, level if p.computer else None)
            for p in detail.players
            if p.computer or p.user_id != FORMER_PLAYER_ID  # forgotten members are not seated
        )
        finished = Finished(
            table_id,
            guild_id,
            lobby or detail.channel_id,
            rules,
            seats,
            (True,) * len(seats),
            tournament=detail.tournament_id is not None,
        )
        self._keep(finished)
        return finished

    async def _server(self, guild_id: int) -> GuildSettings:
        storage = self.bot.storage
        try:
            assert storage is not None
            return await storage.get_settings(guild_id)
        except StorageError:
            return GuildSettings(guild_id)  # the defaults still make a fine game


def threads_allowed_in(channel: object) -> bool:
    """May the bot open a game's thread from a message in ``channel``."""
    if not isinstance(channel, discord.TextChannel):
        return False
    perms = channel.permissions_for(channel.guild.me)
    return perms.create_public_threads and perms.send_messages_in_threads
