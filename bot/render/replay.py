"""A replayed moment of a finished round: the table picture, and under it every seat's hand.

The table is the one render_table draws; the round is over, so the hands are no secret: each
seat gets a strip with its name and its cards, overlapping when there are many. The recap's
frames are these pictures too.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from bot.engine.cards import Edition
from bot.engine.snapshot import PublicView

from . import art
from .common import encode_png, player_name, put_text, vertical_gradient
from .table import TABLE_SIZE, table_image, table_palette
from .words import ENGLISH, Words

STRIP_HEIGHT = 64
CARD_WIDTH = 36  # a card's width in a strip: 54 px tall
NAME_WIDTH = 150
MARGIN = 8
STRIP_TOP: tuple[int, int, int] = (24, 26, 32)
STRIP_BOTTOM: tuple[int, int, int] = (14, 15, 19)
NAME_INK: tuple[int, int, int] = (235, 235, 235)
CURRENT_INK: tuple[int, int, int] = (255, 214, 0)
LEFT_INK: tuple[int, int, int] = (130, 130, 130)


def replay_size(seats: int) -> tuple[int, int]:
    """The picture's size for ``seats`` seats: the table, then one strip a seat."""
    return TABLE_SIZE[0], TABLE_SIZE[1] + STRIP_HEIGHT * seats


def _strip(
    img: Image.Image,
    top: int,
    view: PublicView,
    seat: int,
    cards: Sequence[str],
    words: Words,
) -> None:
    """One seat's name and cards across the picture at height ``top``."""
    edition = Edition(view.edition)
    info = view.seats[seat]
    ink = CURRENT_INK if info.current else NAME_INK if info.active else LEFT_INK
    name = player_name(info.name, words.player.format(n=seat + 1))
    put_text(img, (MARGIN, top, MARGIN + NAME_WIDTH - 8, top + STRIP_HEIGHT), name, 15, ink)
    if not cards:
        text = words.left_table if not info.active else words.no_cards
        box = (MARGIN + NAME_WIDTH, top, img.width - MARGIN, top + STRIP_HEIGHT)
        put_text(img, box, text, 13, LEFT_INK)
        return
    room = img.width - 2 * MARGIN - NAME_WIDTH - CARD_WIDTH
    step = min(CARD_WIDTH + 4, room / max(1, len(cards) - 1)) if len(cards) > 1 else 0
    for index, code in enumerate(cards):
        cx = MARGIN + NAME_WIDTH + CARD_WIDTH / 2 + index * step
        art.paste_card(img, code, edition, CARD_WIDTH, cx, top + STRIP_HEIGHT / 2)


def replay_image(
    view: PublicView, hands: Sequence[Sequence[str]], words: Words = ENGLISH
) -> Image.Image:
    """The table as ``view`` shows it, with ``hands`` (card codes per seat) laid out below."""
    table, _ = table_image(view, words)
    width, height = replay_size(len(view.seats))
    img = vertical_gradient((width, height), STRIP_TOP, STRIP_BOTTOM).convert("RGB")
    img.paste(table.convert("RGB"), (0, 0))
    for seat, cards in enumerate(hands):
        _strip(img, TABLE_SIZE[1] + seat * STRIP_HEIGHT, view, seat, cards, words)
    return img


def render_replay(
    view: PublicView, hands: Sequence[Sequence[str]], *, words: Words = ENGLISH
) -> bytes:
    """A replayed moment as PNG bytes (the table's palette)."""
    return encode_png(replay_image(view, hands, words), table_palette(Edition(view.edition)))
