"""Cheers: fixed emotes counted per table, one per person per cooldown, forgotten at the end."""

from __future__ import annotations

import pytest

from bot.tables.cheers import COOLDOWN, EMOTES, Cheers
from bot.tables.commands import ChooseTeam, SetPartnersSee, SetTeams, ShowPartners
from cogs.ui.ids import Cheer, Click, Watch, custom_id, decode


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_one_cheer_per_person_per_cooldown() -> None:
    clock = Clock()
    cheers = Cheers(clock)
    assert cheers.cheer("t", 1, 0) == 0 and cheers.cheer("t", 2, 0) == 0
    assert cheers.cheer("t", 1, 3) == pytest.approx(COOLDOWN)
    clock.now += COOLDOWN
    assert cheers.cheer("t", 1, 3) == 0
    assert cheers.counts("t") == (2, 0, 0, 1) and cheers.line("t") == "👏 2 · 🔥 1"
    assert cheers.cheer("other", 1, 1) == 0  # the cooldown is per table


def test_a_closed_table_forgets_its_cheers() -> None:
    cheers = Cheers(Clock())
    cheers.cheer("t", 1, 1)
    cheers.forget("t")
    assert cheers.line("t") == "" and cheers.cheer("t", 1, 1) == 0


def test_unknown_emote_is_refused() -> None:
    with pytest.raises(ValueError):
        Cheers(Clock()).cheer("t", 1, len(EMOTES))


def test_watch_and_cheer_buttons_decode_to_themselves() -> None:
    for request in (Watch(), *(Cheer(i) for i in range(len(EMOTES)))):
        click = decode(custom_id("abc", 0, request))
        assert isinstance(click, Click) and click.request == request and click.surface == "table"
    assert not isinstance(decode(f"uno:abc:0:cheer:{len(EMOTES)}"), Click)


def test_team_buttons_decode_to_themselves() -> None:
    lobby = (SetTeams(2), SetTeams(0), SetPartnersSee(True), ChooseTeam(None), ChooseTeam(4))
    for request in lobby:
        click = decode(custom_id("abc", 0, request))
        assert isinstance(click, Click) and click.request == request and click.surface == "lobby"
    click = decode(custom_id("abc", 0, ShowPartners()))
    assert isinstance(click, Click) and click.request == ShowPartners()
    for broken in ("teams:1", "teams:6", "team:5", "partners:yes"):
        assert not isinstance(decode(f"uno:abc:0:{broken}"), Click)
