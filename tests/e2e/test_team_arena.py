"""A team arena through the real bot: every table two teams of two (seats alternating), the
table played as a team game, and both partners scoring their team's place."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.tables.names import safe_name
from bot.tables.table import Status
from bot.tables.teams import team_mark
from fake_discord import BotRunner, FakeDiscord, FakeGuild
from tests.e2e.helpers import settle
from tests.e2e.tournament_helpers import (
    play_a_while,
    standings_message,
    start_with_admin,
    tournament_of,
)


async def test_a_team_arena_seats_two_teams_of_two_and_partners_share_their_place(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    channel = fake_guild.default_channel
    h, admin = await start_with_admin(fake, fake_guild, bot_runner, tmp_path / "uno.db", seed=9)
    ann, bo = [await fake.create_member(fake_guild, n, global_name=n) for n in ("Ann", "Bo")]
    await (
        await fake.slash(
            admin, channel, "uno-admin tournament open", {"teams": True, "computers": 2}
        )
    ).response()
    await h.scheduler.advance(0.0)
    board = await fake.wait_for(lambda: standings_message(h), what="the standings message")
    assert "two teams of two" in board.text
    await fake.click_for_private(ann, board, board.button("Join"))
    assert not tournament_of(h).tables  # three wait: not two teams of two yet
    await fake.click_for_private(bo, board, board.button("Join"))
    [table] = [t for t in h.bot.tables.tables.values() if t.tournament_id is not None]
    assert table.rules.teams == 2 and len(table.seats) == 4
    # Seats alternate teams in waiting order: each person has a computer for a partner.
    assert [s.computer is None for s in table.seats] == [False, False, True, True]
    await h.scheduler.advance(5.0)
    await settle(h)
    shown = await fake.wait_for(lambda: standings_message(h))
    names = [safe_name(s.name) for s in table.seats]
    line = f"{team_mark(0)} {names[0]}, {names[2]} · {team_mark(1)} {names[1]}, {names[3]}"
    await fake.wait_for(lambda: line in shown.text or None, what=f"{line} in {shown.text}")

    await play_a_while(h, random.Random(3), 400)
    await settle(h)
    assert table.status is Status.FINISHED
    [done] = tournament_of(h).finishes
    assert done.places == (0, 0, 1, 1)
    winners = {done.placings[0], done.placings[1]}
    assert winners in ({table.seats[0].user_id, table.seats[2].user_id},
                       {table.seats[1].user_id, table.seats[3].user_id})  # fmt: skip
    points = {s.user_id: s.points for s in tournament_of(h).standings()}
    assert {points[u] for u in winners} == {4}
    assert {points[u] for u in done.placings[2:]} == {2}
    fake.assert_no_errors()


pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
