"""The ``cogs.settings`` extension: `/uno-admin settings`, a server's defaults, turn timer and
computer players as a V2 panel of selects and toggles."""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING, Any, Self, cast

import discord
from discord import app_commands, ui

from bot.engine import PRESETS, HouseRules
from bot.engine.ai import LEVELS
from bot.storage import GuildSettings, StorageError
from bot.tables.house_words import preset_label, rules_line
from cogs.group import ADMIN_GROUP, Subcommand, add_to_group, remove_from_group
from cogs.replies import NO_PINGS
from cogs.ui.house import (
    CHOICES,
    PANEL_ACCENT,
    SWITCHES,
    panel_text,
    preset_options,
    switch_label,
    value_options,
)
from cogs.ui.ids import option_of
from cogs.ui.rules_text import EDITION_CHOICES

if TYPE_CHECKING:
    from bot.client import UnoBot

TIMERS = {
    "off": None,
    "15s": 15,
    "30s": 30,
    "1m": 60,
    "2m": 120,
    "5m": 300,
    "15m": 900,
    "1h": 3600,
    "6h": 21600,
    "24h": 86400,
}
HOUSE = "h_"  # the prefix of a house-rule option's setting (``h_stack``, ``h_jump_in``)
FIELDS = (
    "edition",
    "scoring",
    "timer",
    "removal",
    "lobby",
    "level",
    "computers",
    "rated",
    "house",  # the default preset
    "hrated",  # house-ruled matches change ratings
    "hopts",  # open the default options one by one
    "back",  # from them back to the settings
    *(HOUSE + name for name in (*CHOICES, *SWITCHES)),
)


def _timer_name(seconds: int | None) -> str:
    return next((name for name, value in TIMERS.items() if value == seconds), "off")


def house_of(settings: GuildSettings) -> HouseRules:
    """The server's default house rules (the printed rules if what is stored is not valid)."""
    try:
        return HouseRules.parse(settings.house_rules)
    except ValueError:
        return HouseRules()


def describe(settings: GuildSettings) -> str:
    """The current values, one line each."""
    timer = _timer_name(settings.turn_seconds)
    return "\n".join(
        [
            "## ⚙️ UNO settings for this server",
            f"**Default edition:** {settings.edition} · **Scoring:** {settings.scoring}",
            f"**Default house rules:** {rules_line(house_of(settings))}"
            + " · house-ruled matches "
            + ("change ratings" if settings.rate_house_rules else "are not rated"),
            f"**Turn timer:** {timer}"
            + (
                " · a timeout makes the safest move (draw and keep, or accept a penalty); "
                f"removed after {settings.timeouts_before_removal} in a row"
                if settings.turn_seconds
                else ""
            ),
            f"**Lobby waits:** {settings.lobby_minutes} min",
            f"**Computer players:** {'allowed' if settings.computers_allowed else 'not allowed'}"
            f" · default level {settings.computer_level}"
            f" · {'rated' if settings.computers_rated else 'not rated'} in the league",
        ]
    )


def _select(
    guild_id: int, name: str, placeholder: str, options: list[tuple[str, str]], current: str
) -> SettingSelect:
    return SettingSelect(
        guild_id,
        name,
        placeholder=placeholder,
        options=[
            discord.SelectOption(label=label, value=value, default=value == current)
            for label, value in options
        ],
    )


def settings_panel(settings: GuildSettings) -> ui.LayoutView:
    """The panel: current values and one control per setting."""
    g = settings.guild_id
    view = ui.LayoutView(timeout=None)
    view.add_item(ui.Container[Any](ui.TextDisplay(describe(settings)), accent_colour=0x5865F2))
    rows = [
        _select(
            g,
            "edition",
            "Default edition",
            [(choice.name, choice.value) for choice in EDITION_CHOICES],
            settings.edition,
        ),
        _select(
            g,
            "scoring",
            "Default scoring",
            [("Standard scoring", "standard"), ("Lowest score wins", "lowest")],
            settings.scoring,
        ),
        _select(
            g,
            "timer",
            "Turn timer",
            [(f"Turn timer: {name}", name) for name in TIMERS],
            _timer_name(settings.turn_seconds),
        ),
        _select(
            g,
            "removal",
            "Timeouts before removal",
            [(f"Remove after {n} timeouts in a row", str(n)) for n in range(1, 6)],
            str(settings.timeouts_before_removal),
        ),
        _select(
            g,
            "lobby",
            "Lobby wait",
            [(f"Lobby waits {n} min", str(n)) for n in (5, 15, 30, 60)],
            str(settings.lobby_minutes),
        ),
        _select(
            g,
            "level",
            "Default computer level",
            [(f"Computer level: {n}", n) for n in LEVELS],
            settings.computer_level,
        ),
    ]
    house = house_of(settings)
    rows.append(
        SettingSelect(
            g,
            "house",
            placeholder=f"House rules: {preset_label(house)}"[:150],
            options=preset_options(house),
        )
    )
    for item in rows:
        view.add_item(ui.ActionRow[Any](item))
    view.add_item(
        ui.ActionRow[Any](
            SettingToggle(
                g,
                "computers",
                label="Computers: " + ("allowed" if settings.computers_allowed else "off"),
            ),
            SettingToggle(
                g,
                "rated",
                label="Computers rated: " + ("yes" if settings.computers_rated else "no"),
            ),
            SettingToggle(
                g,
                "hrated",
                label="House rules rated: " + ("yes" if settings.rate_house_rules else "no"),
            ),
            SettingToggle(g, "hopts", label="House rules one by one…"),
        )
    )
    return view


def house_settings_panel(settings: GuildSettings) -> ui.LayoutView:
    """The server's default house rules, option by option (every edition's: the Wild
    Customizable's effect applies to Super Mario tables only)."""
    g = settings.guild_id
    house = house_of(settings)
    view = ui.LayoutView(timeout=None)
    text = panel_text(
        house,
        "⚙️ Default house rules for new tables",
        "New lobbies start with these; /uno new can pick a preset, and each host can change "
        "them. The Wild Customizable applies to Super Mario only.",
    )
    view.add_item(ui.Container[Any](ui.TextDisplay(text), accent_colour=PANEL_ACCENT))
    for name in CHOICES:
        select = SettingSelect(g, HOUSE + name, options=value_options(house, name))
        view.add_item(ui.ActionRow[Any](select))
    for start in range(0, len(SWITCHES), 3):
        row = ui.ActionRow[Any]()
        for name in SWITCHES[start : start + 3]:
            on = bool(getattr(house, name))
            row.add_item(
                SettingToggle(
                    g,
                    HOUSE + name,
                    label=switch_label(house, name),
                    style=discord.ButtonStyle.success if on else discord.ButtonStyle.secondary,
                )
            )
        view.add_item(row)
    view.add_item(ui.ActionRow[Any](SettingToggle(g, "back", label="◀ All settings")))
    return view


def _house_choice(settings: GuildSettings, name: str, value: str) -> dict[str, Any]:
    """The change to the stored default options that a house-rule control asks for."""
    house = house_of(settings)
    if name == "house":
        if value not in PRESETS:
            raise ValueError(value)
        return {"house_rules": HouseRules.preset(value).to_dict()}
    option = name.removeprefix(HOUSE)
    if option in SWITCHES:
        return {"house_rules": house.with_option(option, not getattr(house, option)).to_dict()}
    setting = option_of(option, value)
    if setting is None:
        raise ValueError(value)
    return {"house_rules": house.with_option(option, setting.value).to_dict()}


def apply_choice(settings: GuildSettings, name: str, value: str) -> GuildSettings:
    """The settings with one choice changed; ValueError for a value not offered."""
    changes: dict[str, Any]
    if name == "edition" and value in ("classic", "sonic", "mario"):
        changes = {"edition": value}
    elif name == "scoring" and value in ("standard", "lowest"):
        changes = {"scoring": value}
    elif name == "timer" and value in TIMERS:
        changes = {"turn_seconds": TIMERS[value]}
    elif name == "removal" and value in {"1", "2", "3", "4", "5"}:
        changes = {"timeouts_before_removal": int(value)}
    elif name == "lobby" and value in {"5", "15", "30", "60"}:
        changes = {"lobby_minutes": int(value)}
    elif name == "level" and value in LEVELS:
        changes = {"computer_level": value}
    elif name == "computers":
        changes = {"computers_allowed": not settings.computers_allowed}
    elif name == "rated":
        changes = {"computers_rated": not settings.computers_rated}
    elif name == "hrated":
        changes = {"rate_house_rules": not settings.rate_house_rules}
    elif name in ("hopts", "back"):
        changes = {}  # only another page of the panel
    elif name == "house" or name.startswith(HOUSE):
        changes = _house_choice(settings, name, value)
    else:
        raise ValueError(name)
    return dataclasses.replace(settings, **changes)


async def _change(
    interaction: discord.Interaction[UnoBot], guild_id: int, name: str, value: str
) -> None:
    if interaction.guild_id != guild_id or not interaction.permissions.manage_guild:
        await interaction.response.send_message(
            "You need the Manage Server permission to change the settings.", ephemeral=True
        )
        return
    storage = interaction.client.storage
    try:
        if storage is None:
            raise StorageError("storage is not open")
        current = await storage.get_settings(guild_id)
        settings = apply_choice(current, name, value)
        if settings != current:
            await storage.save_settings(settings)
    except ValueError:
        await interaction.response.send_message("That choice is not offered.", ephemeral=True)
        return
    except StorageError:
        await interaction.response.send_message(
            "Could not save the settings; nothing changed. Please try again.", ephemeral=True
        )
        return
    options_page = name == "hopts" or name.startswith(HOUSE)
    panel = house_settings_panel(settings) if options_page else settings_panel(settings)
    await interaction.response.edit_message(view=panel, allowed_mentions=NO_PINGS)


_FIELD = "|".join(FIELDS)


class SettingSelect(
    ui.DynamicItem[ui.Select[Any]], template=rf"unoset:(?P<guild>[0-9]{{1,20}}):(?P<name>{_FIELD})"
):
    """A select that changes one setting; the guild and setting live in the custom id."""

    def __init__(
        self,
        guild_id: int,
        name: str,
        *,
        placeholder: str | None = None,
        options: list[discord.SelectOption] | None = None,
    ) -> None:
        super().__init__(
            ui.Select(
                custom_id=f"unoset:{guild_id}:{name}",
                placeholder=placeholder,
                options=options or [discord.SelectOption(label="-", value="-")],
            )
        )
        self.guild_id = guild_id
        self.name = name

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["guild"]), match["name"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        data = cast(dict[str, Any], interaction.data or {})
        values = data.get("values") or [""]
        await _change(interaction, self.guild_id, self.name, str(values[0]))


class SettingToggle(
    ui.DynamicItem[ui.Button[Any]], template=rf"unotog:(?P<guild>[0-9]{{1,20}}):(?P<name>{_FIELD})"
):
    """A button that flips a yes/no setting."""

    def __init__(
        self,
        guild_id: int,
        name: str,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(ui.Button(custom_id=f"unotog:{guild_id}:{name}", label=label, style=style))
        self.guild_id = guild_id
        self.name = name

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["guild"]), match["name"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _change(interaction, self.guild_id, self.name, "")


SETTINGS_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (SettingSelect, SettingToggle)


@app_commands.command(name="settings", description="This server's UNO settings")
async def settings(interaction: discord.Interaction[UnoBot]) -> None:
    if interaction.guild_id is None or not interaction.permissions.manage_guild:
        await interaction.response.send_message(
            "You need the Manage Server permission for the settings.", ephemeral=True
        )
        return
    storage = interaction.client.storage
    try:
        if storage is None:
            raise StorageError("storage is not open")
        current = await storage.get_settings(interaction.guild_id)
    except StorageError:
        await interaction.response.send_message(
            "The settings are not available right now; please try again.", ephemeral=True
        )
        return
    await interaction.response.send_message(
        view=settings_panel(current), ephemeral=True, allowed_mentions=NO_PINGS
    )


SETTINGS_COMMANDS: tuple[Subcommand, ...] = (settings,)


async def setup(bot: UnoBot) -> None:
    """Add /uno-admin settings (loading the groups first) and register its controls."""
    await add_to_group(bot, SETTINGS_COMMANDS, ADMIN_GROUP)
    bot.add_dynamic_items(*SETTINGS_ITEMS)


async def teardown(bot: UnoBot) -> None:
    bot.remove_dynamic_items(*SETTINGS_ITEMS)
    remove_from_group(bot, SETTINGS_COMMANDS, ADMIN_GROUP)
