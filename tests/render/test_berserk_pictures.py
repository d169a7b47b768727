"""A tournament's berserk players tagged on the table picture: a red tag with their turn time
on their own plates' upper right corner, nowhere else."""

from __future__ import annotations

import io

from PIL import Image

from bot.render import render_table
from bot.render.samples import sample_table
from bot.render.table import UNO_RED, berserk_tag, plate_box
from bot.render.words import ENGLISH


def decode(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def red_in_corner(img: Image.Image, seat: int, players: int) -> int:
    """How many pixels of the tag's red lie in the plate's upper right corner."""
    _, y0, x1, _ = plate_box(seat, players)
    box = (round(x1 - 52), round(y0 + 7), round(x1 - 8), round(y0 + 23))
    near = 0
    for x in range(box[0], box[2]):
        for y in range(box[1], box[3]):
            pixel = img.getpixel((x, y))
            assert isinstance(pixel, tuple)
            if all(abs(a - b) <= 24 for a, b in zip(pixel, UNO_RED, strict=True)):
                near += 1
    return near


def test_only_the_berserk_seats_wear_the_tag() -> None:
    view = sample_table(4)
    img = decode(render_table(view, berserk=(0, 2), seconds=30))
    plain = decode(render_table(view))
    for seat in range(4):
        if seat in (0, 2):
            assert red_in_corner(img, seat, 4) > 200, seat
        else:
            assert red_in_corner(img, seat, 4) == red_in_corner(plain, seat, 4) < 50, seat


def test_the_tag_tells_the_halved_turn_time() -> None:
    assert berserk_tag(ENGLISH, 30) == "⚔ 30 s"
    assert berserk_tag(ENGLISH, None) == "⚔"
    view = sample_table(3)
    assert render_table(view, berserk=(0,), seconds=30) != render_table(
        view, berserk=(0,), seconds=20
    )
