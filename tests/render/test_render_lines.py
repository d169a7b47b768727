"""Lines set from parts: a player's name drawn once serves every line it is part of."""

from __future__ import annotations

from PIL import Image, ImageChops

from bot.render.cache import cache_report, clear_caches
from bot.render.common import name_parts, put_parts, put_text

FELT = (20, 90, 40)
WHITE = (255, 255, 255)
BOX = (10.0, 4.0, 390.0, 30.0)


def canvas() -> Image.Image:
    return Image.new("RGB", (400, 34), FELT)


def test_a_template_splits_around_the_name() -> None:
    assert name_parts("{name} to play", "Ann") == ("", "Ann", " to play")
    assert name_parts("Au tour de {name} ({n})", "Zoë", n=3) == ("Au tour de ", "Zoë", " (3)")
    assert name_parts("{name} · {cards}", "Bo", cards="7 cards") == ("", "Bo", " · 7 cards")
    assert name_parts("Nobody", "Bo") == ("Nobody",)


def test_a_name_is_drawn_once_for_every_line_it_is_part_of() -> None:
    clear_caches()
    put_parts(canvas(), BOX, name_parts("{name} to play", "Ann"), 16, WHITE, stroke=3)
    assert cache_report()["texts"].entries == 2  # "Ann" and " to play"
    put_parts(canvas(), BOX, name_parts("{name} picks a color", "Ann"), 16, WHITE, stroke=3)
    assert cache_report()["texts"].entries == 3  # only the new words were drawn
    put_parts(canvas(), BOX, name_parts("{name} to play", "Bo"), 16, WHITE, stroke=3)
    assert cache_report()["texts"].entries == 4  # only the new name


def test_a_line_of_parts_paints_as_the_whole_line() -> None:
    for align in ("left", "center", "right"):
        parts, whole = canvas(), canvas()
        ink = put_parts(parts, BOX, ("", "Ann", " · 7 cards"), 18, WHITE, align)
        assert ink == put_text(whole, BOX, "Ann · 7 cards", 18, WHITE, align)
        assert parts.tobytes() == whole.tobytes()


def test_an_outline_never_covers_the_letters_beside_it() -> None:
    # No space between the parts: the second part's outline reaches into the first's letters
    # unless every outline is painted before any letter.
    parts, whole = canvas(), canvas()
    put_parts(parts, BOX, ("", "Ann", "'s turn"), 16, WHITE, "center", stroke=3)
    put_text(whole, BOX, "Ann's turn", 16, WHITE, "center", stroke=3)
    difference = ImageChops.difference(parts, whole).convert("L")
    assert max(difference.getextrema()) <= 40  # a pixel of kerning at most, never a letter
    white = sum(1 for p in parts.convert("L").get_flattened_data() if p > 240)
    assert white >= 0.95 * sum(1 for p in whole.convert("L").get_flattened_data() if p > 240)


def test_a_line_too_long_for_its_box_is_fitted_whole() -> None:
    long_name = "Maximilian-Alexander von Hohenzollern-Sigmaringen"
    parts, whole = canvas(), canvas()
    line = name_parts("{name} to play", long_name)
    ink = put_parts(parts, (10, 4, 200, 30), line, 16, WHITE, "center", stroke=3)
    expected = put_text(whole, (10, 4, 200, 30), "".join(line), 16, WHITE, "center", stroke=3)
    assert ink == expected and parts.tobytes() == whole.tobytes()
    assert ink[0] >= 9 and ink[2] <= 201
