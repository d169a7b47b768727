"""The table message: the picture, whose turn it is, the recent actions and buttons, all from one
snapshot, so the status line, the log, the picture and the buttons' version always agree. It
speaks the table's language."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import discord
from discord import ui

from bot.engine import Action, Do, Phase, SeatView
from bot.engine.review import Award
from bot.i18n import ENGLISH_LANG, Lang, lang
from bot.i18n.game_words import card_name, color_name, edition_title
from bot.tables.cheers import EMOTES
from bot.tables.commands import ANY_SEAT, NextRound, ShowHand, ShowPartners
from bot.tables.house_words import rules_line
from bot.tables.names import safe_name, safe_text
from bot.tables.narrate import narrate
from bot.tables.notes import note
from bot.tables.snapshot import TableSnapshot
from bot.tables.table import Status
from bot.tables.teams import team_mark

from .ids import Cheer, Recap, Rematch, Watch, quit_id, respond_id
from .items import GameButton, button
from .lobby import describe_rules, match_goal, team_name, teams_line

COLOR_ACCENT = {"red": 0xE53935, "yellow": 0xFDD835, "green": 0x43A047, "blue": 0x1E88E5}
COLOR_EMOJI = {"red": "🟥", "yellow": "🟨", "green": "🟩", "blue": "🟦"}
TABLE_IMAGE = "table.png"
SCORES_IMAGE = "scores.png"
LOG_SHOWN = 5


def mention(table: TableSnapshot, seat: int | None, tongue: Lang = ENGLISH_LANG) -> str:
    """A seat as text: a mention for humans, the name for computers."""
    if seat is None:
        return tongue.gettext("nobody")
    who = table.seats[seat]
    return f"**{safe_name(who.name)}** 🤖" if who.computer else f"<@{who.user_id}>"


def status_line(table: TableSnapshot, tongue: Lang = ENGLISH_LANG) -> str:
    """Whose move it is and what is asked of them, or how the round or match ended."""
    _ = tongue.gettext
    public = table.public
    assert public is not None
    if table.status is Status.PLAYING and public.current is not None:
        if public.awaiting is Phase.RESPOND:
            pending = card_name(public.pending, tongue) if public.pending else _("penalty")
            doing = _("answer the {card}: **+{count}** ({answers})").format(
                card=pending, count=public.penalty or 0, answers=answers(table, tongue)
            )
        elif public.awaiting is Phase.DRAWN:
            doing = _("play the card you drew or keep it")
        elif public.awaiting is Phase.COLOR:
            doing = _("choose the color of the first card")
        else:
            doing = _("your turn")
        line = f"▶ {mention(table, public.current, tongue)}: {doing}"
        if table.deadline is not None:
            line += " " + _("(time runs out {when})").format(when=f"<t:{int(table.deadline)}:R>")
        return line
    if table.status is Status.ROUND_OVER:
        if table.next_round_at is not None:
            return _("Round over! The next round starts {when}.").format(
                when=f"<t:{int(table.next_round_at)}:R>"
            )
        return _("Round over! The next round starts soon.")
    if table.status is Status.FINISHED and table.rules.teams and table.winners:
        won = sorted({s % table.rules.teams for s in table.winners})
        teams = " · ".join(team_name(t, tongue) for t in won)
        members = ", ".join(f"**{safe_name(table.seats[s].name)}**" for s in table.winners)
        return "🏆 " + _("{teams} won the match! ({players})").format(teams=teams, players=members)
    if table.status is Status.FINISHED:
        names = [f"**{safe_name(table.seats[s].name)}**" for s in table.winners]
        winners = "".join(names)
        if len(names) > 1:
            winners = _("{first} and {last}").format(first=", ".join(names[:-1]), last=names[-1])
        return "🏆 " + _("{players} won the match!").format(players=winners)
    if table.status is Status.CANCELLED:
        return _("This game was ended.")
    return ""


def one_of(keys: list[str], tongue: Lang = ENGLISH_LANG) -> str:
    """``a, b or c`` from the answers' note keys."""
    words = [note(key).render(tongue) for key in keys]
    if len(words) == 1:
        return words[0]
    return note("answer.or", first=", ".join(words[:-1]), last=words[-1]).render(tongue)


def answers(table: TableSnapshot, tongue: Lang = ENGLISH_LANG) -> str:
    """What the rules let the target of a pending penalty do (never what they hold)."""
    return one_of([f"answer.{way}" for way in table.answers], tongue)


def jump_in_hint(table: TableSnapshot, tongue: Lang = ENGLISH_LANG) -> str | None:
    """Under jump_in, while a turn is awaited: anyone with the identical card may play it."""
    public = table.public
    assert public is not None
    if not public.house.jump_in or public.awaiting is not Phase.TURN or public.top is None:
        return None
    if public.top.startswith("wild"):
        return None
    return note("jump_in_hint", card=card_name(public.top, tongue)).render(tongue)


def log_text(table: TableSnapshot, tongue: Lang = ENGLISH_LANG) -> str:
    names = table.safe_names()
    return "\n".join(f"• {narrate(line, names, tongue)}" for line in table.log[-LOG_SHOWN:])


ALT_MAX = 1024  # Discord's limit for a media gallery item's description


def alt_text(text: str) -> str:
    """A picture's description, cut to Discord's limit."""
    return text if len(text) <= ALT_MAX else text[: ALT_MAX - 1] + "…"


def card_words(code: str | None, tongue: Lang = ENGLISH_LANG) -> str:
    return card_name(code, tongue) if code else tongue.gettext("none")


def seat_words(seat: SeatView, name: str, tongue: Lang = ENGLISH_LANG) -> str:
    """One seat in plain words: its cards and its UNO state."""
    _ = tongue.gettext
    if not seat.active:
        return _("{name}: left the game").format(name=name)
    who = f"{name}{' 🤖' if seat.computer else ''}"
    words = tongue.ngettext("{name}: {count} card", "{name}: {count} cards", seat.cards).format(
        name=who, count=seat.cards
    )
    if seat.called_uno:
        words += ", " + _("called UNO")
    elif seat.catchable:
        words += ", " + _("did not call UNO")
    return words


def berserk_words(table: TableSnapshot, seat: int, tongue: Lang = ENGLISH_LANG) -> str:
    """A seat's berserk mark and its halved turn time, or nothing."""
    if seat not in table.berserk:
        return ""
    if table.berserk_seconds is None:
        return " ⚔️ " + tongue.gettext("berserk")
    return " ⚔️ " + tongue.gettext("berserk: {seconds} s a turn").format(
        seconds=table.berserk_seconds
    )


def seats_text(table: TableSnapshot, tongue: Lang = ENGLISH_LANG) -> str:
    """Every seat's card count and UNO state, and whose turn it is, as text (what the picture
    shows, for screen readers and clients that load no images)."""
    public = table.public
    assert public is not None
    names = table.safe_names()
    lines = []
    for seat in public.seats:
        mark = "▶" if seat.current and table.status is Status.PLAYING else "•"
        team = table.team_of(seat.seat)
        badge = f"{team_mark(team)} " if team is not None else ""
        words = seat_words(seat, f"**{names[seat.seat]}**", tongue)
        lines.append(f"{mark} {badge}{words}{berserk_words(table, seat.seat, tongue)}")
    return "\n".join(lines)


def team_scores_text(table: TableSnapshot, tongue: Lang = ENGLISH_LANG, bold: bool = True) -> str:
    """Each team's score toward the target in team order (empty without teams)."""
    public = table.public
    if public is None or not public.team_scores:
        return ""
    star = "**" if bold else ""
    return " · ".join(
        f"{team_name(team, tongue)}: {star}{score}{star}"
        for team, score in enumerate(public.team_scores)
    )


def table_alt(table: TableSnapshot, tongue: Lang = ENGLISH_LANG) -> str:
    """The table picture described: the top card, the color and every seat."""
    public = table.public
    assert public is not None
    names = [
        name if (team := table.team_of(s)) is None else f"{name} ({team_name(team, tongue)})"
        for s, name in enumerate(table.names())
    ]
    seats = "; ".join(
        seat_words(seat, names[seat.seat], tongue) + berserk_words(table, seat.seat, tongue)
        for seat in public.seats
    )
    color = color_name(public.color, tongue) if public.color else tongue.gettext("to be chosen")
    text = tongue.gettext("UNO table. Top card: {card}, color {color}. {seats}.")
    text = text.format(card=card_words(public.top, tongue), color=color, seats=seats)
    if teams := team_scores_text(table, tongue, bold=False):
        text += f" {teams}."
    return alt_text(text)


def scores_alt(table: TableSnapshot, tongue: Lang = ENGLISH_LANG) -> str:
    """The scoreboard picture described: each seat's total."""
    scores = table.scores
    assert scores is not None
    names = table.names()
    totals = "; ".join(f"{names[s]}: {scores.totals[s]}" for s in range(len(names)))
    rounds = len(scores.rounds)
    text = tongue.ngettext(
        "Scoreboard after {count} round. {totals}.",
        "Scoreboard after {count} rounds. {totals}.",
        rounds,
    )
    return alt_text(text.format(count=rounds, totals=totals))


def shuffle_line(table: TableSnapshot, tongue: Lang = ENGLISH_LANG) -> str:
    """The deal's commitment, and once the round is over the seed that opens it
    (docs/fairness.md)."""
    if table.revealed_seed is None:
        return tongue.gettext("🔒 Shuffle commitment: `{commitment}`").format(
            commitment=table.commitment
        )
    return tongue.gettext(
        "🔓 This round's shuffle: commitment `{commitment}`, seed `{seed}`; check it in the "
        "round's file from /uno history."
    ).format(commitment=table.commitment, seed=table.revealed_seed)


def table_view(table: TableSnapshot, *, image: str | None, cheers: str = "") -> ui.LayoutView:
    """The public table: never any player's cards, only counts and the discard pile; ``cheers``
    is the audience's line (``bot.tables.cheers``)."""
    tongue = lang(table.locale)
    _ = tongue.gettext
    public = table.public
    assert public is not None
    layout = ui.LayoutView(timeout=None)
    container = ui.Container[Any](accent_colour=COLOR_ACCENT.get(public.color or "", 0x2B2D31))
    head = f"## 🎴 {describe_rules(table.rules, tongue)} · " + _("round {number}").format(
        number=public.round_number
    )
    color = public.color
    shown = (
        _("Color: {color}").format(color=f"{COLOR_EMOJI[color]} **{color_name(color, tongue)}**")
        if color
        else _("Color: *to be chosen*")
    )
    way = _("↻ clockwise") if public.direction == 1 else _("↺ counter-clockwise")
    top = _("Top card: {card}").format(card=f"**{card_words(public.top, tongue)}**")
    facts = " · ".join([top, shown, _("Direction: {direction}").format(direction=way)])
    teams = f"\n**{teams_line(table.rules, tongue)}**" if table.rules.teams else ""
    if scored := team_scores_text(table, tongue):
        teams += f"\n{scored}"
    lines = [
        head + teams,
        status_line(table, tongue),
        facts,
        seats_text(table, tongue),
        f"-# {rules_line(public.house, tongue)}",
    ]
    if table.commitment is not None:
        lines.append("-# " + shuffle_line(table, tongue))
    if table.status is Status.PLAYING and (hint := jump_in_hint(table, tongue)) is not None:
        lines.append(hint)
    container.add_item(ui.TextDisplay("\n".join(lines)))
    if image is not None:
        alt = (
            scores_alt(table, tongue)
            if image == SCORES_IMAGE and table.scores
            else table_alt(table, tongue)
        )
        item = discord.MediaGalleryItem(f"attachment://{image}", description=alt)
        container.add_item(ui.MediaGallery(item))
    if table.log:
        container.add_item(ui.TextDisplay(log_text(table, tongue)))
    written = public.house.custom_effect.value == "none"  # else the effect is the rule
    if public.house_rule and table.rules.edition.value == "mario" and written:
        rule = _("Wild Customizable: {rule}").format(rule=safe_text(public.house_rule))
        container.add_item(ui.TextDisplay(f"-# {rule}"))
    if table.scores is not None:
        container.add_item(ui.TextDisplay(scores_text(table, tongue)))
    if table.status is Status.FINISHED and table.tournament_link is not None:
        back = _("The tournament seats its players at their next table: {link}")
        container.add_item(ui.TextDisplay("🏆 " + back.format(link=table.tournament_link)))
    if cheers:
        container.add_item(ui.TextDisplay("-# " + _("Cheers: {cheers}").format(cheers=cheers)))
    layout.add_item(container)
    t, v = table.table_id, table.version
    if table.status is Status.PLAYING:
        row = ui.ActionRow[Any](
            button(t, 0, ShowHand(), label=_("Show my hand"), style=discord.ButtonStyle.primary)
        )
        catchable = next((s.seat for s in public.seats if s.catchable), None)
        row.add_item(
            button(
                t,
                0,
                Action(ANY_SEAT, Do.CATCH, target=catchable if catchable is not None else 0),
                label=_("Catch!")
                if catchable is None
                else _("Catch {name}").format(name=table.seats[catchable].name)[:80],
                style=discord.ButtonStyle.danger,
                disabled=catchable is None,
            )
        )
        if public.awaiting is Phase.RESPOND:
            accept = (
                _("Accept +{count}").format(count=public.penalty) if public.penalty else _("Accept")
            )
            row.add_item(GameButton(respond_id(t, v, "accept"), label=accept))
            if "challenge" in table.answers:
                row.add_item(GameButton(respond_id(t, v, "challenge"), label=_("Challenge")))
        row.add_item(GameButton(quit_id(t), label=_("Leave game")))
        layout.add_item(row)
        audience = ui.ActionRow[Any](button(t, 0, Watch(), label=_("Watch"), emoji="👁"))
        for index, emote in enumerate(EMOTES):
            audience.add_item(button(t, 0, Cheer(index), label=emote))
        layout.add_item(audience)
        if table.rules.teams and table.rules.partners_see:  # a row of its own: rows hold 5
            partners = button(t, 0, ShowPartners(), label=_("Partners' hands"), emoji="👀")
            layout.add_item(ui.ActionRow[Any](partners))
    elif table.status is Status.FINISHED and table.public is not None:
        layout.add_item(ui.ActionRow[Any](*after_match(table, tongue)))
    elif table.status is Status.ROUND_OVER:
        layout.add_item(
            ui.ActionRow[Any](
                button(t, 0, NextRound(), label=_("Next round"), style=discord.ButtonStyle.success),
                *recap_button(table, tongue),
            )
        )
    return layout


def after_match(table: TableSnapshot, tongue: Lang = ENGLISH_LANG) -> list[ui.Item[Any]]:
    """A finished match's buttons: Rematch, or for a tournament's table the way back to the
    tournament (which decides the next table), and the recap."""
    _ = tongue.gettext
    recap: list[ui.Item[Any]] = list(recap_button(table, tongue))
    if (link := table.tournament_link) is not None:
        back = ui.Button[Any](label=_("Tournament standings"), emoji="🏆", url=link)
        return [back, *recap]
    # Version 0: the offer never goes out of date (a second press finds the rematch).
    rematch = button(
        table.table_id, 0, Rematch(), label=_("Rematch"), style=discord.ButtonStyle.success
    )
    return [rematch, *recap]


def recap_button(table: TableSnapshot, tongue: Lang = ENGLISH_LANG) -> list[GameButton]:
    """The finished round's Recap, when that round was recorded (its seed revealed) and saw a
    card played (a round forfeited at once has nothing to show); version 0: it never goes out
    of date."""
    if table.revealed_seed is None or table.public is None or not table.round_plays:
        return []
    recap = Recap(table.public.round_number)
    return [button(table.table_id, 0, recap, label=tongue.gettext("Round recap"), emoji="🎞")]


def badge(table: TableSnapshot, seat: int) -> str:
    """A seat's team mark and a space, or nothing without teams."""
    team = table.team_of(seat)
    return f"{team_mark(team)} " if team is not None else ""


def scores_text(table: TableSnapshot, tongue: Lang = ENGLISH_LANG) -> str:
    """The match's totals as text (beside the scoreboard picture)."""
    _ = tongue.gettext
    scores = table.scores
    assert scores is not None
    seats = range(len(table.seats))
    order = sorted(seats, key=lambda s: -scores.totals[s])
    if table.rules.scoring.value == "lowest":
        order.reverse()
    last = scores.rounds[-1] if scores.rounds else (0,) * len(table.seats)
    lowest = table.rules.scoring.value == "lowest"
    # Under lowest scoring each seat adds its own cards, so a round's 0 says something too.
    lines = [
        f"{badge(table, s)}{safe_name(table.seats[s].name)}: **{scores.totals[s]}**"
        + (
            " " + _("(+{points} this round)").format(points=last[s])
            if last[s] or (lowest and scores.rounds)
            else ""
        )
        for s in order
    ]
    title = _("Scores")
    if table.rules.teams and scores.team_totals:
        teams = range(len(scores.team_totals))
        lines.insert(
            0,
            " · ".join(
                f"{team_name(t, tongue)}: **{scores.team_totals[t]}**"
                for t in sorted(teams, key=lambda t: scores.team_totals[t] * (1 if lowest else -1))
            ),
        )
    text = f"**{title}** · {match_goal(table.rules, tongue)}\n" + "\n".join(lines)
    named = [award_line(a, table.seats[a.seat].name, tongue) for a in table.awards]
    return text + "".join(f"\n🏅 {line}" for line in named)


def award_line(award: Award, name: str, tongue: Lang = ENGLISH_LANG) -> str:
    """One of the round's awards in a sentence (the name made safe here)."""
    who, n = safe_name(name), award.count
    if award.kind == "biggest_penalty":
        text = tongue.ngettext(
            "Biggest penalty: {name} took {count} card",
            "Biggest penalty: {name} took {count} cards",
            n,
        )
    elif award.kind == "longest_draw":
        text = tongue.ngettext(
            "Longest draw: {name} drew {count} card in one go",
            "Longest draw: {name} drew {count} cards in one go",
            n,
        )
    elif award.kind == "challenge_won":
        text = tongue.ngettext(
            "Challenge won: {name} caught an illegal Wild Draw Four",
            "Challenges won: {name} caught {count} illegal Wild Draw Fours",
            n,
        )
    elif award.kind == "comeback":
        text = tongue.ngettext(
            "Comeback: {name} went out after holding {count} card",
            "Comeback: {name} went out after holding {count} cards",
            n,
        )
    else:
        text = tongue.ngettext(
            "Catches: {name} caught {count} missed UNO call",
            "Catches: {name} caught {count} missed UNO calls",
            n,
        )
    return text.format(name=who, count=n)


def notice_view(table: TableSnapshot, tongue: Lang = ENGLISH_LANG) -> ui.View:
    """Under a turn notice: the Show my hand button, for a player whose hand no longer follows
    the game (never out of date: it shows the hand as it stands)."""
    view = ui.View(timeout=None)
    label = tongue.gettext("Show my hand")
    view.add_item(
        button(table.table_id, 0, ShowHand(), label=label, style=discord.ButtonStyle.primary)
    )
    return view


THREAD_NAME_LIMIT = 100  # Discord's limit for a channel's name


def thread_name(table: TableSnapshot, started: datetime) -> str:
    """The game's thread name, in the table's language: the edition, the host and when it
    started (UTC), so a server's list of threads tells its games apart."""
    tongue = lang(table.locale)
    host = next((s.name for s in table.seats if s.user_id == table.host_id), table.seats[0].name)
    when = tongue.datetime(started.astimezone(UTC)) + " UTC"
    edition = edition_title(table.rules.edition, tongue)
    room = THREAD_NAME_LIMIT - len(f"{edition} ·  · {when}")
    if len(host) > room:
        host = host[: max(room - 1, 1)] + "…"
    return f"{edition} · {host} · {when}"[:THREAD_NAME_LIMIT]
