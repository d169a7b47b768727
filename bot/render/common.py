"""Helpers shared by the pictures: text, badges and the PNG encoder."""

from __future__ import annotations

import io
import threading
from collections.abc import Callable, Hashable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from .art import RGB, fit_text, font, safe_text

# 256-color PNG with a light zlib level: a fraction of the bytes of a truecolor PNG, and faster
# to encode; level 1 keeps most of the size gain of level 6 at a quarter of the time.
PNG_COMPRESS_LEVEL = 1


_palettes: dict[Hashable, Image.Image] = {}
_palette_lock = threading.Lock()


def fixed_palette(
    key: Hashable, source: Callable[[], Image.Image], reserved: Sequence[RGB] = ()
) -> Image.Image:
    """A 256-color palette built once per process from sample pictures of one kind.

    Mapping onto a fixed palette takes a tenth of the time of quantizing each picture, and the
    ``reserved`` colors (the card colors) come out exact, so a swatch shows the true color.
    """
    with _palette_lock:
        cached = _palettes.get(key)
        if cached is not None:
            return cached
        exact = list(dict.fromkeys(reserved))
        sampled = (
            source()
            .convert("RGB")
            .quantize(
                colors=256 - len(exact), method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
            )
        )
        flat = [v for color in exact for v in color]
        values = (sampled.getpalette() or [])[: 3 * (256 - len(exact))]
        for i in range(0, len(values) - 2, 3):
            near = values[i : i + 3]
            # Pillow maps through a coarse color cache: a sampled color this close to a reserved
            # one could win its cache cell, so the reserved colors keep their neighbourhood.
            if all(sum(abs(a - b) for a, b in zip(near, c, strict=True)) > 24 for c in exact):
                flat += near
        flat += [0] * (768 - len(flat))
        palette = Image.new("P", (1, 1))
        palette.putpalette(flat)
        _palettes[key] = palette
        return palette


def stack(images: Sequence[Image.Image]) -> Image.Image:
    """Pictures one above the other (the sample a palette is built from)."""
    width = max(i.width for i in images)
    out = Image.new("RGB", (width, sum(i.height for i in images)))
    y = 0
    for i in images:
        out.paste(i.convert("RGB"), (0, y))
        y += i.height
    return out


def encode_png(img: Image.Image, palette: Image.Image | None = None) -> bytes:
    """A picture as a 256-color PNG: mapped onto ``palette``, else octree-quantized; no dither."""
    rgb = img if img.mode == "RGB" else img.convert("RGB")
    if palette is not None:
        pal = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
    else:
        pal = rgb.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    pal.save(buf, "PNG", optimize=False, compress_level=PNG_COMPRESS_LEVEL)
    return buf.getvalue()


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """The color ``t`` of the way from ``a`` to ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def name_text(
    name: str, size: int, width: float, bold: bool = True, fallback: str = "Player"
) -> str:
    """A user-supplied name made drawable (missing glyphs as '?') and cut to ``width`` pixels.

    A name with nothing readable left (all emoji or CJK, say) becomes ``fallback``.
    """
    safe = safe_text(name, bold, placeholder=fallback)
    if not any(ch.isalnum() for ch in safe):
        safe = fallback
    return fit_text(safe, font(size, bold), width)


def text(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    value: str,
    size: int,
    fill: RGB,
    anchor: str = "la",
    bold: bool = True,
    stroke: int = 0,
    stroke_fill: RGB = (0, 0, 0),
) -> None:
    """Draw text in the shipped font."""
    d.text(
        xy,
        value,
        font=font(size, bold),
        fill=fill,
        anchor=anchor,
        stroke_width=stroke,
        stroke_fill=stroke_fill,
    )


def pill(
    d: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    fill: RGB,
    outline: RGB | None = None,
    width: int = 2,
) -> None:
    """A rounded badge."""
    radius = (box[3] - box[1]) / 2
    d.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)


@lru_cache(maxsize=16)
def vertical_gradient(size: tuple[int, int], top: RGB, bottom: RGB) -> Image.Image:
    """A top-to-bottom gradient, for backgrounds."""
    w, h = size
    column = Image.new("RGB", (1, h))
    for y in range(h):
        column.putpixel((0, y), mix(top, bottom, y / max(1, h - 1)))
    return column.resize((w, h))
