"""A player's private hand: the picture, one numbered button per card (paged) and the choices."""

from __future__ import annotations

from typing import Any

import discord
from discord import ui

from bot.engine import Action
from bot.engine.cards import CARD_INDEX, CARD_LABELS, COLOR_INDEX, COLORS
from bot.tables.commands import ANY_SEAT, ArmUno
from bot.tables.names import safe_name
from bot.tables.snapshot import HandSnapshot, Reveal, TableSnapshot

from .ids import PickColor, TurnPage
from .items import button
from .table import COLOR_ACCENT, COLOR_EMOJI

PAGE_SIZE = 20  # 4 rows of 5: with the controls the message stays under 40 components
HAND_IMAGE = "hand.png"


def label(code: str) -> str:
    return CARD_LABELS[CARD_INDEX[code]]


def emoji(code: str) -> str:
    return COLOR_EMOJI.get(code.split("-", 1)[0], "🌈")


def pages_of(hand: HandSnapshot) -> int:
    return max(1, (len(hand.view.cards) + PAGE_SIZE - 1) // PAGE_SIZE)


def hand_layout(
    table_id: str,
    version: int,
    hand: HandSnapshot,
    *,
    page: int = 0,
    picking: PickColor | None = None,
    note: str | None = None,
    image: str | None = HAND_IMAGE,
) -> ui.LayoutView:
    """The hand message at ``version``; ``picking`` is a wild card waiting for its color."""
    view = hand.view
    layout = ui.LayoutView(timeout=None)
    t, v = table_id, version
    pages = pages_of(hand)
    page = min(max(page, 0), pages - 1)
    top = f"{emoji(view.top)} {label(view.top)}" if view.top else "none"
    color = f"{COLOR_EMOJI[view.color]} {view.color}" if view.color else "to be chosen"
    asks = {
        "turn": "**Your turn:** play a card or draw.",
        "drawn": f"**You drew {label(view.drawn)}**: play it or keep it." if view.drawn else "",
        "color": "**Choose the color** of the first card.",
        "respond": f"**{label(view.pending)} on you!** Accept"
        + (", challenge" if view.can_challenge else "")
        + (" or bounce it with your Super Star." if view.can_bounce else ".")
        if view.pending
        else "",
    }.get(view.awaiting or "", "Waiting for the others.")
    text = [f"### Your hand · {len(view.cards)} cards", f"Top: {top} · Color: {color}", asks]
    if hand.uno_armed:
        text.append("✅ You will call **UNO!** with your next card.")
    if note:
        text.append(f"-# {note}")
    container = ui.Container[Any](accent_colour=COLOR_ACCENT.get(view.color or "", 0x2B2D31))
    container.add_item(ui.TextDisplay("\n".join(line for line in text if line)))
    if image is not None:
        container.add_item(ui.MediaGallery(discord.MediaGalleryItem(f"attachment://{image}")))
    layout.add_item(container)

    if picking is not None:
        card = CARD_INDEX[picking.card]
        row = ui.ActionRow[Any]()
        for name in COLORS:
            play = Action(ANY_SEAT, "play", card, COLOR_INDEX[name])
            row.add_item(
                button(t, v, play, label=name.title(), emoji=COLOR_EMOJI[name], slot=picking.index)
            )
        row.add_item(button(t, v, TurnPage(page), label="Back"))
        layout.add_item(row)
        return layout
    if view.awaiting == "color":
        row = ui.ActionRow[Any]()
        for name in COLORS:
            choose = Action(ANY_SEAT, "choose_color", color=COLOR_INDEX[name])
            row.add_item(button(t, v, choose, label=name.title(), emoji=COLOR_EMOJI[name]))
        layout.add_item(row)
        return layout

    start = page * PAGE_SIZE
    shown = list(enumerate(view.cards))[start : start + PAGE_SIZE]
    for offset in range(0, len(shown), 5):
        row = ui.ActionRow[Any]()
        for index, code in shown[offset : offset + 5]:
            playable = view.playable[index]
            wild = code.startswith("wild")
            request = PickColor(index, code) if wild else Action(ANY_SEAT, "play", CARD_INDEX[code])
            row.add_item(
                button(
                    t,
                    v,
                    request,
                    label=f"{index + 1} · {label(code)}",
                    emoji=emoji(code),
                    style=discord.ButtonStyle.success
                    if playable
                    else discord.ButtonStyle.secondary,
                    disabled=not playable,
                    slot=index,
                )
            )
        layout.add_item(row)

    controls = ui.ActionRow[Any]()
    if view.awaiting == "turn":
        draw = Action(ANY_SEAT, "draw")
        controls.add_item(button(t, v, draw, label="Draw", style=discord.ButtonStyle.primary))
    elif view.awaiting == "drawn":
        controls.add_item(button(t, v, Action(ANY_SEAT, "pass"), label="Keep it"))
    elif view.awaiting == "respond":
        accept = Action(ANY_SEAT, "accept")
        controls.add_item(button(t, v, accept, label="Accept", style=discord.ButtonStyle.primary))
        if view.can_challenge:
            controls.add_item(button(t, v, Action(ANY_SEAT, "challenge"), label="Challenge"))
    two_on_turn = len(view.cards) == 2 and view.awaiting in ("turn", "drawn")
    if view.can_call_uno or two_on_turn:
        controls.add_item(
            button(
                t,
                v,
                ArmUno() if two_on_turn else Action(ANY_SEAT, "call_uno"),
                label="UNO! ✓" if hand.uno_armed else "UNO!",
                style=discord.ButtonStyle.danger,
            )
        )
    if pages > 1:
        back, ahead = TurnPage(max(0, page - 1)), TurnPage(page + 1)
        controls.add_item(button(t, v, back, label="◀", disabled=page == 0))
        controls.add_item(button(t, v, ahead, label="▶", disabled=page >= pages - 1))
    if not controls.children:
        controls.add_item(button(t, v, TurnPage(page), label="Refresh"))
    layout.add_item(controls)
    return layout


def reveal_text(table: TableSnapshot, reveal: Reveal) -> str:
    """The challenged hand, shown to the challenger alone."""
    names = ", ".join(label(code) for code in reveal.cards) or "no cards"
    who = safe_name(table.seats[reveal.seat].name)
    return f"🔍 **{who}'s hand** when they played the Wild Draw Four: {names}"
