"""The replay of a recorded round: a private stepper opened from /uno history.

Every button and the moments list carry the round and the move to show in their custom ids
(``unorp:guild:match:round:move:which``), and each click replays the stored record to that move
and redraws the message through its own interaction. Nothing is kept in memory, so the stepper
works after Discord's 15-minute interaction window and after a restart alike.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from typing import TYPE_CHECKING, Any, Self, cast

import discord
from discord import ui

from bot.engine.cards import CODES
from bot.engine.errors import RuleError
from bot.engine.record import RecordError, RoundRecord
from bot.engine.review import Moment, ReviewedRound, review, team_scores_around
from bot.engine.snapshot import public_view, sort_key
from bot.i18n import ENGLISH_LANG, N_, Lang
from bot.i18n.game_words import edition_short
from bot.i18n.pictures import picture_words
from bot.render.replay import render_replay
from bot.storage.models import MatchDetail
from bot.tables.names import safe_name
from bot.tables.narrate import narrate
from bot.tables.tablelog import entries
from cogs.lang import user_lang
from cogs.replies import NO_PINGS, let_go, say
from cogs.ui.lobby import team_name
from cogs.ui.table import alt_text, card_words

from .common import guarded, storage_of
from .former import A_FORMER_PLAYER, sentence_start
from .presenters import ACCENT
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

REPLAY_IMAGE = "replay.png"
STEP_TEMPLATE = (
    r"unorp:(?P<guild>[0-9]{1,20}):(?P<number>[0-9]{1,19}):(?P<round>[0-9]{1,3})"
    r":(?P<move>[0-9]{1,5}):(?P<which>[fpnl])"
)
MOMENTS_TEMPLATE = r"unorpk:(?P<guild>[0-9]{1,20}):(?P<number>[0-9]{1,19}):(?P<round>[0-9]{1,3})"
PICK_TEMPLATE = r"unorpl:(?P<guild>[0-9]{1,20}):(?P<number>[0-9]{1,19})"
STEP_EMOJI = {"f": "⏮", "p": "◀", "n": "▶", "l": "⏭"}
MAX_MOMENTS = 25  # a select's options
MOMENT_WORDS = {
    "wild_draw4": N_("Wild Draw Four"),
    "challenge": N_("Wild Draw Four challenged"),
    "stack": N_("stacked draws"),
    "penalty": N_("big draw"),
    "catch": N_("caught"),
    "swap": N_("hands swapped"),
    "jump_in": N_("jump-in"),
    "leave": N_("left"),
    "went_out": N_("round over"),
}
NO_SUCH_MATCH = N_("That match is no longer recorded.")
OTHER_SERVER = N_("That history belongs to another server.")


# ----- the items -----


class ReplayRoundSelect(ui.DynamicItem[ui.Select[Any]], template=PICK_TEMPLATE):
    """Under a match's details: pick a round to replay it move by move."""

    def __init__(
        self, guild_id: int, number: int, rounds: int = 0, tongue: Lang = ENGLISH_LANG
    ) -> None:
        _ = tongue.gettext
        super().__init__(
            round_select(
                f"unorpl:{guild_id}:{number}", _("Replay a round, move by move"), rounds, tongue
            )
        )
        self.guild_id = guild_id
        self.number = number

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["guild"]), int(match["number"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        value = picked(interaction)
        await guarded(interaction, open_replay(interaction, self.guild_id, self.number, value))


class ReplayStepButton(ui.DynamicItem[ui.Button[Any]], template=STEP_TEMPLATE):
    """⏮ ◀ ▶ ⏭ in a replay: the move to show is in the custom id."""

    def __init__(
        self,
        guild_id: int,
        number: int,
        round_number: int,
        move: int,
        which: str,
        *,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            ui.Button(
                emoji=STEP_EMOJI[which],
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"unorp:{guild_id}:{number}:{round_number}:{move}:{which}",
            )
        )
        self.guild_id = guild_id
        self.number = number
        self.round_number = round_number
        self.move = move

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(
            int(match["guild"]),
            int(match["number"]),
            int(match["round"]),
            int(match["move"]),
            match["which"],
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        work = show_move(interaction, self.guild_id, self.number, self.round_number, self.move)
        await guarded(interaction, work)


class ReplayMomentSelect(ui.DynamicItem[ui.Select[Any]], template=MOMENTS_TEMPLATE):
    """A replay's key moments: the chosen option is the move to show."""

    def __init__(
        self,
        guild_id: int,
        number: int,
        round_number: int,
        options: list[discord.SelectOption] | None = None,
        tongue: Lang = ENGLISH_LANG,
    ) -> None:
        super().__init__(
            ui.Select(
                custom_id=f"unorpk:{guild_id}:{number}:{round_number}",
                placeholder=tongue.gettext("Jump to a key moment"),
                options=options or [discord.SelectOption(label="0", value="0")],
            )
        )
        self.guild_id = guild_id
        self.number = number
        self.round_number = round_number

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["guild"]), int(match["number"]), int(match["round"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        data = cast(dict[str, Any], interaction.data or {})
        value = str((data.get("values") or [""])[0])
        move = int(value) if value.isascii() and value.isdigit() and len(value) <= 5 else -1
        work = show_move(interaction, self.guild_id, self.number, self.round_number, move)
        await guarded(interaction, work)


REPLAY_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (
    ReplayRoundSelect,
    ReplayStepButton,
    ReplayMomentSelect,
)


# ----- what a step shows -----


def move_text(reviewed: ReviewedRound, move: int, names: list[str], tongue: Lang) -> str:
    """What happened at ``move`` (0: the deal), one line per thing told (``names`` as running
    text tells them)."""
    events = reviewed.deal if move == 0 else reviewed.moves[move - 1].events
    former = safe_name(tongue.gettext(A_FORMER_PLAYER))
    told = [sentence_start(narrate(entry, names, tongue), former) for entry in entries(events)]
    if move == 0 and not told:
        told = [tongue.gettext("The cards are dealt.")]
    return "\n".join(f"- {line}" for line in told) or "-# " + tongue.gettext("(nothing changed)")


def moment_label(moment: Moment, names: list[str], tongue: Lang) -> str:
    """A key moment as the list names it: its move, what it was and who."""
    _ = tongue.gettext
    what = _(MOMENT_WORDS[moment.kind])
    if moment.count:
        what += f" (+{moment.count})"
    name = names[moment.seat] if 0 <= moment.seat < len(names) else "?"
    return _("Move {number}: {what} · {name}").format(number=moment.number, what=what, name=name)[
        :100
    ]


def moment_options(
    reviewed: ReviewedRound, names: list[str], tongue: Lang
) -> list[discord.SelectOption]:
    """Up to 25 moments, one per move; the round's end always among them."""
    seen: set[int] = set()
    moments: list[Moment] = []
    for moment in reviewed.moments():
        if moment.number not in seen:
            seen.add(moment.number)
            moments.append(moment)
    if len(moments) > MAX_MOMENTS:
        moments = [*moments[: MAX_MOMENTS - 1], moments[-1]]
    return [
        discord.SelectOption(label=moment_label(m, names, tongue), value=str(m.number))
        for m in moments
    ]


def replay_alt(
    reviewed: ReviewedRound,
    move: int,
    names: list[str],
    tongue: Lang,
    team_scores: tuple[list[int], list[int]] = ([], []),
) -> str:
    """The picture in words: the top card, every hand and a team round's team scores."""
    game = reviewed.game_at(move)
    hands = "; ".join(
        f"{names[s]}: " + ", ".join(card_words(CODES[c], tongue) for c in sorted(h, key=sort_key))
        for s, h in enumerate(game.hands)
        if game.active[s]
    )
    top = card_words(CODES[game.discard[-1]], tongue) if game.discard else "?"
    text = tongue.gettext("Replay. Top card: {card}. Hands: {hands}.")
    text = text.format(card=top, hands=hands)
    if shown := team_scores[1 if game.over else 0]:
        teams = " · ".join(
            f"{team_name(team, tongue)}: {score}" for team, score in enumerate(shown)
        )
        text += f" {teams}."
    return alt_text(text)


def draw_move(
    reviewed: ReviewedRound,
    move: int,
    names: list[str],
    tongue: Lang,
    team_scores: tuple[list[int], list[int]] = ([], []),
    round_number: int = 1,
) -> bytes:
    """The table at ``move`` with every hand shown (on a worker thread); ``team_scores``: a team
    round's team totals while it was played, and once scored."""
    game = reviewed.game_at(move)
    shown = team_scores[1 if game.over else 0]
    view = public_view(game, names, round_number=round_number, team_scores=shown)
    hands = [[CODES[c] for c in sorted(hand, key=sort_key)] for hand in game.hands]
    return render_replay(view, hands, words=picture_words(tongue))


def replay_layout(
    detail: MatchDetail,
    round_number: int,
    reviewed: ReviewedRound,
    move: int,
    names: list[str],
    tongue: Lang,
    told: list[str] | None = None,
    team_scores: tuple[list[int], list[int]] = ([], []),
) -> ui.LayoutView:
    """The stepper at ``move``: where it is, what happened, the picture and the controls
    (``names`` label the seats, ``told`` names them in sentences; ``team_scores`` as for
    ``draw_move``)."""
    _ = tongue.gettext
    total = reviewed.total
    safe = [safe_name(name) for name in (told or names)]
    head = "### ⏯ " + _("Replay · match #{number} · round {round} · {edition}").format(
        number=detail.number, round=round_number, edition=edition_short(detail.edition, tongue)
    )
    where = (
        _("The deal · {total} moves").format(total=total)
        if move == 0
        else _("Move {number} of {total}").format(number=move, total=total)
    )
    layout = ui.LayoutView(timeout=None)
    container = ui.Container[Any](accent_colour=ACCENT)
    container.add_item(
        ui.TextDisplay(f"{head}\n**{where}**\n{move_text(reviewed, move, safe, tongue)}")
    )
    item = discord.MediaGalleryItem(
        f"attachment://{REPLAY_IMAGE}",
        description=replay_alt(reviewed, move, names, tongue, team_scores),
    )
    container.add_item(ui.MediaGallery(item))
    layout.add_item(container)
    g, n, r = detail.guild_id, detail.number, round_number
    layout.add_item(
        ui.ActionRow[Any](
            ReplayStepButton(g, n, r, 0, "f", disabled=move == 0),
            ReplayStepButton(g, n, r, max(0, move - 1), "p", disabled=move == 0),
            ReplayStepButton(g, n, r, min(total, move + 1), "n", disabled=move >= total),
            ReplayStepButton(g, n, r, total, "l", disabled=move >= total),
        )
    )
    options = moment_options(reviewed, names, tongue)
    if options:
        layout.add_item(ui.ActionRow[Any](ReplayMomentSelect(g, n, r, options, tongue)))
    return layout


# ----- the handlers -----


async def load_round(
    interaction: discord.Interaction[UnoBot], guild_id: int, number: int, round_number: int
) -> tuple[MatchDetail, RoundRecord] | None:
    """The match and its round's record, or None after telling the user why not."""
    _ = user_lang(interaction).gettext
    if interaction.guild_id != guild_id:
        await say(interaction, _(OTHER_SERVER))
        return None
    storage = storage_of(interaction)
    detail = await storage.match_detail(guild_id, number)
    if detail is None:
        await say(interaction, _(NO_SUCH_MATCH))
        return None
    text = await storage.round_record(guild_id, number, round_number)
    if text is None:
        await say(interaction, _(NOT_RECORDED))
        return None
    try:
        record = RoundRecord.from_text(text)
        record.replay()  # a record that no longer replays is told as damaged, not half shown
        return detail, record
    except (RecordError, RuleError):
        log.warning("unreadable round record: match %s round %s", number, round_number)
        await say(interaction, _(DAMAGED))
        return None


async def open_replay(
    interaction: discord.Interaction[UnoBot], guild_id: int, number: int, value: str
) -> None:
    """A round picked under a match's details: a new private stepper at the deal."""
    _ = user_lang(interaction).gettext
    if interaction.guild_id != guild_id:
        await say(interaction, _(OTHER_SERVER))
        return
    detail = await storage_of(interaction).match_detail(guild_id, number)
    if detail is None:
        await say(interaction, _(NO_SUCH_MATCH))
        return
    round_number = round_of(value, len(detail.rounds))
    if round_number is None:
        await say(interaction, _("Pick a round from the list."))
        return
    await present(interaction, guild_id, number, round_number, 0, new=True)


async def show_move(
    interaction: discord.Interaction[UnoBot],
    guild_id: int,
    number: int,
    round_number: int,
    move: int,
) -> None:
    """A step button or a moment: the same stepper message, redrawn at ``move``."""
    await present(interaction, guild_id, number, round_number, move, new=False)


async def present(
    interaction: discord.Interaction[UnoBot],
    guild_id: int,
    number: int,
    round_number: int,
    move: int,
    *,
    new: bool,
) -> None:
    """Replay the stored round to ``move`` and show it: a new message, or this one redrawn."""
    tongue = user_lang(interaction)
    loaded = await load_round(interaction, guild_id, number, round_number)
    if loaded is None:
        return
    detail, record = loaded
    if not 0 <= move <= len(record.actions):
        await say(interaction, tongue.gettext("That move is not in this round."))
        return
    if new:
        await interaction.response.defer(ephemeral=True, thinking=True)
    else:
        await interaction.response.defer()
    seats = await present_seat_names(interaction.guild, detail.players, tongue)
    names = seats.labels
    reviewed = await asyncio.to_thread(review, record)
    around = team_scores_around(scores_after(detail, round_number, names))
    png = await asyncio.to_thread(draw_move, reviewed, move, names, tongue, around, round_number)
    layout = replay_layout(detail, round_number, reviewed, move, names, tongue, seats.told, around)
    file = discord.File(io.BytesIO(png), filename=REPLAY_IMAGE)
    if new:
        await interaction.followup.send(
            view=layout, file=file, ephemeral=True, allowed_mentions=NO_PINGS
        )
    else:
        await interaction.edit_original_response(
            view=layout, attachments=[file], allowed_mentions=NO_PINGS
        )
    let_go(layout)
