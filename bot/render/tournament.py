"""A tournament's pictures: the standings and the knockout's bracket (pure, from plain data)."""

from __future__ import annotations

from collections.abc import Sequence

from .art import RGB
from .common import encode_png, player_name, put_text, vertical_gradient
from .leaderboard import INK, MEDALS, MUTED

WIDTH = 720
HEADER = 64
ROW = 40
MARGIN = 20
FIRE: RGB = (255, 140, 40)
TOP: RGB = (22, 70, 52)
BOTTOM: RGB = (10, 34, 26)
CELL_W = 220
CELL_ROW = 30


def render_standings(
    title: str, lines: Sequence[tuple[int, str, int, int, bool]], *, limit: int = 20
) -> bytes:
    """Standings as a picture: (rank, name, points, games, on fire) per line, best first."""
    shown = list(lines)[:limit]
    height = HEADER + max(1, len(shown)) * ROW + MARGIN
    img = vertical_gradient((WIDTH, height), TOP, BOTTOM)
    put_text(img, (MARGIN, 10, WIDTH - MARGIN, HEADER - 10), title, 32, INK, "center")
    for index, (rank, name, points, games, on_fire) in enumerate(shown):
        y = HEADER + index * ROW
        color = MEDALS[rank - 1] if rank <= len(MEDALS) else MUTED
        put_text(img, (MARGIN, y, MARGIN + 50, y + ROW), str(rank), 24, color, "right")
        drawn = player_name(name, "?")
        put_text(img, (MARGIN + 70, y, 470, y + ROW), drawn, 24, INK)
        put_text(img, (480, y, 560, y + ROW), f"{games}", 22, MUTED, "right")
        points_color = FIRE if on_fire else INK
        put_text(img, (580, y, WIDTH - MARGIN, y + ROW), f"{points}", 26, points_color, "right")
    return encode_png(img)


def render_bracket(title: str, rounds: Sequence[Sequence[Sequence[str]]]) -> bytes:
    """A knockout's bracket: per round, per table, its players' names in finishing order (the
    first two, who went on, in white)."""
    tallest = max((sum(len(t) + 1 for t in r) for r in rounds), default=1)
    width = MARGIN * 2 + max(1, len(rounds)) * (CELL_W + MARGIN)
    height = HEADER + tallest * CELL_ROW + MARGIN
    img = vertical_gradient((max(width, 320), height), TOP, BOTTOM)
    put_text(img, (MARGIN, 10, img.width - MARGIN, HEADER - 10), title, 30, INK, "center")
    for column, tables in enumerate(rounds):
        x = MARGIN + column * (CELL_W + MARGIN)
        y = HEADER
        for names in tables:
            for place, name in enumerate(names):
                color = INK if place < 2 else MUTED
                if column == len(rounds) - 1 and place < len(MEDALS):
                    color = MEDALS[place]
                box = (x, y, x + CELL_W, y + CELL_ROW)
                put_text(img, box, f"{place + 1}. {player_name(name, '?')}", 20, color)
                y += CELL_ROW
            y += CELL_ROW
    return encode_png(img)
