"""Layouts checked against Discord's limits: every house rule on, the items of a view, a
hand grown past a page; shared by the layout tests of every language."""

from __future__ import annotations

import io

import discord
from discord import ui

from bot.engine import HouseRules
from bot.tables.snapshot import HandSnapshot, hand_of
from bot.tables.table import Table
from fake_discord.discord_py import check_send

EVERYTHING = HouseRules.parse(
    {
        "stack": "all",
        "jump_in": True,
        "seven_o": True,
        "draw_until_playable": True,
        "must_play": True,
        "wd4_strict": True,
        "hand_size": 9,
        "uno_penalty": 4,
        "no_action_finish": True,
        "custom_effect": "everyone_draws_1",
    }
)


def items(view: ui.LayoutView) -> list[ui.Item[ui.LayoutView]]:
    """Every item, dynamic ones unwrapped to the button or select they hold."""
    return [c.item if isinstance(c, ui.DynamicItem) else c for c in view.walk_children()]


def check(view: ui.LayoutView, *files: str, ephemeral: bool = False) -> None:
    assert check_send(view=view, files=[picture(f) for f in files], ephemeral=ephemeral) == []
    assert components(view) <= 40


def hand_with(table: Table, seat: int, extra: int) -> HandSnapshot:
    game = table.match.game  # type: ignore[union-attr]
    game.hands[seat] += game.draw_pile[-extra:]
    del game.draw_pile[-extra:]
    hand = hand_of(table, seat)
    assert hand is not None
    return hand


def picture(name: str) -> discord.File:
    return discord.File(io.BytesIO(b"\x89PNG"), filename=name)


def components(view: ui.LayoutView) -> int:
    return sum(1 for _ in view.walk_children())
