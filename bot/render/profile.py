"""render_profile: a player's card: rating over time, wins per edition, streaks, achievements.

A pure function of a ProfileView whose texts arrive translated; every text is fitted to its
box, so a longer language shrinks or ends with an ellipsis instead of leaving the card.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from .art import GOLD, RGB, WHITE
from .common import encode_png, player_name, put_text, vertical_gradient

PROFILE_SIZE = (800, 440)
MARGIN = 20
CHART_BOX = (MARGIN, 92, 470, 300)  # the rating chart's frame
EDITIONS_BOX = (490, 92, 780, 300)
BADGES_TOP = 372
BADGE_SIZE = (146, 26)
TOP: RGB = (36, 40, 52)
BOTTOM: RGB = (18, 20, 28)
PANEL: RGB = (46, 51, 66)
INK: RGB = (240, 240, 240)
MUTED: RGB = (150, 156, 170)
LINE: RGB = (255, 204, 51)
GRID: RGB = (70, 76, 94)
EARNED: RGB = (66, 160, 96)
UNEARNED: RGB = (64, 68, 82)
EDITION_INK: dict[str, RGB] = {
    "classic": (226, 32, 40),
    "sonic": (40, 110, 230),
    "mario": (250, 190, 20),
}

Box = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class EditionLine:
    """One edition's row: its name as shown, matches and wins."""

    edition: str
    label: str  # translated
    matches: int
    wins: int


@dataclass(frozen=True, slots=True)
class ProfileView:
    """Everything a profile card shows, its words already in the reader's language."""

    name: str
    title: str  # e.g. "Rating 1034 · 42 matches · 17 wins"
    chart_title: str
    history: tuple[int, ...]  # display ratings after each rated match, oldest first
    no_history: str  # what the chart says with fewer than two points
    editions_title: str
    editions: tuple[EditionLine, ...]
    streaks: str  # e.g. "Win streak: 3 · best 7"
    achievements_title: str
    achievements: tuple[tuple[str, bool], ...]  # (label, earned)


def _panel(d: ImageDraw.ImageDraw, box: Box) -> None:
    d.rounded_rectangle(box, radius=10, fill=PANEL)


def _chart(img: Image.Image, d: ImageDraw.ImageDraw, view: ProfileView, boxes: list[Box]) -> None:
    x0, y0, x1, y1 = CHART_BOX
    _panel(d, CHART_BOX)
    boxes.append(put_text(img, (x0 + 12, y0 + 6, x1 - 12, y0 + 30), view.chart_title, 15, MUTED))
    inner = (x0 + 52, y0 + 40, x1 - 16, y1 - 18)
    points = view.history
    if len(points) < 2:
        box = (inner[0], inner[1], inner[2], inner[3])
        boxes.append(put_text(img, box, view.no_history, 14, MUTED, "center"))
        return
    low, high = min(points), max(points)
    if high == low:
        low, high = low - 10, high + 10
    for value, y in ((high, inner[1]), (low, inner[3])):
        d.line((inner[0], y, inner[2], y), fill=GRID, width=1)
        boxes.append(
            put_text(img, (x0 + 6, y - 9, inner[0] - 6, y + 9), str(value), 12, MUTED, "right")
        )
    span = inner[2] - inner[0]
    step = span / (len(points) - 1)
    line = [
        (inner[0] + i * step, inner[3] - (p - low) / (high - low) * (inner[3] - inner[1]))
        for i, p in enumerate(points)
    ]
    d.line(line, fill=LINE, width=3, joint="curve")
    end = line[-1]
    d.ellipse((end[0] - 5, end[1] - 5, end[0] + 5, end[1] + 5), fill=WHITE)


def _editions(
    img: Image.Image, d: ImageDraw.ImageDraw, view: ProfileView, boxes: list[Box]
) -> None:
    x0, y0, x1, _ = EDITIONS_BOX
    _panel(d, EDITIONS_BOX)
    boxes.append(put_text(img, (x0 + 12, y0 + 6, x1 - 12, y0 + 30), view.editions_title, 15, MUTED))
    most = max([line.matches for line in view.editions] + [1])
    for row, line in enumerate(view.editions):
        top = y0 + 44 + row * 52
        ink = EDITION_INK.get(line.edition, GOLD)
        boxes.append(put_text(img, (x0 + 12, top, x1 - 90, top + 20), line.label, 15, INK))
        score = f"{line.wins} / {line.matches}"
        boxes.append(put_text(img, (x1 - 90, top, x1 - 12, top + 20), score, 15, INK, "right"))
        bar = (x0 + 12, top + 26, x1 - 12, top + 36)
        d.rounded_rectangle(bar, radius=5, fill=GRID)
        width = bar[2] - bar[0]
        played = bar[0] + width * line.matches / most
        won = bar[0] + width * line.wins / most
        if line.matches:
            d.rounded_rectangle((bar[0], bar[1], played, bar[3]), radius=5, fill=UNEARNED)
        if line.wins:
            d.rounded_rectangle((bar[0], bar[1], max(won, bar[0] + 10), bar[3]), radius=5, fill=ink)


def _badges(img: Image.Image, d: ImageDraw.ImageDraw, view: ProfileView, boxes: list[Box]) -> None:
    boxes.append(
        put_text(
            img,
            (MARGIN, BADGES_TOP - 30, PROFILE_SIZE[0] - MARGIN, BADGES_TOP - 6),
            view.achievements_title,
            15,
            MUTED,
        )
    )
    w, h = BADGE_SIZE
    per_row = (PROFILE_SIZE[0] - 2 * MARGIN + 8) // (w + 8)
    for index, (label, earned) in enumerate(view.achievements):
        row, col = divmod(index, per_row)
        x = MARGIN + col * (w + 8)
        y = BADGES_TOP + row * (h + 8)
        box = (x, y, x + w, y + h)
        d.rounded_rectangle(box, radius=h // 2, fill=EARNED if earned else UNEARNED)
        text = ("★ " if earned else "") + label
        boxes.append(
            put_text(
                img,
                (x + 8, y + 1, x + w - 8, y + h - 1),
                text,
                12,
                INK if earned else MUTED,
                "center",
            )
        )


def profile_image(view: ProfileView) -> tuple[Image.Image, list[Box]]:
    """The card and the boxes its texts were drawn in (for checks that nothing leaves it)."""
    img = vertical_gradient(PROFILE_SIZE, TOP, BOTTOM)
    d = ImageDraw.Draw(img)
    boxes: list[Box] = []
    name = player_name(view.name, "?")
    boxes.append(put_text(img, (MARGIN, 14, PROFILE_SIZE[0] - MARGIN, 48), name, 28, WHITE))
    boxes.append(put_text(img, (MARGIN, 50, PROFILE_SIZE[0] - MARGIN, 76), view.title, 17, GOLD))
    _chart(img, d, view, boxes)
    _editions(img, d, view, boxes)
    streak_box = (MARGIN, 308, PROFILE_SIZE[0] - MARGIN, 332)
    boxes.append(put_text(img, streak_box, view.streaks, 16, INK))
    _badges(img, d, view, boxes)
    return img, boxes


def render_profile(view: ProfileView) -> bytes:
    """The profile card as PNG bytes."""
    return encode_png(profile_image(view)[0])
