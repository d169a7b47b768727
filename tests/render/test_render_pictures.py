"""The table, hand and scoreboard pictures: they decode, have their size, repeat, and never leak."""

from __future__ import annotations

import io
import random
from collections import Counter
from collections.abc import Iterator

import pytest
from PIL import Image

from bot.engine.cards import COLORS, Edition, edition_deck
from bot.engine.game import Game
from bot.engine.snapshot import PublicView, hand_view, public_view
from bot.render import art, render_hand, render_scores, render_table
from bot.render.hand import hand_image, hand_size
from bot.render.samples import sample_hand, sample_scores, sample_table
from bot.render.scores import scores_size
from bot.render.table import COLOR_SWATCH_BOX, COLOR_SWATCH_POINT, TABLE_SIZE, table_image


def decode(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def dealt_game(players: int, edition: Edition = Edition.CLASSIC, seed: int = 7) -> Game:
    rng = random.Random(seed)
    deck = edition_deck(edition)
    rng.shuffle(deck)
    return Game(edition, players, 0, deck, rng)


@pytest.mark.parametrize("players", [2, 3, 4, 7, 10])
def test_table_decodes_with_its_size_and_repeats(players: int) -> None:
    view = sample_table(players, Edition.SONIC if players % 2 else Edition.CLASSIC)
    data = render_table(view)
    assert decode(data).size == TABLE_SIZE
    assert render_table(view) == data
    assert len(data) < 200_000


@pytest.mark.parametrize("edition", list(Edition))
@pytest.mark.parametrize("color", COLORS)
def test_color_in_force_is_painted_in_the_swatch_even_on_a_wild(
    edition: Edition, color: str
) -> None:
    base = sample_table(4, edition, color)
    view = PublicView(
        **{
            **{f: getattr(base, f) for f in base.__slots__},
            "top": "wild",
            "recent": ("red-3", "wild"),
        }
    )
    img = decode(render_table(view)).convert("RGB")
    x0, y0, x1, y1 = COLOR_SWATCH_BOX
    assert x0 <= COLOR_SWATCH_POINT[0] <= x1 and y0 <= COLOR_SWATCH_POINT[1] <= y1
    assert img.getpixel(COLOR_SWATCH_POINT) == art.color_rgb(edition, color)


@pytest.fixture
def sprite_requests(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every card code the renderers ask the sprite cache for."""
    requested: list[str] = []
    real_sprite, real_image = art.card_sprite, art.card_image
    inside = [False]

    def sprite(code: str, *args: object, **kwargs: object) -> Image.Image:
        requested.append(code)
        inside[0] = True
        try:
            return real_sprite(code, *args, **kwargs)
        finally:
            inside[0] = False

    def image(code: str, *args: object, **kwargs: object) -> Image.Image:
        if not inside[0]:  # a sprite draws its own card image: count the card once
            requested.append(code)
        return real_image(code, *args, **kwargs)

    monkeypatch.setattr(art, "card_sprite", sprite)
    monkeypatch.setattr(art, "card_image", image)
    yield requested


@pytest.mark.parametrize("edition", list(Edition))
def test_table_never_draws_a_card_the_public_view_lacks(
    edition: Edition, sprite_requests: list[str]
) -> None:
    game = dealt_game(6, edition)
    view = public_view(game)
    render_table(view)  # the first picture of an edition also draws its palette's samples
    sprite_requests.clear()
    render_table(view)
    faces = Counter(c for c in sprite_requests if c != art.BACK)
    assert faces, "the discard pile is drawn"
    assert not faces - Counter(view.recent)
    hidden = {c for hand in game.hands for c in hand_view(game, 0).cards} - set(view.recent)
    assert not hidden & set(faces)
    assert table_image(view)[1] == list(view.recent)


def test_hand_draws_exactly_its_cards_in_order(sprite_requests: list[str]) -> None:
    game = dealt_game(4)
    view = hand_view(game, 2)
    render_hand(view)  # the first picture of an edition also draws its palette's samples
    sprite_requests.clear()
    data = render_hand(view)
    assert decode(data).size == hand_size(len(view.cards))
    assert [c for c in sprite_requests if c != art.BACK] == list(view.cards)


@pytest.mark.parametrize("cards", [0, 1, 7, 12, 25, 40])
def test_hand_decodes_with_its_size_and_repeats(cards: int) -> None:
    view = sample_hand(cards, Edition.MARIO)
    data = render_hand(view)
    assert decode(data).size == hand_size(cards)
    assert render_hand(view) == data


def test_forty_card_hand_keeps_cards_legible() -> None:
    img, drawn = hand_image(sample_hand(40))
    assert len(drawn) == 40
    from bot.render.hand import grid

    rows, cols, width = grid(40)
    assert (rows, cols) == (4, 10) and width >= 80
    assert img.height <= 1000


@pytest.mark.parametrize("players", [2, 4, 10])
def test_scores_decode_with_their_size_and_repeat(players: int) -> None:
    view = sample_scores(players, Edition.SONIC)
    data = render_scores(view)
    assert decode(data).size == scores_size(players)
    assert render_scores(view) == data


def test_scores_before_any_round_and_after_a_win() -> None:
    base = sample_scores(3)
    empty = type(base)(
        edition=base.edition,
        names=base.names,
        rounds=(),
        totals=(0, 0, 0),
        target=None,
        scoring="lowest",
        round_winners=(),
        winners=(),
        active=(True, False, True),
    )
    decode(render_scores(empty))
    won = type(base)(
        **{**{f: getattr(base, f) for f in base.__dataclass_fields__}, "winners": (1,)}
    )
    decode(render_scores(won))
