"""render_scores: the round's points, the running totals toward the target and their chart."""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.engine.cards import Edition
from bot.engine.match import ScoreView

from . import art
from .art import GOLD, RGB, WHITE
from .common import (
    cached_pill,
    encode_png,
    fixed_palette,
    mix,
    paste,
    player_name,
    put_text,
    stack,
    vertical_gradient,
)
from .teams import TEAM_COLORS, chips_width, team_badge, team_chips
from .words import ENGLISH, Words

SCORES_WIDTH = 1000
HEADER = 64
ROW = 46
MARGIN = 20
CHART_BOX = (600, HEADER + 20, SCORES_WIDTH - MARGIN - 4, HEADER + 300)
COLUMNS = (MARGIN + 34, 330, 420)  # name, round points, total
NAME_WIDTH = 220
BAR_RIGHT = 570
# One line color per seat, apart from each other and from the felt.
SERIES: tuple[RGB, ...] = (
    (255, 99, 71),
    (255, 215, 0),
    (80, 220, 100),
    (60, 160, 255),
    (238, 130, 238),
    (255, 150, 40),
    (0, 220, 220),
    (245, 245, 245),
    (210, 150, 90),
    (170, 215, 60),
)
INK: RGB = (245, 245, 245)
HEADING: RGB = (220, 220, 220)
MUTED: RGB = (150, 150, 150)


def scores_size(players: int) -> tuple[int, int]:
    """The picture size of a scoreboard of ``players`` seats."""
    return SCORES_WIDTH, max(HEADER + 44 + players * ROW + MARGIN, CHART_BOX[3] + 40)


def _order(view: ScoreView) -> list[int]:
    """Seats best first: highest total, or lowest under lowest scoring."""
    sign = 1 if view.scoring == "lowest" else -1
    return sorted(range(len(view.names)), key=lambda s: (sign * view.totals[s], s))


def _chart(img: Image.Image, d: ImageDraw.ImageDraw, view: ScoreView, panel: RGB) -> None:
    x0, y0, x1, y1 = CHART_BOX
    d.rounded_rectangle(
        (x0 - 14, y0 - 14, x1 + 14, y1 + 34),
        radius=14,
        fill=panel,
        outline=(200, 200, 200),
        width=1,
    )
    n = len(view.names)
    series = [[0] * n]
    for points in view.rounds:
        prev = series[-1]
        series.append([prev[s] + (points[s] if s < len(points) else 0) for s in range(n)])
    top = max([view.target or 0, *(v for row in series for v in row), 10]) * 1.08
    rounds = len(series) - 1

    def at(r: int, value: float) -> tuple[float, float]:
        x = x0 + 34 + (x1 - x0 - 44) * (r / max(1, rounds))
        return x, y1 - (y1 - y0) * value / top

    d.line((x0 + 34, y0, x0 + 34, y1), fill=(220, 220, 220), width=2)
    d.line((x0 + 34, y1, x1, y1), fill=(220, 220, 220), width=2)
    put_text(img, (x0 - 14, y1 - 9, x0 + 30, y1 + 9), "0", 13, INK, "right", bold=False)
    if view.target:
        ty = at(0, view.target)[1]
        for dash in range(x0 + 36, x1, 14):
            d.line((dash, ty, min(dash + 7, x1), ty), fill=GOLD, width=2)
        put_text(img, (x0 - 14, ty - 9, x0 + 30, ty + 9), str(view.target), 13, GOLD, "right")
    step = max(1, rounds // 20)  # a tick every round, or fewer on a long match
    for r in range(0, rounds + 1, step):
        x = at(r, 0)[0]
        put_text(img, (x - 16, y1 + 5, x + 16, y1 + 23), str(r), 13, INK, "center", bold=False)
    for s in range(n):
        color = SERIES[s % len(SERIES)] if view.active[s] else MUTED
        pts = [at(r, series[r][s]) for r in range(rounds + 1)]
        if len(pts) > 1:
            d.line(pts, fill=color, width=3, joint="curve")
        for px, py in pts:
            d.ellipse((px - 4, py - 4, px + 4, py + 4), fill=color)


def _title(view: ScoreView, words: Words) -> str:
    rounds = len(view.rounds)
    parts = [words.scores_after.format(n=rounds) if rounds else words.scores]
    if view.target:
        goal = words.ends_at if view.scoring == "lowest" else words.first_to
        parts.append(goal.format(target=view.target))
    if view.scoring == "lowest":
        parts.append(words.lowest_wins)
    return " · ".join(parts)


def scores_image(view: ScoreView, words: Words = ENGLISH) -> Image.Image:
    """The scoreboard picture."""
    edition = Edition(view.edition)
    th = art.theme(edition)
    n = len(view.names)
    size = scores_size(n)
    img = vertical_gradient(size, mix(th.felt, WHITE, 0.05), th.felt_edge)
    d = ImageDraw.Draw(img)
    rounds = len(view.rounds)
    title_right = SCORES_WIDTH - MARGIN
    if view.teams and view.team_totals:
        # Each team's total toward the target, at the right of the title.
        width = chips_width(len(view.team_totals))
        title_right -= width + 12
        team_chips(img, SCORES_WIDTH - MARGIN - width, HEADER / 2 - 10, view.team_totals, INK)
    put_text(img, (MARGIN, 12, title_right, HEADER - 12), _title(view, words), 24, WHITE)
    name_x, round_x, total_x = COLUMNS
    hy = HEADER + 18
    heading = (hy - 10, hy + 10)
    put_text(
        img,
        (name_x, heading[0], name_x + NAME_WIDTH, heading[1]),
        words.player_column,
        15,
        HEADING,
        bold=False,
    )
    if rounds:
        put_text(
            img,
            (round_x - 44, heading[0], round_x + 44, heading[1]),
            words.round_column,
            15,
            HEADING,
            "center",
            bold=False,
        )
    put_text(
        img,
        (total_x, heading[0], total_x + 120, heading[1]),
        words.total_column,
        15,
        HEADING,
        "center",
        bold=False,
    )
    last = view.rounds[-1] if view.rounds else ()
    last_winner = view.round_winners[-1] if view.round_winners else None
    for row, s in enumerate(_order(view)):
        y = HEADER + 44 + row * ROW + ROW / 2
        active = view.active[s] if s < len(view.active) else True
        winner = s in view.winners
        if winner:
            d.rounded_rectangle(
                (MARGIN - 6, y - ROW / 2 + 3, 576, y + ROW / 2 - 3),
                radius=12,
                fill=mix(th.accent, th.felt_edge, 0.45),
            )
        ink = INK if active else MUTED
        color = SERIES[s % len(SERIES)] if active else MUTED
        if view.teams:  # the seat's team badge instead of its chart color
            paste(img, team_badge(s % view.teams), MARGIN + 3, y - 10)
        else:
            d.ellipse((MARGIN + 4, y - 9, MARGIN + 22, y + 9), fill=color, outline=WHITE, width=2)
        label = player_name(view.names[s], words.player_name(s))
        drawn = put_text(img, (name_x, y - 13, name_x + NAME_WIDTH, y + 13), label, 18, ink)
        if winner:
            d.polygon(art.star_points(drawn[2] + 14, y, 11), fill=GOLD, outline=(90, 60, 0))
        if not active:
            put_text(
                img, (round_x + 38, y - 10, total_x + 10, y + 10), words.left, 13, MUTED, bold=False
            )
        if last:
            points = last[s] if s < len(last) else 0
            mark = f"+{points}" if points else "·"
            if s == last_winner and points:
                paste(img, cached_pill((68, 26), GOLD), round_x - 34, y - 13)
                put_text(
                    img,
                    (round_x - 32, y - 12, round_x + 32, y + 12),
                    mark,
                    16,
                    (40, 30, 0),
                    "center",
                )
            else:
                put_text(img, (round_x - 34, y - 12, round_x + 34, y + 12), mark, 16, ink, "center")
        total = view.totals[s] if s < len(view.totals) else 0
        put_text(img, (total_x - 10, y - 13, total_x + 60, y + 13), str(total), 20, ink, "right")
        if view.target:
            bx0, bx1 = total_x + 74, BAR_RIGHT
            d.rounded_rectangle(
                (bx0, y - 6, bx1, y + 6), radius=6, fill=mix(th.felt_edge, (0, 0, 0), 0.5)
            )
            fill_w = (bx1 - bx0) * min(1.0, max(0, total) / view.target)
            if fill_w >= 6:
                d.rounded_rectangle((bx0, y - 6, bx0 + fill_w, y + 6), radius=6, fill=color)
    _chart(img, d, view, mix(th.felt_edge, (0, 0, 0), 0.35))
    return img


def _palette_source(edition: Edition) -> Image.Image:
    from .samples import sample_scores  # only on the first scoreboard of an edition

    return stack([scores_image(sample_scores(n, edition)) for n in (10, 3)])


def scores_palette(edition: Edition) -> Image.Image:
    """The fixed palette of an edition's scoreboards."""
    th = art.theme(edition)
    return fixed_palette(
        ("scores", edition),
        lambda: _palette_source(edition),
        (WHITE, (0, 0, 0), GOLD, *SERIES, MUTED, th.accent, *TEAM_COLORS),
    )


def render_scores(view: ScoreView, *, words: Words = ENGLISH) -> bytes:
    """The scoreboard as PNG bytes."""
    return encode_png(scores_image(view, words), scores_palette(Edition(view.edition)))
