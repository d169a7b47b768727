"""A tournament as people see it: the standings message (text, picture, buttons), the podium,
and the texts of its refusals. Pure: from a copy of the tournament, in a language."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord
from discord import ui

from bot.i18n import N_, Lang
from bot.render.tournament import render_bracket, render_standings
from bot.tables.names import safe_name
from bot.tables.teams import team_mark
from bot.tournament.model import (
    Kind,
    Standing,
    Tournament,
    TournamentError,
    bracket_marks,
    bracket_names,
    standings_lines,
    team_bracket,
)

from .items import TournamentButton

STANDINGS_IMAGE = "standings.png"
ACCENT = 0xF1C40F
SHOWN = 10  # standings lines in the text (the picture shows 20)
MEDALS = ("🥇", "🥈", "🥉")

REFUSALS: Mapping[str, str] = {
    "tournament_unknown": N_("There is no tournament in this channel."),
    "tournament_channel_busy": N_("A tournament is already running in this channel."),
    "tournament_over": N_("This tournament is over."),
    "tournament_started": N_("This knockout has already started."),
    "tournament_joined": N_("You are already in this tournament."),
    "tournament_not_waiting": N_("You are not waiting for a table in this tournament."),
    "tournament_too_few": N_("A knockout needs at least 3 players."),
    "tournament_no_berserk": N_("Berserk is for arenas only."),
    "tournament_too_few_teams": N_("A team knockout needs at least 4 players: two teams of two."),
    "tournament_odd_players": N_(
        "A team knockout needs an even number of players: every team is two. One more player, "
        "or one fewer, and start again."
    ),
    "tournament_save_failed": N_(
        "Could not save the tournament; nothing changed. Please try again."
    ),
}
SORRY = N_("Something went wrong on my side; nothing was changed. Please try again.")


def refusal(error: TournamentError, tongue: Lang) -> str:
    """A refused request, in the asker's language."""
    return tongue.gettext(REFUSALS.get(error.code, SORRY))


def title(t: Tournament, tongue: Lang) -> str:
    _ = tongue.gettext
    return _("Arena") if t.kind is Kind.ARENA else _("Knockout")


def podium_line(podium: list[Standing], t: Tournament, tongue: Lang) -> str:
    """🥇 A (12) · 🥈 B (9) · 🥉 C (7): points shown in an arena only; a team knockout's
    two teams behind their marks at the final: 🥇 🟥 A, C · 🥈 🟦 B, D."""
    if t.pairs and podium:
        final = team_bracket(t)[-1][0]
        return " · ".join(
            f"{MEDALS[place]} {team_mark(mark)} "
            + ", ".join(safe_name(t.entrants[u].name) for u in team)
            for place, (mark, team) in enumerate(final)
        )
    parts = []
    for place, s in enumerate(podium[:3]):
        points = f" ({s.points})" if t.kind is Kind.ARENA else ""
        parts.append(f"{MEDALS[place]} {safe_name(s.name)}{points}")
    return " · ".join(parts) or tongue.gettext("No results yet.")


def standings_text(
    t: Tournament, tongue: Lang, threads: Mapping[str, int], *, finished: bool
) -> str:
    """The message's text: what it is, who plays where, the standings or the podium."""
    _ = tongue.gettext
    lines = [f"## 🏆 {title(t, tongue)}"]
    if finished:
        lines.append(_("The tournament is over."))
        lines.append("**" + _("Podium") + "** · " + podium_line(t.podium(), t, tongue))
    elif t.kind is Kind.ARENA and t.ends_at is not None:
        lines.append(_("Ends {when}.").format(when=f"<t:{int(t.ends_at)}:R>"))
    elif t.kind is Kind.KNOCKOUT and not t.drawn:
        lines.append(
            _("Entries are open: join below; the host starts it with /uno tournament start.")
        )
    elif t.kind is Kind.KNOCKOUT:
        lines.append(_("Round {number}").format(number=max(1, t.round)))
        if t.byes and not t.closed:  # they go on without a table this round
            names = ", ".join(safe_name(t.entrants[u].name) for u in t.byes)
            lines.append(_("A bye this round, straight to the next: {names}").format(names=names))
    if t.closed and not finished:
        lines.append(_("No more tables open; the tables playing still count."))
    lines.append(
        " · ".join(
            [
                _("Players: {count}").format(count=len(t.entrants)),
                _("Waiting: {count}").format(count=len(t.waiting)),
                _("Tables playing: {count}").format(count=len(t.tables)),
            ]
        )
    )
    for table_id, players in list(t.tables.items())[:10]:
        names = table_names(t, players)
        where = f" · <#{threads[table_id]}>" if table_id in threads else ""
        lines.append("- " + names + where)
    if t.kind is Kind.ARENA and not finished:
        for s in t.standings()[:SHOWN]:
            fire = " 🔥" if s.on_fire else ""
            lines.append(
                _("{rank}. {name} · {points} pts · {games} games").format(
                    rank=s.rank, name=safe_name(s.name), points=s.points, games=s.games
                )
                + fire
            )
        lines.append(
            "-# "
            + _(
                "First place scores 4, second 2, third 1; two wins in a row double the next "
                "points; berserk halves your turn timer for one point more if you win."
            )
        )
        if t.teams:
            lines.append(
                "-# "
                + _(
                    "Teams: every table plays two teams of two, partners opposite; both "
                    "partners score their team's place."
                )
            )
    if t.kind is Kind.KNOCKOUT and t.teams and not finished:
        lines.append(
            "-# "
            + _(
                "Teams of two, partners drawn at random at the start (an even number of "
                "players, at least 4); every table plays two teams, partners opposite; the "
                "winning team goes on together, until the final table of two teams."
            )
        )
    return "\n".join(lines)


def table_names(t: Tournament, players: Sequence[int]) -> str:
    """A table's players; at a team table, each team behind its mark (seats alternate)."""
    names = [safe_name(t.entrants[u].name) for u in players]
    if not t.teams:
        return ", ".join(names)
    return " · ".join(
        f"{team_mark(team)} " + ", ".join(names[team :: t.teams]) for team in range(t.teams)
    )


def standings_picture(t: Tournament, tongue: Lang) -> bytes:
    """The arena's standings, or the knockout's bracket (slow: run it in a thread)."""
    if t.kind is Kind.KNOCKOUT:
        # Medals once the final is played; a team knockout's entries are its teams.
        marks = bracket_marks(t)
        advance = 1 if marks else 2
        podium = t.final_played()
        names = bracket_names(t)
        return render_bracket(title(t, tongue), names, marks, advance, podium, len(t.tables))
    return render_standings(title(t, tongue), standings_lines(t))


def standings_layout(
    t: Tournament, tongue: Lang, threads: Mapping[str, int], *, finished: bool
) -> ui.LayoutView:
    """The tournament's public message: picture, text and (while it runs) its buttons."""
    _ = tongue.gettext
    layout = ui.LayoutView(timeout=None)
    container = ui.Container[Any](accent_colour=ACCENT)
    container.add_item(ui.MediaGallery(discord.MediaGalleryItem(f"attachment://{STANDINGS_IMAGE}")))
    container.add_item(ui.TextDisplay(standings_text(t, tongue, threads, finished=finished)))
    layout.add_item(container)
    if not finished and not t.closed:
        row = ui.ActionRow[Any]()
        tid = t.tournament_id
        if t.kind is Kind.ARENA or not t.drawn:
            row.add_item(TournamentButton(tid, "join", _("Join"), discord.ButtonStyle.success))
            row.add_item(TournamentButton(tid, "leave", _("Leave")))
        if t.kind is Kind.ARENA:
            row.add_item(TournamentButton(tid, "berserk", "⚔️ " + _("Berserk")))
        if row.children:
            layout.add_item(row)
    return layout
