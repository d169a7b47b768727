"""Teams at the table: the host sets them in the lobby, players pick or are seated alternately,
a start that does not fit is refused with the counts that do, partners' hands are shown to
partners alone, and the table's text marks every seat's team and the team scores."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from discord import ui

from bot.engine import RuleSet
from bot.engine.cards import CODES, Edition
from bot.i18n import ENGLISH_LANG
from bot.storage import Storage
from bot.tables.commands import (
    Actor,
    AddComputer,
    CheckStart,
    ChooseTeam,
    Join,
    SetPartnersSee,
    SetTeams,
    ShowPartners,
    Start,
)
from bot.tables.manager import TableManager
from bot.tables.refusals import TableError
from bot.tables.scheduler import ManualScheduler
from bot.tables.snapshot import snapshot_of
from bot.tables.table import Seat, Status, Table
from bot.tables.teams import arranged, team_mark
from cogs.ui.lobby import lobby_view
from cogs.ui.table import (
    scores_text,
    seats_text,
    status_line,
    table_alt,
    table_view,
    team_scores_text,
)

A, B, C, D, E = 11, 22, 33, 44, 55
NAMES = {A: "Ann", B: "Bo", C: "Cy", D: "Di", E: "Ed"}


def who(user_id: int) -> Actor:
    return Actor(user_id, NAMES.get(user_id, "Someone"))


@pytest.fixture
async def manager(tmp_path: Path) -> AsyncIterator[TableManager]:
    store = await Storage.open(tmp_path / "uno.db")
    try:
        yield TableManager(store, scheduler=ManualScheduler(), rng=random.Random(5))
    finally:
        await store.close()


async def lobby(manager: TableManager, users: tuple[int, ...], target: int | None = None) -> Table:
    await manager.create(
        "t1", 1, 100, who(users[0]), RuleSet(Edition.CLASSIC, target=target), threads=True
    )
    for user in users[1:]:
        await manager.act("t1", who(user), Join())
    return manager.tables["t1"]


async def test_the_host_sets_teams_and_others_may_not(manager: TableManager) -> None:
    table = await lobby(manager, (A, B, C, D))
    with pytest.raises(TableError) as refused:
        await manager.act("t1", who(B), SetTeams(2))
    assert refused.value.note.key == "host_only_teams" and table.rules.teams == 0
    outcome = await manager.act("t1", who(A), SetTeams(2))
    assert outcome.changed and outcome.table.rules.teams == 2
    await manager.act("t1", who(A), SetPartnersSee(True))
    assert table.rules.partners_see


async def test_a_pick_without_teams_is_refused(manager: TableManager) -> None:
    await lobby(manager, (A, B))
    with pytest.raises(TableError) as refused:
        await manager.act("t1", who(B), ChooseTeam(1))
    assert refused.value.note.key == "no_teams"


async def test_start_refused_when_the_count_does_not_fit(manager: TableManager) -> None:
    table = await lobby(manager, (A, B, C))
    await manager.act("t1", who(A), SetTeams(2))
    for command in (CheckStart(), Start()):
        with pytest.raises(TableError) as refused:
            await manager.act("t1", who(A), command)
        assert refused.value.note.key == "teams_misfit"
        assert "4, 6, 8, 10" in refused.value.message and "3 players" in refused.value.message
    assert table.match is None


async def test_an_overfull_pick_is_refused_at_the_start(manager: TableManager) -> None:
    await lobby(manager, (A, B, C, D))
    await manager.act("t1", who(A), SetTeams(2))
    for user in (A, B, C):
        await manager.act("t1", who(user), ChooseTeam(0))
    with pytest.raises(TableError) as refused:
        await manager.act("t1", who(A), Start())
    assert refused.value.note.key == "team_overfull"


async def test_picks_are_kept_and_the_others_alternate(manager: TableManager) -> None:
    table = await lobby(manager, (A, B, C, D))
    await manager.act("t1", who(A), SetTeams(2))
    await manager.act("t1", who(A), ChooseTeam(1))
    await manager.act("t1", who(B), ChooseTeam(1))
    await manager.act("t1", who(A), Start())
    seats = [s.user_id for s in table.seats]
    # Seat s is on team s mod 2: Ann and Bo (team 2) sit at seats 1 and 3, opposite.
    assert {seats[1], seats[3]} == {A, B} and {seats[0], seats[2]} == {C, D}
    assert table.match is not None and table.match.game.teams == 2


def test_nobody_picking_alternates_in_joining_order() -> None:
    seats = [Seat(i, str(i)) for i in range(6)]
    assert [s.user_id for s in arranged(seats, 3)] == [0, 1, 2, 3, 4, 5]
    seats[5].team = 0
    assert [s.user_id for s in arranged(seats, 2)] == [5, 0, 1, 2, 3, 4]


async def test_partners_hands_to_partners_alone(manager: TableManager) -> None:
    table = await lobby(manager, (A, B, C, D))
    await manager.act("t1", who(A), SetTeams(2))
    await manager.act("t1", who(A), Start())
    with pytest.raises(TableError) as hidden:
        await manager.act("t1", who(A), ShowPartners())
    assert hidden.value.note.key == "partners_hidden"
    table.rules = RuleSet(Edition.CLASSIC, teams=2, partners_see=True)
    game = table.match.game  # type: ignore[union-attr]
    for seat, seated in enumerate(table.seats):
        outcome = await manager.act("t1", who(seated.user_id), ShowPartners())
        (shown,) = outcome.partners
        assert shown.seat == (seat + 2) % 4
        assert shown.cards == tuple(CODES[c] for c in game.hands[shown.seat])
    with pytest.raises(TableError) as outsider:
        await manager.act("t1", who(E), ShowPartners())
    assert outsider.value.note.key == "not_seated"


async def test_no_partners_without_teams(manager: TableManager) -> None:
    await lobby(manager, (A, B))
    await manager.act("t1", who(A), Start())
    with pytest.raises(TableError) as refused:
        await manager.act("t1", who(A), ShowPartners())
    assert refused.value.note.key == "partners_only"


async def test_the_lobby_and_the_table_mark_every_team(manager: TableManager) -> None:
    table = await lobby(manager, (A, B, C), target=None)
    await manager.act("t1", who(A), AddComputer("easy"))
    await manager.act("t1", who(A), SetTeams(2))
    await manager.act("t1", who(B), ChooseTeam(1))
    view = lobby_view(snapshot_of(table))
    labels = [
        c.item.label
        for c in view.walk_children()
        if isinstance(c, ui.DynamicItem) and isinstance(c.item, ui.Button)
    ]
    assert f"{team_mark(0)} Team 1" in labels and "Any team" in labels
    await manager.act("t1", who(A), Start())
    snap = snapshot_of(table)
    text = seats_text(snap, ENGLISH_LANG)
    for seat, line in enumerate(text.splitlines()):
        assert team_mark(seat % 2) in line
    table_view(snap, image=None)  # builds within Discord's limits


async def test_a_won_team_match_names_the_team_and_its_scores(manager: TableManager) -> None:
    table = await lobby(manager, (A, B, C, D), target=None)
    await manager.act("t1", who(A), SetTeams(2))
    await manager.act("t1", who(A), Start())
    match = table.match
    assert match is not None
    game = match.game
    rng = random.Random(3)
    while not game.over:
        game.apply(rng.choice(game.legal_actions(game.current)))
    match.finish_round()
    table.status = Status.FINISHED
    snap = snapshot_of(table)
    won = game.winner % 2
    assert f"Team {won + 1} won the match!" in status_line(snap, ENGLISH_LANG)
    assert f"Team {won + 1}: **{match.team_totals()[won]}**" in scores_text(snap, ENGLISH_LANG)


async def test_the_table_text_and_picture_description_give_the_team_scores(
    manager: TableManager,
) -> None:
    table = await lobby(manager, (A, B, C, D), target=200)
    await manager.act("t1", who(A), SetTeams(2))
    await manager.act("t1", who(A), Start())
    match = table.match
    assert match is not None
    match.totals = [30, 5, 40, 0]  # as after some rounds: team 1 has 70, team 2 has 5
    snap = snapshot_of(table)
    assert snap.public is not None and snap.public.team_scores == (70, 5)
    assert [s.team for s in snap.public.seats] == [0, 1, 0, 1]
    line = f"{team_mark(0)} Team 1: **70** · {team_mark(1)} Team 2: **5**"
    assert line in team_scores_text(snap, ENGLISH_LANG)
    texts = [c.content for c in table_view(snap, image="table.png").walk_children()
             if isinstance(c, ui.TextDisplay)]  # fmt: skip
    assert any(line in text for text in texts)
    assert table_alt(snap, ENGLISH_LANG).endswith(
        f"{team_mark(0)} Team 1: 70 · {team_mark(1)} Team 2: 5."
    )


async def test_a_table_without_teams_shows_no_team_scores(manager: TableManager) -> None:
    table = await lobby(manager, (A, B, C, D), target=200)
    await manager.act("t1", who(A), Start())
    snap = snapshot_of(table)
    assert snap.public is not None and snap.public.team_scores == ()
    assert team_scores_text(snap, ENGLISH_LANG) == "" and "Team" not in table_alt(snap)


async def test_a_restart_keeps_teams_and_picks(manager: TableManager) -> None:
    table = await lobby(manager, (A, B, C, D))
    await manager.act("t1", who(A), SetTeams(2))
    await manager.act("t1", who(C), ChooseTeam(1))
    restored = Table.from_record(table.to_record())
    assert restored.rules.teams == 2 and restored.seats[2].team == 1
