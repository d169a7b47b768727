"""The game's clicks: one manager call each, then the outcome presented (never the live table).

Order of work for a click that changes the game: the manager applies and saves it under the
table's lock, then the hand picture is drawn and the interaction answered with it (one request;
acknowledged first and shown after when the picture is slow). So a click Discord shows as
accepted is already saved. A player's private hand edits are ordered per (table, player): the
result of an earlier click is never drawn over a later one.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from functools import partial
from typing import TYPE_CHECKING, Any

import discord
from discord import ui

from bot.crashpoints import crash_point
from bot.engine.cards import Edition
from bot.i18n import Lang
from bot.i18n.pictures import picture_words
from bot.pictures import PictureQueue, Priority
from bot.render import render_hand, warm_up_steps
from bot.tables.commands import (
    Actor,
    CheckHouseRule,
    CheckHouseRules,
    CheckStart,
    Command,
    ShowHand,
    ShowPartners,
    Start,
)
from bot.tables.locks import KeyedLocks
from bot.tables.manager import TableManager
from bot.tables.notes import Note, note
from bot.tables.refusals import StaleClick, TableError
from bot.tables.snapshot import HandSnapshot, Outcome, TableSnapshot
from bot.tables.table import Status
from cogs.lang import user_lang
from cogs.league.recap import table_recap
from cogs.replies import NO_PINGS, let_go, say
from cogs.ui.board import TableBoard
from cogs.ui.hand import HAND_IMAGE, hand_layout, pages_of, reveal_text
from cogs.ui.house import house_panel
from cogs.ui.ids import (
    Broken,
    Cheer,
    Click,
    OpenHouseRule,
    OpenHouseRules,
    PickColor,
    PickTarget,
    Recap,
    Rematch,
    TurnPage,
    Watch,
)
from cogs.ui.lobby import lobby_view
from cogs.ui.pacer import ChannelPacer
from cogs.ui.partners import partners_text
from cogs.ui.table import thread_name

from .house_rule import HouseRuleModal
from .live_hands import HandMessage, LiveHands, closed_view, end_line
from .rematch import Rematches, threads_allowed_in
from .spectators import Spectators

if TYPE_CHECKING:
    from bot.client import UnoBot

    Itx = discord.Interaction[UnoBot]

log = logging.getLogger(__name__)

CLOSED = (Status.FINISHED, Status.CANCELLED)
# Discord wants a click answered within 3 s of when it was made. Its answer with the hand
# picture may go out until ANSWER_BY seconds after that (the rest is room for the upload): one
# request when the picture is ready in time; else the click is acknowledged first and the
# picture shown by a second request. A click that reached a busy bot late waits only what is
# left of that time.
ANSWER_BY = 2.0
UNKNOWN_MESSAGE = 10008  # Discord's code for a message that is gone

Drawing = Coroutine[Any, Any, tuple[ui.LayoutView, discord.File]]  # a hand picture being drawn


def answer_wait(made_at: float, now: float) -> float:
    """How long a click made at ``made_at`` may still wait for its picture at ``now``."""
    return min(ANSWER_BY, max(0.0, made_at + ANSWER_BY - now))  # a clock behind waits no more


def actor_of(interaction: discord.Interaction[Any]) -> Actor:
    """Who clicked, as the manager knows people."""
    user = interaction.user
    manager = bool(interaction.permissions.manage_guild) if interaction.guild_id else False
    return Actor(user.id, user.display_name, manager)


def refusal(interaction: discord.Interaction[Any], error: TableError) -> str:
    """A refusal in the clicking user's language."""
    return error.note.render(user_lang(interaction))


class GameClicks:
    """Presents the outcome of every game click; owns the table board and the hand pages."""

    def __init__(self, bot: UnoBot) -> None:
        self.bot = bot
        self.manager: TableManager = bot.tables
        # Every game picture is drawn here: players' pictures before restored tables'.
        self.pictures = PictureQueue()
        limit, per = bot.channel_writes
        self.board = TableBoard(
            bot,
            self.manager,
            min_interval=bot.edit_interval,
            pictures=self.pictures,
            pacer=ChannelPacer(limit, per),
        )
        self.pages: dict[tuple[str, int], int] = {}  # (table, seat) -> the hand page shown
        self.hands: KeyedLocks[tuple[str, int]] = KeyedLocks()  # (table, user) -> hand edits
        self._tasks: set[asyncio.Task[None]] = set()
        self._lobbies: dict[str, TableSnapshot] = {}  # lobby messages waiting to be redrawn
        self.rematches = Rematches(bot, self.manager)
        self.live = LiveHands(self)
        self.board.hand_follows = self.live.follows
        self.spectators = Spectators(self.manager, self.board, interval=bot.edit_interval)
        self.board.cheers = self.spectators.cheers.line
        self.manager.subscribe(self.board.on_change)
        self.manager.subscribe(self.on_change)
        self.manager.subscribe(self.live.on_change)
        self.manager.subscribe(self.rematches.on_change)
        self.manager.subscribe(self.spectators.on_change)

    def warm_up(self, editions: tuple[Edition, ...] = tuple(Edition)) -> None:
        """Build the editions' palettes and cards in the background (the first picture of an
        edition is then as fast as the next): step by step, each behind every picture a player
        waits for, so a start's first clicks do not share the CPU with it for long."""
        self.spawn(self._warm_up(editions))

    async def _warm_up(self, editions: tuple[Edition, ...]) -> None:
        for step in warm_up_steps(editions):
            await self.pictures.draw(step, priority=Priority.BACKGROUND)

    async def close(self) -> None:
        """Stop listening and cancel every background task (at unload)."""
        self.manager.unsubscribe(self.board.on_change)
        self.manager.unsubscribe(self.on_change)
        self.manager.unsubscribe(self.live.on_change)
        self.manager.unsubscribe(self.rematches.on_change)
        self.manager.unsubscribe(self.spectators.on_change)
        await self.spectators.close()
        await self.board.close()
        await self.live.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.pictures.close()

    def on_change(self, table: TableSnapshot) -> None:
        """A listener: a lobby closed by itself shows so; a closed table forgets hand pages; a
        restored table that changes has its waiting picture drawn with the players' ones."""
        if not self.manager.unchanged_since_restore(table):
            self.pictures.promote(table.table_id)
        if table.status is Status.CANCELLED and not table.started:
            # Not awaited here: listeners run under the table's lock, REST calls must not.
            self.spawn(self.refresh_lobby(table))
        if table.status in CLOSED:
            for key in [k for k in self.pages if k[0] == table.table_id]:
                del self.pages[key]

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` in a task this presenter owns (cancelled at close, failures logged)."""
        task = asyncio.get_running_loop().create_task(self._logged(work))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @staticmethod
    async def _logged(work: Coroutine[Any, Any, None]) -> None:
        try:
            await work
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("background presenter task failed")

    async def refresh_lobby(self, table: TableSnapshot) -> None:
        """Edit the lobby message to show ``table`` (a lobby changed by a command or a timer)."""
        if table.lobby_message_id is None:
            return
        channel = self.bot.get_channel(table.channel_id)
        if not isinstance(channel, discord.TextChannel | discord.Thread | discord.VoiceChannel):
            return
        try:
            await channel.get_partial_message(table.lobby_message_id).edit(
                view=lobby_view(table), allowed_mentions=NO_PINGS
            )
        except discord.HTTPException:
            log.warning("could not refresh the lobby of %s", table.table_id)

    def refresh_lobby_soon(self, table: TableSnapshot) -> None:
        """Redraw the lobby message to show ``table`` (or a newer snapshot): changes made while
        an edit is under way are drawn together by one more edit."""
        key = table.table_id
        waiting = self._lobbies.get(key)
        if waiting is not None:
            if table.version >= waiting.version:
                self._lobbies[key] = table
            return  # the running redraw takes it
        self._lobbies[key] = table
        self.spawn(self._redraw_lobby(key))

    async def _redraw_lobby(self, key: str) -> None:
        try:
            shown = -1
            while (table := self._lobbies.get(key)) is not None and table.version > shown:
                await self.refresh_lobby(table)
                shown = table.version
        finally:
            self._lobbies.pop(key, None)

    # ----- hands -----

    async def hand_message(
        self,
        outcome: Outcome,
        hand: HandSnapshot,
        *,
        page: int | None = None,
        picking: PickColor | None = None,
        aiming: PickTarget | None = None,
        note: str | None = None,
        tongue: Lang,
    ) -> tuple[ui.LayoutView, discord.File]:
        """The hand message for ``hand`` at the outcome's version (the picture in a thread), in
        its player's language."""
        key = (outcome.table.table_id, hand.seat)
        page = self.pages.get(key, 0) if page is None else page
        page = min(max(page, 0), pages_of(hand) - 1)
        self.pages[key] = page
        png = await self.pictures.draw(partial(render_hand, words=picture_words(tongue)), hand.view)
        layout = hand_layout(
            outcome.table.table_id,
            outcome.version,
            hand,
            page=page,
            picking=picking,
            aiming=aiming,
            names=outcome.table.names(),
            note=note,
            tongue=tongue,
        )
        return layout, discord.File(io.BytesIO(png), filename=HAND_IMAGE)

    async def show_hand(self, interaction: Itx, table_id: str, text: str | None = None) -> None:
        """The player's private hand (Show my hand, /uno hand): a fresh one where the player
        looks, which becomes their live hand (the one before it is retired)."""
        try:
            outcome = await self.manager.act(table_id, actor_of(interaction), ShowHand())
        except TableError as exc:
            await say(interaction, refusal(interaction, exc))
            return
        assert outcome.hand is not None
        user_id = interaction.user.id
        tongue = user_lang(interaction)
        async with self.hands.hold((table_id, user_id)):  # never drawn over a click's result
            posted = await self._answer(
                interaction,
                self.hand_message(outcome, outcome.hand, note=text, tongue=tongue),
                lambda view, file: interaction.response.send_message(
                    view=view, file=file, ephemeral=True, allowed_mentions=NO_PINGS
                ),
                lambda: interaction.response.defer(ephemeral=True, thinking=True),
            )
            hand = HandMessage.of_interaction(interaction, posted)
            self.live.remember(outcome, user_id, hand, tongue, closed=False)

    # ----- clicks -----

    async def on_click(self, interaction: Itx, click: Click | Broken) -> None:
        """Every game button lands here, decoded."""
        if isinstance(click, Broken):
            await say(interaction, note(click.key).render(user_lang(interaction)))
        elif click.surface == "lobby":
            await self.on_lobby(interaction, click)
        elif click.surface == "house":
            await self.on_house(interaction, click)
        elif click.surface == "rematch":
            await self.rematches.press(interaction, click.table_id, actor_of(interaction))
        elif click.surface == "table":
            await self.on_table(interaction, click)
        else:
            async with self.hands.hold((click.table_id, interaction.user.id)):
                await self.on_hand(interaction, click)

    async def on_lobby(self, interaction: Itx, click: Click) -> None:
        actor = actor_of(interaction)
        request = click.request
        if isinstance(request, OpenHouseRule):
            await self._open_house_rule(interaction, click.table_id)
            return
        if isinstance(request, OpenHouseRules):
            await self._open_house_rules(interaction, click.table_id)
            return
        if isinstance(request, Start):
            await self._start(interaction, click.table_id)
            return
        assert not isinstance(
            request, TurnPage | PickColor | PickTarget | Rematch | Watch | Cheer | Recap
        )
        try:
            outcome = await self.manager.act(click.table_id, actor, request)
        except TableError as exc:
            await say(interaction, refusal(interaction, exc))
            return
        await interaction.response.edit_message(
            view=lobby_view(outcome.table), allowed_mentions=NO_PINGS
        )

    async def _open_house_rule(self, interaction: Itx, table_id: str) -> None:
        try:
            outcome = await self.manager.act(table_id, actor_of(interaction), CheckHouseRule())
        except TableError as exc:
            await say(interaction, refusal(interaction, exc))
            return
        modal = HouseRuleModal(
            self.manager, table_id, outcome.table.house_rule, user_lang(interaction)
        )
        await interaction.response.send_modal(modal)

    async def _open_house_rules(self, interaction: Itx, table_id: str) -> None:
        """The host's private house rules panel."""
        try:
            outcome = await self.manager.act(table_id, actor_of(interaction), CheckHouseRules())
        except TableError as exc:
            await say(interaction, refusal(interaction, exc))
            return
        panel = house_panel(outcome.table, user_lang(interaction))
        await interaction.response.send_message(
            view=panel, ephemeral=True, allowed_mentions=NO_PINGS
        )
        let_go(panel)

    async def on_house(self, interaction: Itx, click: Click) -> None:
        """A preset or an option picked in the house rules panel: the panel and the lobby
        message show it."""
        request = click.request
        assert not isinstance(
            request,
            TurnPage
            | PickColor
            | PickTarget
            | OpenHouseRule
            | OpenHouseRules
            | Rematch
            | Watch
            | Cheer
            | Recap,
        )
        try:
            outcome = await self.manager.act(click.table_id, actor_of(interaction), request)
        except TableError as exc:
            await say(interaction, refusal(interaction, exc))
            return
        await interaction.response.edit_message(
            view=house_panel(outcome.table, user_lang(interaction)), allowed_mentions=NO_PINGS
        )
        if outcome.changed:
            self.refresh_lobby_soon(outcome.table)

    async def _start(self, interaction: Itx, table_id: str) -> None:
        actor = actor_of(interaction)
        try:
            lobby = await self.manager.act(table_id, actor, CheckStart())
        except TableError as exc:
            await say(interaction, refusal(interaction, exc))
            return
        await interaction.response.defer()  # opening the game's thread may take a moment
        thread_id = await self._open_thread(interaction, lobby.table)
        try:
            outcome = await self.manager.act(table_id, actor, Start(thread_id))
        except TableError as exc:
            await say(interaction, refusal(interaction, exc))
            return
        await interaction.edit_original_response(
            view=lobby_view(outcome.table), allowed_mentions=NO_PINGS
        )

    async def _open_thread(self, interaction: Itx, table: TableSnapshot) -> int | None:
        if not threads_allowed(interaction) or interaction.message is None:
            return None
        try:
            thread = await interaction.message.create_thread(
                name=thread_name(table, interaction.created_at), auto_archive_duration=1440
            )
        except discord.HTTPException:
            log.warning("could not open a thread for %s; playing in the channel", table.table_id)
            return None
        return thread.id

    async def on_table(self, interaction: Itx, click: Click) -> None:
        request = click.request
        if isinstance(request, ShowHand):
            await self.show_hand(interaction, click.table_id)
            return
        if isinstance(request, Watch):
            await self.spectators.watch(interaction, click.table_id)
            return
        if isinstance(request, Cheer):
            await self.spectators.cheer(interaction, click.table_id, request.emote)
            return
        if isinstance(request, Recap):
            await table_recap(interaction, click.table_id, request.round_number)
            return
        assert not isinstance(
            request,
            TurnPage
            | PickColor
            | PickTarget
            | OpenHouseRule
            | OpenHouseRules
            | Rematch
            | Watch
            | Cheer
            | Recap,
        )
        with self.board.hold(click.table_id):  # the answer goes out before the picture
            try:
                outcome = await self.manager.act(
                    click.table_id, actor_of(interaction), request, click.version
                )
            except StaleClick:
                await say(interaction, note("stale_prompt").render(user_lang(interaction)))
                return
            except TableError as exc:
                await say(interaction, refusal(interaction, exc))
                return
            tongue = user_lang(interaction)
            if outcome.reveal is not None:
                await say(interaction, reveal_text(outcome.table, outcome.reveal, tongue))
            elif isinstance(request, ShowPartners):
                await say(interaction, partners_text(outcome.table, outcome.partners, tongue))
            else:
                await say(interaction, (outcome.note or note("done")).render(tongue))

    async def on_hand(self, interaction: Itx, click: Click) -> None:
        """A hand button: applied and saved first, then answered with the redrawn hand."""
        request = click.request
        page: int | None = None
        picking: PickColor | None = None
        aiming: PickTarget | None = None
        command: Command
        version = click.version
        if isinstance(request, TurnPage):
            command, page, version = ShowHand(), request.page, None
        elif isinstance(request, PickColor):
            command, picking, version = ShowHand(), request, None
        elif isinstance(request, PickTarget):
            command, aiming, version = ShowHand(), request, None
        else:
            assert not isinstance(
                request, OpenHouseRule | OpenHouseRules | Rematch | Watch | Cheer | Recap
            )
            command = request
        message: Note | None
        tongue = user_lang(interaction)
        # The table message waits until this click is saved and answered: the clicker's hand
        # is drawn first, the table's picture after.
        with self.board.hold(click.table_id):
            try:
                outcome = await self.manager.act(
                    click.table_id, actor_of(interaction), command, version
                )
                message = outcome.note
            except TableError as exc:
                if exc.current is None or exc.current.hand is None:
                    await say(interaction, refusal(interaction, exc))
                    return
                outcome, message = exc.current, exc.note
            if picking is not None or aiming is not None:
                if click.version != outcome.version:
                    picking, aiming, message = None, None, note("hand_out_of_date")
                else:
                    message = note("choose_color" if picking is not None else "choose_target")
            text = message.render(tongue) if message is not None else None
            if outcome.reveal is not None:
                text = reveal_text(outcome.table, outcome.reveal, tongue)
            source = interaction.message.id if interaction.message else None
            user_id = interaction.user.id
            ending = outcome.table.status in (Status.ROUND_OVER, Status.FINISHED)
            closed = ending or outcome.hand is None
            if ending:  # the round's end line, with the click's own note above it
                ended = end_line(outcome.table, tongue)
                text = f"-# {text}\n{ended}" if text else ended
            answer: ui.LayoutView | Drawing
            if closed:
                answer = closed_view(text or note("game_over").render(tongue))
            else:
                assert outcome.hand is not None
                answer = self.hand_message(
                    outcome,
                    outcome.hand,
                    page=page,
                    picking=picking,
                    aiming=aiming,
                    note=text,
                    tongue=tongue,
                )
            if self.live.replaced(click.table_id, user_id, source):
                # A newer hand replaced the one clicked (it is being deleted): the click is
                # applied all the same and answered on the live hand, never on the retired one.
                await self._answer_on_live_hand(interaction, outcome, answer)
                return
            hand = HandMessage.of_interaction(interaction, source)
            try:
                if isinstance(answer, ui.LayoutView):
                    await interaction.response.edit_message(
                        content=None, view=answer, attachments=[]
                    )
                    crash_point("ack")  # crash tests: killed the instant the click is answered
                else:
                    await self._answer(
                        interaction,
                        answer,
                        lambda view, file: interaction.response.edit_message(
                            view=view, attachments=[file], allowed_mentions=NO_PINGS
                        ),
                        interaction.response.defer,
                        answered=lambda: crash_point("ack"),  # crash tests: killed right then
                    )
            except discord.NotFound as exc:
                if exc.code != UNKNOWN_MESSAGE:
                    raise
                # The hand was deleted before its answer went out: the click is saved, the
                # hand moved on (the player's live hand, if another, follows the change).
                log.info("a hand was gone before its click was answered")
                self.live.gone(click.table_id, user_id, source)
                return
            self.live.remember(outcome, user_id, hand, tongue, closed=closed)

    async def _answer_on_live_hand(
        self,
        interaction: Itx,
        outcome: Outcome,
        answer: ui.LayoutView | Drawing,
    ) -> None:
        """Answer a click from a retired hand: acknowledged without touching that message
        (it may be gone already), the answer (a closed line, or the hand once drawn) shown on
        the player's live hand."""
        try:
            with contextlib.suppress(discord.NotFound):
                await interaction.response.defer()
        except BaseException:
            if not isinstance(answer, ui.LayoutView):
                answer.close()  # never drawn
            raise
        user_id = interaction.user.id
        if isinstance(answer, ui.LayoutView):
            await self.live.show(outcome, user_id, answer, closed=True)
            return
        view, file = await answer
        await self.live.show(outcome, user_id, view, file, closed=False)
        let_go(view)

    @staticmethod
    async def _answer(
        interaction: Itx,
        drawing: Coroutine[Any, Any, tuple[ui.LayoutView, discord.File]],
        show: Callable[[ui.LayoutView, discord.File], Awaitable[Any]],
        defer: Callable[[], Awaitable[Any]],
        answered: Callable[[], None] = lambda: None,
    ) -> int | None:
        """Answer a click with its hand picture: in one request (``show``) when it is drawn
        in time (``answer_wait``); else acknowledged first (``defer``), and the answer edited
        to show the picture once drawn. ``answered`` runs the moment the click is answered.
        Returns the id of the message the answer posted, when Discord told it."""
        wait = answer_wait(interaction.created_at.timestamp(), time.time())
        task = asyncio.ensure_future(drawing)
        try:
            await asyncio.wait((task,), timeout=wait)
            late = not task.done()
            if late:
                sent = await defer()
            else:
                sent = await show(*task.result())
            answered()
            layout, file = await task
            if late:
                sent = await interaction.edit_original_response(view=layout, attachments=[file])
            let_go(layout)
            posted = getattr(sent, "message_id", None) or getattr(sent, "id", None)
            return posted if isinstance(posted, int) else None
        finally:
            task.cancel()  # only ever pending when the answer failed


def threads_allowed(interaction: discord.Interaction[Any]) -> bool:
    """May the bot open a thread for a game here (a text channel with the permissions)."""
    return interaction.guild is not None and threads_allowed_in(interaction.channel)
