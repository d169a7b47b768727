"""render_hand: one player's cards in button order, numbered, unplayable ones dimmed."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from bot.engine.cards import COLORS, Edition
from bot.engine.snapshot import HandView

from . import art
from .art import WHITE
from .common import encode_png, fixed_palette, mix, name_text, pill, stack, text, vertical_gradient

HAND_WIDTH = 1000
HEADER = 58
MARGIN = 20
GAP = 12
MAX_CARD_WIDTH = 124
PER_ROW = 10  # a 40-card hand is four rows of ten: cards still about 80 px wide
LABEL = 34
RAISE = 10  # playable cards sit a little higher, like cards pulled up in a real hand


def grid(count: int) -> tuple[int, int, int]:
    """(rows, columns, card width) of a hand of ``count`` cards."""
    rows = max(1, math.ceil(count / PER_ROW))
    cols = max(1, math.ceil(count / rows))
    fit = (HAND_WIDTH - 2 * MARGIN - (cols - 1) * GAP) // cols
    return rows, cols, min(MAX_CARD_WIDTH, fit)


def hand_size(count: int) -> tuple[int, int]:
    """The picture size of a hand of ``count`` cards."""
    rows, _, width = grid(count)
    row_h = art.card_size(width)[1] + LABEL + RAISE + GAP
    body = rows * row_h if count else 90
    return HAND_WIDTH, HEADER + body + MARGIN // 2


def card_slots(count: int) -> list[tuple[float, float, int]]:
    """(center x, center y, width) of each card of the hand, before the playable raise."""
    _, cols, width = grid(count)
    h = art.card_size(width)[1]
    row_h = h + LABEL + RAISE + GAP
    slots: list[tuple[float, float, int]] = []
    for i in range(count):
        row, col = divmod(i, cols)
        in_row = min(cols, count - row * cols)
        span = in_row * width + (in_row - 1) * GAP
        x0 = (HAND_WIDTH - span) / 2
        slots.append(
            (x0 + col * (width + GAP) + width / 2, HEADER + RAISE + row * row_h + h / 2, width)
        )
    return slots


def hand_image(view: HandView) -> tuple[Image.Image, list[str]]:
    """The hand picture and the card codes drawn on it, in order."""
    edition = Edition(view.edition)
    th = art.THEMES[edition]
    size = hand_size(len(view.cards))
    img = vertical_gradient(size, mix(th.felt, WHITE, 0.08), th.felt_edge).copy()
    d = ImageDraw.Draw(img)
    count = len(view.cards)
    who = name_text(view.name, 22, 560, fallback=f"Player {view.seat + 1}")
    plural = "card" if count == 1 else "cards"
    text(d, (MARGIN, HEADER / 2), f"{who} · {count} {plural}", 22, WHITE, anchor="lm")
    if view.color in COLORS:
        color = th.color(view.color)
        box = (HAND_WIDTH - MARGIN - 150, HEADER / 2 - 15, HAND_WIDTH - MARGIN, HEADER / 2 + 15)
        pill(d, box, color, WHITE, 3)
        art.draw_color_mark(d, box[0] + 24, HEADER / 2, 9, view.color, WHITE)
        text(
            d,
            (box[0] + 40, HEADER / 2),
            view.color.upper(),
            16,
            WHITE,
            anchor="lm",
            stroke=2,
            stroke_fill=mix(color, (0, 0, 0), 0.5),
        )
        text(d, (box[0] - 10, HEADER / 2), "color", 16, (225, 225, 225), anchor="rm", bold=False)
    drawn: list[str] = []
    if not count:
        text(d, (HAND_WIDTH / 2, HEADER + 45), "No cards in hand", 22, (230, 230, 230), anchor="mm")
    new_index = view.cards.index(view.drawn) if view.drawn in view.cards else -1
    playable = view.playable if len(view.playable) == count else (True,) * count
    for i, (code, (cx, cy, width)) in enumerate(zip(view.cards, card_slots(count), strict=True)):
        ok = playable[i]
        y = cy - RAISE if ok else cy
        art.paste_center(img, art.card_sprite(code, edition, width, 0, not ok), cx, y)
        drawn.append(code)
        h = art.card_size(width)[1]
        label_y = cy + h / 2 + 8 + LABEL / 2
        label = str(i + 1)
        size_px = 20 if width >= 70 else 17
        half = max(20, 7 + len(label) * size_px * 0.32)
        fill = th.accent if ok else (80, 80, 84)
        pill(
            d,
            (cx - half, label_y - 14, cx + half, label_y + 14),
            fill,
            WHITE if ok else (120, 120, 124),
            2,
        )
        text(
            d,
            (cx, label_y + 1),
            label,
            size_px,
            (30, 24, 10) if ok else (200, 200, 200),
            anchor="mm",
        )
        if i == new_index:
            tag = (cx - 26, y - h / 2 - 6, cx + 26, y - h / 2 + 16)
            pill(d, tag, (226, 32, 40), WHITE)
            text(d, (cx, (tag[1] + tag[3]) / 2 + 1), "NEW", 12, WHITE, anchor="mm")
    return img, drawn


def _palette_source(edition: Edition) -> Image.Image:
    from .samples import sample_hand  # only on the first hand of an edition

    return stack(
        [hand_image(sample_hand(n, edition))[0] for n in (7, 40)] + [art.sheet(edition, 60)]
    )


def hand_palette(edition: Edition) -> Image.Image:
    """The fixed palette of an edition's hand pictures."""
    th = art.THEMES[edition]
    return fixed_palette(
        ("hand", edition),
        lambda: _palette_source(edition),
        (WHITE, (0, 0, 0), *th.colors, th.accent),
    )


def render_hand(view: HandView) -> bytes:
    """A player's hand as PNG bytes."""
    return encode_png(hand_image(view)[0], hand_palette(Edition(view.edition)))
