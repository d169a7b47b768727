"""The lobby message: edition, settings, seats and the Join/Leave/Start/Cancel buttons."""

from __future__ import annotations

from typing import Any

import discord
from discord import ui

from bot.engine.ai import LEVELS
from bot.engine.cards import EDITION_TITLES, Edition
from bot.tables.narrate import safe_name, safe_text
from bot.tables.table import Status, Table

from .ids import Click
from .items import LobbyButton

EDITION_ACCENT = {Edition.CLASSIC: 0xE53935, Edition.SONIC: 0x1E63D6, Edition.MARIO: 0xF4B400}


def describe_rules(table: Table) -> str:
    rules = table.rules
    length = f"first to {rules.target} points" if rules.target else "a single round"
    scoring = "lowest score wins" if rules.scoring.value == "lowest" else "standard scoring"
    return f"{EDITION_TITLES[rules.edition]} · {length} · {scoring}"


def lobby_view(table: Table, *, thread_id: int | None = None) -> ui.LayoutView:
    """The lobby as it stands (or what became of it once started or cancelled)."""
    view = ui.LayoutView(timeout=None)
    seats = "\n".join(
        f"{i + 1}. {safe_name(seat.name)}"
        + (" 👑" if seat.user_id == table.host_id else "")
        + (f" · computer ({seat.computer})" if seat.computer else "")
        for i, seat in enumerate(table.seats)
    )
    lines = [
        f"## 🎴 UNO · {describe_rules(table)}",
        f"**Players ({len(table.seats)}/10)**\n{seats}",
    ]
    if table.rules.edition is Edition.MARIO:
        rule = safe_text(table.rules.house_rule) if table.rules.house_rule else "*not written yet*"
        lines.append(f"**Wild Customizable house rule:** {rule}")
    container = ui.Container[Any](accent_colour=EDITION_ACCENT[table.rules.edition])
    if table.status is Status.LOBBY:
        lines.append("-# Join with the button. The host starts the game (2 to 10 players).")
        container.add_item(ui.TextDisplay("\n\n".join(lines)))
        view.add_item(container)
        t, v = table.table_id, 0
        row = ui.ActionRow[Any](
            LobbyButton(Click(t, v, "join", None), label="Join", style=discord.ButtonStyle.success),
            LobbyButton(Click(t, v, "leave", None), label="Leave"),
            LobbyButton(
                Click(t, v, "start", None), label="Start", style=discord.ButtonStyle.primary
            ),
            LobbyButton(
                Click(t, v, "cancel", None), label="Cancel", style=discord.ButtonStyle.danger
            ),
        )
        view.add_item(row)
        extras = ui.ActionRow[Any]()
        if table.computers is not None:
            for level in LEVELS:
                default = level == table.computers
                extras.add_item(
                    LobbyButton(
                        Click(t, v, "computer", level),
                        label=f"Add computer ({level})",
                        style=discord.ButtonStyle.primary
                        if default
                        else discord.ButtonStyle.secondary,
                        emoji="🤖",
                    )
                )
        if table.rules.edition is Edition.MARIO:
            extras.add_item(LobbyButton(Click(t, v, "rule", None), label="House rule", emoji="✏️"))
        if extras.children:
            view.add_item(extras)
        return view
    if table.status is Status.CANCELLED:
        lines.append("**This game was cancelled.**")
    elif thread_id is not None:
        lines.append(f"**The game is on in <#{thread_id}>!**")
    else:
        lines.append("**The game has started below.**")
    container.add_item(ui.TextDisplay("\n\n".join(lines)))
    view.add_item(container)
    return view
