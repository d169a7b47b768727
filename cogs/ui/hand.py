"""A player's private hand: the picture, one numbered button per card (paged) and the choices."""

from __future__ import annotations

from typing import Any

import discord
from discord import ui

from bot.engine.cards import CARD_INDEX, CARD_LABELS, COLORS
from bot.engine.snapshot import HandView
from bot.tables.narrate import safe_name
from bot.tables.table import Table

from .ids import Click
from .items import HandButton
from .table import COLOR_ACCENT, COLOR_EMOJI

PAGE_SIZE = 20  # 4 rows of 5: with the controls the message stays under 40 components
HAND_IMAGE = "hand.png"


def label(code: str) -> str:
    return CARD_LABELS[CARD_INDEX[code]]


def emoji(code: str) -> str:
    return COLOR_EMOJI.get(code.split("-", 1)[0], "🌈")


def hand_layout(
    table: Table,
    hand: HandView,
    *,
    page: int = 0,
    picking: str | None = None,
    note: str | None = None,
    image: str | None = HAND_IMAGE,
) -> ui.LayoutView:
    """The hand message for ``hand``; ``picking`` is ``idx.code`` of a wild waiting for a color."""
    layout = ui.LayoutView(timeout=None)
    t, v = table.table_id, table.version
    armed = hand.seat in table.uno_armed
    pages = max(1, (len(hand.cards) + PAGE_SIZE - 1) // PAGE_SIZE)
    page = min(max(page, 0), pages - 1)
    top = f"{emoji(hand.top)} {label(hand.top)}" if hand.top else "none"
    color = f"{COLOR_EMOJI[hand.color]} {hand.color}" if hand.color else "to be chosen"
    asks = {
        "turn": "**Your turn:** play a card or draw.",
        "drawn": f"**You drew {label(hand.drawn)}**: play it or keep it." if hand.drawn else "",
        "color": "**Choose the color** of the first card.",
        "respond": f"**{label(hand.pending)} on you!** Accept"
        + (", challenge" if hand.can_challenge else "")
        + (" or bounce it with your Super Star." if hand.can_bounce else ".")
        if hand.pending
        else "",
    }.get(hand.awaiting or "", "Waiting for the others.")
    text = [f"### Your hand · {len(hand.cards)} cards", f"Top: {top} · Color: {color}", asks]
    if armed:
        text.append("✅ You will call **UNO!** with your next card.")
    if note:
        text.append(f"-# {note}")
    container = ui.Container[Any](accent_colour=COLOR_ACCENT.get(hand.color or "", 0x2B2D31))
    container.add_item(ui.TextDisplay("\n".join(line for line in text if line)))
    if image is not None:
        container.add_item(ui.MediaGallery(discord.MediaGalleryItem(f"attachment://{image}")))
    layout.add_item(container)

    if picking is not None:
        row = ui.ActionRow[Any]()
        for name in COLORS:
            row.add_item(
                HandButton(
                    Click(t, v, "play", f"{picking}.{name}"),
                    label=name.title(),
                    emoji=COLOR_EMOJI[name],
                )
            )
        row.add_item(HandButton(Click(t, v, "back", str(page)), label="Back"))
        layout.add_item(row)
        return layout
    if hand.awaiting == "color":
        row = ui.ActionRow[Any]()
        for name in COLORS:
            row.add_item(
                HandButton(Click(t, v, "color", name), label=name.title(), emoji=COLOR_EMOJI[name])
            )
        layout.add_item(row)
        return layout

    start = page * PAGE_SIZE
    shown = list(enumerate(hand.cards))[start : start + PAGE_SIZE]
    for offset in range(0, len(shown), 5):
        row = ui.ActionRow[Any]()
        for index, code in shown[offset : offset + 5]:
            playable = hand.playable[index]
            wild = code.startswith("wild")
            row.add_item(
                HandButton(
                    Click(t, v, "pick" if wild else "play", f"{index}.{code}"),
                    label=f"{index + 1} · {label(code)}",
                    emoji=emoji(code),
                    style=discord.ButtonStyle.success
                    if playable
                    else discord.ButtonStyle.secondary,
                    disabled=not playable,
                )
            )
        layout.add_item(row)

    controls = ui.ActionRow[Any]()
    if hand.awaiting == "turn":
        controls.add_item(
            HandButton(Click(t, v, "draw", None), label="Draw", style=discord.ButtonStyle.primary)
        )
    elif hand.awaiting == "drawn":
        controls.add_item(HandButton(Click(t, v, "keep", None), label="Keep it"))
    elif hand.awaiting == "respond":
        controls.add_item(
            HandButton(
                Click(t, v, "accept", None), label="Accept", style=discord.ButtonStyle.primary
            )
        )
        if hand.can_challenge:
            controls.add_item(HandButton(Click(t, v, "challenge", None), label="Challenge"))
    two_on_turn = len(hand.cards) == 2 and hand.awaiting in ("turn", "drawn")
    if hand.can_call_uno or two_on_turn:
        controls.add_item(
            HandButton(
                Click(t, v, "uno", None),
                label="UNO! ✓" if armed else "UNO!",
                style=discord.ButtonStyle.danger,
            )
        )
    if pages > 1:
        controls.add_item(
            HandButton(Click(t, v, "page", str(page - 1)), label="◀", disabled=page == 0)
        )
        controls.add_item(
            HandButton(Click(t, v, "page", str(page + 1)), label="▶", disabled=page >= pages - 1)
        )
    if not controls.children:
        controls.add_item(HandButton(Click(t, v, "page", str(page)), label="Refresh"))
    layout.add_item(controls)
    return layout


def reveal_text(table: Table, target: int, cards: tuple[str, ...]) -> str:
    """The challenged hand, shown to the challenger alone."""
    names = ", ".join(label(code) for code in cards) or "no cards"
    who = safe_name(table.seats[target].name)
    return f"🔍 **{who}'s hand** when they played the Wild Draw Four: {names}"
