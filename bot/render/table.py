"""render_table: the public table (discard pile, draw pile, color, direction, seats) as a PNG."""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.engine.cards import COLORS, Edition
from bot.engine.snapshot import PublicView, SeatView

from . import art
from .art import BACK, RGB, WHITE
from .common import encode_png, fixed_palette, mix, name_text, pill, stack, text

TABLE_SIZE = (1000, 640)
CENTER = (500, 318)
SEAT_ORBIT = (408, 250)  # radii of the ellipse the seat plates sit on
PLATE_SIZE = (184, 70)
PILE_CARD_WIDTH = 104
DRAW_PILE_CENTER = (408, 292)
DISCARD_CENTER = (590, 292)
# Where the color in force is painted: a plain rectangle of that color (tests sample it).
COLOR_SWATCH_BOX = (525, 410, 655, 440)
COLOR_SWATCH_POINT = (COLOR_SWATCH_BOX[0] + 10, (COLOR_SWATCH_BOX[1] + COLOR_SWATCH_BOX[3]) // 2)
# Each card keeps one tilt by its depth in the pile, so the fan does not jump between pictures.
PILE_ANGLES = (-14, 9, -5, 15, -10, 4, 12, -7)
PILE_OFFSETS = ((-10, 4), (8, -3), (-4, -6), (9, 5), (-7, -2), (5, 7), (0, -4), (-9, 6))
MAX_FAN = 5

INK: RGB = (250, 250, 250)
MUTED: RGB = (150, 150, 150)
UNO_RED: RGB = (226, 32, 40)
CATCH_ORANGE: RGB = (255, 138, 0)
BOT_BLUE: RGB = (92, 112, 160)


@lru_cache(maxsize=8)
def _background(edition: Edition) -> Image.Image:
    """The felt table of an edition: a wooden (or edition-tinted) rim around a lit felt oval."""
    th = art.THEMES[edition]
    w, h = TABLE_SIZE
    outer = mix(th.felt_edge, (0, 0, 0), 0.45)
    img = Image.new("RGB", TABLE_SIZE, outer)
    d = ImageDraw.Draw(img)
    cx, cy = CENTER
    rx, ry = w / 2 - 12, h / 2 - 14
    d.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), fill=th.rim)
    d.ellipse(
        (cx - rx + 4, cy - ry + 4, cx + rx - 4, cy + ry - 4),
        fill=mix(th.rim, (255, 255, 255), 0.18),
    )
    d.ellipse((cx - rx + 14, cy - ry + 14, cx + rx - 14, cy + ry - 14), fill=th.felt_edge)
    # Concentric ellipses fake a spotlight on the felt; drawn once per edition.
    steps = 24
    for i in range(steps):
        t = i / steps
        ex, ey = (rx - 20) * (1 - t * 0.75), (ry - 20) * (1 - t * 0.75)
        d.ellipse(
            (cx - ex, cy - ey, cx + ex, cy + ey),
            fill=mix(th.felt_edge, mix(th.felt, (255, 255, 255), 0.12), min(1.0, t * 1.6)),
        )
    return img


def _ring_arrows(d: ImageDraw.ImageDraw, direction: int, color: RGB) -> None:
    """Two curved arrows around the piles, pointing the way play goes."""
    cx, cy = CENTER[0], CENTER[1] - 20
    rx, ry = 250, 150
    for start in (200, 20):
        a0, a1 = (start, start + 120) if direction > 0 else (start + 120, start)
        pts = _ellipse_arrow(cx, cy, rx, ry, a0, a1, 12, 30)
        d.polygon(pts, fill=color)


def _ellipse_arrow(
    cx: float, cy: float, rx: float, ry: float, a0: float, a1: float, width: float, head: float
) -> list[tuple[float, float]]:
    """A curved arrow on an ellipse from a0 to a1 degrees (head at a1)."""
    sign = 1 if a1 > a0 else -1
    body_end = a1 - sign * 9
    steps = 40

    def at(a: float, r: float) -> tuple[float, float]:
        rad = math.radians(a)
        return cx + (rx + r) * math.cos(rad), cy + (ry + r) * math.sin(rad)

    outer = [at(a0 + (body_end - a0) * i / steps, width / 2) for i in range(steps + 1)]
    inner = [at(body_end + (a0 - body_end) * i / steps, -width / 2) for i in range(steps + 1)]
    return [*outer, at(body_end, head / 2), at(a1, 0), at(body_end, -head / 2), *inner]


def seat_center(index: int, count: int) -> tuple[float, float]:
    """Where seat ``index`` of ``count`` sits: seat 0 at the bottom, then clockwise."""
    a = math.radians(90 + 360 * index / count)
    x = CENTER[0] + SEAT_ORBIT[0] * math.cos(a)
    y = CENTER[1] + SEAT_ORBIT[1] * math.sin(a)
    w, h = PLATE_SIZE
    x = min(max(x, w / 2 + 8), TABLE_SIZE[0] - w / 2 - 8)
    y = min(max(y, h / 2 + 8), TABLE_SIZE[1] - h / 2 - 8)
    return x, y


def _uno_badge(d: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    pts = art.star_points(cx, cy, 30, inner=0.72, tilt=-90)
    burst = [p for i in range(2) for p in art.rotate_points(pts, cx, cy, 18 * i)]
    d.polygon(art.star_points(cx, cy, 31, 0.75), fill=(255, 214, 0))
    d.polygon(burst[:10], fill=(255, 214, 0))
    d.ellipse((cx - 24, cy - 16, cx + 24, cy + 16), fill=UNO_RED, outline=WHITE, width=2)
    text(d, (cx, cy), "UNO!", 13, WHITE, anchor="mm")


def _seat(
    img: Image.Image, d: ImageDraw.ImageDraw, seat: SeatView, cx: float, cy: float, edition: Edition
) -> None:
    th = art.THEMES[edition]
    w, h = PLATE_SIZE
    box = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
    if not seat.active:
        fill, outline, ink = (70, 70, 74), (110, 110, 114), MUTED
    elif seat.current:
        fill, outline, ink = mix(th.accent, WHITE, 0.25), WHITE, (30, 24, 10)
    else:
        fill, outline, ink = mix(th.felt_edge, (0, 0, 0), 0.45), mix(th.felt, WHITE, 0.3), INK
    if seat.current and seat.active:
        glow = (box[0] - 6, box[1] - 6, box[2] + 6, box[3] + 6)
        d.rounded_rectangle(glow, radius=20, fill=mix(th.accent, th.felt, 0.35))
    d.rounded_rectangle(
        (box[0] + 3, box[1] + 4, box[2] + 3, box[3] + 4),
        radius=15,
        fill=mix(th.felt_edge, (0, 0, 0), 0.6),
    )
    d.rounded_rectangle(box, radius=15, fill=fill, outline=outline, width=2)
    left = box[0] + 12
    name_w = w - 24 - (40 if seat.computer else 0)
    label = name_text(seat.name, 20, name_w, fallback=f"Player {seat.seat + 1}")
    text(d, (left, box[1] + 10), label, 20, ink)
    if seat.computer:
        tag = (box[2] - 46, box[1] + 10, box[2] - 10, box[1] + 30)
        pill(d, tag, BOT_BLUE if seat.active else (90, 90, 90))
        text(d, ((tag[0] + tag[2]) / 2, (tag[1] + tag[3]) / 2), "BOT", 12, WHITE, anchor="mm")
    # Card count: a small stack of backs and the number.
    back = art.card_image(BACK, edition, 20)
    by = round(box[1] + 38)
    for i in range(min(3, max(1, seat.cards))):
        img.paste(back, (round(left + i * 5), by - i * 2), back)
    count = f"× {seat.cards}" if seat.active else "left the table"
    text(d, (left + 38, box[1] + 50), count, 19 if seat.active else 15, ink, anchor="lm")
    if seat.dealer:
        dx, dy = box[0] + 2, box[1] + 2
        d.ellipse((dx - 12, dy - 12, dx + 12, dy + 12), fill=WHITE, outline=(40, 40, 40), width=2)
        text(d, (dx, dy + 1), "D", 14, (30, 30, 30), anchor="mm")
    if seat.called_uno and seat.active:
        _uno_badge(d, box[2] - 14, box[3] - 8)
    elif seat.catchable and seat.active:
        tag = (box[2] - 76, box[3] - 30, box[2] - 6, box[3] - 8)
        pill(d, tag, CATCH_ORANGE, WHITE)
        text(d, ((tag[0] + tag[2]) / 2, (tag[1] + tag[3]) / 2), "catch!", 13, WHITE, anchor="mm")


def _swatch(d: ImageDraw.ImageDraw, view: PublicView) -> None:
    th = art.theme(view.edition)
    x0, y0, x1, y1 = COLOR_SWATCH_BOX
    d.rounded_rectangle((x0 - 3, y0 - 3, x1 + 3, y1 + 3), radius=8, fill=WHITE)
    if view.color in COLORS:
        color = th.color(view.color)
        d.rectangle(COLOR_SWATCH_BOX, fill=color)
        art.draw_color_mark(d, x0 + 34, (y0 + y1) / 2, 9, view.color, WHITE)
        text(
            d,
            (x0 + 48, (y0 + y1) / 2),
            view.color.upper(),
            16,
            WHITE,
            anchor="lm",
            stroke=2,
            stroke_fill=mix(color, (0, 0, 0), 0.5),
        )
    else:
        quarter = (x1 - x0) / 4
        for i, c in enumerate(th.colors):
            d.rectangle((x0 + i * quarter, y0, x0 + (i + 1) * quarter, y1), fill=c)
        text(
            d,
            ((x0 + x1) / 2, (y0 + y1) / 2),
            "choosing…",
            15,
            WHITE,
            anchor="mm",
            stroke=2,
            stroke_fill=(0, 0, 0),
        )


def _piles(img: Image.Image, d: ImageDraw.ImageDraw, view: PublicView) -> list[str]:
    """Draw pile and discard fan; returns the card codes drawn face up."""
    th = art.theme(view.edition)
    drawn: list[str] = []
    dx, dy = DRAW_PILE_CENTER
    if view.draw_pile > 0:
        for i in range(min(4, 1 + view.draw_pile // 12)):
            art.paste_center(
                img, art.card_sprite(BACK, view.edition, PILE_CARD_WIDTH), dx - i * 2, dy - i * 3
            )
    else:
        w, h = art.card_size(PILE_CARD_WIDTH)
        d.rounded_rectangle(
            (dx - w / 2, dy - h / 2, dx + w / 2, dy + h / 2),
            radius=10,
            outline=mix(th.felt, WHITE, 0.4),
            width=3,
        )
    pill(d, (dx - 52, dy + 94, dx + 52, dy + 124), (20, 20, 24), WHITE)
    text(d, (dx, dy + 109), f"{view.draw_pile} left", 16, WHITE, anchor="mm")
    cx, cy = DISCARD_CENTER
    color = th.color(view.color) if view.color in COLORS else WHITE
    # A ring in the color in force, so a wild on top still says which color to follow.
    d.ellipse((cx - 112, cy - 112, cx + 112, cy + 112), outline=color, width=8)
    fan = view.recent[-MAX_FAN:]
    first = view.discard_pile - len(fan)
    for i, code in enumerate(fan):
        depth = first + i
        angle = PILE_ANGLES[depth % len(PILE_ANGLES)]
        ox, oy = PILE_OFFSETS[depth % len(PILE_OFFSETS)]
        art.paste_center(
            img, art.card_sprite(code, view.edition, PILE_CARD_WIDTH, angle), cx + ox, cy + oy
        )
        drawn.append(code)
    if view.pending:
        label = "+4" if view.pending == "wild-draw4" else "+2"
        tag = (cx + 70, cy - 112, cx + 138, cy - 76)
        pill(d, tag, UNO_RED, WHITE, 3)
        text(d, ((tag[0] + tag[2]) / 2, (tag[1] + tag[3]) / 2 + 1), label, 22, WHITE, anchor="mm")
    return drawn


def _header(d: ImageDraw.ImageDraw, view: PublicView) -> None:
    parts = [f"Round {view.round_number}"]
    if view.target:
        parts.append(f"to {view.target}")
    text(d, (18, 14), " · ".join(parts), 17, (235, 235, 235))
    arrow = "clockwise ↻" if view.direction > 0 else "counter-clockwise ↺"
    text(d, (TABLE_SIZE[0] - 18, 14), arrow, 17, (235, 235, 235), anchor="ra")


def _status(d: ImageDraw.ImageDraw, view: PublicView) -> None:
    """One line under the piles: whose turn it is and what the game waits for."""
    seats = view.seats
    line = ""
    if view.winner is not None and 0 <= view.winner < len(seats):
        who = name_text(seats[view.winner].name, 20, 300, fallback=f"Player {view.winner + 1}")
        line = f"{who} wins the round!"
    elif view.current is not None and 0 <= view.current < len(seats):
        who = name_text(seats[view.current].name, 20, 220, fallback=f"Player {view.current + 1}")
        line = {
            "color": f"{who} picks a color",
            "respond": f"{who} must answer the draw",
            "drawn": f"{who} may play the drawn card",
        }.get(view.awaiting, f"{who} to play")
    if line:
        text(d, (CENTER[0], 470), line, 20, WHITE, anchor="mm", stroke=3, stroke_fill=(0, 0, 0))


def table_image(view: PublicView) -> tuple[Image.Image, list[str]]:
    """The table picture and the face-up card codes it shows (for checks that nothing leaks)."""
    edition = Edition(view.edition)
    th = art.THEMES[edition]
    img = _background(edition).copy()
    d = ImageDraw.Draw(img)
    _ring_arrows(d, view.direction, mix(th.felt, WHITE, 0.22))
    drawn = _piles(img, d, view)
    _swatch(d, view)
    _header(d, view)
    _status(d, view)
    count = len(view.seats)
    for i, seat in enumerate(view.seats):
        cx, cy = seat_center(i, count)
        _seat(img, d, seat, cx, cy, edition)
    return img, drawn


def _palette_source(edition: Edition) -> Image.Image:
    from .samples import sample_table  # only on the first picture of an edition

    tables = [
        table_image(sample_table(players, edition, color))[0]
        for players, color in ((10, "red"), (4, "yellow"), (3, "green"), (2, "blue"), (5, None))
    ]
    return stack([*tables, art.sheet(edition, 60)])


def table_palette(edition: Edition) -> Image.Image:
    """The fixed palette of an edition's table pictures."""
    th = art.THEMES[edition]
    return fixed_palette(
        ("table", edition),
        lambda: _palette_source(edition),
        (WHITE, (0, 0, 0), *th.colors, th.accent, th.felt),
    )


def render_table(view: PublicView) -> bytes:
    """The public table as PNG bytes."""
    edition = Edition(view.edition)
    return encode_png(table_image(view)[0], table_palette(edition))
