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
from bot.engine.cards import Edition
from bot.i18n import ENGLISH_LANG, NATIVE_NAMES, SUPPORTED, Lang
from bot.i18n.game_words import edition_short, edition_title
from bot.storage import GuildSettings, StorageError
from bot.tables.house_words import options_in_force, preset_label
from bot.tables.notes import note
from cogs.group import ADMIN_GROUP, Subcommand, add_to_group, remove_from_group
from cogs.lang import user_lang
from cogs.replies import NO_PINGS, let_go
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
    "language",  # the language of public messages
    "house",  # the default preset
    "hrated",  # house-ruled matches change ratings
    "tourney",  # anyone may open a tournament
    "hopts",  # open the default options one by one
    "back",  # from them back to the settings
    *(HOUSE + name for name in (*CHOICES, *SWITCHES)),
)


def _timer_name(seconds: int | None) -> str:
    return next((name for name, value in TIMERS.items() if value == seconds), "off")


def _timer_label(name: str, tongue: Lang) -> str:
    """A timer choice as shown: durations read the same everywhere, "off" is translated."""
    return tongue.gettext("off") if name == "off" else name


def house_of(settings: GuildSettings) -> HouseRules:
    """The server's default house rules (the printed rules if what is stored is not valid)."""
    try:
        return HouseRules.parse(settings.house_rules)
    except ValueError:
        return HouseRules()


AUTO = "auto"  # the language setting that follows the server's Discord locale


def language_name(settings: GuildSettings, tongue: Lang = ENGLISH_LANG) -> str:
    if settings.language in NATIVE_NAMES:
        return NATIVE_NAMES[settings.language]
    return tongue.gettext("the server's Discord language")


def level_name(level: str, tongue: Lang = ENGLISH_LANG) -> str:
    """A computer level's name (``easy``, ``normal``, ``hard``)."""
    return note(f"level.{level}").render(tongue) if level in LEVELS else level


def describe(settings: GuildSettings, tongue: Lang = ENGLISH_LANG) -> str:
    """The current values, one line each."""
    _ = tongue.gettext
    timer = _timer_label(_timer_name(settings.turn_seconds), tongue)
    house = options_in_force(house_of(settings), tongue)
    rated = _("change ratings") if settings.rate_house_rules else _("are not rated")
    lines = [
        "## ⚙️ " + _("UNO settings for this server"),
        _("**Default edition:** {edition} · **Scoring:** {scoring}").format(
            edition=edition_short(settings.edition, tongue),
            scoring=_("lowest") if settings.scoring == "lowest" else _("standard"),
        ),
        _("**Default house rules:** {rules} · house-ruled matches {rated}").format(
            rules=house, rated=rated
        ),
        _("**Turn timer:** {timer}").format(timer=timer)
        + (
            " · "
            + _(
                "a timeout makes the safest move (draw and keep, or accept a penalty); "
                "removed after {count} in a row"
            ).format(count=settings.timeouts_before_removal)
            if settings.turn_seconds
            else ""
        ),
        _("**Lobby waits:** {minutes} min").format(minutes=settings.lobby_minutes),
        _("**Computer players:** {allowed} · default level {level} · {rated} in the league").format(
            allowed=_("allowed") if settings.computers_allowed else _("not allowed"),
            level=level_name(settings.computer_level, tongue),
            rated=_("rated") if settings.computers_rated else _("not rated"),
        ),
        _("**Language of games and league pictures:** {language}").format(
            language=language_name(settings, tongue)
        ),
        _("**Tournaments:** opened by {who}").format(
            who=_("anyone") if settings.tournaments_open else _("server managers")
        ),
    ]
    return "\n".join(lines)


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


def settings_panel(settings: GuildSettings, tongue: Lang = ENGLISH_LANG) -> ui.LayoutView:
    """The panel: current values and one control per setting (in the admin's language)."""
    _ = tongue.gettext
    g = settings.guild_id
    view = ui.LayoutView(timeout=None)
    text = describe(settings, tongue)
    view.add_item(ui.Container[Any](ui.TextDisplay(text), accent_colour=0x5865F2))
    languages = [(_("Language: the server's Discord language"), AUTO)]
    languages += [(NATIVE_NAMES[code], code) for code in SUPPORTED]
    rows = [
        _select(
            g,
            "edition",
            _("Default edition"),
            [
                (edition_title(Edition(choice.value), tongue), choice.value)
                for choice in EDITION_CHOICES
            ],
            settings.edition,
        ),
        _select(
            g,
            "scoring",
            _("Default scoring"),
            [(_("Standard scoring"), "standard"), (_("Lowest score wins"), "lowest")],
            settings.scoring,
        ),
        _select(
            g,
            "timer",
            _("Turn timer"),
            [
                (_("Turn timer: {timer}").format(timer=_timer_label(name, tongue)), name)
                for name in TIMERS
            ],
            _timer_name(settings.turn_seconds),
        ),
        _select(
            g,
            "removal",
            _("Timeouts before removal"),
            [
                (
                    tongue.ngettext(
                        "Remove after {count} timeout in a row",
                        "Remove after {count} timeouts in a row",
                        n,
                    ).format(count=n),
                    str(n),
                )
                for n in range(1, 6)
            ],
            str(settings.timeouts_before_removal),
        ),
        _select(
            g,
            "lobby",
            _("Lobby wait"),
            [(_("Lobby waits {minutes} min").format(minutes=n), str(n)) for n in (5, 15, 30, 60)],
            str(settings.lobby_minutes),
        ),
        _select(
            g,
            "level",
            _("Default computer level"),
            [(_("Computer level: {level}").format(level=level_name(n, tongue)), n) for n in LEVELS],
            settings.computer_level,
        ),
        _select(g, "language", _("Language"), languages, settings.language or AUTO),
    ]
    house = house_of(settings)
    rows.append(
        SettingSelect(
            g,
            "house",
            placeholder=_("House rules: {preset}").format(preset=preset_label(house, tongue))[:150],
            options=preset_options(house, tongue),
        )
    )
    for item in rows:
        view.add_item(ui.ActionRow[Any](item))
    view.add_item(
        ui.ActionRow[Any](
            SettingToggle(
                g,
                "computers",
                label=_("Computers: allowed")
                if settings.computers_allowed
                else _("Computers: off"),
            ),
            SettingToggle(
                g,
                "rated",
                label=_("Computers rated: yes")
                if settings.computers_rated
                else _("Computers rated: no"),
            ),
            SettingToggle(
                g,
                "hrated",
                label=_("House rules rated: yes")
                if settings.rate_house_rules
                else _("House rules rated: no"),
            ),
            SettingToggle(g, "hopts", label=_("House rules one by one…")),
            SettingToggle(
                g,
                "tourney",
                label=_("Tournaments: anyone opens")
                if settings.tournaments_open
                else _("Tournaments: managers open"),
            ),
        )
    )
    return view


def house_settings_panel(settings: GuildSettings, tongue: Lang = ENGLISH_LANG) -> ui.LayoutView:
    """The server's default house rules, option by option (every edition's: the Wild
    Customizable's effect applies to Super Mario tables only)."""
    _ = tongue.gettext
    g = settings.guild_id
    house = house_of(settings)
    view = ui.LayoutView(timeout=None)
    text = panel_text(
        house,
        "⚙️ " + _("Default house rules for new tables"),
        _(
            "New lobbies start with these; /uno new can pick a preset, and each host can change "
            "them. The Wild Customizable applies to Super Mario only."
        ),
        tongue,
    )
    view.add_item(ui.Container[Any](ui.TextDisplay(text), accent_colour=PANEL_ACCENT))
    for name in CHOICES:
        select = SettingSelect(g, HOUSE + name, options=value_options(house, name, tongue))
        view.add_item(ui.ActionRow[Any](select))
    for start in range(0, len(SWITCHES), 3):
        row = ui.ActionRow[Any]()
        for name in SWITCHES[start : start + 3]:
            on = bool(getattr(house, name))
            row.add_item(
                SettingToggle(
                    g,
                    HOUSE + name,
                    label=switch_label(house, name, tongue),
                    style=discord.ButtonStyle.success if on else discord.ButtonStyle.secondary,
                )
            )
        view.add_item(row)
    view.add_item(ui.ActionRow[Any](SettingToggle(g, "back", label="◀ " + _("All settings"))))
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
    elif name == "language" and (value == AUTO or value in SUPPORTED):
        changes = {"language": None if value == AUTO else value}
    elif name == "computers":
        changes = {"computers_allowed": not settings.computers_allowed}
    elif name == "rated":
        changes = {"computers_rated": not settings.computers_rated}
    elif name == "hrated":
        changes = {"rate_house_rules": not settings.rate_house_rules}
    elif name == "tourney":
        changes = {"tournaments_open": not settings.tournaments_open}
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
    tongue = user_lang(interaction)
    _ = tongue.gettext
    if interaction.guild_id != guild_id or not interaction.permissions.manage_guild:
        await interaction.response.send_message(
            _("You need the Manage Server permission to change the settings."), ephemeral=True
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
        await interaction.response.send_message(_("That choice is not offered."), ephemeral=True)
        return
    except StorageError:
        await interaction.response.send_message(
            _("Could not save the settings; nothing changed. Please try again."), ephemeral=True
        )
        return
    options_page = name == "hopts" or name.startswith(HOUSE)
    panel = (
        house_settings_panel(settings, tongue) if options_page else settings_panel(settings, tongue)
    )
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
    _ = user_lang(interaction).gettext
    if interaction.guild_id is None or not interaction.permissions.manage_guild:
        await interaction.response.send_message(
            _("You need the Manage Server permission for the settings."), ephemeral=True
        )
        return
    storage = interaction.client.storage
    try:
        if storage is None:
            raise StorageError("storage is not open")
        current = await storage.get_settings(interaction.guild_id)
    except StorageError:
        await interaction.response.send_message(
            _("The settings are not available right now; please try again."), ephemeral=True
        )
        return
    panel = settings_panel(current, user_lang(interaction))
    await interaction.response.send_message(view=panel, ephemeral=True, allowed_mentions=NO_PINGS)
    let_go(panel)


SETTINGS_COMMANDS: tuple[Subcommand, ...] = (settings,)


async def setup(bot: UnoBot) -> None:
    """Add /uno-admin settings (loading the groups first) and register its controls."""
    await add_to_group(bot, SETTINGS_COMMANDS, ADMIN_GROUP)
    bot.add_dynamic_items(*SETTINGS_ITEMS)


async def teardown(bot: UnoBot) -> None:
    bot.remove_dynamic_items(*SETTINGS_ITEMS)
    remove_from_group(bot, SETTINGS_COMMANDS, ADMIN_GROUP)
