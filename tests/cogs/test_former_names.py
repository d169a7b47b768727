"""An unnamed seat: "Former player" where a name stands alone, "a former player" in a sentence
(a capital only where the sentence opens with it), in every language."""

from __future__ import annotations

import pytest

from bot.i18n import SUPPORTED, lang
from bot.storage.models import FORMER_PLAYER_ID, MatchDetail, PlayerResult, RoundSummary
from cogs.league.former import A_FORMER_PLAYER, FORMER_PLAYER, seat_names, sentence_start
from cogs.league.presenters import match_text


def seat(n: int, user_id: int, name: str, points: int = 0) -> PlayerResult:
    return PlayerResult(user_id, name, n, points, 1 if points else 2, False, points > 0, None, None)


@pytest.mark.parametrize("code", SUPPORTED)
def test_a_former_player_is_told_apart_from_the_label_in_every_language(code: str) -> None:
    tongue = lang(code)
    label, told = tongue.gettext(FORMER_PLAYER), tongue.gettext(A_FORMER_PLAYER)
    assert told != label and told == told[0].lower() + told[1:]
    if code != "en":
        assert told != A_FORMER_PLAYER  # translated
    names = seat_names(["Ann", None], tongue)
    assert names.labels == ["Ann", label] and names.told == ["Ann", told]
    went = sentence_start(tongue.gettext("{player} went out").format(player=told), told)
    assert told[0].upper() + told[1:] in went or told in went  # opening or inside the sentence


def test_only_a_sentence_that_opens_with_it_gets_a_capital() -> None:
    told = "a former player"
    assert sentence_start("**a former player** played Red 5", told).startswith("**A former")
    assert sentence_start("a former player went out", told) == "A former player went out"
    assert sentence_start("**ann** played Red 5", told) == "**ann** played Red 5"  # a typed name
    assert sentence_start("**Ann** caught a former player", told).endswith("a former player")


def test_a_match_names_a_forgotten_seat_as_a_label_and_in_sentences() -> None:
    players = [seat(0, 11, "Ann"), seat(1, FORMER_PLAYER_ID, "Former player", 90)]
    detail = MatchDetail(
        number=7, match_uid="m", guild_id=1, channel_id=2, season=1, edition="classic",
        scoring="standard", target=50, started_at=0.0, finished_at=60.0, players=players,
        rounds=[RoundSummary(1, [0, 90], [0, 90], 1)], events=[], teams=0,
    )  # fmt: skip
    text = match_text(detail)
    assert "**Former player** · 90 pts" in text
    assert "1. A former player went out (Former player +90) — Ann 0 · Former player 90" in text
    german = match_text(detail, lang("de"))
    assert "**Ehemaliger Spieler**" in german and "1. Ein ehemaliger Spieler" in german
