"""The house rules' layouts checked offline against Discord's limits (40 components, labels,
select options): the host's panel, the server's panels, the table and hands in their fullest
states."""

from __future__ import annotations

import random

import pytest
from discord import ui

from bot.engine import PRESETS, HouseRules, Phase, RuleSet
from bot.engine.cards import CARD_INDEX, Edition
from bot.engine.house import OPTIONS
from bot.storage import GuildSettings
from bot.tables.commands import Actor, AddComputer, Join, Start
from bot.tables.manager import TableManager
from bot.tables.scheduler import ManualScheduler
from bot.tables.snapshot import hand_of, snapshot_of
from bot.tables.table import Table
from cogs.settings import describe, house_settings_panel, settings_panel
from cogs.ui.hand import HAND_IMAGE, hand_layout
from cogs.ui.house import house_panel
from cogs.ui.ids import PickTarget
from cogs.ui.lobby import lobby_view
from cogs.ui.rules_text import rules_view
from cogs.ui.table import TABLE_IMAGE, table_view
from tests.cogs.ui.helpers import EVERYTHING, check, hand_with, items
from tests.helpers import give, put_on_top


async def full_table(house: HouseRules, edition: Edition = Edition.MARIO) -> Table:
    """Ten seats (one human, nine computers) with the longest names, started."""
    manager = TableManager(None, scheduler=ManualScheduler(), rng=random.Random(2), brain=None)
    host = Actor(1, "W" * 40)
    rules = RuleSet(edition=edition, house=house)
    await manager.create("zzzzzzzzzzzzz", 1, 100, host, rules, threads=True)
    for _ in range(9):
        await manager.act("zzzzzzzzzzzzz", host, AddComputer("hard"))
    await manager.act("zzzzzzzzzzzzz", host, Start())
    return manager.tables["zzzzzzzzzzzzz"]


@pytest.mark.parametrize("edition", list(Edition))
async def test_the_host_panel_fits_with_every_option(edition: Edition) -> None:
    manager = TableManager(None, scheduler=ManualScheduler(), rng=random.Random(1), brain=None)
    rules = RuleSet(edition=edition, house=EVERYTHING)
    outcome = await manager.create("t", 1, 100, Actor(1, "Host"), rules, threads=True)
    await manager.act("t", Actor(2, "Guest"), Join())
    table = snapshot_of(manager.tables["t"])
    panel = house_panel(table)
    check(panel, ephemeral=True)
    selects = [c for c in items(panel) if isinstance(c, ui.Select)]
    mario = edition is Edition.MARIO
    assert len(selects) == (5 if mario else 4)  # presets, stack, hand size, penalty (+ effect)
    assert selects[0].placeholder is not None and selects[0].placeholder.startswith("Custom:")
    buttons = [c for c in items(panel) if isinstance(c, ui.Button)]
    assert [b.label for b in buttons] == [
        "Jump-in: on",
        "7-0: on",
        "Draw until playable: on",
        "Must play: on",
        "Strict Wild Draw Four: on",
        "No action card to finish: on",
    ]
    lobby = lobby_view(outcome.table)
    check(lobby)


async def test_a_preset_is_marked_in_the_panel() -> None:
    manager = TableManager(None, scheduler=ManualScheduler(), rng=random.Random(1), brain=None)
    rules = RuleSet(house=PRESETS["chill"])
    outcome = await manager.create("t", 1, 100, Actor(1, "Host"), rules, threads=True)
    panel = house_panel(outcome.table)
    [preset, *_] = [c for c in items(panel) if isinstance(c, ui.Select)]
    assert [o.value for o in preset.options if o.default] == ["chill"]


async def test_a_full_hand_a_stack_and_a_swap_fit_in_one_message() -> None:
    table = await full_table(EVERYTHING)
    game = table.match.game  # type: ignore[union-attr]
    seat = game.current
    put_on_top(game, "red-5")
    give(game, seat, ["red-draw2", "red-7"])
    game.play(seat, CARD_INDEX["red-draw2"])  # a penalty for the next seat
    target = game.current
    give(game, target, ["blue-draw2", "wild-draw4", "red-7"])
    hand = hand_with(table, target, 15)
    view = hand.view
    assert view.awaiting is Phase.RESPOND and view.penalty == 2 and view.can_stack
    names = table.names()
    snapshot = snapshot_of(table)
    for page in (0, 1):
        layout = hand_layout(table.table_id, 9_999_999_999, hand, page=page, names=names)
        check(layout, HAND_IMAGE, ephemeral=True)
        labels = [c.label for c in items(layout) if isinstance(c, ui.Button)]
        assert "Accept +2" in labels
    # Whom to swap with: nine other players, by name and card count.
    other = next(s for s in range(10) if s not in (seat, target))
    give(game, other, ["red-7"])
    aim = PickTarget(3, "red-7")
    swap_hand = hand_of(table, other)
    assert swap_hand is not None and len(swap_hand.view.targets) == 9
    layout = hand_layout(table.table_id, 1, swap_hand, aiming=aim, names=names)
    check(layout, HAND_IMAGE, ephemeral=True)
    [choose] = [c for c in items(layout) if isinstance(c, ui.Select)]
    assert len(choose.options) == 9 and all(" cards" in o.label for o in choose.options)
    # The table: the total, Accept +N and the answers the rules allow.
    board = table_view(snapshot, image=TABLE_IMAGE)
    check(board, TABLE_IMAGE)
    text = "\n".join(c.content for c in board.walk_children() if isinstance(c, ui.TextDisplay))
    answers = "**+2** (accept, stack a draw card or bounce it with a Super Star)"
    assert answers in text
    assert "House rules: stacking (all) · jump-in" in text


async def test_must_play_disables_draw_and_keep_in_the_hand() -> None:
    table = await full_table(HouseRules(must_play=True), Edition.CLASSIC)
    game = table.match.game  # type: ignore[union-attr]
    seat = game.current
    put_on_top(game, "red-5")
    give(game, seat, ["red-9"])
    hand = hand_of(table, seat)
    assert hand is not None
    layout = hand_layout(table.table_id, 1, hand)
    draw = next(c for c in items(layout) if isinstance(c, ui.Button) and c.label == "Draw")
    assert draw.disabled
    text = "\n".join(c.content for c in layout.walk_children() if isinstance(c, ui.TextDisplay))
    assert "you may not draw" in text


def test_the_server_panels_fit() -> None:
    for house in (HouseRules(), EVERYTHING, PRESETS["party"]):
        settings = GuildSettings(1 << 62, house_rules=house.to_dict(), rate_house_rules=True)
        check(settings_panel(settings), ephemeral=True)
        options = house_settings_panel(settings)
        check(options, ephemeral=True)
        buttons = [c.label for c in items(options) if isinstance(c, ui.Button)]
        assert len(buttons) == 1 + sum(1 for o in OPTIONS if isinstance(o.default, bool))


@pytest.mark.parametrize("edition", list(Edition))
def test_the_rules_of_a_table_with_every_option_fit(edition: Edition) -> None:
    view = rules_view(edition, "x" * 200, EVERYTHING)
    check(view, ephemeral=True)
    texts = [c.content for c in view.walk_children() if isinstance(c, ui.TextDisplay)]
    assert len("\n".join(texts)) > 2000  # more than a plain message holds
    assert texts[-1].count("\n• **") == 10  # every option explained


def test_the_settings_name_the_default_house_rules_once() -> None:
    party = GuildSettings(1, house_rules=PRESETS["party"].to_dict())
    line = next(x for x in describe(party).splitlines() if x.startswith("**Default house rules"))
    assert line.startswith("**Default house rules:** stacking (all) · jump-in · 7-0 · ")
    assert "House rules:" not in line
    official = next(x for x in describe(GuildSettings(1)).splitlines() if "house rules" in x)
    assert official.startswith("**Default house rules:** Official rules · ")
