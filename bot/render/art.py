"""Card faces and backs drawn in code, the edition palettes, and the bounded store of sprites."""

from __future__ import annotations

import functools
import math
import tomllib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from importlib.resources import files

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from bot.engine.cards import CODES, COLORS, Edition

from .cache import PALETTE_BYTES, BoundedCache, image_bytes
from .fonts import load_font

RGB = tuple[int, int, int]
Point = tuple[float, float]

# A card is drawn as a master four times larger than the biggest card on screen, then
# downsampled: Pillow's shapes have no anti-aliasing, so supersampling makes edges smooth. The
# master is dropped at once; only the downsampled sprites are kept.
MASTER_W = 400
MASTER_H = 600
CARD_RATIO = MASTER_H / MASTER_W
BACK = "back"
ALL_FACES: tuple[str, ...] = CODES
EDITION_WILDS: dict[Edition, tuple[str, ...]] = {
    Edition.CLASSIC: ("wild", "wild-draw4"),
    Edition.SONIC: ("wild", "wild-draw4", "wild-victory-lap"),
    Edition.MARIO: ("wild", "wild-draw4", "wild-super-star", "wild-custom"),
}

BLACK: RGB = (24, 24, 28)
WHITE: RGB = (255, 255, 255)
SHADOW: RGB = (0, 0, 0)
GOLD: RGB = (255, 204, 51)


@dataclass(frozen=True, slots=True)
class Theme:
    """An edition's palette: card colors, card back and table."""

    colors: tuple[RGB, RGB, RGB, RGB]  # red, yellow, green, blue
    border: RGB  # the card's frame
    wild: RGB  # the face of wild cards
    back: RGB
    back_accent: RGB
    back_detail: RGB
    felt: RGB
    felt_edge: RGB
    rim: RGB
    accent: RGB  # highlights: current turn, badges

    def color(self, name: str) -> RGB:
        """The RGB of a color name of this edition."""
        return self.colors[COLORS.index(name)]


# The editions' palettes are art sources: card_art/palettes.toml, read once when first drawn.
PALETTES = files("card_art") / "palettes.toml"


@functools.cache
def themes() -> dict[Edition, Theme]:
    """Every edition's palette, as card_art/palettes.toml gives it."""
    data = tomllib.loads(PALETTES.read_text(encoding="utf-8"))

    def rgb(value: list[int]) -> RGB:
        red, green, blue = value
        return (red, green, blue)

    def palette(edition: Edition) -> Theme:
        given = data[edition.value]
        red, yellow, green, blue = (rgb(value) for value in given["colors"])
        return Theme(
            colors=(red, yellow, green, blue),
            border=rgb(given["border"]),
            wild=rgb(given["wild"]),
            back=rgb(given["back"]),
            back_accent=rgb(given["back_accent"]),
            back_detail=rgb(given["back_detail"]),
            felt=rgb(given["felt"]),
            felt_edge=rgb(given["felt_edge"]),
            rim=rgb(given["rim"]),
            accent=rgb(given["accent"]),
        )

    return {edition: palette(edition) for edition in Edition}


def theme(edition: Edition | str) -> Theme:
    """The palette of an edition (accepts the enum or its value)."""
    return themes()[Edition(edition)]


def color_rgb(edition: Edition | str, color: str) -> RGB:
    """The RGB a color name is drawn in for an edition."""
    return theme(edition).color(color)


def edition_cards(edition: Edition | str) -> tuple[str, ...]:
    """Every card code of an edition's deck, in code order."""
    wilds = EDITION_WILDS[Edition(edition)]
    return tuple(c for c in CODES if not c.startswith("wild")) + wilds


# ----- vector shapes -----


def ellipse_points(
    cx: float,
    cy: float,
    rx: float,
    ry: float,
    tilt: float = 0.0,
    start: float = 0.0,
    end: float = 360.0,
    steps: int = 96,
) -> list[Point]:
    """Points along a (possibly tilted) ellipse arc; angles in degrees."""
    ct, st = math.cos(math.radians(tilt)), math.sin(math.radians(tilt))
    pts: list[Point] = []
    for i in range(steps + 1):
        a = math.radians(start + (end - start) * i / steps)
        x, y = rx * math.cos(a), ry * math.sin(a)
        pts.append((cx + x * ct - y * st, cy + x * st + y * ct))
    return pts


def star_points(
    cx: float, cy: float, r: float, inner: float = 0.45, tilt: float = -90
) -> list[Point]:
    """A five-pointed star."""
    pts: list[Point] = []
    for i in range(10):
        rad = r if i % 2 == 0 else r * inner
        a = math.radians(tilt + i * 36)
        pts.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    return pts


def rotate_points(pts: Iterable[Point], cx: float, cy: float, deg: float) -> list[Point]:
    """Points rotated by ``deg`` degrees around (cx, cy)."""
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return [(cx + (x - cx) * c - (y - cy) * s, cy + (x - cx) * s + (y - cy) * c) for x, y in pts]


def arrow_points(
    x0: float, y0: float, x1: float, y1: float, width: float, head: float
) -> list[Point]:
    """A straight arrow from (x0, y0) to (x1, y1) as one polygon."""
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    nx, ny = -uy, ux
    bx, by = x1 - ux * head, y1 - uy * head
    w, hw = width / 2, head * 0.75
    return [
        (x0 + nx * w, y0 + ny * w),
        (bx + nx * w, by + ny * w),
        (bx + nx * hw, by + ny * hw),
        (x1, y1),
        (bx - nx * hw, by - ny * hw),
        (bx - nx * w, by - ny * w),
        (x0 - nx * w, y0 - ny * w),
    ]


def arc_arrow_points(
    cx: float, cy: float, r: float, start: float, end: float, width: float, head: float
) -> list[Point]:
    """A curved arrow along a circle from ``start`` to ``end`` degrees (head at ``end``)."""
    sign = 1 if end > start else -1
    head_deg = math.degrees(head / r) * sign
    body_end = end - head_deg
    outer = ellipse_points(cx, cy, r + width / 2, r + width / 2, 0, start, body_end, 48)
    inner = ellipse_points(cx, cy, r - width / 2, r - width / 2, 0, body_end, start, 48)
    a = math.radians(body_end)
    tip = math.radians(end)
    hw = width / 2 + head * 0.55
    wing_out = (cx + (r + hw) * math.cos(a), cy + (r + hw) * math.sin(a))
    wing_in = (cx + (r - hw) * math.cos(a), cy + (r - hw) * math.sin(a))
    tip_pt = (cx + r * math.cos(tip), cy + r * math.sin(tip))
    return [*outer, wing_out, tip_pt, wing_in, *inner]


def _text_center(
    d: ImageDraw.ImageDraw,
    xy: Point,
    text: str,
    size: int,
    fill: RGB,
    stroke: int = 0,
    stroke_fill: RGB = BLACK,
) -> None:
    d.text(
        xy,
        text,
        font=load_font(size),
        fill=fill,
        anchor="mm",
        stroke_width=stroke,
        stroke_fill=stroke_fill,
    )


# ----- symbols: each draws centered at (cx, cy) with unit size u (about the symbol's height) ----

Symbol = Callable[[ImageDraw.ImageDraw, float, float, float, RGB, Theme], None]


def _skip(d: ImageDraw.ImageDraw, cx: float, cy: float, u: float, fill: RGB, th: Theme) -> None:
    r = u * 0.5
    w = max(2, round(u * 0.15))
    d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=fill, width=w)
    k = r * 0.72
    d.line((cx - k, cy + k, cx + k, cy - k), fill=fill, width=w)


def _reverse(d: ImageDraw.ImageDraw, cx: float, cy: float, u: float, fill: RGB, th: Theme) -> None:
    w, h, off = u * 0.2, u * 0.32, u * 0.17
    d.polygon(
        arrow_points(
            cx - u * 0.38 - off, cy + u * 0.38 - off, cx + u * 0.38 - off, cy - u * 0.38 - off, w, h
        ),
        fill=fill,
    )
    d.polygon(
        arrow_points(
            cx + u * 0.38 + off, cy - u * 0.38 + off, cx - u * 0.38 + off, cy + u * 0.38 + off, w, h
        ),
        fill=fill,
    )


def _mini_card(
    d: ImageDraw.ImageDraw, cx: float, cy: float, u: float, fill: RGB, edge: RGB
) -> None:
    w, h = u * 0.42, u * 0.62
    d.rounded_rectangle(
        (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2),
        radius=u * 0.07,
        fill=fill,
        outline=edge,
        width=max(1, round(u * 0.05)),
    )


def _draw2(d: ImageDraw.ImageDraw, cx: float, cy: float, u: float, fill: RGB, th: Theme) -> None:
    edge = BLACK if fill != BLACK else WHITE
    _mini_card(d, cx - u * 0.14, cy + u * 0.14, u, fill, edge)
    _mini_card(d, cx + u * 0.14, cy - u * 0.14, u, fill, edge)


def _draw4(d: ImageDraw.ImageDraw, cx: float, cy: float, u: float, fill: RGB, th: Theme) -> None:
    offsets = ((-0.3, 0.05, 2), (-0.1, -0.15, 0), (0.1, 0.15, 1), (0.3, -0.05, 3))
    for dx, dy, c in offsets:
        _mini_card(d, cx + u * dx, cy + u * dy, u * 0.95, th.colors[c], WHITE)


def _quad_oval(
    d: ImageDraw.ImageDraw, cx: float, cy: float, u: float, fill: RGB, th: Theme
) -> None:
    rx, ry = u * 0.3, u * 0.5
    for i, c in enumerate((0, 3, 2, 1)):
        pts = ellipse_points(cx, cy, rx, ry, 30, -90 + 90 * i, 90 * i, 24)
        d.polygon([(cx, cy), *pts], fill=th.colors[c])
    d.polygon(ellipse_points(cx, cy, rx, ry, 30), outline=WHITE, width=max(1, round(u * 0.05)))


def _loop(d: ImageDraw.ImageDraw, cx: float, cy: float, u: float, fill: RGB, th: Theme) -> None:
    # An original lap motif: a looping arrow around a small checkered flag.
    d.polygon(arc_arrow_points(cx, cy, u * 0.4, 120, 400, u * 0.15, u * 0.22), fill=fill)
    s = u * 0.1
    x0, y0 = cx - 2 * s, cy - 1.5 * s
    for i in range(4):
        for j in range(3):
            d.rectangle(
                (x0 + i * s, y0 + j * s, x0 + (i + 1) * s, y0 + (j + 1) * s),
                fill=fill if (i + j) % 2 == 0 else BLACK,
            )


def _star(d: ImageDraw.ImageDraw, cx: float, cy: float, u: float, fill: RGB, th: Theme) -> None:
    d.polygon(
        star_points(cx, cy, u * 0.55), fill=fill, outline=BLACK, width=max(1, round(u * 0.04))
    )
    d.polygon(star_points(cx, cy, u * 0.22), fill=WHITE)


def _pencil(d: ImageDraw.ImageDraw, cx: float, cy: float, u: float, fill: RGB, th: Theme) -> None:
    # A pencil at 45 degrees: body, wooden tip, graphite point, band and eraser.
    L, w = u * 0.5, u * 0.13
    body = [(-L * 0.55, -w), (L * 0.5, -w), (L * 0.5, w), (-L * 0.55, w)]
    tip = [(L * 0.5, -w), (L * 0.95, 0), (L * 0.5, w)]
    lead = [(L * 0.8, -w * 0.35), (L * 0.95, 0), (L * 0.8, w * 0.35)]
    band = [(-L * 0.72, -w), (-L * 0.55, -w), (-L * 0.55, w), (-L * 0.72, w)]
    eraser = [(-L * 0.95, -w), (-L * 0.72, -w), (-L * 0.72, w), (-L * 0.95, w)]
    parts: list[tuple[list[Point], RGB]] = [
        (body, fill),
        (tip, (240, 206, 150)),
        (lead, BLACK),
        (band, (190, 190, 200)),
        (eraser, (244, 140, 160)),
    ]
    for pts, color in parts:
        moved = rotate_points([(cx + x, cy + y) for x, y in pts], cx, cy, -45)
        d.polygon(moved, fill=color, outline=BLACK, width=max(1, round(u * 0.025)))


SYMBOLS: dict[str, Symbol] = {
    "skip": _skip,
    "reverse": _reverse,
    "draw2": _draw2,
    "wild": _quad_oval,
    "wild-draw4": _draw4,
    "wild-victory-lap": _loop,
    "wild-super-star": _star,
    "wild-custom": _pencil,
}
CORNER_TEXT = {"draw2": "+2", "wild-draw4": "+4"}


def color_mark(
    d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color: str, fill: RGB
) -> None:
    """The color-blind mark of a color: red triangle, yellow circle, green square, blue diamond."""
    if color == "red":
        d.polygon(
            [(cx, cy - r), (cx + r * 0.95, cy + r * 0.75), (cx - r * 0.95, cy + r * 0.75)],
            fill=fill,
        )
    elif color == "yellow":
        d.ellipse((cx - r * 0.85, cy - r * 0.85, cx + r * 0.85, cy + r * 0.85), fill=fill)
    elif color == "green":
        k = r * 0.75
        d.rectangle((cx - k, cy - k, cx + k, cy + k), fill=fill)
    else:
        d.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=fill)


def split_code(code: str) -> tuple[str | None, str]:
    """(color, rank) of a card code; color is None for wild cards."""
    if code.startswith("wild"):
        return None, code
    color, rank = code.split("-", 1)
    return color, rank


# ----- masters -----


def _frame(th: Theme) -> tuple[Image.Image, Image.Image]:
    """The blank card (border) and the mask of its inner face."""
    card = Image.new("RGB", (MASTER_W, MASTER_H), th.border)
    inner = Image.new("L", (MASTER_W, MASTER_H), 0)
    ImageDraw.Draw(inner).rounded_rectangle(
        (22, 22, MASTER_W - 23, MASTER_H - 23), radius=26, fill=255
    )
    ImageDraw.Draw(card).rounded_rectangle(
        (1, 1, MASTER_W - 2, MASTER_H - 2), radius=40, outline=(200, 200, 200), width=3
    )
    return card, inner


def _corner(code: str, th: Theme) -> Image.Image:
    """The corner index (and color-blind mark) of a face, on a transparent layer."""
    layer = Image.new("RGBA", (120, 190), (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    color, rank = split_code(code)
    cx = 60
    if rank.isdigit():
        _text_center(d, (cx, 52), rank, 84, WHITE, 5, BLACK)
        if rank in ("6", "9"):
            d.rectangle((cx - 22, 98, cx + 22, 106), fill=WHITE, outline=BLACK, width=2)
    elif rank in CORNER_TEXT:
        _text_center(d, (cx, 52), CORNER_TEXT[rank], 64, WHITE, 5, BLACK)
    else:
        SYMBOLS[rank](d, cx + 3, 55, 78, BLACK, th)
        SYMBOLS[rank](d, cx, 52, 78, WHITE if color else GOLD if "star" in rank else WHITE, th)
    if color is not None:
        color_mark(d, cx, 142, 22, color, BLACK)
        color_mark(d, cx, 140, 18, color, WHITE)
    return layer


def _face(code: str, th: Theme) -> Image.Image:
    color, rank = split_code(code)
    base = th.colors[COLORS.index(color)] if color else th.wild
    face = Image.new("RGB", (MASTER_W, MASTER_H), base)
    d = ImageDraw.Draw(face)
    cx, cy = MASTER_W / 2, MASTER_H / 2
    oval = ellipse_points(cx, cy, 150, 262, 30)
    if color is None:
        # Wild faces: the oval split in the four colors of the edition.
        for i, c in enumerate((0, 3, 2, 1)):
            pts = ellipse_points(cx, cy, 150, 262, 30, -90 + 90 * i, 90 * i, 48)
            d.polygon([(cx, cy), *pts], fill=th.colors[c])
        d.polygon(oval, outline=WHITE, width=10)
    else:
        d.polygon(oval, fill=WHITE)
    fill = th.colors[COLORS.index(color)] if color else WHITE
    if rank.isdigit():
        big = load_font(250)
        d.text((cx + 12, cy + 12), rank, font=big, fill=BLACK, anchor="mm")
        d.text(
            (cx, cy),
            rank,
            font=big,
            fill=fill,
            anchor="mm",
            stroke_width=6,
            stroke_fill=BLACK,
        )
        if rank in ("6", "9"):
            d.rectangle((cx - 60, cy + 110, cx + 60, cy + 128), fill=fill, outline=BLACK, width=5)
    elif color is not None:
        SYMBOLS[rank](d, cx + 12, cy + 12, 230, BLACK, th)
        SYMBOLS[rank](d, cx, cy, 230, fill, th)
    elif rank == "wild":
        pass  # the four-color oval is the symbol
    elif rank == "wild-draw4":
        SYMBOLS[rank](d, cx + 8, cy + 8, 230, BLACK, th)
        SYMBOLS[rank](d, cx, cy, 230, fill, th)
    elif rank == "wild-victory-lap":
        SYMBOLS[rank](d, cx + 10, cy + 10, 270, BLACK, th)
        SYMBOLS[rank](d, cx, cy, 270, WHITE, th)
    elif rank == "wild-super-star":
        d.polygon(star_points(cx + 10, cy + 10, 160), fill=BLACK)
        SYMBOLS[rank](d, cx, cy, 290, GOLD, th)
    else:
        SYMBOLS[rank](d, cx + 10, cy + 10, 300, BLACK, th)
        SYMBOLS[rank](d, cx, cy, 300, (255, 214, 60), th)
    corner = _corner(code, th)
    face.paste(corner, (20, 20), corner)
    flipped = corner.rotate(180)
    face.paste(flipped, (MASTER_W - 20 - flipped.width, MASTER_H - 20 - flipped.height), flipped)
    return face


def _back(edition: Edition, th: Theme) -> Image.Image:
    face = Image.new("RGB", (MASTER_W, MASTER_H), th.back)
    d = ImageDraw.Draw(face)
    cx, cy = MASTER_W / 2, MASTER_H / 2
    if edition is Edition.SONIC:
        # Speed streaks and a lap loop with a checkered band: a fast, blue back.
        for i in range(-6, 10):
            x = i * 60
            d.polygon(
                [(x, MASTER_H), (x + 26, MASTER_H), (x + 26 + 300, 0), (x + 300, 0)],
                fill=th.back_accent if i % 2 else (40, 90, 200),
            )
        d.polygon(ellipse_points(cx, cy, 150, 262, 30), fill=(10, 30, 100), outline=WHITE, width=12)
        band = rotate_points(
            [(cx - 170, cy - 24), (cx + 170, cy - 24), (cx + 170, cy + 24), (cx - 170, cy + 24)],
            cx,
            cy,
            -60,
        )
        d.polygon(band, fill=WHITE)
        s = 16
        for i in range(-10, 10):
            for j in range(3):
                if (i + j) % 2:
                    sq = [
                        (cx + i * s, cy - 24 + j * s),
                        (cx + (i + 1) * s, cy - 24 + j * s),
                        (cx + (i + 1) * s, cy - 24 + (j + 1) * s),
                        (cx + i * s, cy - 24 + (j + 1) * s),
                    ]
                    if abs(cx + i * s - cx) < 170:
                        d.polygon(rotate_points(sq, cx, cy, -60), fill=BLACK)
        d.polygon(
            arc_arrow_points(cx, cy, 110, 150, 470, 34, 50),
            fill=th.back_accent,
            outline=WHITE,
            width=4,
        )
    elif edition is Edition.MARIO:
        # A warm back strewn with gold stars around one big star.
        spots = [
            (70, 80, 30),
            (320, 70, 26),
            (60, 300, 22),
            (340, 310, 24),
            (90, 520, 28),
            (320, 530, 30),
            (200, 60, 18),
            (200, 545, 18),
            (40, 190, 16),
            (360, 190, 16),
            (40, 420, 16),
            (360, 420, 16),
        ]
        for x, y, r in spots:
            d.polygon(star_points(x, y, r), fill=th.back_accent)
        d.polygon(
            ellipse_points(cx, cy, 140, 250, 30),
            fill=th.back_detail,
            outline=th.back_accent,
            width=10,
        )
        d.polygon(star_points(cx + 8, cy + 10, 130), fill=(120, 30, 20))
        d.polygon(star_points(cx, cy, 130), fill=th.back_accent, outline=(120, 30, 20), width=6)
        d.polygon(star_points(cx, cy, 55), fill=WHITE)
    else:
        d.polygon(ellipse_points(cx, cy, 150, 262, 30), fill=th.back_accent)
        d.polygon(ellipse_points(cx, cy, 150, 262, 30), outline=th.back_detail, width=8)
        for i, c in enumerate((0, 3, 2, 1)):
            a = math.radians(-90 + 90 * i + 30)
            px, py = cx + 70 * math.cos(a), cy + 70 * math.sin(a)
            d.polygon(
                [(px, py - 44), (px + 34, py), (px, py + 44), (px - 34, py)],
                fill=th.colors[c],
                outline=WHITE,
                width=5,
            )
    return face


# ----- masters: drawn, downsampled, dropped -----


def _master(code: str, edition: Edition) -> Image.Image:
    """The full-size card (or back) without its outline's alpha, drawn anew: never kept."""
    th = theme(edition)
    card, inner = _frame(th)
    art = _back(edition, th) if code == BACK else _face(code, th)
    card.paste(art, (0, 0), inner)
    return card


def _downsample(master: Image.Image, width: int) -> Image.Image:
    """The master at ``width`` with its rounded outline as alpha."""
    card = master.resize(card_size(width), Image.Resampling.LANCZOS, reducing_gap=2.0)
    card.putalpha(outline(width))
    return card


def card_size(width: int) -> tuple[int, int]:
    """(width, height) of a card drawn ``width`` pixels wide."""
    return width, round(width * CARD_RATIO)


def check_code(code: str, edition: Edition | str) -> Edition:
    """The edition, once ``code`` is known to be a card or the back."""
    if code != BACK and code not in CODES:
        raise KeyError(code)
    return Edition(edition)


def card_image(code: str, edition: Edition | str, width: int = 120) -> Image.Image:
    """A card face (or ``back``) as an RGBA image ``width`` pixels wide, without shadow.

    Drawn anew on each call (for the demo and the docs); the pictures use :func:`paste_card`.
    """
    return _downsample(_master(code, check_code(code, edition)), width)


# ----- sprites: a card and its drop shadow, one byte a pixel -----

# Card widths drawn in the pictures: a hand's cards are 84 px wide, 60 in rows of nine or ten;
# the table's piles are 84. Every card of every edition at these widths is kept: 4 MiB in all.
STORE_WIDTHS = (84, 60)
PILE_WIDTH = 84


def shadow_pad(width: int) -> int:
    """The margin a sprite keeps around its card for the drop shadow."""
    return max(4, width // 12)


def sprite_size(width: int) -> tuple[int, int]:
    """The size of a card's sprite: the card and its shadow margin."""
    w, h = card_size(width)
    pad = shadow_pad(width)
    return w + 2 * pad, h + 2 * pad


def _outline(width: int) -> Image.Image:
    big = Image.new("L", (MASTER_W, MASTER_H), 0)
    ImageDraw.Draw(big).rounded_rectangle((0, 0, MASTER_W - 1, MASTER_H - 1), radius=40, fill=255)
    return big.resize(card_size(width), Image.Resampling.LANCZOS, reducing_gap=2.0)


def _shadow(width: int) -> Image.Image:
    pad = shadow_pad(width)
    off = max(2, width // 30)
    shadow = Image.new("L", sprite_size(width), 0)
    shadow.paste(outline(width).point(lambda a: a * 110 // 255), (pad + off, pad + off))
    return shadow.filter(ImageFilter.GaussianBlur(max(1.5, width / 40)))


def _sprite_mask(width: int, angle: int) -> Image.Image:
    if angle:
        return card_mask(width).rotate(angle, resample=Image.Resampling.BICUBIC, expand=True)
    pad = shadow_pad(width)
    card = Image.new("L", sprite_size(width), 0)
    card.paste(outline(width), (pad, pad))
    return ImageChops.screen(card, shadow(width))


# Masks by (kind, width, angle): outline, shadow and sprite masks of the two widths and the
# discard pile's eight tilts, 1 to 27 KiB each (about 20 in use). Bound: 48 entries, 1 MiB.
_masks: BoundedCache[tuple[str, int, int], Image.Image] = BoundedCache(
    "card masks", 48, 1024 * 1024, image_bytes
)


def outline(width: int) -> Image.Image:
    """The card's alpha at ``width`` (every card has the same rounded outline)."""
    return _masks.get_or_make(("outline", width, 0), lambda: _outline(width))


def shadow(width: int) -> Image.Image:
    """The drop shadow's alpha on a sprite canvas."""
    return _masks.get_or_make(("shadow", width, 0), lambda: _shadow(width))


def card_mask(width: int, angle: int = 0) -> Image.Image:
    """The opacity of every sprite ``width`` wide: the card, and its shadow around it."""
    return _masks.get_or_make(("sprite", width, angle), lambda: _sprite_mask(width, angle))


def _flatten(card: Image.Image, width: int) -> Image.Image:
    """A card over its shadow as a 256-color image (the shadow's alpha is in the mask)."""
    pad = shadow_pad(width)
    canvas = Image.new("RGBA", sprite_size(width), (0, 0, 0, 0))
    canvas.putalpha(shadow(width))
    canvas.alpha_composite(card, (pad, pad))
    # Fast octree: 0.3 ms a sprite, and within 15 levels of the true color on every channel.
    return canvas.convert("RGB").quantize(
        256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )


def _dim_palette(face: Image.Image) -> bytes:
    """The palette of ``face`` with colors muted but still clearly themselves.

    Each color moves 25% toward its own grey and loses a quarter of its light: a red card
    stays red, yet reads as set aside. Black stays black, so the shadow does not change.
    """
    values = bytes(face.getpalette() or [])
    colors = Image.frombytes("RGB", (len(values) // 3, 1), values)
    muted = Image.blend(colors, colors.convert("L").convert("RGB"), 0.25)
    return muted.point(lambda v: round(v * 0.74)).tobytes()


Faces = tuple[tuple[Image.Image, bytes], ...]


def _faces(code: str, edition: Edition) -> Faces:
    half = _master(code, edition).reduce(2)  # one box filter, then Lanczos to each width
    out = []
    for width in STORE_WIDTHS:
        face = _flatten(_downsample(half, width), width)
        out.append((face, _dim_palette(face)))
    return tuple(out)


def _faces_bytes(faces: Faces) -> int:
    return sum(image_bytes(face) + len(dim) for face, dim in faces)


STORE_ENTRIES = len(Edition) * (len(CODES) + 1)
STORE_BYTES = STORE_ENTRIES * sum(
    sprite_size(w)[0] * sprite_size(w)[1] + PALETTE_BYTES + 768 for w in STORE_WIDTHS
)
# Every card and back in the three editions' colors at the two widths, one byte a pixel: the
# whole key space fits, so nothing is drawn twice. Bound: 174 entries, 4.0 MiB.
_store: BoundedCache[tuple[Edition, str], Faces] = BoundedCache(
    "card sprites", STORE_ENTRIES, STORE_BYTES, _faces_bytes
)


def card_face(code: str, edition: Edition | str, width: int, dim: bool = False) -> Image.Image:
    """The 256-color sprite of a card (or back) over its shadow, muted if ``dim``."""
    ed = check_code(code, edition)
    if width in STORE_WIDTHS:
        faces = _store.get_or_make((ed, code), lambda: _faces(code, ed))
        face, dim_palette = faces[STORE_WIDTHS.index(width)]
    else:
        face = _flatten(card_image(code, ed, width), width)
        dim_palette = _dim_palette(face)
    if dim:
        face = face.copy()
        face.putpalette(dim_palette)
    return face


def paste_card(
    dest: Image.Image,
    code: str,
    edition: Edition | str,
    width: int,
    cx: float,
    cy: float,
    angle: int = 0,
    dim: bool = False,
) -> None:
    """Paste a card and its shadow centred on (cx, cy), tilted ``angle`` degrees.

    A tilted card is turned pixel by pixel (fast) inside its smooth, pre-turned outline.
    """
    face = card_face(code, edition, width, dim)
    if angle:
        face = face.rotate(angle, resample=Image.Resampling.NEAREST, expand=True)
    mask = card_mask(width, angle)
    dest.paste(face, (round(cx - face.width / 2), round(cy - face.height / 2)), mask)


def paste_center(dest: Image.Image, sprite: Image.Image, cx: float, cy: float) -> None:
    """Paste an RGBA sprite so that its center lands on (cx, cy)."""
    dest.paste(sprite, (round(cx - sprite.width / 2), round(cy - sprite.height / 2)), sprite)


def draw_color_mark(
    d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color: str, fill: RGB = WHITE
) -> None:
    """The color-blind mark of ``color`` (public wrapper for the table and hand pictures)."""
    color_mark(d, cx, cy, r, color, fill)


def draw_symbol(
    d: ImageDraw.ImageDraw,
    name: str,
    cx: float,
    cy: float,
    u: float,
    fill: RGB,
    edition: Edition | str = Edition.CLASSIC,
) -> None:
    """Draw one of the card symbols (skip, reverse, draw2, wild kinds) as a vector shape."""
    SYMBOLS[name](d, cx, cy, u, fill, theme(edition))


def palette_cards(edition: Edition | str) -> tuple[str, ...]:
    """A few cards that show every color an edition's art uses (for building palettes)."""
    return ("red-5", "yellow-skip", "green-reverse", "blue-draw2", *EDITION_WILDS[Edition(edition)])


def sheet(
    edition: Edition | str, width: int = 120, columns: int = 13, codes: Sequence[str] | None = None
) -> Image.Image:
    """Every card of an edition (and its back) on one picture, for the demo and the docs."""
    th = theme(edition)
    faces = [*(codes or edition_cards(edition)), BACK]
    w, h = card_size(width)
    gap = width // 8
    rows = math.ceil(len(faces) / columns)
    img = Image.new("RGB", (gap + columns * (w + gap), gap + rows * (h + gap)), th.felt)
    for i, code in enumerate(faces):
        x = gap + (i % columns) * (w + gap)
        y = gap + (i // columns) * (h + gap)
        paste_card(img, code, edition, width, x + w / 2, y + h / 2)
    return img
