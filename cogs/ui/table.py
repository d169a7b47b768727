"""The table message: the picture, whose turn it is, the recent actions and buttons, all from one
snapshot, so the status line, the log, the picture and the buttons' version always agree."""

from __future__ import annotations

from typing import Any

import discord
from discord import ui

from bot.engine import Action, SeatView
from bot.engine.cards import CARD_INDEX, CARD_LABELS
from bot.tables.commands import ANY_SEAT, NextRound, ShowHand
from bot.tables.house_words import rules_line
from bot.tables.names import safe_name, safe_text
from bot.tables.narrate import narrate
from bot.tables.notes import note
from bot.tables.snapshot import TableSnapshot
from bot.tables.table import Status

from .ids import Rematch, quit_id, respond_id
from .items import GameButton, button
from .lobby import describe_rules, match_goal

COLOR_ACCENT = {"red": 0xE53935, "yellow": 0xFDD835, "green": 0x43A047, "blue": 0x1E88E5}
COLOR_EMOJI = {"red": "🟥", "yellow": "🟨", "green": "🟩", "blue": "🟦"}
TABLE_IMAGE = "table.png"
SCORES_IMAGE = "scores.png"
LOG_SHOWN = 5


def mention(table: TableSnapshot, seat: int | None) -> str:
    """A seat as text: a mention for humans, the name for computers."""
    if seat is None:
        return "nobody"
    who = table.seats[seat]
    return f"**{safe_name(who.name)}** 🤖" if who.computer else f"<@{who.user_id}>"


def status_line(table: TableSnapshot) -> str:
    """Whose move it is and what is asked of them, or how the round or match ended."""
    public = table.public
    assert public is not None
    if table.status is Status.PLAYING and public.current is not None:
        if public.awaiting == "respond":
            pending = CARD_LABELS[CARD_INDEX[public.pending]] if public.pending else "penalty"
            doing = f"answer the {pending}: **+{public.penalty or 0}** ({answers(table)})"
        else:
            doing = {
                "turn": "your turn",
                "drawn": "play the card you drew or keep it",
                "color": "choose the color of the first card",
            }.get(public.awaiting, "your turn")
        line = f"▶ {mention(table, public.current)}: {doing}"
        if table.deadline is not None:
            line += f" (time runs out <t:{int(table.deadline)}:R>)"
        return line
    if table.status is Status.ROUND_OVER:
        if table.next_round_at is not None:
            return f"Round over! The next round starts <t:{int(table.next_round_at)}:R>."
        return "Round over! The next round starts soon."
    if table.status is Status.FINISHED:
        winners = " and ".join(f"**{safe_name(table.seats[s].name)}**" for s in table.winners)
        return f"🏆 {winners} won the match!"
    if table.status is Status.CANCELLED:
        return "This game was ended."
    return ""


def one_of(keys: list[str]) -> str:
    """``a, b or c`` from the answers' note keys."""
    words = [note(key).english() for key in keys]
    if len(words) == 1:
        return words[0]
    return note("answer.or", first=", ".join(words[:-1]), last=words[-1]).english()


def answers(table: TableSnapshot) -> str:
    """What the rules let the target of a pending penalty do (never what they hold)."""
    return one_of([f"answer.{way}" for way in table.answers])


def jump_in_hint(table: TableSnapshot) -> str | None:
    """Under jump_in, while a turn is awaited: anyone with the identical card may play it."""
    public = table.public
    assert public is not None
    if not public.house.jump_in or public.awaiting != "turn" or public.top is None:
        return None
    if public.top.startswith("wild"):
        return None
    return note("jump_in_hint", card=CARD_LABELS[CARD_INDEX[public.top]]).english()


def log_text(table: TableSnapshot) -> str:
    names = table.safe_names()
    return "\n".join(f"• {narrate(line, names)}" for line in table.log[-LOG_SHOWN:])


ALT_MAX = 1024  # Discord's limit for a media gallery item's description


def alt_text(text: str) -> str:
    """A picture's description, cut to Discord's limit."""
    return text if len(text) <= ALT_MAX else text[: ALT_MAX - 1] + "…"


def card_words(code: str | None) -> str:
    return CARD_LABELS[CARD_INDEX[code]] if code in CARD_INDEX else "none"


def seat_words(seat: SeatView, name: str) -> str:
    """One seat in plain words: its cards and its UNO state."""
    if not seat.active:
        return f"{name}: left the game"
    words = f"{name}{' 🤖' if seat.computer else ''}: {seat.cards} card" + (
        "" if seat.cards == 1 else "s"
    )
    if seat.called_uno:
        words += ", called UNO"
    elif seat.catchable:
        words += ", did not call UNO"
    return words


def seats_text(table: TableSnapshot) -> str:
    """Every seat's card count and UNO state, and whose turn it is, as text (what the picture
    shows, for screen readers and clients that load no images)."""
    public = table.public
    assert public is not None
    names = table.safe_names()
    lines = []
    for seat in public.seats:
        mark = "▶" if seat.current and table.status is Status.PLAYING else "•"
        lines.append(f"{mark} " + seat_words(seat, f"**{names[seat.seat]}**"))
    return "\n".join(lines)


def table_alt(table: TableSnapshot) -> str:
    """The table picture described: the top card, the color and every seat."""
    public = table.public
    assert public is not None
    names = table.names()
    seats = "; ".join(seat_words(seat, names[seat.seat]) for seat in public.seats)
    color = public.color or "to be chosen"
    return alt_text(f"UNO table. Top card: {card_words(public.top)}, color {color}. {seats}.")


def scores_alt(table: TableSnapshot) -> str:
    """The scoreboard picture described: each seat's total."""
    scores = table.scores
    assert scores is not None
    names = table.names()
    totals = "; ".join(f"{names[s]}: {scores.totals[s]}" for s in range(len(names)))
    rounds = len(scores.rounds)
    after = f"after {rounds} round{'' if rounds == 1 else 's'}"
    return alt_text(f"Scoreboard {after}. {totals}.")


def table_view(table: TableSnapshot, *, image: str | None) -> ui.LayoutView:
    """The public table: never any player's cards, only counts and the discard pile."""
    public = table.public
    assert public is not None
    layout = ui.LayoutView(timeout=None)
    container = ui.Container[Any](accent_colour=COLOR_ACCENT.get(public.color or "", 0x2B2D31))
    head = f"## 🎴 {describe_rules(table.rules)} · round {public.round_number}"
    color = public.color
    facts = (
        f"Top card: **{card_words(public.top)}** · "
        + (f"Color: {COLOR_EMOJI[color]} **{color}**" if color else "Color: *to be chosen*")
        + f" · Direction: {'↻ clockwise' if public.direction == 1 else '↺ counter-clockwise'}"
    )
    lines = [head, status_line(table), facts, seats_text(table), f"-# {rules_line(public.house)}"]
    if table.status is Status.PLAYING and (hint := jump_in_hint(table)) is not None:
        lines.append(hint)
    container.add_item(ui.TextDisplay("\n".join(lines)))
    if image is not None:
        alt = scores_alt(table) if image == SCORES_IMAGE and table.scores else table_alt(table)
        item = discord.MediaGalleryItem(f"attachment://{image}", description=alt)
        container.add_item(ui.MediaGallery(item))
    if table.log:
        container.add_item(ui.TextDisplay(log_text(table)))
    written = public.house.custom_effect.value == "none"  # else the effect is the rule
    if public.house_rule and table.rules.edition.value == "mario" and written:
        container.add_item(ui.TextDisplay(f"-# Wild Customizable: {safe_text(public.house_rule)}"))
    if table.scores is not None:
        container.add_item(ui.TextDisplay(scores_text(table)))
    layout.add_item(container)
    t, v = table.table_id, table.version
    if table.status is Status.PLAYING:
        row = ui.ActionRow[Any](
            button(t, 0, ShowHand(), label="Show my hand", style=discord.ButtonStyle.primary)
        )
        catchable = next((s.seat for s in public.seats if s.catchable), None)
        row.add_item(
            button(
                t,
                0,
                Action(ANY_SEAT, "catch", target=catchable if catchable is not None else 0),
                label="Catch!"
                if catchable is None
                else f"Catch {table.seats[catchable].name}"[:80],
                style=discord.ButtonStyle.danger,
                disabled=catchable is None,
            )
        )
        if public.awaiting == "respond":
            accept = f"Accept +{public.penalty}" if public.penalty else "Accept"
            row.add_item(GameButton(respond_id(t, v, "accept"), label=accept))
            if "challenge" in table.answers:
                row.add_item(GameButton(respond_id(t, v, "challenge"), label="Challenge"))
        row.add_item(GameButton(quit_id(t), label="Leave game"))
        layout.add_item(row)
    elif table.status is Status.FINISHED and table.public is not None:
        # Version 0: the offer never goes out of date (a second press finds the rematch).
        rematch = button(t, 0, Rematch(), label="Rematch", style=discord.ButtonStyle.success)
        layout.add_item(ui.ActionRow[Any](rematch))
    elif table.status is Status.ROUND_OVER:
        layout.add_item(
            ui.ActionRow[Any](
                button(t, 0, NextRound(), label="Next round", style=discord.ButtonStyle.success)
            )
        )
    return layout


def scores_text(table: TableSnapshot) -> str:
    """The match's totals as text (beside the scoreboard picture)."""
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
        f"{safe_name(table.seats[s].name)}: **{scores.totals[s]}**"
        + (f" (+{last[s]} this round)" if last[s] or (lowest and scores.rounds) else "")
        for s in order
    ]
    return f"**Scores** · {match_goal(table.rules)}\n" + "\n".join(lines)
