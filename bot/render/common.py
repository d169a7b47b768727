"""What the pictures share: fitted text, cached sprites, fixed palettes and the PNG encoder."""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from .art import RGB
from .cache import BoundedCache, image_bytes
from .fonts import fit_box, font, ink_box, readable_name
from .png import palette_png

Box = tuple[float, float, float, float]
IntBox = tuple[int, int, int, int]


# ----- text -----


@dataclass(frozen=True, slots=True)
class Label:
    """A text drawn once as coverage masks (a byte a pixel), painted in any colors.

    ``image`` is the text's own coverage; an outlined text also keeps ``outline``, the coverage
    of the text with its stroke. Painting the outline, then the text over it, gives the pixels
    of the text drawn with its stroke; texts set side by side paint every outline first, so no
    stroke covers a neighbour's letters.
    """

    image: Image.Image  # "L": the text's coverage
    anchor: tuple[int, int]  # where the anchor point falls on the image
    box: tuple[float, float, float, float]  # the text's box, from the anchor
    ink: IntBox  # the pixels drawn, on the image
    advance: float  # from the anchor to where a text set after this one starts
    outline: Image.Image | None = None  # "L": the coverage of the text and its stroke

    @property
    def extent(self) -> tuple[float, float]:
        """Left and right of the text's box, from the anchor."""
        return self.box[0], self.box[2]

    def paint(
        self, dest: Image.Image, at: tuple[int, int], fill: RGB, stroke_fill: RGB = (0, 0, 0)
    ) -> None:
        """Draw the text with the image's top-left corner at ``at``."""
        if dest.mode == "RGB":
            self.paint_outline(dest, at, stroke_fill)
            self.paint_fill(dest, at, fill)
            return
        # Onto a sprite: the text as an RGBA sprite, so the sprite's alpha blends as before.
        outline = self.outline or self.image
        sprite = Image.new("RGBA", outline.size, (*stroke_fill, 0) if self.outline else (*fill, 0))
        sprite.putalpha(outline)
        if self.outline is not None:
            sprite.paste(fill, (0, 0, *sprite.size), self.image)
        dest.paste(sprite, at, sprite)

    def paint_outline(self, dest: Image.Image, at: tuple[int, int], color: RGB) -> None:
        """The stroke around the text, when it has one (onto an RGB picture)."""
        if self.outline is not None:
            x, y = at
            dest.paste(color, (x, y, x + self.outline.width, y + self.outline.height), self.outline)

    def paint_fill(self, dest: Image.Image, at: tuple[int, int], color: RGB) -> None:
        """The text itself (onto an RGB picture)."""
        x, y = at
        dest.paste(color, (x, y, x + self.image.width, y + self.image.height), self.image)


def _label(
    text: str, size: int, box: tuple[float, float, float, float], bold: bool, stroke: int
) -> Label:
    fnt = font(size, bold)
    left, top, right, bottom = box
    margin = 2  # room for anti-aliasing past the font's box: nothing is clipped
    ax, ay = margin - math.floor(left), margin - math.floor(top)
    size_px = (ax + math.ceil(right) + margin, ay + math.ceil(bottom) + margin)
    image = Image.new("L", size_px, 0)
    ImageDraw.Draw(image).text((ax, ay), text, font=fnt, fill=255, anchor="lm")
    outline = None
    if stroke:
        outline = Image.new("L", size_px, 0)
        ImageDraw.Draw(outline).text(
            (ax, ay), text, font=fnt, fill=255, anchor="lm", stroke_width=stroke, stroke_fill=255
        )
    ink = (outline or image).getbbox() or (ax, ay, ax, ay)
    return Label(image, (ax, ay), box, ink, fnt.getlength(text), outline)


def _label_bytes(label: Label) -> int:
    outline = image_bytes(label.outline) if label.outline is not None else 0
    return image_bytes(label.image) + outline + 200


TextKey = tuple[str, int, int, int, bool, int]
# Texts repeat from picture to picture (numbers, words, the names at a table, whose turn it
# is); least recently used go first. Most are masks of 1 to 6 KiB; a name is drawn once per
# size and stroke, whatever the line around it (``put_parts``), so 16 MiB keeps every name of
# 500 tables of three. Bound: 8,192 entries, 16 MiB.
_texts: BoundedCache[TextKey, Label] = BoundedCache("texts", 8192, 16 * 1024 * 1024, _label_bytes)
NATURAL = -1  # the width and height in the key of a text drawn at its size, not fitted to a box


def fitted_label(
    text: str, size: int, width: float, height: float, bold: bool = True, stroke: int = 0
) -> Label:
    """``text`` drawn to fit a box of ``width`` × ``height`` (shrunk, then cut)."""

    def make() -> Label:
        fitted, fitted_size, box = fit_box(text, size, int(width), int(height), bold, stroke)
        return _label(fitted, fitted_size, box, bold, stroke)

    return _texts.get_or_make((text, size, int(width), int(height), bold, stroke), make)


def natural_label(text: str, size: int, bold: bool = True, stroke: int = 0) -> Label:
    """``text`` drawn at ``size``, whatever its length."""

    def make() -> Label:
        return _label(text, size, ink_box(text, font(size, bold), stroke), bold, stroke)

    return _texts.get_or_make((text, size, NATURAL, NATURAL, bold, stroke), make)


def _aligned(box: Box, left: float, right: float, align: str) -> float:
    """Where the anchor goes for a text spanning ``left`` to ``right`` around it."""
    x0, _, x1, _ = box
    if align == "left":
        return x0 - left
    if align == "right":
        return x1 - right
    return (x0 + x1) / 2 - (left + right) / 2


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
    label = fitted_label(text, size, x1 - x0, y1 - y0, bold, stroke)
    left, right = label.extent
    px = round(_aligned(box, left, right, align)) - label.anchor[0]
    py = round((y0 + y1) / 2) - label.anchor[1]
    label.paint(dest, (px, py), fill, stroke_fill)
    ix0, iy0, ix1, iy1 = label.ink
    return px + ix0, py + iy0, px + ix1, py + iy1


def put_parts(
    dest: Image.Image,
    box: Box,
    parts: Sequence[str],
    size: int,
    fill: RGB,
    align: str = "left",
    bold: bool = True,
    stroke: int = 0,
    stroke_fill: RGB = (0, 0, 0),
) -> IntBox:
    """Draw the text ``parts`` make, set side by side, like :func:`put_text`: each part is
    drawn and kept on its own, so a player's name drawn once serves every line it is part of
    ("Ann to play", "Ann picks a color"). A line too long for its box at ``size`` is drawn
    whole by :func:`put_text` (shrunk, then cut)."""
    x0, y0, x1, y1 = box
    placed: list[tuple[float, Label]] = []
    pen = 0.0
    for part in parts:
        if part:
            label = natural_label(part, size, bold, stroke)
            placed.append((pen, label))
            pen += label.advance
    if not placed or dest.mode != "RGB":
        return put_text(dest, box, "".join(parts), size, fill, align, bold, stroke, stroke_fill)
    left = min(at + label.box[0] for at, label in placed)
    right = max(at + label.box[2] for at, label in placed)
    top = min(label.box[1] for _, label in placed)
    bottom = max(label.box[3] for _, label in placed)
    if right - left > x1 - x0 or 2 * max(-top, bottom) > y1 - y0:
        return put_text(dest, box, "".join(parts), size, fill, align, bold, stroke, stroke_fill)
    x = _aligned(box, left, right, align)
    y = round((y0 + y1) / 2)
    spots = [
        ((round(x + at) - label.anchor[0], y - label.anchor[1]), label) for at, label in placed
    ]
    for spot, label in spots:  # every stroke first: none covers a neighbour's letters
        label.paint_outline(dest, spot, stroke_fill)
    for spot, label in spots:
        label.paint_fill(dest, spot, fill)
    inks = [
        (sx + lb.ink[0], sy + lb.ink[1], sx + lb.ink[2], sy + lb.ink[3]) for (sx, sy), lb in spots
    ]
    return (
        min(i[0] for i in inks),
        min(i[1] for i in inks),
        max(i[2] for i in inks),
        max(i[3] for i in inks),
    )


def name_parts(template: str, name: str, **fields: object) -> tuple[str, ...]:
    """``template`` filled in, split around the ``{name}`` it holds (for :func:`put_parts`)."""
    head, sep, tail = template.partition("{name}")
    if not sep:
        return (template.format(**fields),)
    return head.format(**fields), name, tail.format(**fields)


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
    return palette_png(pal)
