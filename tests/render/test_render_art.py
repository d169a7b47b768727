"""Card art: every face of every edition, the backs, the fonts and names the fonts lack."""

from __future__ import annotations

import ast
import fnmatch
import tomllib
from importlib.resources import files
from pathlib import Path

import pytest
from PIL import ImageFont

from bot.engine.cards import CODES, WILD_NAMES, Edition, edition_deck
from bot.render import art, fonts
from bot.render.common import player_name

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("edition", list(Edition))
def test_every_card_of_the_edition_has_a_face_and_a_back(edition: Edition) -> None:
    deck = {CODES[c] for c in edition_deck(edition)}
    assert set(art.edition_cards(edition)) == deck
    for code in (*deck, art.BACK):
        img = art.card_image(code, edition, 60)
        assert img.size == art.card_size(60) and img.mode == "RGBA"
        assert img.getchannel("A").getextrema() == (0, 255)
        for width in art.STORE_WIDTHS:
            face = art.card_face(code, edition, width)
            assert face.size == art.sprite_size(width) == art.card_mask(width).size
            assert face.mode == "P"


def test_special_wilds_differ_from_each_other_and_editions_differ_by_back() -> None:
    faces = {art.card_face(w, Edition.MARIO, 60).tobytes() for w in WILD_NAMES}
    assert len(faces) == len(WILD_NAMES)
    backs = {art.card_face(art.BACK, e, 60).convert("RGB").tobytes() for e in Edition}
    assert len(backs) == len(Edition)


def test_colors_carry_distinct_color_blind_marks() -> None:
    corners = {
        art.card_image(f"{c}-5", Edition.CLASSIC, 120)
        .crop((8, 30, 30, 50))
        .convert("L")
        .point(lambda v: 255 if v > 200 else 0)
        .tobytes()
        for c in ("red", "yellow", "green", "blue")
    }
    assert len(corners) == 4


def test_unknown_card_code_is_refused() -> None:
    with pytest.raises(KeyError):
        art.card_face("purple-3", Edition.CLASSIC, 84)
    with pytest.raises(KeyError):
        art.card_image("purple-3", Edition.CLASSIC, 60)


def test_fonts_load_from_the_package_with_their_licence() -> None:
    folder = files("card_art")
    for name in (*fonts.FONT_FILES.values(), fonts.LICENSE_FILE):
        assert (folder / name).is_file()
    for bold in (True, False):
        face = ImageFont.truetype(fonts.font_path(bold), 20)
        assert face.getname()[0] == "DejaVu Sans"


def test_the_art_is_found_as_package_data_never_by_a_path() -> None:
    """The only code naming ``card_art`` asks ``importlib.resources.files`` for it (docstrings
    aside)."""
    for package in ("bot", "cogs"):
        for path in (ROOT / package).rglob("*.py"):
            nodes = list(ast.walk(ast.parse(path.read_text())))
            allowed = {
                id(node.args[0])
                for node in nodes
                if isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "files"
                and node.args
            } | {id(node.value) for node in nodes if isinstance(node, ast.Expr)}
            for node in nodes:
                if isinstance(node, ast.Constant) and "card_art" in str(node.value):
                    assert id(node) in allowed, f"{path}:{node.lineno}"


def test_the_package_data_spec_ships_the_fonts() -> None:
    """A non-editable install gets card_art/: pyproject declares every file of it."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    patterns = config["package-data"]["card_art"]
    assert any(fnmatch.fnmatch("card_art", p) for p in config["packages"]["find"]["include"])
    folder = ROOT / "card_art"
    shipped = sorted(p.name for p in folder.iterdir() if p.suffix != ".py" and p.is_file())
    assert {*fonts.FONT_FILES.values(), fonts.LICENSE_FILE, "palettes.toml"} <= set(shipped)
    for name in shipped:
        assert any(fnmatch.fnmatch(name, p) for p in patterns), name


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Crème", "Crème"),
        ("Gökhan", "Gökhan"),
        ("Ёжик", "Ёжик"),
        ("**bold** `x`", "**bold** `x`"),
        ("名前", "?"),
        ("Zoë 👩‍👩‍👧", "Zoë ?"),
        ("a\x00b\u200bc", "abc"),
        ("e\u0301", "é"),
    ],
)
def test_names_keep_what_the_font_has_and_degrade_the_rest(name: str, expected: str) -> None:
    assert fonts.safe_text(name) == expected


def test_unreadable_names_fall_back_and_long_ones_fit() -> None:
    assert player_name("🎉🎉", "Player 3") == "Player 3"
    assert player_name("", "Player 1") == "Player 1"
    text, size = fonts.fit_text("A" * 200, 20, 150, 30)
    assert text.endswith("…") and fonts.font(size).getlength(text) <= 150
    assert size == 17  # cut at 85% of its size, not shrunk to nothing
    assert fonts.fit_text("Round 2", 20, 300, 30) == ("Round 2", 20)
    whole, smaller = fonts.fit_text("Zugrichtung gegen den Uhrzeigersinn", 16, 290, 24)
    assert whole == "Zugrichtung gegen den Uhrzeigersinn" and smaller == 13
