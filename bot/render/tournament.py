"""A tournament's pictures: the standings and the knockout's bracket (pure, from plain data)."""

from __future__ import annotations

from collections.abc import Sequence

from .art import RGB
from .common import encode_png, paste, player_name, put_text, vertical_gradient
from .leaderboard import INK, MEDALS, MUTED
from .teams import team_badge

WIDTH = 720
HEADER = 64
ROW = 40
MARGIN = 20
FIRE: RGB = (255, 140, 40)
TOP: RGB = (22, 70, 52)
BOTTOM: RGB = (10, 34, 26)
CELL_W = 220
CELL_ROW = 30
TEAM_CELL_W = 300  # a team's two names
BADGE = 20


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


def render_bracket(
    title: str,
    rounds: Sequence[Sequence[Sequence[str]]],
    marks: Sequence[Sequence[Sequence[int]]] = (),
    advance: int = 2,
    podium: bool = True,
    playing: int = 0,
) -> bytes:
    """A knockout's bracket: per round, per table, its entries' names in finishing order (the
    first ``advance``, who went on, in white; the last round's in medal colors once it is the
    ``podium``); ``marks``, when given, the team of each entry at its table, drawn as its badge
    (a team knockout, whose entries are teams); the last round's last ``playing`` tables are
    still playing: their entries in seat order, unnumbered."""
    tallest = max((sum(len(t) + 1 for t in r) for r in rounds), default=1)
    cell = TEAM_CELL_W if marks else CELL_W
    width = MARGIN * 2 + max(1, len(rounds)) * (cell + MARGIN)
    height = HEADER + tallest * CELL_ROW + MARGIN
    img = vertical_gradient((max(width, 320), height), TOP, BOTTOM)
    put_text(img, (MARGIN, 10, img.width - MARGIN, HEADER - 10), title, 30, INK, "center")
    for column, tables in enumerate(rounds):
        x = MARGIN + column * (cell + MARGIN)
        y = HEADER
        last = column == len(rounds) - 1
        for index, names in enumerate(tables):
            live = last and index >= len(tables) - playing
            for place, name in enumerate(names):
                color = INK if place < advance or live else MUTED
                if podium and last and place < len(MEDALS):
                    color = MEDALS[place]
                number = "" if live else f"{place + 1}."
                left = x
                if marks:
                    team = marks[column][index][place]
                    badge = team_badge(team, BADGE)
                    paste(img, badge, x + 26, y + (CELL_ROW - BADGE) / 2)
                    put_text(img, (x, y, x + 24, y + CELL_ROW), number, 20, color)
                    left = x + 26 + BADGE + 6
                    label = player_name(name, "?")
                else:
                    label = f"{number} {player_name(name, '?')}".lstrip()
                put_text(img, (left, y, x + cell, y + CELL_ROW), label, 20, color)
                y += CELL_ROW
            y += CELL_ROW
    return encode_png(img)
