"""render_table: the public table (discard pile, draw pile, color, direction, seats) as a PNG."""

from __future__ import annotations

import math
from collections.abc import Collection

from PIL import Image, ImageDraw

from bot.engine.cards import COLORS, Edition
from bot.engine.phase import Phase
from bot.engine.snapshot import PublicView, SeatView

from . import art
from .art import BACK, PILE_WIDTH, RGB, WHITE
from .cache import BoundedCache, image_bytes
from .common import (
    cached_pill,
    encode_png,
    fixed_palette,
    mix,
    name_parts,
    paste,
    pill_label,
    player_name,
    put_parts,
    put_text,
    sprite,
    stack,
)
from .teams import TEAM_COLORS, chips_width, team_badge, team_chips, team_outline
from .words import ENGLISH, Words

TABLE_SIZE = (800, 512)
CENTER = (400, 254)
SEAT_ORBIT = (326, 200)  # radii of the ellipse the seat plates sit on
PLATE_SIZE = (148, 56)
PLATE_MARGIN = 8  # a plate's sprite: its shadow and the current seat's glow around it
DRAW_PILE_CENTER = (326, 234)
DISCARD_CENTER = (472, 234)
# Where the color in force is painted: a plain rectangle of that color (tests sample it).
COLOR_SWATCH_BOX = (420, 328, 524, 352)
COLOR_SWATCH_POINT = (COLOR_SWATCH_BOX[0] + 8, (COLOR_SWATCH_BOX[1] + COLOR_SWATCH_BOX[3]) // 2)
STATUS_BOX = (120, 364, 680, 390)
# The cards under the top one keep a tilt by their depth, so the pile does not jump between
# pictures; the top card lies straight, to be read at a glance.
PILE_ANGLES = (-14, 9, -5, 15, -10, 4, 12, -7)
PILE_OFFSETS = ((-8, 3), (6, -2), (-3, -5), (7, 4), (-6, -2), (4, 6), (0, -3), (-7, 5))
MAX_FAN = 5

INK: RGB = (250, 250, 250)
HEADER_INK: RGB = (235, 235, 235)
MUTED: RGB = (150, 150, 150)
UNO_RED: RGB = (226, 32, 40)
CATCH_ORANGE: RGB = (255, 138, 0)
BOT_BLUE: RGB = (92, 112, 160)
PILL_DARK: RGB = (20, 20, 24)


def _background(edition: Edition) -> Image.Image:
    """The felt table of an edition: a wooden (or edition-tinted) rim around a lit felt oval."""
    th = art.theme(edition)
    w, h = TABLE_SIZE
    img = Image.new("RGB", TABLE_SIZE, mix(th.felt_edge, (0, 0, 0), 0.45))
    d = ImageDraw.Draw(img)
    cx, cy = CENTER
    rx, ry = w / 2 - 10, h / 2 - 11
    d.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), fill=th.rim)
    d.ellipse(
        (cx - rx + 3, cy - ry + 3, cx + rx - 3, cy + ry - 3),
        fill=mix(th.rim, (255, 255, 255), 0.18),
    )
    d.ellipse((cx - rx + 11, cy - ry + 11, cx + rx - 11, cy + ry - 11), fill=th.felt_edge)
    # Concentric ellipses fake a spotlight on the felt; drawn once per edition.
    steps = 16
    for i in range(steps):
        t = i / steps
        ex, ey = (rx - 16) * (1 - t * 0.75), (ry - 16) * (1 - t * 0.75)
        d.ellipse(
            (cx - ex, cy - ey, cx + ex, cy + ey),
            fill=mix(th.felt_edge, mix(th.felt, (255, 255, 255), 0.12), min(1.0, t * 1.6)),
        )
    return img


# One felt per edition, 1.6 MiB each (Pillow keeps RGB in four bytes a pixel).
# Bound: 3 entries, 4.7 MiB.
_backgrounds: BoundedCache[Edition, Image.Image] = BoundedCache(
    "table backgrounds", len(Edition), len(Edition) * 4 * TABLE_SIZE[0] * TABLE_SIZE[1], image_bytes
)


def _ellipse_arrow(
    cx: float, cy: float, rx: float, ry: float, a0: float, a1: float, width: float, head: float
) -> list[tuple[float, float]]:
    """A curved arrow on an ellipse from a0 to a1 degrees (head at a1)."""
    sign = 1 if a1 > a0 else -1
    body_end = a1 - sign * 9
    steps = 32

    def at(a: float, r: float) -> tuple[float, float]:
        rad = math.radians(a)
        return cx + (rx + r) * math.cos(rad), cy + (ry + r) * math.sin(rad)

    outer = [at(a0 + (body_end - a0) * i / steps, width / 2) for i in range(steps + 1)]
    inner = [at(body_end + (a0 - body_end) * i / steps, -width / 2) for i in range(steps + 1)]
    return [*outer, at(body_end, head / 2), at(a1, 0), at(body_end, -head / 2), *inner]


def _arrows(direction: int) -> list[list[tuple[float, float]]]:
    """Two curved arrows around the piles, pointing the way play goes."""
    cx, cy = CENTER[0], CENTER[1] - 16
    out = []
    for start in (200, 20):
        a0, a1 = (start, start + 120) if direction > 0 else (start + 120, start)
        out.append(_ellipse_arrow(cx, cy, 200, 120, a0, a1, 10, 24))
    return out


ARROWS = {1: _arrows(1), -1: _arrows(-1)}


def seat_center(index: int, count: int) -> tuple[float, float]:
    """Where seat ``index`` of ``count`` sits: seat 0 at the bottom, then clockwise."""
    a = math.radians(90 + 360 * index / count)
    x = CENTER[0] + SEAT_ORBIT[0] * math.cos(a)
    y = CENTER[1] + SEAT_ORBIT[1] * math.sin(a)
    w, h = PLATE_SIZE
    x = min(max(x, w / 2 + 7), TABLE_SIZE[0] - w / 2 - 7)
    y = min(max(y, h / 2 + 7), TABLE_SIZE[1] - h / 2 - 7)
    return x, y


def plate_box(index: int, count: int) -> tuple[float, float, float, float]:
    """The box of seat ``index``'s plate."""
    cx, cy = seat_center(index, count)
    w, h = PLATE_SIZE
    return cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2


# ----- sprites of the table, each drawn once per edition (and words) -----


def _plate(edition: Edition, kind: str) -> Image.Image:
    """A seat's empty plate (``seat``, ``current`` or ``gone``) with its shadow."""
    th = art.theme(edition)
    w, h = PLATE_SIZE
    m = PLATE_MARGIN
    img = Image.new("RGBA", (w + 2 * m, h + 2 * m), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    box = (m, m, m + w, m + h)
    if kind == "gone":
        fill, outline = (70, 70, 74), (110, 110, 114)
    elif kind == "current":
        fill, outline = mix(th.accent, WHITE, 0.25), WHITE
        d.rounded_rectangle(
            (1, 1, w + 2 * m - 2, h + 2 * m - 2), radius=17, fill=mix(th.accent, th.felt, 0.35)
        )
    else:
        fill, outline = mix(th.felt_edge, (0, 0, 0), 0.45), mix(th.felt, WHITE, 0.3)
    d.rounded_rectangle(
        (box[0] + 2, box[1] + 3, box[2] + 2, box[3] + 3),
        radius=12,
        fill=mix(th.felt_edge, (0, 0, 0), 0.6),
    )
    d.rounded_rectangle(box, radius=12, fill=fill, outline=outline, width=2)
    return img


def _ink(kind: str) -> RGB:
    return {"gone": MUTED, "current": (30, 24, 10)}.get(kind, INK)


def _backs(edition: Edition, count: int) -> Image.Image:
    """A small stack of ``count`` card backs (1 to 3): a seat's hand."""
    back = art.card_image(BACK, edition, 16)
    img = Image.new("RGBA", (16 + 5 * 2, back.height + 4), (0, 0, 0, 0))
    for i in range(count):
        img.alpha_composite(back, (i * 5, 4 - i * 2))
    return img


def _dealer(word: str) -> Image.Image:
    img = Image.new("RGBA", (22, 22), (255, 255, 255, 0))
    ImageDraw.Draw(img).ellipse((0, 0, 21, 21), fill=WHITE, outline=(40, 40, 40), width=2)
    put_text(img, (4, 4, 18, 18), word, 11, (30, 30, 30), align="center")
    return img


def _uno_badge(word: str) -> Image.Image:
    img = Image.new("RGBA", (52, 52), (255, 214, 0, 0))
    d = ImageDraw.Draw(img)
    cx = cy = 26
    pts = art.star_points(cx, cy, 24, inner=0.72, tilt=-90)
    burst = [p for i in range(2) for p in art.rotate_points(pts, cx, cy, 18 * i)]
    d.polygon(art.star_points(cx, cy, 25, 0.75), fill=(255, 214, 0))
    d.polygon(burst[:10], fill=(255, 214, 0))
    d.ellipse((cx - 20, cy - 13, cx + 20, cy + 13), fill=UNO_RED, outline=WHITE, width=2)
    put_text(img, (cx - 17, cy - 9, cx + 17, cy + 9), word, 10, WHITE, align="center")
    return img


def _draw_pile(edition: Edition, levels: int) -> Image.Image:
    """The face-down draw pile, ``levels`` cards high."""
    sw, sh = art.sprite_size(PILE_WIDTH)
    img = Image.new("RGBA", (sw + 2 * 3, sh + 3 * 3), (0, 0, 0, 0))
    mask = art.card_mask(PILE_WIDTH)
    for i in range(levels):
        layer = art.card_face(BACK, edition, PILE_WIDTH).convert("RGBA")
        layer.putalpha(mask)
        img.alpha_composite(layer, (6 - i * 2, 9 - i * 3))
    return img


def _swatch(edition: Edition, color: str | None, word: str) -> Image.Image:
    """The color in force: its bar, mark and name (the four colors while one is chosen)."""
    th = art.theme(edition)
    x0, y0, x1, y1 = COLOR_SWATCH_BOX
    w, h = x1 - x0, y1 - y0
    img = Image.new("RGBA", (w + 6, h + 6), (*WHITE, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w + 5, h + 5), radius=7, fill=WHITE)
    inner = (3, 3, 3 + w, 3 + h)
    if color in COLORS:
        rgb = th.color(color)
        d.rectangle(inner, fill=rgb)
        art.draw_color_mark(d, 3 + 26, 3 + h / 2, 7, color, WHITE)
        put_text(
            img,
            (3 + 38, 3, 3 + w - 4, 3 + h),
            word,
            13,
            WHITE,
            stroke=2,
            stroke_fill=mix(rgb, (0, 0, 0), 0.5),
        )
    else:
        quarter = w / 4
        for i, c in enumerate(th.colors):
            d.rectangle((3 + i * quarter, 3, 3 + (i + 1) * quarter, 3 + h), fill=c)
        put_text(img, (7, 3, 3 + w - 4, 3 + h), word, 12, WHITE, "center", stroke=2)
    return img


# ----- the picture -----


def _seat(
    img: Image.Image,
    seat: SeatView,
    box: tuple[float, float, float, float],
    edition: Edition,
    words: Words,
    berserk: str | None = None,
) -> None:
    kind = "gone" if not seat.active else "current" if seat.current else "seat"
    x0, y0, x1, y1 = box
    m = PLATE_MARGIN
    paste(img, sprite(("plate", edition, kind), lambda: _plate(edition, kind)), x0 - m, y0 - m)
    if seat.team is not None:
        # The rim in the team's color, and its numbered badge on the lower left corner (the
        # dealer's mark has the upper one, and the header's team scores sit above the top seat).
        team_outline(ImageDraw.Draw(img), box, seat.team)
        paste(img, team_badge(seat.team), max(0, x0 - 12), y1 - 12)
    ink = _ink(kind)
    name_right = x1 - 8
    if seat.computer:
        active = seat.active
        tag = sprite(
            ("bot", words.computer, active),
            lambda: pill_label(
                (34, 16), words.computer, 10, BOT_BLUE if active else (90, 90, 90), WHITE, pad=3
            ),
        )
        paste(img, tag, x1 - 8 - tag.width, y0 + 7)
        name_right -= tag.width + 4
    elif berserk is not None:  # only people go berserk: the computer's corner is free
        tag = sprite(
            ("berserk", berserk),
            lambda: pill_label((44, 16), berserk, 10, UNO_RED, WHITE, pad=3),
        )
        paste(img, tag, x1 - 8 - tag.width, y0 + 7)
        name_right -= tag.width + 4
    name = player_name(seat.name, words.player_name(seat.seat))
    put_text(img, (x0 + 9, y0 + 4, name_right, y0 + 26), name, 16, ink)
    count = min(3, max(1, seat.cards))
    paste(img, sprite(("backs", edition, count), lambda: _backs(edition, count)), x0 + 9, y0 + 28)
    if seat.active:
        put_text(
            img, (x0 + 40, y0 + 30, x1 - 6, y0 + 52), words.card_count.format(n=seat.cards), 15, ink
        )
    else:
        put_text(img, (x0 + 40, y0 + 30, x1 - 6, y0 + 52), words.left_table, 12, ink)
    if seat.dealer:
        paste(img, sprite(("dealer", words.dealer), lambda: _dealer(words.dealer)), x0 - 9, y0 - 9)
    if seat.called_uno and seat.active:
        paste(img, sprite(("uno", words.uno), lambda: _uno_badge(words.uno)), x1 - 37, y1 - 33)
    elif seat.catchable and seat.active:
        tag = sprite(
            ("catch", words.catch),
            lambda: pill_label((58, 18), words.catch, 11, CATCH_ORANGE, WHITE, WHITE, pad=4),
        )
        paste(img, tag, x1 - 5 - tag.width, y1 - 6 - tag.height)


def _piles(
    img: Image.Image, d: ImageDraw.ImageDraw, view: PublicView, edition: Edition, words: Words
) -> list[str]:
    """Draw pile and discard pile; returns the card codes drawn face up."""
    th = art.theme(edition)
    dx, dy = DRAW_PILE_CENTER
    if view.draw_pile > 0:
        levels = min(4, 1 + view.draw_pile // 12)
        pile = sprite(("draw pile", edition, levels), lambda: _draw_pile(edition, levels))
        sw, sh = art.sprite_size(PILE_WIDTH)
        paste(img, pile, dx - sw / 2 - 6, dy - sh / 2 - 9)  # the bottom card on the center
    else:
        w, h = art.card_size(PILE_WIDTH)
        d.rounded_rectangle(
            (dx - w / 2, dy - h / 2, dx + w / 2, dy + h / 2),
            radius=8,
            outline=mix(th.felt, WHITE, 0.4),
            width=3,
        )
    paste(img, cached_pill((84, 24), PILL_DARK, WHITE), dx - 42, dy + 75)
    put_text(
        img,
        (dx - 38, dy + 75, dx + 38, dy + 99),
        words.draw_pile.format(n=view.draw_pile),
        13,
        WHITE,
        "center",
    )
    cx, cy = DISCARD_CENTER
    color = th.color(view.color) if view.color in COLORS else WHITE
    # A ring in the color in force, so a wild on top still says which color to follow.
    d.ellipse((cx - 90, cy - 90, cx + 90, cy + 90), outline=color, width=6)
    fan = view.recent[-MAX_FAN:]
    first = view.discard_pile - len(fan)
    for i, code in enumerate(fan):
        depth = first + i
        top = i == len(fan) - 1
        angle = 0 if top else PILE_ANGLES[depth % len(PILE_ANGLES)]
        ox, oy = (0, 0) if top else PILE_OFFSETS[depth % len(PILE_OFFSETS)]
        art.paste_card(img, code, edition, PILE_WIDTH, cx + ox, cy + oy, angle)
    if view.pending:
        mark = "+4" if view.pending == "wild-draw4" else "+2"
        tag = sprite(
            ("pending", mark), lambda: pill_label((54, 28), mark, 18, UNO_RED, WHITE, WHITE, 3)
        )
        paste(img, tag, cx + 56, cy - 90)
    return list(fan)


def _header(img: Image.Image, view: PublicView, words: Words) -> None:
    parts = [words.round_number.format(n=view.round_number)]
    if view.target:
        parts.append(words.to_target.format(target=view.target))
    half = TABLE_SIZE[0] / 2
    left, right = half - 10, half + 10
    if view.team_scores:
        # The team scores in the middle of the header; the texts beside them give way.
        width = chips_width(len(view.team_scores))
        left, right = half - width / 2 - 8, half + width / 2 + 8
        team_chips(img, half - width / 2, 3, view.team_scores, HEADER_INK)
    put_text(img, (14, 2, left, 24), " · ".join(parts), 14, HEADER_INK)
    arrow = words.clockwise if view.direction > 0 else words.counter_clockwise
    put_text(img, (right, 2, TABLE_SIZE[0] - 14, 24), arrow, 14, HEADER_INK, "right")


def _status(img: Image.Image, view: PublicView, words: Words) -> None:
    """One line under the piles: whose turn it is and what the game waits for."""
    seats = view.seats
    line: tuple[str, ...] = ()
    if view.winner is not None and 0 <= view.winner < len(seats):
        who = player_name(seats[view.winner].name, words.player_name(view.winner))
        line = name_parts(words.wins_round, who)
    elif view.current is not None and 0 <= view.current < len(seats):
        who = player_name(seats[view.current].name, words.player_name(view.current))
        template = {
            Phase.COLOR: words.picks_color,
            Phase.RESPOND: words.must_answer,
            Phase.DRAWN: words.may_play_drawn,
        }.get(view.awaiting, words.to_play)
        line = name_parts(template, who)
    if line:
        put_parts(img, STATUS_BOX, line, 16, WHITE, "center", stroke=3)


def berserk_tag(words: Words, seconds: int | None) -> str:
    """A berserk seat's tag: the sword and its turn time (the sword alone without a timer)."""
    return words.berserk.format(n=seconds) if seconds is not None else "⚔"


def table_image(
    view: PublicView,
    words: Words = ENGLISH,
    berserk: Collection[int] = (),
    seconds: int | None = None,
) -> tuple[Image.Image, list[str]]:
    """The table picture and the face-up card codes it shows (for checks that nothing leaks);
    the ``berserk`` seats are tagged with their turn time ``seconds``."""
    edition = Edition(view.edition)
    th = art.theme(edition)
    img = _backgrounds.get_or_make(edition, lambda: _background(edition)).copy()
    d = ImageDraw.Draw(img)
    for arrow in ARROWS[1 if view.direction > 0 else -1]:
        d.polygon(arrow, fill=mix(th.felt, WHITE, 0.22))
    drawn = _piles(img, d, view, edition, words)
    color = view.color if view.color in COLORS else None
    word = words.color_name(color) if color else words.choosing
    swatch = sprite(("swatch", edition, color, word), lambda: _swatch(edition, color, word))
    paste(img, swatch, COLOR_SWATCH_BOX[0] - 3, COLOR_SWATCH_BOX[1] - 3)
    _header(img, view, words)
    _status(img, view, words)
    count = len(view.seats)
    for i, seat in enumerate(view.seats):
        tag = berserk_tag(words, seconds) if seat.seat in berserk else None
        _seat(img, seat, plate_box(i, count), edition, words, tag)
    return img, drawn


def _palette_source(edition: Edition) -> Image.Image:
    from .samples import sample_table  # only on the first picture of an edition

    tables = [
        table_image(sample_table(players, edition, color))[0]
        for players, color in ((10, "red"), (4, "yellow"), (3, "green"), (2, "blue"), (5, None))
    ]
    cards = art.sheet(edition, art.STORE_WIDTHS[-1], codes=art.palette_cards(edition))
    return stack([*tables, cards])


def table_palette(edition: Edition) -> Image.Image:
    """The fixed palette of an edition's table pictures."""
    th = art.theme(edition)
    return fixed_palette(
        ("table", edition),
        lambda: _palette_source(edition),
        (WHITE, (0, 0, 0), *th.colors, th.accent, th.felt, *TEAM_COLORS),
    )


def render_table(
    view: PublicView,
    *,
    words: Words = ENGLISH,
    berserk: Collection[int] = (),
    seconds: int | None = None,
) -> bytes:
    """The public table as PNG bytes (``berserk``: seats tagged with their turn time)."""
    edition = Edition(view.edition)
    return encode_png(table_image(view, words, berserk, seconds)[0], table_palette(edition))
