"""The pictures' PNG writer: what Pillow reads back is the picture, pixel for pixel."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.engine.cards import Edition
from bot.render import render_hand, render_table
from bot.render.png import SIGNATURE, palette_png
from bot.render.samples import sample_hand, sample_table


def random_picture(width: int, height: int, colors: int, seed: int) -> Image.Image:
    rng = random.Random(seed)
    picture = Image.new("P", (width, height))
    picture.putpalette([rng.randrange(256) for _ in range(3 * colors)])
    picture.putdata(
        [rng.randrange(colors) if rng.random() < 0.2 else 0 for _ in range(width * height)]
    )
    return picture


@pytest.mark.parametrize(("width", "height", "colors"), [(1, 1, 1), (37, 5, 7), (800, 512, 256)])
def test_a_palette_picture_reads_back_the_same(width: int, height: int, colors: int) -> None:
    picture = random_picture(width, height, colors, seed=width)
    data = palette_png(picture)
    assert data.startswith(SIGNATURE)
    back = Image.open(io.BytesIO(data))
    back.load()  # every chunk's CRC is checked while reading
    assert back.mode == "P" and back.size == (width, height)
    assert back.tobytes() == picture.tobytes()
    assert back.getpalette() == picture.getpalette()


def test_the_pictures_come_out_as_small_indexed_pngs() -> None:
    for png in (
        render_table(sample_table(4, Edition.CLASSIC, "red")),
        render_hand(sample_hand(7, Edition.MARIO)),
    ):
        picture = Image.open(io.BytesIO(png))
        picture.load()
        assert picture.mode == "P"
        assert len(png) < picture.width * picture.height / 4  # compressed, not stored


def test_only_palette_pictures_are_written() -> None:
    with pytest.raises(ValueError, match="palette"):
        palette_png(Image.new("RGB", (4, 4)))
