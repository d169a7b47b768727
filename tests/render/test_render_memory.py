"""The renderer's caches: each has a bound, all of them together stay within a few tens of MiB."""

from __future__ import annotations

import random
import threading
from dataclasses import replace

from PIL import Image

from bot.engine.cards import COLORS, Edition
from bot.render import (
    art,
    cache_report,
    cache_totals,
    render_hand,
    render_leaderboard,
    render_scores,
    render_table,
    warm_up,
)
from bot.render.cache import RENDER_BUDGET, BoundedCache, clear_caches, image_bytes
from bot.render.samples import sample_hand, sample_scores, sample_standings, sample_table
from bot.render.table import PILE_ANGLES

MIB = 1024 * 1024


def test_a_cache_drops_its_least_recently_used_entries_past_its_bounds() -> None:
    cache: BoundedCache[str, Image.Image] = BoundedCache("test lru", 3, 3000, image_bytes)
    tiles = {k: Image.new("L", (10, 100)) for k in "abcde"}  # 1,000 bytes each
    for key in "abc":
        cache.put(key, tiles[key])
    assert cache.get("a") is tiles["a"]  # now the most recent
    cache.put("d", tiles["d"])
    assert cache.get("b") is None and cache.get("a") is not None
    assert cache.stats().entries == 3 and cache.stats().bytes == 3000
    assert cache.put("big", Image.new("L", (100, 100))).size == (100, 100)  # returned, not kept
    assert cache.get("big") is None and cache.stats().bytes <= 3000
    made = cache.get_or_make("e", lambda: tiles["e"])
    assert made is tiles["e"] and cache.get_or_make("e", lambda: tiles["a"]) is tiles["e"]
    cache.clear()
    assert cache.stats().entries == 0 and cache.stats().bytes == 0
    del cache_report_registry()["test lru"]


def cache_report_registry() -> dict[str, object]:
    from bot.render import cache as module

    return module._REGISTRY  # type: ignore[return-value]


def test_every_picture_of_every_edition_stays_within_the_bounds() -> None:
    clear_caches()
    rng = random.Random(5)
    for edition in Edition:
        for code in (*art.edition_cards(edition), art.BACK):
            for width in art.STORE_WIDTHS:
                canvas = Image.new("RGB", art.sprite_size(width))
                art.paste_card(canvas, code, edition, width, canvas.width / 2, canvas.height / 2)
                if width == art.PILE_WIDTH:  # the discard pile's tilted cards
                    angle = rng.choice(PILE_ANGLES)
                    art.paste_card(canvas, code, edition, width, 40, 60, angle)
                art.card_face(code, edition, width, dim=True)
        for players in range(2, 11):
            for color in (COLORS[players % 4], None):
                view = sample_table(players, edition, color)
                seats = tuple(replace(s, name=f"{s.name} {rng.random()}") for s in view.seats)
                render_table(replace(view, seats=seats, draw_pile=rng.randint(0, 90)))
        for cards in range(1, 61):
            render_hand(replace(sample_hand(cards, edition), name=f"player {rng.random()}"))
        for players in range(2, 11):
            render_scores(sample_scores(players, edition))
        render_leaderboard(sample_standings(25), f"{edition.value} season", "wins")
        render_leaderboard([], None)
    report = cache_report()
    for stats in report.values():
        assert stats.entries <= stats.max_entries, stats
        assert stats.bytes <= stats.max_bytes, stats
    # The card sprites hold every card of every edition: nothing evicted, none drawn twice.
    cards = sum(len(art.edition_cards(e)) + 1 for e in Edition)
    assert report["card sprites"].entries == cards
    totals = cache_totals()
    assert totals.bytes <= totals.max_bytes <= RENDER_BUDGET <= 44 * MIB
    assert totals.bytes > 10 * MIB  # the caches are used, and counted


def test_warm_up_builds_only_the_editions_asked_for_and_runs_beside_renders() -> None:
    clear_caches()
    warm_up(editions=[Edition.SONIC])
    palettes = cache_report()["palettes"].entries
    assert palettes == 4  # table, hand and scoreboard of Sonic, and the leaderboard's
    warm_up(editions=["sonic"])
    assert cache_report()["palettes"].entries == palettes
    expected = [render_table(sample_table(n, Edition.MARIO)) for n in (3, 7)]
    clear_caches()
    worker = threading.Thread(target=warm_up)
    worker.start()
    got = [render_table(sample_table(n, Edition.MARIO)) for n in (3, 7)]
    worker.join()
    assert got == expected
    assert cache_report()["palettes"].entries == 10
    assert cache_totals().bytes < 16 * MIB


def test_a_text_is_kept_as_masks_that_paint_as_pillow_draws_it() -> None:
    from PIL import ImageChops, ImageDraw

    from bot.render.common import fitted_label
    from bot.render.fonts import font

    text, ink = "Ann · 7 cards", (250, 250, 250)
    label = fitted_label(text, 18, 300, 28)
    assert label.image.mode == "L" and label.outline is None  # a byte a pixel
    assert fitted_label(text, 18, 300, 28) is label  # one mask, any color
    sprite = Image.new("RGBA", label.image.size, (*ink, 0))
    ImageDraw.Draw(sprite).text(label.anchor, text, font=font(18, True), fill=ink, anchor="lm")
    for under in ((10, 80, 30), (10, 80, 30, 120)):
        mode = "RGB" if len(under) == 3 else "RGBA"
        painted = Image.new(mode, (340, 40), under)
        label.paint(painted, (5, 3), ink)
        pasted = Image.new(mode, (340, 40), under)
        pasted.paste(sprite, (5, 3), sprite)
        assert painted.tobytes() == pasted.tobytes()
    # Outlined: the outline's coverage beside the text's, two bytes a pixel in all.
    outlined = fitted_label(text, 18, 300, 28, stroke=2)
    assert outlined.image.mode == "L" and outlined.outline is not None
    assert outlined.outline.mode == "L" and outlined.outline.size == outlined.image.size
    painted = Image.new("RGB", (340, 40), (10, 80, 30))
    outlined.paint(painted, (5, 3), ink, (0, 0, 0))
    drawn = Image.new("RGB", (340, 40), (10, 80, 30))
    x, y = 5 + outlined.anchor[0], 3 + outlined.anchor[1]
    ImageDraw.Draw(drawn).text(
        (x, y), text, font=font(18, True), fill=ink, anchor="lm", stroke_width=2, stroke_fill=0
    )
    difference = ImageChops.difference(painted, drawn).convert("L")
    assert max(difference.getextrema()) <= 2  # the same pixels, give or take rounding
