"""The table message: the rendered table, whose turn it is, the recent actions and buttons."""

from __future__ import annotations

from typing import Any

import discord
from discord import ui

from bot.engine.cards import CARD_INDEX, CARD_LABELS
from bot.engine.snapshot import PublicView
from bot.tables.narrate import safe_name, safe_text
from bot.tables.table import Status, Table

from .ids import Click
from .items import TableButton
from .lobby import describe_rules

COLOR_ACCENT = {"red": 0xE53935, "yellow": 0xFDD835, "green": 0x43A047, "blue": 0x1E88E5}
COLOR_EMOJI = {"red": "🟥", "yellow": "🟨", "green": "🟩", "blue": "🟦"}
TABLE_IMAGE = "table.png"
SCORES_IMAGE = "scores.png"


def mention(table: Table, seat: int | None) -> str:
    """A seat as text: a mention for humans, the name for computers."""
    if seat is None:
        return "nobody"
    who = table.seats[seat]
    return f"**{safe_name(who.name)}** 🤖" if who.computer else f"<@{who.user_id}>"


def table_view(
    table: Table, view: PublicView, *, image: str | None, deadline: float | None = None
) -> ui.LayoutView:
    """The public table: never any player's cards, only counts and the discard pile."""
    layout = ui.LayoutView(timeout=None)
    accent = COLOR_ACCENT.get(view.color or "", 0x2B2D31)
    container = ui.Container[Any](accent_colour=accent)
    t, v = table.table_id, table.version
    match = table.match
    assert match is not None
    head = f"## 🎴 {describe_rules(table)} · round {view.round_number}"
    status_line = ""
    if table.status is Status.PLAYING and view.current is not None:
        who = mention(table, view.current)
        doing = {
            "turn": "your turn",
            "drawn": "play the card you drew or keep it",
            "color": "choose the color of the first card",
            "respond": "answer the "
            + (CARD_LABELS[CARD_INDEX[view.pending]] if view.pending else "penalty"),
        }.get(view.awaiting, "your turn")
        status_line = f"▶ {who}: {doing}"
        if deadline is not None:
            status_line += f" (time runs out <t:{int(deadline)}:R>)"
    elif table.status is Status.ROUND_OVER:
        status_line = "Round over! The next round starts soon."
    elif table.status is Status.FINISHED:
        winners = " and ".join(f"**{safe_name(table.seats[s].name)}**" for s in match.winners)
        status_line = f"🏆 {winners} won the match!"
    elif table.status is Status.CANCELLED:
        status_line = "This game was ended."
    color = view.color
    facts = (
        f"Color: {COLOR_EMOJI[color]} **{color}**" if color else "Color: *to be chosen*"
    ) + f" · Direction: {'↻ clockwise' if view.direction == 1 else '↺ counter-clockwise'}"
    container.add_item(ui.TextDisplay(f"{head}\n{status_line}\n{facts}"))
    if image is not None:
        container.add_item(ui.MediaGallery(discord.MediaGalleryItem(f"attachment://{image}")))
    if table.log:
        container.add_item(ui.TextDisplay("\n".join(f"• {line}" for line in table.log[-5:])))
    if view.house_rule and table.rules.edition.value == "mario":
        container.add_item(ui.TextDisplay(f"-# Wild Customizable: {safe_text(view.house_rule)}"))
    layout.add_item(container)
    if table.status is Status.PLAYING:
        row = ui.ActionRow[Any](
            TableButton(
                Click(t, 0, "hand", None), label="Show my hand", style=discord.ButtonStyle.primary
            )
        )
        catchable = next((s.seat for s in view.seats if s.catchable), None)
        row.add_item(
            TableButton(
                Click(t, 0, "catch", str(catchable if catchable is not None else 0)),
                label="Catch!"
                if catchable is None
                else f"Catch {table.seats[catchable].name}"[:80],
                style=discord.ButtonStyle.danger,
                disabled=catchable is None,
            )
        )
        if view.awaiting == "respond":
            row.add_item(TableButton(Click(t, v, "respond", "accept"), label="Accept"))
            if view.pending == "wild-draw4":
                row.add_item(TableButton(Click(t, v, "respond", "challenge"), label="Challenge"))
        row.add_item(TableButton(Click(t, 0, "quit", None), label="Leave game"))
        layout.add_item(row)
    elif table.status is Status.ROUND_OVER:
        layout.add_item(
            ui.ActionRow[Any](
                TableButton(
                    Click(t, 0, "next", None), label="Next round", style=discord.ButtonStyle.success
                )
            )
        )
    return layout


def scores_text(table: Table) -> str:
    """The match's totals as text (beside the scoreboard picture)."""
    match = table.match
    assert match is not None
    order = sorted(range(len(table.seats)), key=lambda s: -match.totals[s])
    if table.rules.scoring.value == "lowest":
        order.reverse()
    last = match.rounds[-1] if match.rounds else [0] * len(table.seats)
    lines = [
        f"{safe_name(table.seats[s].name)}: **{match.totals[s]}**"
        + (f" (+{last[s]})" if last[s] else "")
        for s in order
    ]
    goal = f" · target {table.rules.target}" if table.rules.target else ""
    return f"**Scores{goal}**\n" + "\n".join(lines)
