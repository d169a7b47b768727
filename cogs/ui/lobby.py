"""The lobby message: edition, settings, seats and the Join/Leave/Start/Cancel buttons, in the
table's language."""

from __future__ import annotations

from typing import Any

import discord
from discord import ui

from bot.engine.ai import LEVELS
from bot.engine.cards import Edition
from bot.engine.rules import RuleSet
from bot.engine.teams import TEAM_COUNTS, fitting_counts
from bot.i18n import ENGLISH_LANG, Lang, lang
from bot.i18n.game_words import edition_title
from bot.tables.commands import (
    AddComputer,
    Cancel,
    ChooseTeam,
    Join,
    Leave,
    SetPartnersSee,
    SetTeams,
    Start,
)
from bot.tables.house_words import rules_line
from bot.tables.lobby import MAX_SEATS, MIN_SEATS
from bot.tables.names import safe_name, safe_text
from bot.tables.notes import note
from bot.tables.snapshot import TableSnapshot
from bot.tables.table import Status
from bot.tables.teams import team_mark

from .ids import OpenHouseRule, OpenHouseRules
from .items import button

EDITION_ACCENT = {Edition.CLASSIC: 0xE53935, Edition.SONIC: 0x1E63D6, Edition.MARIO: 0xF4B400}


def describe_rules(rules: RuleSet, tongue: Lang = ENGLISH_LANG) -> str:
    """The edition and when the match ends and who wins it, in one line."""
    return f"{edition_title(rules.edition, tongue)} · {match_goal(rules, tongue)}"


def match_goal(rules: RuleSet, tongue: Lang = ENGLISH_LANG) -> str:
    """When the match ends and who wins it, under its scoring."""
    _ = tongue.gettext
    if rules.scoring.value == "lowest":
        if rules.target:
            return _("ends when someone reaches {target} points · lowest total wins").format(
                target=rules.target
            )
        return _("a single round · lowest score wins")
    if rules.target:
        return _("first to {target} points wins").format(target=rules.target)
    return _("a single round · first to go out wins")


def teams_line(rules: RuleSet, tongue: Lang = ENGLISH_LANG) -> str:
    """How many teams, and whether partners see each other's hands (empty without teams)."""
    _ = tongue.gettext
    if not rules.teams:
        return ""
    line = tongue.ngettext("{count} team", "{count} teams", rules.teams).format(count=rules.teams)
    marks = "".join(team_mark(t) for t in range(rules.teams))
    seen = _("partners see each other's hands") if rules.partners_see else _("hands kept private")
    return f"{marks} {line} · {seen}"


def team_name(team: int, tongue: Lang = ENGLISH_LANG) -> str:
    """A team's mark and name: ``🟥 Team 1``."""
    return f"{team_mark(team)} " + tongue.gettext("Team {number}").format(number=team + 1)


def team_buttons(table: TableSnapshot, tongue: Lang) -> list[ui.ActionRow[Any]]:
    """The host's team settings, and each team to pick (while teams are on)."""
    _ = tongue.gettext
    t, teams = table.table_id, table.rules.teams
    following = TEAM_COUNTS[(TEAM_COUNTS.index(teams) + 1) % len(TEAM_COUNTS)]
    label = _("Teams: {count}").format(count=teams) if teams else _("Teams: off")
    settings = ui.ActionRow[Any](button(t, 0, SetTeams(following), label=label, emoji="👥"))
    if not teams:
        return [settings]
    see = table.rules.partners_see
    settings.add_item(
        button(
            t,
            0,
            SetPartnersSee(not see),
            label=_("Partners see hands: on") if see else _("Partners see hands: off"),
            emoji="👀",
        )
    )
    picks = ui.ActionRow[Any](
        *(button(t, 0, ChooseTeam(team), label=team_name(team, tongue)) for team in range(teams))
    )
    if teams < len(TEAM_COUNTS):
        picks.add_item(button(t, 0, ChooseTeam(None), label=_("Any team")))
    else:
        settings.add_item(button(t, 0, ChooseTeam(None), label=_("Any team")))
    return [settings, picks]


def lobby_view(table: TableSnapshot) -> ui.LayoutView:
    """The lobby as it stands (or what became of it once started or cancelled)."""
    tongue = lang(table.locale)
    _ = tongue.gettext
    view = ui.LayoutView(timeout=None)
    seats = "\n".join(
        f"{i + 1}. {safe_name(seat.name)}"
        + (" 👑" if seat.user_id == table.host_id else "")
        + (
            " · "
            + _("computer ({level})").format(level=note(f"level.{seat.computer}").render(tongue))
            if seat.computer
            else ""
        )
        + (
            " · " + team_name(seat.team, tongue)
            if table.rules.teams and seat.team is not None
            else ""
        )
        for i, seat in enumerate(table.seats)
    )
    players = _("Players ({seated}/{seats})").format(seated=len(table.seats), seats=MAX_SEATS)
    lines = [
        f"## 🎴 {describe_rules(table.rules, tongue)}\n**{rules_line(table.rules.house, tongue)}**",
        f"**{players}**\n{seats}",
    ]
    if table.rules.teams:
        counts = ", ".join(str(n) for n in fitting_counts(table.rules.teams))
        lines.append(
            f"**{teams_line(table.rules, tongue)}**\n-# "
            + _(
                "Pick a team, or let the bot seat you: partners sit apart, teams take turns. "
                "Players: {counts}."
            ).format(counts=counts)
        )
    # A Wild Customizable with an enforced effect (the rules line names it) announces no
    # written rule, so none is asked for.
    mario = table.rules.edition is Edition.MARIO and table.rules.house.custom_effect.value == "none"
    if mario:
        rule = safe_text(table.house_rule) if table.house_rule else _("*not written yet*")
        lines.append(_("**Wild Customizable house rule:** {rule}").format(rule=rule))
    container = ui.Container[Any](accent_colour=EDITION_ACCENT[table.rules.edition])
    if table.status is Status.LOBBY:
        lines.append(
            "-# "
            + _("Join with the button. The host starts the game ({low} to {high} players).").format(
                low=MIN_SEATS, high=MAX_SEATS
            )
        )
        container.add_item(ui.TextDisplay("\n\n".join(lines)))
        view.add_item(container)
        t = table.table_id
        view.add_item(
            ui.ActionRow[Any](
                button(t, 0, Join(), label=_("Join"), style=discord.ButtonStyle.success),
                button(t, 0, Leave(), label=_("Leave")),
                button(t, 0, Start(), label=_("Start"), style=discord.ButtonStyle.primary),
                button(t, 0, Cancel(), label=_("Cancel"), style=discord.ButtonStyle.danger),
            )
        )
        extras = ui.ActionRow[Any]()
        if table.computers is not None:
            for level in LEVELS:
                level_name = note(f"level.{level}").render(tongue)
                extras.add_item(
                    button(
                        t,
                        0,
                        AddComputer(level),
                        label=_("Add computer ({level})").format(level=level_name),
                        style=discord.ButtonStyle.primary
                        if level == table.computers
                        else discord.ButtonStyle.secondary,
                        emoji="🤖",
                    )
                )
        if mario:
            extras.add_item(
                button(t, 0, OpenHouseRule(), label=_("Wild Customizable rule"), emoji="✏️")
            )
        extras.add_item(button(t, 0, OpenHouseRules(), label=_("House rules"), emoji="⚙️"))
        if extras.children:
            view.add_item(extras)
        for row in team_buttons(table, tongue):
            view.add_item(row)
        return view
    if table.status is Status.CANCELLED:
        lines.append("**" + _("This game was cancelled.") + "**")
    elif table.thread_id is not None:
        lines.append(
            "**" + _("The game is on in {thread}!").format(thread=f"<#{table.thread_id}>") + "**"
        )
    else:
        lines.append("**" + _("The game has started below.") + "**")
    container.add_item(ui.TextDisplay("\n\n".join(lines)))
    view.add_item(container)
    return view
