"""What the pictures share: fitted text, cached sprites, fixed palettes and the PNG encoder."""

from __future__ import annotations

import io
import math
import threading
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from .art import RGB
from .cache import BoundedCache, image_bytes
from .fonts import fit_box, font, readable_name

Box = tuple[float, float, float, float]
IntBox = tuple[int, int, int, int]

# A 256-color PNG at zlib level 1: a fraction of the bytes of a truecolor PNG, and faster to
# encode; level 1 keeps most of the size gain of level 6 at a quarter of the time.
PNG_COMPRESS_LEVEL = 1


# ----- text -----


@dataclass(frozen=True, slots=True)
class Label:
    """A text drawn once, placed by its left-middle anchor.

    A text in one color is kept as its coverage mask ("L", a byte a pixel), painted in any
    color; an outlined text (two colors) as an RGBA sprite. Either paints the very pixels the
    RGBA sprite it stands for would.
    """

    image: Image.Image  # "L": coverage, painted in the color asked; "RGBA": the sprite itself
    anchor: tuple[int, int]  # where the anchor point falls on the image
    extent: tuple[float, float]  # left and right of the text's box, from the anchor
    ink: IntBox  # the pixels drawn, on the image

    def paint(self, dest: Image.Image, at: tuple[int, int], fill: RGB) -> None:
        """Draw the text with the image's top-left corner at ``at`` (a mask in ``fill``)."""
        image = self.image
        if image.mode == "RGBA":
            dest.paste(image, at, image)
        elif dest.mode == "RGB":
            x, y = at
            dest.paste(fill, (x, y, x + image.width, y + image.height), image)
        else:  # onto a sprite: the RGBA text itself, so the sprite's alpha blends as before
            sprite = Image.new("RGBA", image.size, (*fill, 0))
            sprite.putalpha(image)
            dest.paste(sprite, at, sprite)


def _label(
    text: str,
    size: int,
    box: tuple[float, float, float, float],
    bold: bool,
    fill: RGB,
    stroke: int,
    stroke_fill: RGB,
) -> Label:
    fnt = font(size, bold)
    left, top, right, bottom = box
    margin = 2  # room for anti-aliasing past the font's box: nothing is clipped
    ax, ay = margin - math.floor(left), margin - math.floor(top)
    size_px = (ax + math.ceil(right) + margin, ay + math.ceil(bottom) + margin)
    if stroke:
        # The sprite starts in the outline's color at alpha 0, so its edges keep that color.
        image = Image.new("RGBA", size_px, (*stroke_fill, 0))
        ImageDraw.Draw(image).text(
            (ax, ay),
            text,
            font=fnt,
            fill=fill,
            anchor="lm",
            stroke_width=stroke,
            stroke_fill=stroke_fill,
        )
    else:
        image = Image.new("L", size_px, 0)
        ImageDraw.Draw(image).text((ax, ay), text, font=fnt, fill=255, anchor="lm")
    ink = image.getbbox() or (ax, ay, ax, ay)
    return Label(image, (ax, ay), (left, right), ink)


TextKey = tuple[str, int, int, int, bool, RGB | None, int, RGB | None]
# Texts repeat from picture to picture (numbers, words, the names at a table, whose turn it
# is); least recently used go first. Most are masks of 1 to 6 KiB: 8 MiB keeps every name
# of 500 tables. Bound: 8,192 entries, 8 MiB.
_texts: BoundedCache[TextKey, Label] = BoundedCache(
    "texts", 8192, 8 * 1024 * 1024, lambda label: image_bytes(label.image) + 200
)


def fitted_label(
    text: str,
    size: int,
    width: float,
    height: float,
    bold: bool = True,
    fill: RGB = (255, 255, 255),
    stroke: int = 0,
    stroke_fill: RGB = (0, 0, 0),
) -> Label:
    """``text`` drawn to fit a box of ``width`` × ``height`` (shrunk, then cut)."""
    # A mask's key has no color: one mask serves every color (a name on a plain or lit plate).
    colors = (fill, stroke_fill) if stroke else (None, None)
    key = (text, size, int(width), int(height), bold, colors[0], stroke, colors[1])

    def make() -> Label:
        fitted, fitted_size, box = fit_box(text, size, int(width), int(height), bold, stroke)
        return _label(fitted, fitted_size, box, bold, fill, stroke, stroke_fill)

    return _texts.get_or_make(key, make)


def put_text(
    dest: Image.Image,
    box: Box,
    text: str,
    size: int,
    fill: RGB,
    align: str = "left",
    bold: bool = True,
    stroke: int = 0,
    stroke_fill: RGB = (0, 0, 0),
) -> IntBox:
    """Draw ``text`` fitted inside ``box`` (aligned left, center or right); returns its pixels."""
    x0, y0, x1, y1 = box
    label = fitted_label(text, size, x1 - x0, y1 - y0, bold, fill, stroke, stroke_fill)
    left, right = label.extent
    if align == "left":
        x = x0 - left
    elif align == "right":
        x = x1 - right
    else:
        x = (x0 + x1) / 2 - (left + right) / 2
    px = round(x) - label.anchor[0]
    py = round((y0 + y1) / 2) - label.anchor[1]
    label.paint(dest, (px, py), fill)
    ix0, iy0, ix1, iy1 = label.ink
    return px + ix0, py + iy0, px + ix1, py + iy1


# A name is cleaned once (missing glyphs, controls) and kept, about 300 bytes each.
# Bound: 2,048 entries, 0.6 MiB.
_names: BoundedCache[tuple[str, str], str] = BoundedCache("names", 2048, 2048 * 300, lambda _: 300)


def player_name(name: str, fallback: str) -> str:
    """A user's name as drawn: missing glyphs as '?', or ``fallback`` when nothing is left."""
    return _names.get_or_make((name, fallback), lambda: readable_name(name, fallback))


# ----- sprites -----

# Plates, badges, pills, swatches and card stacks by edition and words, a few KiB to 60 KiB
# each (about 60 in use, 1.3 MiB). Bound: 512 entries, 4 MiB.
_sprites: BoundedCache[Hashable, Image.Image] = BoundedCache(
    "sprites", 512, 4 * 1024 * 1024, image_bytes
)


def sprite(key: Hashable, make: Callable[[], Image.Image]) -> Image.Image:
    """An RGBA sprite drawn once by ``make`` and kept under ``key``."""
    return _sprites.get_or_make(key, make)


def paste(dest: Image.Image, img: Image.Image, x: float, y: float) -> None:
    """Paste an RGBA sprite with its top-left corner at (x, y)."""
    dest.paste(img, (round(x), round(y)), img)


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """The color ``t`` of the way from ``a`` to ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def pill(
    d: ImageDraw.ImageDraw,
    box: Box,
    fill: RGB,
    outline: RGB | None = None,
    width: int = 2,
) -> None:
    """A rounded badge."""
    radius = (box[3] - box[1]) / 2
    d.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)


def pill_sprite(
    size: tuple[int, int], fill: RGB, outline: RGB | None = None, outline_width: int = 2
) -> Image.Image:
    """A pill as an RGBA sprite."""
    w, h = size
    img = Image.new("RGBA", size, (*fill, 0))
    pill(ImageDraw.Draw(img), (0, 0, w - 1, h - 1), fill, outline, outline_width)
    return img


def cached_pill(
    size: tuple[int, int], fill: RGB, outline: RGB | None = None, outline_width: int = 2
) -> Image.Image:
    """A plain pill sprite, kept for the next picture."""
    return sprite(
        ("pill", size, fill, outline, outline_width),
        lambda: pill_sprite(size, fill, outline, outline_width),
    )


def pill_label(
    size: tuple[int, int],
    text: str,
    text_size: int,
    fill: RGB,
    ink: RGB,
    outline: RGB | None = None,
    outline_width: int = 2,
    pad: int = 5,
) -> Image.Image:
    """A pill with a word fitted inside it, as an RGBA sprite."""
    w, h = size
    img = pill_sprite(size, fill, outline, outline_width)
    put_text(img, (pad, 1, w - pad, h - 1), text, text_size, ink, align="center")
    return img


def vertical_gradient(size: tuple[int, int], top: RGB, bottom: RGB) -> Image.Image:
    """A top-to-bottom gradient, for backgrounds (a column stretched: nothing kept)."""
    w, h = size
    column = Image.new("RGB", (1, h))
    column.putdata([mix(top, bottom, y / max(1, h - 1)) for y in range(h)])
    return column.resize((w, h), Image.Resampling.NEAREST)


# ----- palettes and encoding -----

# One 256-color palette per picture kind and edition (ten in all), under 2 KiB each.
# Bound: 16 entries, 32 KiB.
_palettes: BoundedCache[Hashable, Image.Image] = BoundedCache(
    "palettes", 16, 16 * 2048, lambda _: 2048
)
_palette_locks: dict[Hashable, threading.Lock] = {}  # one per palette key: at most 16 in use
_palette_locks_lock = threading.Lock()


def _palette_lock(key: Hashable) -> threading.Lock:
    with _palette_locks_lock:
        return _palette_locks.setdefault(key, threading.Lock())


def fixed_palette(
    key: Hashable, source: Callable[[], Image.Image], reserved: Sequence[RGB] = ()
) -> Image.Image:
    """A 256-color palette built once per process from sample pictures of one kind.

    Mapping onto a fixed palette takes a tenth of the time of quantizing each picture, and the
    ``reserved`` colors (the card colors) come out exact, so a swatch shows the true color.
    """
    cached = _palettes.get(key)
    if cached is not None:
        return cached
    # One thread builds each palette; the others wait for that one alone (a player's first
    # hand never waits for the warm-up to build a table palette).
    with _palette_lock(key):
        cached = _palettes.get(key)
        if cached is not None:
            return cached
        exact = list(dict.fromkeys(reserved))
        sample = source().convert("RGB")
        # Every other pixel of every other row: the same colors, a quarter of the median cut.
        sample = sample.resize((sample.width // 2, sample.height // 2), Image.Resampling.NEAREST)
        sampled = sample.quantize(
            colors=256 - len(exact), method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
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
        return _palettes.put(key, palette)


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
