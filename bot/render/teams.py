"""Team marks in the pictures: each team's color (the text's 🟥 🟦 🟩 🟨 🟪, in that order) on a
numbered badge, so a team reads by its number too where colors are hard to tell apart."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from .art import RGB, WHITE
from .common import mix, paste, put_text, sprite

# Team 1, 2, ... as the text marks them: red, blue, green, yellow, purple.
TEAM_COLORS: tuple[RGB, ...] = (
    (220, 48, 44),
    (36, 108, 224),
    (36, 164, 72),
    (242, 190, 16),
    (150, 76, 204),
)
_DARK: RGB = (24, 24, 28)
CHIP_WIDTH = 66  # a badge and a score
CHIP_GAP = 6


def team_color(team: int) -> RGB:
    """The color of ``team`` (0 is team 1)."""
    return TEAM_COLORS[team % len(TEAM_COLORS)]


def _badge(team: int, size: int) -> Image.Image:
    fill = team_color(team)
    img = Image.new("RGBA", (size, size), (*fill, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, size - 1, size - 1), radius=size // 4, fill=fill, outline=WHITE)
    ink = _DARK if sum(fill) > 420 else WHITE  # yellow takes dark ink
    put_text(img, (1, 1, size - 1, size - 1), str(team + 1), size - 7, ink, "center")
    return img


def team_badge(team: int, size: int = 20) -> Image.Image:
    """A rounded square in the team's color with its number, kept for the next picture."""
    return sprite(("team badge", team, size), lambda: _badge(team, size))


def team_outline(d: ImageDraw.ImageDraw, box: tuple[float, ...], team: int) -> None:
    """A seat plate's rim in its team's color."""
    d.rounded_rectangle(box, radius=12, outline=team_color(team), width=3)


def chips_width(teams: int) -> int:
    """How wide a row of ``teams`` score chips is."""
    return teams * CHIP_WIDTH + max(0, teams - 1) * CHIP_GAP


def team_chips(
    img: Image.Image, x: float, y: float, scores: Sequence[int], ink: RGB, size: int = 18
) -> None:
    """Each team's badge and score in a row from (x, y), its top-left corner."""
    for team, score in enumerate(scores):
        left = x + team * (CHIP_WIDTH + CHIP_GAP)
        back = mix(team_color(team), _DARK, 0.55)
        d = ImageDraw.Draw(img)
        d.rounded_rectangle(
            (left, y, left + CHIP_WIDTH, y + size + 2), radius=(size + 2) // 2, fill=back
        )
        paste(img, team_badge(team, size), left + 1, y + 1)
        put_text(
            img, (left + size + 4, y, left + CHIP_WIDTH - 5, y + size + 2), str(score), 14, ink
        )
