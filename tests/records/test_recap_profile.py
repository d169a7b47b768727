"""The recap's frames and size, and a profile card in every language inside its bounds."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.engine import RuleSet
from bot.engine.achievements import Tally, earned, streaks, tally
from bot.engine.match import ScoreView
from bot.engine.playout import play_match
from bot.engine.record import RoundRecord
from bot.engine.review import play_views
from bot.i18n import SUPPORTED, lang
from bot.render.profile import PROFILE_SIZE, profile_image
from bot.render.recap import MAX_BYTES, RECAP_SIZE, recap_frames, render_recap
from bot.storage.models import PlayerHistory
from cogs.league.profile import profile_alt, profile_tally, profile_view


def round_record(seed: int, players: int = 3) -> RoundRecord:
    match = play_match(RuleSet(target=None), ["normal"] * players, seed)
    return RoundRecord.from_text(match.records[0])


def scores_for(record: RoundRecord, names: list[str]) -> ScoreView:
    points = record.points or (0,) * record.players
    return ScoreView(
        record.edition,
        tuple(names),
        (tuple(points),),
        tuple(points),
        None,
        "standard",
        (None,),
        (),
        (True,) * record.players,
    )


def test_the_recap_has_a_frame_per_play_and_the_scores_last() -> None:
    record = round_record(2)
    names = ["Ann", "Bob", "Cy"]
    views = play_views(record, names)
    plays = sum(1 for a in record.actions if a.do == "play")
    assert len(views) in (plays + 1, plays + 2)  # the deal, each play (and an end by no play)
    data = render_recap(views, scores_for(record, names))
    picture = Image.open(io.BytesIO(data))
    assert picture.format == "WEBP" and picture.is_animated
    assert picture.n_frames == len(views) + 1
    assert picture.size == RECAP_SIZE
    assert len(data) <= MAX_BYTES


def test_every_frame_of_the_recap_shows_its_play_though_only_changes_are_stored() -> None:
    record = round_record(4)
    names = ["Ann", "Bob", "Cy"]
    views = play_views(record, names)
    frames, _ = recap_frames(views, scores_for(record, names))
    picture = Image.open(io.BytesIO(render_recap(views, scores_for(record, names))))
    for index, drawn in enumerate(frames):
        picture.seek(index)
        shown = picture.convert("RGB")
        error = ImageStat.Stat(ImageChops.difference(shown, drawn)).mean
        assert max(error) < 6, (index, error)  # lossy, yet each frame is its own play
        if index:
            changed = ImageChops.difference(frames[index - 1], drawn).getbbox() is not None
            assert changed  # no frame repeats the one before


def test_a_recap_too_big_for_its_limit_drops_frames_until_it_fits() -> None:
    record = round_record(5)
    views = play_views(record, ["a", "b", "c"])
    full = render_recap(views, None)
    small = render_recap(views, None, max_bytes=len(full) // 3)
    picture = Image.open(io.BytesIO(small))
    assert len(small) <= len(full) // 3 or picture.n_frames <= 3
    assert picture.n_frames < len(views)


def test_streaks_and_achievements_follow_the_record() -> None:
    assert streaks([True, True, False, True]) == (1, 2)
    assert streaks([]) == (0, 0)
    t = Tally(50, 7, frozenset({"classic", "sonic", "mario"}), 0, 5, 10, 12, podiums=1)
    assert all(earned(t).values())
    none = Tally(1, 0, frozenset(), 0, 0, 0, 0)
    assert not any(earned(none).values())


def test_catches_counted_from_the_rounds() -> None:
    found = 0
    for seed in range(30):
        match = play_match(RuleSet(target=None), ("normal", "easy"), seed, forget_uno=0.6)
        record = RoundRecord.from_text(match.records[0])
        t = tally([("classic", True)], [(0, record)])
        found += t.catches
    assert found > 0


def history(results: int = 60) -> PlayerHistory:
    rounds = [(0, round_record(s, 2).to_text()) for s in range(3)]
    return PlayerHistory(
        1,
        2,
        "W" * 32,
        [
            (("classic", "sonic", "mario")[i % 3], i % 2 == 0, float(i % 17 - 8))
            for i in range(results)
        ],
        rounds,
    )


@pytest.mark.parametrize("code", SUPPORTED)
def test_a_profile_card_in_every_language_stays_inside_its_picture(code: str) -> None:
    tongue = lang(code)
    h = history()
    t = tally([(e, w) for e, w, _ in h.results], [])
    view = profile_view(h, "W" * 32, t, tongue)
    img, boxes = profile_image(view)
    assert img.size == PROFILE_SIZE
    for x0, y0, x1, y1 in boxes:
        assert 0 <= x0 <= x1 <= img.width and 0 <= y0 <= y1 <= img.height, (code, (x0, y0, x1, y1))
    alt = profile_alt(view, tongue)
    assert 0 < len(alt) <= 1024


def test_a_tournament_podium_shows_on_the_profile_from_the_servers_tournaments() -> None:
    record = history(6)
    without = dict(profile_view(record, "W", profile_tally(record), lang("en")).achievements)
    assert without["Tournament podium"] is False
    t = profile_tally(record, podiums=2)
    shown = dict(profile_view(record, "W", t, lang("en")).achievements)
    assert shown["Tournament podium"] is True
    assert "Tournament podium" in profile_alt(profile_view(record, "W", t, lang("en")))
