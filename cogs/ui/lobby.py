"""The lobby message: edition, settings, seats and the Join/Leave/Start/Cancel buttons."""

from __future__ import annotations

from typing import Any

import discord
from discord import ui

from bot.engine.ai import LEVELS
from bot.engine.cards import EDITION_TITLES, Edition
from bot.engine.rules import RuleSet
from bot.tables.commands import AddComputer, Cancel, Join, Leave, Start
from bot.tables.house_words import rules_line
from bot.tables.lobby import MAX_SEATS, MIN_SEATS
from bot.tables.names import safe_name, safe_text
from bot.tables.snapshot import TableSnapshot
from bot.tables.table import Status

from .ids import OpenHouseRule, OpenHouseRules
from .items import button

EDITION_ACCENT = {Edition.CLASSIC: 0xE53935, Edition.SONIC: 0x1E63D6, Edition.MARIO: 0xF4B400}


def describe_rules(rules: RuleSet) -> str:
    """The edition and when the match ends and who wins it, in one line."""
    return f"{EDITION_TITLES[rules.edition]} · {match_goal(rules)}"


def match_goal(rules: RuleSet) -> str:
    """When the match ends and who wins it, under its scoring."""
    if rules.scoring.value == "lowest":
        if rules.target:
            return f"ends when someone reaches {rules.target} points · lowest total wins"
        return "a single round · lowest score wins"
    if rules.target:
        return f"first to {rules.target} points wins"
    return "a single round · first to go out wins"


def lobby_view(table: TableSnapshot) -> ui.LayoutView:
    """The lobby as it stands (or what became of it once started or cancelled)."""
    view = ui.LayoutView(timeout=None)
    seats = "\n".join(
        f"{i + 1}. {safe_name(seat.name)}"
        + (" 👑" if seat.user_id == table.host_id else "")
        + (f" · computer ({seat.computer})" if seat.computer else "")
        for i, seat in enumerate(table.seats)
    )
    lines = [
        f"## 🎴 {describe_rules(table.rules)}\n**{rules_line(table.rules.house)}**",
        f"**Players ({len(table.seats)}/{MAX_SEATS})**\n{seats}",
    ]
    # A Wild Customizable with an enforced effect (the rules line names it) announces no
    # written rule, so none is asked for.
    mario = table.rules.edition is Edition.MARIO and table.rules.house.custom_effect.value == "none"
    if mario:
        rule = safe_text(table.house_rule) if table.house_rule else "*not written yet*"
        lines.append(f"**Wild Customizable house rule:** {rule}")
    container = ui.Container[Any](accent_colour=EDITION_ACCENT[table.rules.edition])
    if table.status is Status.LOBBY:
        lines.append(
            f"-# Join with the button. The host starts the game ({MIN_SEATS} to {MAX_SEATS} "
            "players)."
        )
        container.add_item(ui.TextDisplay("\n\n".join(lines)))
        view.add_item(container)
        t = table.table_id
        view.add_item(
            ui.ActionRow[Any](
                button(t, 0, Join(), label="Join", style=discord.ButtonStyle.success),
                button(t, 0, Leave(), label="Leave"),
                button(t, 0, Start(), label="Start", style=discord.ButtonStyle.primary),
                button(t, 0, Cancel(), label="Cancel", style=discord.ButtonStyle.danger),
            )
        )
        extras = ui.ActionRow[Any]()
        if table.computers is not None:
            for level in LEVELS:
                extras.add_item(
                    button(
                        t,
                        0,
                        AddComputer(level),
                        label=f"Add computer ({level})",
                        style=discord.ButtonStyle.primary
                        if level == table.computers
                        else discord.ButtonStyle.secondary,
                        emoji="🤖",
                    )
                )
        if mario:
            extras.add_item(
                button(t, 0, OpenHouseRule(), label="Wild Customizable rule", emoji="✏️")
            )
        extras.add_item(button(t, 0, OpenHouseRules(), label="House rules", emoji="⚙️"))
        if extras.children:
            view.add_item(extras)
        return view
    if table.status is Status.CANCELLED:
        lines.append("**This game was cancelled.**")
    elif table.thread_id is not None:
        lines.append(f"**The game is on in <#{table.thread_id}>!**")
    else:
        lines.append("**The game has started below.**")
    container.add_item(ui.TextDisplay("\n\n".join(lines)))
    view.add_item(container)
    return view
