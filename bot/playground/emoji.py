"""The emoji the bot writes, drawn by the page itself as small inline SVG pictures: a machine
without an emoji font would show boxes, and the color marks are how a card's color reads.

Each picture keeps the emoji as its text alternative (``aria-label``), so copying and screen
readers still get the character. Emoji the bot never writes stay as they are.
"""

from __future__ import annotations

import re

_BOX = '<rect x="1" y="1" width="14" height="14" rx="3" fill="{}"/>'

# 16 x 16 pictures, one per emoji the bot's messages and buttons use.
_SHAPES: dict[str, str] = {
    "🟥": _BOX.format("#e53935"),
    "🟨": _BOX.format("#fdd835"),
    "🟩": _BOX.format("#43a047"),
    "🟦": _BOX.format("#1e88e5"),
    "🌈": '<path d="M1 8h7V1H4a3 3 0 0 0-3 3z" fill="#e53935"/>'
    '<path d="M8 1v7h7V4a3 3 0 0 0-3-3z" fill="#1e88e5"/>'
    '<path d="M1 8v4a3 3 0 0 0 3 3h4V8z" fill="#fdd835"/>'
    '<path d="M8 8v7h4a3 3 0 0 0 3-3V8z" fill="#43a047"/>',
    "✅": _BOX.format("#43a047")
    + '<path d="M4 8.5l2.5 2.5L12 5.5" stroke="#fff" stroke-width="2" fill="none"/>',
    "🎴": '<rect x="2" y="3" width="8" height="12" rx="1.5" fill="#1e88e5" '
    'transform="rotate(-12 6 9)"/>'
    '<rect x="6" y="1" width="8" height="12" rx="1.5" fill="#e53935" stroke="#fff"/>',
    "🤖": '<path d="M8 1v3" stroke="#90a4ae" stroke-width="1.5"/><circle cx="8" cy="1.5" r="1.2" '
    'fill="#90a4ae"/><rect x="2" y="4" width="12" height="10" rx="3" fill="#90a4ae"/>'
    '<circle cx="5.5" cy="8.5" r="1.5" fill="#263238"/><circle cx="10.5" cy="8.5" r="1.5" '
    'fill="#263238"/><path d="M5.5 11.5h5" stroke="#263238" stroke-width="1.2"/>',
    "🏆": '<path d="M4 2h8v4a4 4 0 0 1-8 0z" fill="#fbc02d"/><path d="M4 3H2a2 2 0 0 0 2 4M12 3h2'
    'a2 2 0 0 1-2 4" stroke="#fbc02d" stroke-width="1.2" fill="none"/><path d="M7 10h2v3H7z" '
    'fill="#fbc02d"/><rect x="4.5" y="13" width="7" height="2" rx=".5" fill="#8d6e63"/>',
    "👑": '<path d="M2 12L1 4l4 3 3-5 3 5 4-3-1 8z" fill="#fbc02d"/>'
    '<rect x="2" y="12.5" width="12" height="2" fill="#f9a825"/>',
    "🔍": '<circle cx="6.5" cy="6.5" r="4.5" stroke="#78909c" stroke-width="2" fill="#e3f2fd"/>'
    '<path d="M10 10l4.5 4.5" stroke="#78909c" stroke-width="2.5"/>',
    "📜": '<rect x="3" y="2" width="10" height="12" rx="1.5" fill="#ffe0b2" stroke="#a1887f"/>'
    '<path d="M5 5.5h6M5 8h6M5 10.5h4" stroke="#a1887f"/>',
    "📊": '<rect x="1" y="1" width="14" height="14" rx="2" fill="#eceff1"/>'
    '<path d="M4 13V8M8 13V4M12 13V6" stroke="#5c6bc0" stroke-width="2.5"/>',
    "🎉": '<path d="M2 14l3-9 6 6z" fill="#fbc02d"/><circle cx="11" cy="3" r="1.2" fill="#e53935"/>'
    '<circle cx="14" cy="7" r="1.2" fill="#1e88e5"/><circle cx="8" cy="2" r="1" fill="#43a047"/>',
    "⚙": '<circle cx="8" cy="8" r="5" fill="none" stroke="#78909c" stroke-width="3" '
    'stroke-dasharray="2.2 1.7"/><circle cx="8" cy="8" r="3.2" fill="none" stroke="#78909c" '
    'stroke-width="2"/>',
    "✏": '<path d="M3 13l1-3.5 7-7 2.5 2.5-7 7z" fill="#fbc02d"/><path d="M3 13l1-3.5 2.5 2.5z" '
    'fill="#5d4037"/>',
    "⚡": '<path d="M9 1L3 9h4l-1 6 6-8H8z" fill="#fbc02d"/>',
}

# An emoji, then the variation selector that asks for its picture form, if written.
_EMOJI = re.compile("(" + "|".join(map(re.escape, _SHAPES)) + ")\ufe0f?")


def picture(emoji: str) -> str:
    """The inline SVG of one emoji the bot uses (the character itself when unknown)."""
    shape = _SHAPES.get(emoji.rstrip("\ufe0f"))
    if shape is None:
        return emoji
    return (
        f'<svg class="drawn-emoji" viewBox="0 0 16 16" role="img" aria-label="{emoji}">'
        f"{shape}</svg>"
    )


def draw_emoji(html_text: str) -> str:
    """Escaped HTML text with every emoji the bot uses drawn as a picture."""
    return _EMOJI.sub(lambda m: picture(m.group(1)), html_text)


def plain_emoji(text: str) -> str:
    """Text with the emoji the bot uses left out, for places that can hold no picture (a
    select's options)."""
    return _EMOJI.sub("", text).strip()
