"""Every picture drawn in every language: each text inside its box or plate (the longest
translations shrink or are cut, never run out), and every letter in the shipped fonts."""

from __future__ import annotations

from dataclasses import fields

import pytest
from PIL import Image

from bot.i18n import SUPPORTED, TRANSLATED, lang
from bot.i18n.catalog import po_path, read_catalog
from bot.i18n.pictures import picture_words
from bot.render import common, fonts, hand, leaderboard, scores, table, warm_up
from bot.render.cache import clear_caches
from bot.render.words import ENGLISH, Words, text_fields
from tests.render.helpers import CYRILLIC_NAMES, render_everything

Box = tuple[float, float, float, float]


def all_words(words: Words) -> list[str]:
    texts = [getattr(words, name) for name in text_fields()]
    return texts + [words.cards(n) for n in (0, 1, 2, 3, 5, 11, 21, 22, 25, 101)]


def test_words_has_no_text_the_catalogue_misses() -> None:
    """Every text field of Words is built from the catalogue (the plural function too)."""
    assert {f.name for f in fields(Words)} == {*text_fields(), "cards"}
    german = picture_words(lang("de"))
    for name in text_fields():
        assert getattr(german, name) == lang("de").gettext(getattr(ENGLISH, name))


@pytest.mark.parametrize("code", SUPPORTED)
@pytest.mark.usefixtures("fresh_sprites")
def test_every_picture_fits_in_every_language(code: str, monkeypatch: pytest.MonkeyPatch) -> None:
    placed: list[str] = []
    real_put = common.put_text

    def put(dest: Image.Image, box: Box, text: str, *args: object, **kwargs: object) -> object:
        ink = real_put(dest, box, text, *args, **kwargs)  # type: ignore[arg-type]
        x0, y0, x1, y1 = box
        assert x0 - 1 <= ink[0] and ink[2] <= x1 + 1, (code, text, box, ink)
        assert y0 - 1 <= ink[1] and ink[3] <= y1 + 1, (code, text, box, ink)
        assert ink[0] >= 0 and ink[2] <= dest.width and ink[1] >= 0 and ink[3] <= dest.height
        placed.append(text)
        return ink

    for module in (common, table, hand, scores, leaderboard):
        monkeypatch.setattr(module, "put_text", put)
    words = picture_words(lang(code))
    names = ("Maximilian-Alexander von Hohenzollern", "ẞtraße Äöü Łódź Çığ", *CYRILLIC_NAMES)
    render_everything(words, names, "Ş" * 60)
    assert len(placed) > 500


@pytest.mark.parametrize("code", TRANSLATED)
@pytest.mark.parametrize("bold", [True, False])
def test_the_fonts_draw_every_letter_of_every_catalogue(code: str, bold: bool) -> None:
    """Every character a picture may draw, and every translated text at all, has a glyph."""
    catalog = read_catalog(po_path(code), code)
    texts = all_words(picture_words(lang(code)))
    for message in catalog:
        if message.id:
            texts += list(message.string) if isinstance(message.string, tuple) else [message.string]
    letters = sorted({ch for text in texts for ch in text if ch.isprintable() and ch != " "})
    emoji = {ch for ch in letters if ord(ch) > 0x2600 and not ch.isalpha()}  # Discord draws these
    assert [ch for ch in letters if ch not in emoji and not fonts.has_glyph(ch, bold)] == []


@pytest.fixture
def fresh_sprites() -> None:
    """Palettes built first (from the English samples), then every text drawn anew."""
    warm_up()
    clear_caches("texts", "sprites", "hand numbers", "names")
