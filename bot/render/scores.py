"""render_scores: the round's points, the running totals toward the target and their chart."""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.engine.cards import Edition
from bot.engine.match import ScoreView

from . import art
from .art import GOLD, WHITE
from .common import encode_png, fixed_palette, mix, name_text, pill, stack, text, vertical_gradient

SCORES_WIDTH = 1000
HEADER = 64
ROW = 46
MARGIN = 20
CHART_BOX = (600, HEADER + 20, SCORES_WIDTH - MARGIN - 4, HEADER + 300)
# One line color per seat, apart from each other and from the felt.
SERIES = (
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
INK = (245, 245, 245)
MUTED = (150, 150, 150)


def scores_size(players: int) -> tuple[int, int]:
    """The picture size of a scoreboard of ``players`` seats."""
    return SCORES_WIDTH, max(HEADER + 44 + players * ROW + MARGIN, CHART_BOX[3] + 40)


def _order(view: ScoreView) -> list[int]:
    """Seats best first: highest total, or lowest under lowest scoring."""
    sign = 1 if view.scoring == "lowest" else -1
    return sorted(range(len(view.names)), key=lambda s: (sign * view.totals[s], s))


def _chart(d: ImageDraw.ImageDraw, view: ScoreView, panel: art.RGB) -> None:
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
    text(d, (x0 + 28, y1), "0", 13, INK, anchor="rm", bold=False)
    if view.target:
        ty = at(0, view.target)[1]
        for dash in range(x0 + 36, x1, 14):
            d.line((dash, ty, min(dash + 7, x1), ty), fill=GOLD, width=2)
        text(d, (x0 + 28, ty), str(view.target), 13, GOLD, anchor="rm")
    for r in range(rounds + 1):
        text(d, (at(r, 0)[0], y1 + 14), str(r), 13, INK, anchor="mm", bold=False)
    for s in range(n):
        color = SERIES[s % len(SERIES)] if view.active[s] else MUTED
        pts = [at(r, series[r][s]) for r in range(rounds + 1)]
        if len(pts) > 1:
            d.line(pts, fill=color, width=3, joint="curve")
        for px, py in pts:
            d.ellipse((px - 4, py - 4, px + 4, py + 4), fill=color)


def scores_image(view: ScoreView) -> Image.Image:
    """The scoreboard picture."""
    edition = Edition(view.edition)
    th = art.THEMES[edition]
    n = len(view.names)
    size = scores_size(n)
    img = vertical_gradient(size, mix(th.felt, WHITE, 0.05), th.felt_edge).copy()
    d = ImageDraw.Draw(img)
    rounds = len(view.rounds)
    title = f"Scores after round {rounds}" if rounds else "Scores"
    if view.target:
        title += f" · first to {view.target}"
    if view.scoring == "lowest":
        title += " · lowest wins"
    text(d, (MARGIN, HEADER / 2), title, 24, WHITE, anchor="lm")
    cols = (MARGIN + 34, 330, 420)
    hy = HEADER + 18
    text(d, (cols[0], hy), "Player", 15, (220, 220, 220), anchor="lm", bold=False)
    text(d, (cols[1], hy), "round" if rounds else "", 15, (220, 220, 220), anchor="mm", bold=False)
    text(d, (cols[2] + 60, hy), "total", 15, (220, 220, 220), anchor="mm", bold=False)
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
        d.ellipse((MARGIN + 4, y - 9, MARGIN + 22, y + 9), fill=color, outline=WHITE, width=2)
        label = name_text(view.names[s], 19, 220, fallback=f"Player {s + 1}")
        text(d, (cols[0], y), label, 19, ink, anchor="lm")
        if winner:
            d.polygon(
                art.star_points(cols[0] + art.font(19).getlength(label) + 16, y, 11),
                fill=GOLD,
                outline=(90, 60, 0),
            )
        if not active:
            text(d, (cols[1] + 40, y), "left", 14, MUTED, anchor="lm", bold=False)
        if last:
            points = last[s] if s < len(last) else 0
            mark = f"+{points}" if points else "·"
            tag = (cols[1] - 34, y - 13, cols[1] + 34, y + 13)
            if s == last_winner and points:
                pill(d, tag, GOLD)
                text(d, (cols[1], y + 1), mark, 16, (40, 30, 0), anchor="mm")
            else:
                text(d, (cols[1], y + 1), mark, 16, ink, anchor="mm")
        total = view.totals[s] if s < len(view.totals) else 0
        text(d, (cols[2] + 60, y), str(total), 21, ink, anchor="rm")
        if view.target:
            bx0, bx1 = cols[2] + 74, 570
            d.rounded_rectangle(
                (bx0, y - 6, bx1, y + 6), radius=6, fill=mix(th.felt_edge, (0, 0, 0), 0.5)
            )
            fill_w = (bx1 - bx0) * min(1.0, total / view.target)
            if fill_w >= 6:
                d.rounded_rectangle((bx0, y - 6, bx0 + fill_w, y + 6), radius=6, fill=color)
    _chart(d, view, mix(th.felt_edge, (0, 0, 0), 0.35))
    return img


def _palette_source(edition: Edition) -> Image.Image:
    from .samples import sample_scores  # only on the first scoreboard of an edition

    return stack([scores_image(sample_scores(n, edition)) for n in (10, 3)])


def render_scores(view: ScoreView) -> bytes:
    """The scoreboard as PNG bytes."""
    edition = Edition(view.edition)
    th = art.THEMES[edition]
    palette = fixed_palette(
        ("scores", edition),
        lambda: _palette_source(edition),
        (WHITE, (0, 0, 0), GOLD, *SERIES, MUTED, th.accent),
    )
    return encode_png(scores_image(view), palette)
