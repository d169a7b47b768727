"""Every word in the pictures comes from Words, fits its box in any language, and has glyphs."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

import pytest
from PIL import Image, ImageDraw

from bot.engine.cards import Edition
from bot.render import common, fonts, hand, leaderboard, scores, table, warm_up
from bot.render.cache import clear_caches
from bot.render.samples import (
    sample_hand,
    sample_scores,
    sample_standings,
    sample_table,
)
from bot.render.table import TABLE_SIZE, plate_box
from bot.render.words import ENGLISH, Words, text_fields
from tests.render.helpers import CYRILLIC_NAMES, render_everything

PLACEHOLDER = re.compile(r"(\{[^}]*\})")


def translated(change: Callable[[str], str]) -> Words:
    """ENGLISH with ``change`` applied to every text outside its placeholders."""

    def text(value: str) -> str:
        return "".join(
            p if PLACEHOLDER.fullmatch(p) else change(p) for p in PLACEHOLDER.split(value)
        )

    plural = ENGLISH.cards
    return replace(
        ENGLISH,
        **{name: text(getattr(ENGLISH, name)) for name in text_fields()},
        cards=lambda n: text(plural(n)),
    )


@pytest.fixture
def fresh_sprites() -> None:
    """Palettes built first (from the English samples), then every text drawn anew."""
    warm_up()
    clear_caches("texts", "sprites", "hand numbers", "names")


@pytest.mark.usefixtures("fresh_sprites")
def test_every_drawn_word_comes_from_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """With every letter of Words replaced and names in Cyrillic, no Latin letter is drawn."""
    drawn: list[str] = []
    real_text = ImageDraw.ImageDraw.text

    def record(
        self: ImageDraw.ImageDraw, xy: object, text: str, *args: object, **kwargs: object
    ) -> None:
        drawn.append(text)
        real_text(self, xy, text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", record)
    words = translated(lambda s: re.sub(r"[A-Za-z]", "ж", s))
    render_everything(words, CYRILLIC_NAMES, "Сезон 2")
    assert len(drawn) > 100
    assert [t for t in drawn if re.search(r"[A-Za-z]", t)] == []


def long_german(s: str) -> str:
    """About twice the English length, with German's capital sharp s and umlauts."""
    return re.sub(r"[A-Za-z]+", lambda m: m.group(0) + "ẞäö" + m.group(0).lower(), s)


@pytest.mark.usefixtures("fresh_sprites")
def test_long_translations_stay_inside_their_boxes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every text is fitted to its box, and a seat's texts stay on its plate."""
    placed: list[tuple[tuple[float, float, float, float], tuple[int, int, int, int], str, int]] = []
    real_put = common.put_text

    def put(
        dest: Image.Image,
        box: tuple[float, float, float, float],
        text: str,
        *args: object,
        **kwargs: object,
    ) -> tuple[int, int, int, int]:
        ink = real_put(dest, box, text, *args, **kwargs)  # type: ignore[arg-type]
        placed.append((box, ink, text, dest.width))
        x0, y0, x1, y1 = box
        assert x0 - 1 <= ink[0] and ink[2] <= x1 + 1, (text, box, ink)
        assert y0 - 1 <= ink[1] and ink[3] <= y1 + 1, (text, box, ink)
        assert ink[0] >= 0 and ink[2] <= dest.width and ink[1] >= 0 and ink[3] <= dest.height
        return ink

    for module in (common, table, hand, scores, leaderboard):
        monkeypatch.setattr(module, "put_text", put)
    names = ("Maximilian-Alexander von Hohenzollern-Sigmaringen", "ẞtraße Äöü", *CYRILLIC_NAMES)
    render_everything(translated(long_german), names, "Rangliste der Saison 2 · nach Siegen" * 3)
    assert len(placed) > 500
    assert any(text.endswith("…") for _, _, text, _ in placed)  # the long names were cut


@pytest.mark.parametrize("players", range(2, 11))
@pytest.mark.usefixtures("fresh_sprites")
def test_seat_texts_stay_on_their_plates(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    boxes: list[tuple[float, float, float, float]] = []
    real_put = common.put_text

    def put(
        dest: Image.Image, box: tuple[float, float, float, float], *args: object, **kwargs: object
    ) -> tuple[int, int, int, int]:
        ink = real_put(dest, box, *args, **kwargs)  # type: ignore[arg-type]
        if dest.size == TABLE_SIZE:
            boxes.append(ink)
        return ink

    monkeypatch.setattr(table, "put_text", put)
    words = translated(long_german)
    base = sample_table(players, Edition.CLASSIC)
    seats = tuple(replace(s, name="Maximilian-Alexander von Hohenzollern") for s in base.seats)
    table.render_table(replace(base, seats=seats), words=words)
    plates = [plate_box(i, players) for i in range(players)]
    on_plates = [
        b
        for b in boxes
        if any(
            p[0] <= (b[0] + b[2]) / 2 <= p[2] and p[1] <= (b[1] + b[3]) / 2 <= p[3] for p in plates
        )
    ]
    assert len(on_plates) >= 2 * players  # a name and a count on every plate
    for ink in on_plates:
        assert any(
            p[0] <= ink[0] and ink[2] <= p[2] and p[1] <= ink[1] and ink[3] <= p[3] for p in plates
        ), ink


ALPHABETS = {
    "German": "äöüßẞÄÖÜ",
    "French": "àâæçéèêëîïôœùûüÿÀÂÆÇÉÈÊËÎÏÔŒÙÛÜŸ«»",
    "Spanish": "áéíñóúüÁÉÍÑÓÚÜ¿¡",
    "Brazilian Portuguese": "áâãàçéêíóôõúüÁÂÃÀÇÉÊÍÓÔÕÚÜ",
    "Italian": "àèéìíîòóùúÀÈÉÌÍÎÒÓÙÚ",
    "Polish": "ąćęłńóśźżĄĆĘŁŃÓŚŹŻ",
    "Dutch": "áéíóúàèëïöüĳĲ",
    "Russian": "абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ",
    "Turkish": "çğıİöşüÇĞÖŞÜ",
}


@pytest.mark.parametrize("language", list(ALPHABETS))
@pytest.mark.parametrize("bold", [True, False])
def test_the_shipped_fonts_draw_every_letter_of_each_language(language: str, bold: bool) -> None:
    letters = ALPHABETS[language] + "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    assert [ch for ch in letters if not fonts.has_glyph(ch, bold)] == []
    assert fonts.safe_text(letters, bold) == letters


def test_english_is_the_default_and_every_function_takes_words() -> None:
    assert Words() == ENGLISH
    german = replace(ENGLISH, to_play="{name} ist dran", round_number="Runde {n}")
    view = sample_table(4, Edition.SONIC)
    assert table.render_table(view, words=german) != table.render_table(view)
    assert table.render_table(view, words=ENGLISH) == table.render_table(view)
    assert hand.render_hand(
        sample_hand(3), words=replace(ENGLISH, color="Farbe")
    ) != hand.render_hand(sample_hand(3))
    board = sample_scores(3)
    assert scores.render_scores(
        board, words=replace(ENGLISH, total_column="gesamt")
    ) != scores.render_scores(board)
    lines = sample_standings(3)
    assert leaderboard.render_leaderboard(
        lines, words=replace(ENGLISH, wins_column="Siege")
    ) != leaderboard.render_leaderboard(lines)


def test_the_scoreboard_title_says_how_the_match_ends_under_each_scoring() -> None:
    view = sample_scores()
    standard = replace(view, scoring="standard", target=500)
    lowest = replace(view, scoring="lowest", target=100)
    assert scores._title(standard, ENGLISH).endswith("· first to 500")
    assert scores._title(lowest, ENGLISH).endswith("· ends at 100 · lowest total wins")
