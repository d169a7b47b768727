"""A recorded round from /uno history: exported as a file the engine's scenario command replays.

Names in what leaves the bot are those of members still in the server (computers keep theirs);
anyone else is "Former player" (told as "a former player" in sentences).
"""

from __future__ import annotations

import io
import json
import logging
import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Self, cast

import discord
from discord import ui

from bot.engine.match import ScoreView
from bot.engine.record import RecordError, RoundRecord
from bot.i18n import ENGLISH_LANG, N_, Lang
from bot.storage.models import FORMER_PLAYER_ID, MatchDetail, PlayerResult
from cogs.lang import user_lang
from cogs.replies import NO_PINGS, say

from .common import guarded, storage_of
from .former import SeatNames, seat_names

if TYPE_CHECKING:
    from bot.client import UnoBot

log = logging.getLogger(__name__)

ROUND_EXPORT_TEMPLATE = r"unorec:(?P<guild>[0-9]{1,20}):(?P<number>[0-9]{1,19})"
MAX_ROUND_OPTIONS = 25  # Discord's limit for a select's options


def round_select(custom_id: str, placeholder: str, rounds: int, tongue: Lang) -> ui.Select[Any]:
    """A select of a match's rounds (at least round 1), as the history's pickers show it."""
    _ = tongue.gettext
    options = [
        discord.SelectOption(label=_("Round {n}").format(n=r), value=str(r))
        for r in range(1, min(rounds, MAX_ROUND_OPTIONS) + 1)
    ] or [discord.SelectOption(label=_("Round {n}").format(n=1), value="1")]
    return ui.Select(custom_id=custom_id, placeholder=placeholder, options=options)


def picked(interaction: discord.Interaction[Any]) -> str:
    """The value a select's click picked ("" if none)."""
    data = cast(dict[str, Any], interaction.data or {})
    return str((data.get("values") or [""])[0])


MEMBERSHIP_TTL = 600.0  # a member who left shows as "Former player" within ten minutes
MEMBERSHIP_KEPT = 4096
NOT_RECORDED = N_("That round was not recorded (it was played before rounds were kept).")
DAMAGED = N_("That round's record cannot be read; nothing was sent.")


class Membership:
    """Who is still in a server, as Discord last said (the bot keeps no member list): asked
    once per member and kept ``ttl`` seconds, so stepping through a replay asks nothing."""

    def __init__(
        self, ttl: float = MEMBERSHIP_TTL, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.ttl = ttl
        self.clock = clock
        self._known: dict[tuple[int, int], tuple[bool, float]] = {}

    async def is_member(self, guild: discord.Guild, user_id: int) -> bool:
        """True while ``user_id`` is a member of ``guild``; False when gone or unknown."""
        now = self.clock()
        key = (guild.id, user_id)
        known = self._known.get(key)
        if known is not None and now - known[1] < self.ttl:
            return known[0]
        if guild.get_member(user_id) is not None:
            present = True
        else:
            try:
                await guild.fetch_member(user_id)
            except discord.NotFound:
                present = False
            except discord.HTTPException:
                log.warning("could not check member %s; name withheld", user_id)
                return False
            else:
                present = True
        if len(self._known) >= MEMBERSHIP_KEPT:
            self._known.clear()  # a rare sweep: what it forgets is asked again
        self._known[key] = (present, now)
        return present


MEMBERS = Membership()


async def present_seat_names(
    guild: discord.Guild | None,
    players: list[PlayerResult],
    tongue: Lang = ENGLISH_LANG,
    members: Membership = MEMBERS,
) -> SeatNames:
    """Each seat's name as it may be shown: a computer's, a member's still in the server, or
    "Former player" ("a former player" in a sentence)."""
    shown: list[str | None] = []
    for player in sorted(players, key=lambda p: p.seat):
        if player.computer:
            shown.append(player.name)
        elif player.user_id == FORMER_PLAYER_ID or guild is None:
            shown.append(None)
        elif await members.is_member(guild, player.user_id):
            shown.append(player.name)
        else:
            shown.append(None)
    return seat_names(shown, tongue)


async def present_names(
    guild: discord.Guild | None,
    players: list[PlayerResult],
    tongue: Lang = ENGLISH_LANG,
    members: Membership = MEMBERS,
) -> list[str]:
    """Each seat's name as a label: a computer's, a member's still in the server, or
    "Former player"."""
    return (await present_seat_names(guild, players, tongue, members)).labels


def scores_after(detail: MatchDetail, round_number: int, names: list[str]) -> ScoreView:
    """The scoreboard as it stood after ``round_number`` (with a team match's team totals)."""
    rounds = detail.rounds[:round_number]
    totals = tuple(rounds[-1].totals) if rounds else (0,) * len(names)
    teams = detail.teams
    team_totals = [0] * teams
    for seat, total in enumerate(totals):
        if teams:
            team_totals[seat % teams] += total
    last = round_number == len(detail.rounds)
    winners = tuple(p.seat for p in detail.players if p.winner) if last else ()
    return ScoreView(
        edition=detail.edition,  # type: ignore[arg-type]
        names=tuple(names),
        rounds=tuple(tuple(r.points) for r in rounds),
        totals=totals,
        target=detail.target,
        scoring=detail.scoring,
        round_winners=tuple(r.winner_seat for r in rounds),
        winners=winners,
        active=(True,) * len(names),
        teams=teams,
        team_totals=tuple(team_totals),
        winner_teams=tuple(sorted({s % teams for s in winners})) if teams else (),
    )


def round_file(
    record: RoundRecord, detail: MatchDetail, round_number: int, names: list[str]
) -> discord.File:
    """The round in the scenario command's format, labelled with the match, round and names."""
    data = record.to_scenario(match=detail.number, round=round_number, names=names)
    body = json.dumps(data, indent=1, ensure_ascii=False)
    filename = f"uno-match-{detail.number}-round-{round_number}.json"
    return discord.File(io.BytesIO(body.encode("utf-8")), filename=filename)


class RoundExportSelect(ui.DynamicItem[ui.Select[Any]], template=ROUND_EXPORT_TEMPLATE):
    """Under a match's details: pick a round to get it as a file."""

    def __init__(
        self, guild_id: int, number: int, rounds: int = 0, tongue: Lang = ENGLISH_LANG
    ) -> None:
        _ = tongue.gettext
        super().__init__(
            round_select(
                f"unorec:{guild_id}:{number}", _("Export a round as a file"), rounds, tongue
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
        await guarded(interaction, on_round_export(interaction, self, picked(interaction)))


def round_of(value: str, rounds: int) -> int | None:
    """A picked round number, or None for anything the select never offered."""
    if not (value.isascii() and value.isdigit()) or len(value) > 3:
        return None
    number = int(value)
    return number if 1 <= number <= rounds else None


async def on_round_export(
    interaction: discord.Interaction[UnoBot], select: RoundExportSelect, value: str
) -> None:
    """Send the picked round privately as a scenario file."""
    tongue = user_lang(interaction)
    _ = tongue.gettext
    if interaction.guild_id != select.guild_id:
        await say(interaction, _("That history belongs to another server."))
        return
    storage = storage_of(interaction)
    detail = await storage.match_detail(select.guild_id, select.number)
    if detail is None:
        await say(interaction, _("That match is no longer recorded."))
        return
    number = round_of(value, len(detail.rounds))
    if number is None:
        await say(interaction, _("Pick a round from the list."))
        return
    text = await storage.round_record(select.guild_id, select.number, number)
    if text is None:
        await say(interaction, _(NOT_RECORDED))
        return
    try:
        record = RoundRecord.from_text(text)
    except RecordError:
        log.warning("unreadable round record: match %s round %s", select.number, number)
        await say(interaction, _(DAMAGED))
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    names = await present_names(interaction.guild, detail.players, tongue)
    message = _(
        "Round {round} of match #{number}, with its deck, seed and every move. Replay it with "
        "`python -m bot.engine scenario FILE`."
    ).format(round=number, number=detail.number)
    await interaction.followup.send(
        message,
        file=round_file(record, detail, number, names),
        ephemeral=True,
        allowed_mentions=NO_PINGS,
    )
