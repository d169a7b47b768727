"""The house rules panel: a preset select and every option one by one, for a lobby's host (and,
through the same pieces, for a server's defaults in /uno-admin settings)."""

from __future__ import annotations

from typing import Any

import discord
from discord import ui

from bot.engine import OPTIONS, PRESETS, HouseRules
from bot.engine.cards import Edition
from bot.engine.house import OPTION_BY_NAME
from bot.tables.commands import SetHouseOption
from bot.tables.house_words import explain, option_name, preset_label, rules_line, value_name
from bot.tables.notes import note
from bot.tables.snapshot import TableSnapshot

from .ids import option_choice, option_value, preset_choice
from .items import button, select

# The options with a select of values; every other option is on or off (a button).
CHOICES = ("stack", "hand_size", "uno_penalty", "custom_effect")
SWITCHES = tuple(o.name for o in OPTIONS if isinstance(o.default, bool))
PANEL_ACCENT = 0x5865F2


def preset_options(house: HouseRules) -> list[discord.SelectOption]:
    """The presets, the one in force marked (none for a mix of one's own)."""
    current = house.preset_name
    return [
        discord.SelectOption(
            label=note(f"preset.{name}").english()[:100], value=name, default=name == current
        )
        for name in PRESETS
    ]


def choice_names(edition: Edition | None) -> tuple[str, ...]:
    """The options with a select: the Wild Customizable's only for Super Mario (``edition``
    None: a server's defaults, for any edition)."""
    if edition is None or edition is Edition.MARIO:
        return CHOICES
    return tuple(name for name in CHOICES if name != "custom_effect")


def value_options(house: HouseRules, name: str) -> list[discord.SelectOption]:
    """One option's values, the one in force marked."""
    current = getattr(house, name)
    label = option_name(name)
    return [
        discord.SelectOption(
            label=f"{label}: {value_name(name, value)}"[:100],
            value=option_value(value),
            default=value == current,
        )
        for value in OPTION_BY_NAME[name].choices
    ]


def switch_label(house: HouseRules, name: str) -> str:
    return f"{option_name(name)}: {value_name(name, getattr(house, name))}"[:80]


def panel_text(house: HouseRules, title: str, footer: str) -> str:
    """The rules in force in one line, each explained, and what the panel is for."""
    lines = [f"### {title}", f"**{rules_line(house)}**"]
    lines += [f"• {line.english()}" for line in explain(house)]
    lines.append(f"-# {footer}")
    return "\n".join(lines)


def house_panel(table: TableSnapshot) -> ui.LayoutView:
    """The lobby host's panel: presets, then each option (its controls never go out of date)."""
    house = table.rules.house
    t = table.table_id
    layout = ui.LayoutView(timeout=None)
    text = panel_text(
        house,
        "⚙️ House rules for this table",
        "Pick a preset or change the options one by one; the lobby shows them at once.",
    )
    layout.add_item(ui.Container[Any](ui.TextDisplay(text), accent_colour=PANEL_ACCENT))
    layout.add_item(
        ui.ActionRow[Any](
            select(
                t,
                0,
                preset_choice(),
                preset_options(house),
                placeholder=preset_label(house)[:150],
            )
        )
    )
    for name in choice_names(table.rules.edition):
        layout.add_item(
            ui.ActionRow[Any](select(t, 0, option_choice(name), value_options(house, name)))
        )
    for start in range(0, len(SWITCHES), 3):
        row = ui.ActionRow[Any]()
        for name in SWITCHES[start : start + 3]:
            on = bool(getattr(house, name))
            row.add_item(
                button(
                    t,
                    0,
                    SetHouseOption(name, not on),
                    label=switch_label(house, name),
                    style=discord.ButtonStyle.success if on else discord.ButtonStyle.secondary,
                )
            )
        layout.add_item(row)
    return layout
