"""The shipped fonts (package data), which characters they draw, and fitting text to a box."""

from __future__ import annotations

import atexit
import math
import unicodedata
from contextlib import ExitStack
from importlib.resources import as_file, files
from importlib.resources.abc import Traversable

from PIL import ImageFont

from .cache import BoundedCache

ART: Traversable = files("card_art")
FONT_FILES = {True: "DejaVuSans-Bold.ttf", False: "DejaVuSans.ttf"}
LICENSE_FILE = "LICENSE-DejaVu.txt"

# A FreeType face holds about 0.4 MiB once it has drawn some text (measured on DejaVu Sans), so
# the pictures keep to a short ladder of sizes (twelve faces in all). Bound: 16 faces, 6.25 MiB.
FONT_CACHE_ENTRIES = 16
FONT_BYTES_ESTIMATE = 400 * 1024
SIZES = (9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 20, 22, 24)
SHRINK = 0.7  # a text too long for its box shrinks to 70% of its size to stay whole,
CUT = 0.85  # else it is cut, at 85% of its size, with an ellipsis

_extracted = ExitStack()  # keeps font files extracted from a zipped install until exit
atexit.register(_extracted.close)
_paths: dict[bool, str] = {}


def font_path(bold: bool = True) -> str:
    """A file system path to a shipped font, for FreeType."""
    path = _paths.get(bold)
    if path is None:
        resource = ART / FONT_FILES[bold]
        path = _paths[bold] = str(_extracted.enter_context(as_file(resource)))
    return path


def load_font(size: int, bold: bool = True) -> ImageFont.FreeTypeFont:
    """A new face of the shipped DejaVu font."""
    # The basic layout keeps the output identical with or without raqm.
    return ImageFont.truetype(font_path(bold), size, layout_engine=ImageFont.Layout.BASIC)


_fonts: BoundedCache[tuple[int, bool], ImageFont.FreeTypeFont] = BoundedCache(
    "fonts",
    FONT_CACHE_ENTRIES,
    FONT_CACHE_ENTRIES * FONT_BYTES_ESTIMATE,
    lambda _: FONT_BYTES_ESTIMATE,
)


def font(size: int, bold: bool = True) -> ImageFont.FreeTypeFont:
    """The shipped font at ``size`` pixels, kept for the next picture."""
    return _fonts.get_or_make((size, bold), lambda: load_font(size, bold))


# ----- characters the font lacks -----


def _mask_signature(fnt: ImageFont.FreeTypeFont, ch: str) -> tuple[tuple[int, int], bytes]:
    mask = fnt.getmask(ch)
    return mask.size, bytes(mask)


# A bool and a one-character key: about 200 bytes an entry with the dictionary's share.
# Bound: 4,096 entries, 0.8 MiB.
_glyphs: BoundedCache[tuple[str, bool], bool] = BoundedCache(
    "glyphs", 4096, 4096 * 200, lambda _: 200
)


def has_glyph(ch: str, bold: bool = True) -> bool:
    """Whether the shipped font draws ``ch`` (FreeType draws the .notdef box for the others)."""

    def check() -> bool:
        fnt = font(16, bold)
        # A private-use code point of plane 16: no font ships it, so it shows the .notdef box.
        return _mask_signature(fnt, ch) != _mask_signature(fnt, "\U0010fffd")

    return _glyphs.get_or_make((ch, bold), check)


_DROP_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Mn", "Me", "Zl", "Zp"}


def safe_text(text: str, bold: bool = True, placeholder: str = "?") -> str:
    """``text`` with missing glyphs as '?' (runs collapsed) and control characters dropped."""
    out: list[str] = []
    for ch in unicodedata.normalize("NFC", text):
        cat = unicodedata.category(ch)
        if cat in _DROP_CATEGORIES:
            continue  # controls, joiners, variation selectors: nothing to draw
        if cat == "Zs":
            ch = " "
        elif cat == "Sk" and not has_glyph(ch, bold):
            continue  # emoji skin-tone modifiers belong to the (already replaced) emoji
        elif not has_glyph(ch, bold):
            ch = "?"
            if out and out[-1] == "?":
                continue
        out.append(ch)
    result = " ".join("".join(out).split())
    return result or placeholder


def readable_name(name: str, fallback: str, bold: bool = True) -> str:
    """A user's name made drawable, or ``fallback`` when nothing readable is left (all emoji)."""
    safe = safe_text(name[:200], bold, placeholder=fallback)
    return safe if any(ch.isalnum() for ch in safe) else fallback


# ----- fitting text to a box -----


def ink_box(
    text: str, fnt: ImageFont.FreeTypeFont, stroke: int = 0
) -> tuple[float, float, float, float]:
    """The box ``text`` covers, relative to its left-middle anchor."""
    return fnt.getbbox(text, anchor="lm", stroke_width=stroke)


def fits(text: str, fnt: ImageFont.FreeTypeFont, width: float, height: float, stroke: int) -> bool:
    """Whether ``text``, centred on the middle line of a box, stays inside it."""
    left, top, right, bottom = ink_box(text, fnt, stroke)
    return right - left <= width and 2 * max(-top, bottom) <= height


Fitted = tuple[str, int, tuple[float, float, float, float]]


def fit_text(
    text: str, size: int, width: float, height: float, bold: bool = True, stroke: int = 0
) -> tuple[str, int]:
    """``text`` and a size that fit a box: shrunk to 70% at most, else cut (…) at 85%."""
    fitted, fitted_size, _ = fit_box(text, size, width, height, bold, stroke)
    return fitted, fitted_size


def fit_box(
    text: str, size: int, width: float, height: float, bold: bool = True, stroke: int = 0
) -> Fitted:
    """:func:`fit_text`, with the fitted text's box (from its left-middle anchor)."""
    box = ink_box(text, font(size, bold), stroke)
    left, top, right, bottom = box
    if right - left <= width and 2 * max(-top, bottom) <= height:
        return text, size, box
    full = right - left
    smallest = max(SIZES[0], math.ceil(size * SHRINK))
    ladder = [size, *(s for s in reversed(SIZES) if smallest <= s < size)]
    for s in ladder[1:]:
        # Widths scale with the size (give or take hinting): skip the sizes plainly too big.
        if full * s / size <= width * 1.05 and fits(text, font(s, bold), width, height, stroke):
            return text, s, ink_box(text, font(s, bold), stroke)
    s = next((s for s in ladder if s <= max(smallest, size * CUT)), ladder[-1])
    fnt = font(s, bold)

    def cut(n: int) -> str:
        return text[:n].rstrip() + "…"

    def narrow(n: int) -> bool:  # the advance is a quick, close measure of the ink's width
        return fnt.getlength(cut(n)) + 2 * stroke + 1 <= width

    # Start from the share of the text that fits, step to the longest cut that does, then
    # check the ink itself.
    n = max(0, min(len(text) - 1, int(len(text) * width / max(1.0, full * s / size))))
    while n > 0 and not narrow(n):
        n -= 1
    while n + 1 < len(text) and narrow(n + 1):
        n += 1
    while n > 0 and not fits(cut(n), fnt, width, height, stroke):
        n -= 1
    return cut(n), s, ink_box(cut(n), fnt, stroke)
