"""The table, hand and scoreboard pictures: they decode, have their size, repeat, and never leak."""

from __future__ import annotations

import colorsys
import io
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

import pytest
from PIL import Image, ImageStat

from bot.engine.cards import COLORS, Edition, edition_deck
from bot.engine.game import Game, Phase
from bot.engine.snapshot import HandView, hand_view, public_view
from bot.render import art, render_hand, render_leaderboard, render_scores, render_table
from bot.render.cache import clear_caches
from bot.render.hand import RAISE, card_slots, grid, hand_image, hand_size
from bot.render.samples import sample_hand, sample_scores, sample_standings, sample_table
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


def test_pictures_do_not_depend_on_what_the_caches_hold() -> None:
    """A picture is a pure function of its view: drawn again from empty caches, it is the same."""
    pictures = [
        lambda: render_table(sample_table(6, Edition.MARIO, None)),
        lambda: render_hand(sample_hand(23, Edition.SONIC)),
        lambda: render_scores(sample_scores(5, Edition.CLASSIC)),
        lambda: render_leaderboard(sample_standings(7), "Season 1", "points"),
    ]
    first = [draw() for draw in pictures]
    clear_caches()
    assert [draw() for draw in reversed(pictures)] == list(reversed(first))


@pytest.mark.parametrize("edition", list(Edition))
@pytest.mark.parametrize("color", COLORS)
def test_color_in_force_is_painted_in_the_swatch_even_on_a_wild(
    edition: Edition, color: str
) -> None:
    view = replace(sample_table(4, edition, color), top="wild", recent=("red-3", "wild"))
    img = decode(render_table(view)).convert("RGB")
    x0, y0, x1, y1 = COLOR_SWATCH_BOX
    assert x0 <= COLOR_SWATCH_POINT[0] <= x1 and y0 <= COLOR_SWATCH_POINT[1] <= y1
    assert img.getpixel(COLOR_SWATCH_POINT) == art.color_rgb(edition, color)


@pytest.fixture
def card_requests(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every card code the pictures ask the sprite store for."""
    requested: list[str] = []
    real = art.card_face

    def face(code: str, *args: object, **kwargs: object) -> Image.Image:
        requested.append(code)
        return real(code, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(art, "card_face", face)
    yield requested


@pytest.mark.parametrize("edition", list(Edition))
def test_table_never_draws_a_card_the_public_view_lacks(
    edition: Edition, card_requests: list[str]
) -> None:
    game = dealt_game(6, edition)
    view = public_view(game)
    render_table(view)  # the first picture of an edition also draws its palette's samples
    card_requests.clear()
    render_table(view)
    faces = Counter(c for c in card_requests if c != art.BACK)
    assert faces, "the discard pile is drawn"
    assert not faces - Counter(view.recent)
    hidden = {c for seat in range(6) for c in hand_view(game, seat).cards} - set(view.recent)
    assert not hidden & set(faces)
    assert table_image(view)[1] == list(view.recent)


def test_hand_draws_exactly_its_cards_in_order(card_requests: list[str]) -> None:
    game = dealt_game(4)
    view = hand_view(game, 2)
    first = render_hand(view)  # the first picture of an edition also draws its palette's samples
    card_requests.clear()
    assert render_hand(view) == first and card_requests == []  # the same hand: kept, not redrawn
    clear_caches("hand pictures")
    data = render_hand(view)
    assert data == first
    assert decode(data).size == hand_size(len(view.cards))
    assert [c for c in card_requests if c != art.BACK] == list(view.cards)


def test_a_hand_is_redrawn_only_when_what_it_shows_changes(card_requests: list[str]) -> None:
    view = sample_hand(7, Edition.CLASSIC)
    first = render_hand(view)
    card_requests.clear()
    # Others' counts, the top card, what the game asks: none of it is on the picture.
    elsewhere = replace(view, other_counts=(3, 9), top=view.cards[0], awaiting=None)
    assert render_hand(elsewhere) is first and card_requests == []
    recolored = replace(view, color="green" if view.color != "green" else "blue")
    assert render_hand(recolored) != first and card_requests  # the color in force is drawn
    assert render_hand(replace(view, playable=(False,) * 7)) != first


@pytest.mark.parametrize("cards", [0, 1, 7, 12, 25, 40, 60])
def test_hand_decodes_with_its_size_and_repeats(cards: int) -> None:
    view = sample_hand(cards, Edition.MARIO)
    data = render_hand(view)
    assert decode(data).size == hand_size(cards)
    assert render_hand(view) == data


def test_forty_card_hand_keeps_cards_legible() -> None:
    img, drawn = hand_image(sample_hand(40))
    assert len(drawn) == 40
    rows, cols, width = grid(40)
    assert (rows, cols) == (4, 10) and width >= 60
    assert img.height <= 800


def _hue(rgb: tuple[int, int, int]) -> float:
    return colorsys.rgb_to_hsv(*(v / 255 for v in rgb))[0] * 360


def _hue_distance(a: float, b: float) -> float:
    return min(abs(a - b), 360 - abs(a - b))


def _pixels(img: Image.Image) -> list[tuple[int, int, int]]:
    data = img.convert("RGB").tobytes()
    return [(data[i], data[i + 1], data[i + 2]) for i in range(0, len(data), 3)]


@pytest.mark.parametrize("edition", list(Edition))
@pytest.mark.parametrize("color", ["red", "yellow", "blue"])
def test_an_unplayable_card_keeps_its_color(edition: Edition, color: str) -> None:
    """Muted, not greyed: the dominant hue of an unplayable card is still its own color."""
    view = HandView(
        edition=edition,
        seat=0,
        name="Ana",
        cards=(f"{color}-7", "green-2"),
        playable=(False, True),
        awaiting=Phase.TURN,
    )
    img = decode(render_hand(view))
    w, h = art.card_size(card_slots(2)[0][2])

    def card(index: int, raise_by: int) -> Image.Image:
        cx, cy, _ = card_slots(2)[index]
        cy -= raise_by
        return img.crop(
            (
                round(cx - w / 2 + 3),
                round(cy - h / 2 + 3),
                round(cx + w / 2 - 3),
                round(cy + h / 2 - 3),
            )
        )

    muted, playable = card(0, 0), card(1, RAISE)
    hues = Counter(
        round(_hue(p) / 10) % 36
        for p in _pixels(muted)
        if max(p) - min(p) > 0.35 * max(p) and max(p) > 64  # clearly colored pixels
    )
    assert sum(hues.values()) > muted.width * muted.height // 3  # most of the card, not a sliver
    dominant = hues.most_common(1)[0][0] * 10
    assert _hue_distance(dominant, _hue(art.color_rgb(edition, color))) <= 10
    # It still reads as set aside: the playable card is raised, the muted one darker.
    assert (
        ImageStat.Stat(muted.convert("L")).mean[0] < ImageStat.Stat(playable.convert("L")).mean[0]
    )


@pytest.mark.parametrize("players", [2, 4, 10])
def test_scores_decode_with_their_size_and_repeat(players: int) -> None:
    view = sample_scores(players, Edition.SONIC)
    data = render_scores(view)
    assert decode(data).size == scores_size(players)
    assert render_scores(view) == data


def test_scores_before_any_round_and_after_a_win() -> None:
    base = sample_scores(3)
    empty = replace(
        base,
        rounds=(),
        totals=(0, 0, 0),
        target=None,
        scoring="lowest",
        round_winners=(),
        winners=(),
        active=(True, False, True),
    )
    decode(render_scores(empty))
    decode(render_scores(replace(base, winners=(1,))))
