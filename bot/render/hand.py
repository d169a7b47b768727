"""render_hand: one player's cards in button order, numbered, unplayable ones muted."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from bot.engine.cards import COLORS, Edition
from bot.engine.snapshot import HandView

from . import art
from .art import RGB, STORE_WIDTHS, WHITE
from .cache import BoundedCache, image_bytes
from .common import (
    encode_png,
    fixed_palette,
    mix,
    name_parts,
    paste,
    pill,
    pill_label,
    pill_sprite,
    player_name,
    put_parts,
    put_text,
    sprite,
    stack,
)
from .words import ENGLISH, Words

HAND_WIDTH = 800  # the widest hand; a short one is as wide as its cards (and the header)
MIN_WIDTH = 480
HEADER = 42
MARGIN = 12
GAP = 6
PER_ROW = 10  # a 40-card hand is four rows of ten
LABEL = 10  # a card's number sits on its bottom edge and hangs this far below it
RAISE = 8  # playable cards sit a little higher, like cards pulled up in a real hand
EMPTY_BODY = 72
COLOR_PILL = (124, 26)

LABEL_OK: RGB = (30, 24, 10)
LABEL_OFF_FILL: RGB = (80, 80, 84)
LABEL_OFF_EDGE: RGB = (120, 120, 124)
LABEL_OFF_INK: RGB = (200, 200, 200)
NEW_RED: RGB = (226, 32, 40)


def grid(count: int) -> tuple[int, int, int]:
    """(rows, columns, card width) of a hand of ``count`` cards."""
    rows = max(1, math.ceil(count / PER_ROW))
    cols = max(1, math.ceil(count / rows))
    fit = (HAND_WIDTH - 2 * MARGIN - (cols - 1) * GAP) // cols
    width = next((w for w in STORE_WIDTHS if w <= fit), STORE_WIDTHS[-1])
    return rows, cols, width


def _row_height(width: int) -> int:
    return art.card_size(width)[1] + LABEL + RAISE + GAP


def hand_size(count: int) -> tuple[int, int]:
    """The picture size of a hand of ``count`` cards."""
    rows, cols, width = grid(count)
    body = rows * _row_height(width) if count else EMPTY_BODY
    span = cols * width + (cols - 1) * GAP if count else 0
    return max(MIN_WIDTH, span + 2 * MARGIN), HEADER + body + MARGIN // 2


def card_slots(count: int) -> list[tuple[float, float, int]]:
    """(center x, center y, width) of each card of the hand, before the playable raise."""
    _, cols, width = grid(count)
    picture_width = hand_size(count)[0]
    h = art.card_size(width)[1]
    row_h = _row_height(width)
    slots: list[tuple[float, float, int]] = []
    for i in range(count):
        row, col = divmod(i, cols)
        in_row = min(cols, count - row * cols)
        span = in_row * width + (in_row - 1) * GAP
        x0 = (picture_width - span) / 2
        slots.append(
            (x0 + col * (width + GAP) + width / 2, HEADER + RAISE + row * row_h + h / 2, width)
        )
    return slots


def _number_tag(accent: RGB, number: int, ok: bool) -> Image.Image:
    text = str(number)
    w = 18 + 8 * len(text)
    if ok:
        img = pill_sprite((w, 22), accent, WHITE)
    else:
        img = pill_sprite((w, 22), LABEL_OFF_FILL, LABEL_OFF_EDGE)
    put_text(img, (3, 1, w - 3, 21), text, 15, LABEL_OK if ok else LABEL_OFF_INK, "center")
    return img


# A card's number under it, one sprite per edition color, number and state, up to 3.6 KiB
# each. Bound: 512 entries, 1.8 MiB.
_numbers: BoundedCache[tuple[RGB, int, bool], Image.Image] = BoundedCache(
    "hand numbers", 512, 512 * 4 * 42 * 22, image_bytes
)


def number_tag(accent: RGB, number: int, ok: bool) -> Image.Image:
    """The pill with a card's number (its button's number), gold when the card is playable."""
    return _numbers.get_or_make((accent, number, ok), lambda: _number_tag(accent, number, ok))


def _background(edition: Edition, size: tuple[int, int]) -> Image.Image:
    th = art.theme(edition)
    img = Image.new("RGB", size, mix(th.felt, th.felt_edge, 0.55))
    img.paste(mix(th.felt, WHITE, 0.06), (0, 0, size[0], HEADER - 6))
    return img


def _color_pill(edition: Edition, color: str, word: str) -> Image.Image:
    rgb = art.theme(edition).color(color)
    w, h = COLOR_PILL
    img = Image.new("RGBA", COLOR_PILL, (*rgb, 0))
    d = ImageDraw.Draw(img)
    pill(d, (0, 0, w - 1, h - 1), rgb, WHITE, 2)
    art.draw_color_mark(d, 18, h / 2, 7, color, WHITE)
    put_text(
        img, (30, 2, w - 8, h - 2), word, 13, WHITE, stroke=2, stroke_fill=mix(rgb, (0, 0, 0), 0.5)
    )
    return img


def _header(img: Image.Image, view: HandView, edition: Edition, words: Words) -> None:
    count = len(view.cards)
    who = player_name(view.name, words.player_name(view.seat))
    title = name_parts(words.hand_title, who, cards=words.cards(count))
    right = img.width - MARGIN
    band = (0, 4, img.width, HEADER - 10)
    if view.color in COLORS:
        color = view.color
        word = words.color_name(color)
        tag = sprite(
            ("color pill", edition, color, word), lambda: _color_pill(edition, color, word)
        )
        x = right - tag.width
        paste(img, tag, x, (band[1] + band[3]) / 2 - tag.height / 2)
        put_text(
            img,
            (x - 110, band[1], x - 8, band[3]),
            words.color,
            13,
            (225, 225, 225),
            "right",
            bold=False,
        )
        right = x - 118
    put_parts(img, (MARGIN, band[1], right, band[3]), title, 18, WHITE)


def hand_image(view: HandView, words: Words = ENGLISH) -> tuple[Image.Image, list[str]]:
    """The hand picture and the card codes drawn on it, in order."""
    edition = Edition(view.edition)
    th = art.theme(edition)
    count = len(view.cards)
    img = _background(edition, hand_size(count))
    _header(img, view, edition, words)
    drawn: list[str] = []
    if not count:
        put_text(
            img,
            (MARGIN, HEADER, img.width - MARGIN, HEADER + EMPTY_BODY),
            words.no_cards,
            18,
            (230, 230, 230),
            "center",
        )
    new_index = view.cards.index(view.drawn) if view.drawn in view.cards else -1
    playable = view.playable if len(view.playable) == count else (True,) * count
    for i, (code, (cx, cy, width)) in enumerate(zip(view.cards, card_slots(count), strict=True)):
        ok = playable[i]
        y = cy - RAISE if ok else cy
        art.paste_card(img, code, edition, width, cx, y, dim=not ok)
        drawn.append(code)
        h = art.card_size(width)[1]
        tag = number_tag(th.accent, i + 1, ok)
        paste(img, tag, cx - tag.width / 2, y + h / 2 + LABEL - tag.height)
        if i == new_index:
            tag = sprite(
                ("new", words.new_card),
                lambda: pill_label((46, 18), words.new_card, 10, NEW_RED, WHITE, WHITE, pad=4),
            )
            paste(img, tag, cx - tag.width / 2, y - h / 2 - 7)
    return img, drawn


def _palette_source(edition: Edition) -> Image.Image:
    from .samples import sample_hand  # only on the first hand of an edition

    hands = [hand_image(sample_hand(n, edition))[0] for n in (7, 9)]
    return stack([*hands, art.sheet(edition, STORE_WIDTHS[-1], codes=art.palette_cards(edition))])


def hand_palette(edition: Edition) -> Image.Image:
    """The fixed palette of an edition's hand pictures."""
    th = art.theme(edition)
    return fixed_palette(
        ("hand", edition),
        lambda: _palette_source(edition),
        (WHITE, (0, 0, 0), *th.colors, th.accent),
    )


# The newest hand pictures, by what they show: a player who opens the same hand again (Show my
# hand twice, a page turned back, others' moves that left their cards and the color as they
# were) gets the same bytes without a redraw. 20 to 60 KiB each. Bound: 192 entries, 4 MiB.
_pictures: BoundedCache[tuple[object, ...], bytes] = BoundedCache(
    "hand pictures", 192, 4 * 1024 * 1024, len
)


def picture_key(view: HandView, words: Words) -> tuple[object, ...]:
    """Everything of ``view`` that ``hand_image`` draws: equal keys, equal pictures."""
    drawn = view.drawn if view.drawn in view.cards else None
    return (view.edition, view.seat, view.name, view.cards, view.playable, drawn, view.color, words)


def render_hand(view: HandView, *, words: Words = ENGLISH) -> bytes:
    """A player's hand as PNG bytes."""
    return _pictures.get_or_make(
        picture_key(view, words),
        lambda: encode_png(hand_image(view, words)[0], hand_palette(Edition(view.edition))),
    )
