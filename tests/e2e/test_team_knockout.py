"""A team knockout through the real bot: opened with teams, refused at an odd count, its teams
drawn at the start, every table two teams of two (partners opposite), a team with a bye, the
winning team going on together to the final, and both champions on the podium."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.tables.names import safe_name
from bot.tables.teams import team_mark
from bot.tournament.model import Tournament, team_bracket
from fake_discord import BotRunner, FakeDiscord, FakeGuild, FakeUser
from tests.e2e.helpers import settle
from tests.e2e.tournament_helpers import (
    announcements_sent,
    play_to_podium,
    podium_news,
    standings_message,
    start_with_admin,
    tournament_of,
)


async def test_a_team_knockout_of_computers_and_people_plays_to_its_final_of_two_teams(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    channel = fake_guild.default_channel
    h, admin = await start_with_admin(fake, fake_guild, bot_runner, tmp_path / "uno.db", seed=11)
    people = [await fake.create_member(fake_guild, n, global_name=n) for n in ("Ann", "Bo", "Cy")]

    async def ask(user: FakeUser, command: str, options: dict[str, object] | None = None) -> str:
        answer = await (await fake.slash(user, channel, command, options or {})).response()
        assert answer.message is not None and answer.message.is_ephemeral
        return answer.message.text

    opened = await ask(
        admin, "uno-admin tournament open", {"kind": "knockout", "teams": True, "computers": 3}
    )
    assert "team knockout is open" in opened and "even number of players" in opened
    await h.scheduler.advance(0.0)
    board = await fake.wait_for(lambda: standings_message(h), what="the bracket message")
    assert "partners drawn at random" in board.text and board.button("Join")
    for person in people[:2]:
        joined = await fake.click_for_private(person, board, board.button("Join"))
        assert "You are in" in joined.text
    # Five entrants cannot make teams of two: refused, and the entries stay open.
    refused = await ask(admin, "uno-admin tournament start")
    assert "even number of players" in refused
    assert not tournament_of(h).drawn
    assert "You are in" in await ask(people[2], "uno tournament join")  # the member variant
    assert "has started" in await ask(admin, "uno-admin tournament start")
    assert "already started" in await ask(admin, "uno tournament join")

    # Three teams drawn: one table of two teams, the third team has a bye.
    drawn = tournament_of(h)
    assert len(drawn.pairs) == 3 and sorted(map(len, drawn.pairs)) == [2, 2, 2]
    [(table_id, seated)] = drawn.tables.items()
    bye = drawn.team_of(drawn.byes[0])
    assert sorted(drawn.byes) == sorted(bye) and not set(bye) & set(seated)
    table = h.bot.tables.tables[table_id]
    assert table.rules.teams == 2 and [s.user_id for s in table.seats] == list(seated)
    assert drawn.team_of(seated[0]) == drawn.team_of(seated[2]) != drawn.team_of(seated[1])
    names = [safe_name(s.name) for s in table.seats]
    line = f"{team_mark(0)} {names[0]}, {names[2]} · {team_mark(1)} {names[1]}, {names[3]}"
    await h.scheduler.advance(5.0)  # the message's next write falls due
    await settle(h)
    shown = await fake.wait_for(
        lambda: ((m := standings_message(h)) and line in m.text and m) or None,
        what=f"the table's teams: {line}",
    )
    assert "Round 1" in shown.text
    bye_names = ", ".join(safe_name(drawn.entrants[u].name) for u in drawn.byes)
    assert f"A bye this round, straight to the next: {bye_names}" in shown.text
    # Each person is told their partner, drawn at the start.
    for person in people:
        [partner] = [u for u in drawn.team_of(person.id) if u != person.id]
        status = await ask(person, "uno tournament status")
        assert f"partner: {safe_name(drawn.entrants[partner].name)}" in status

    final_board = await play_to_podium(h, random.Random(5))
    assert not final_board.buttons and final_board.attachments[-1].filename == "standings.png"
    [record] = await h.storage.finished_tournaments(fake_guild.id)
    final = Tournament.from_dict(record)
    assert final.pairs == drawn.pairs
    first, second = final.rounds()
    [opening] = first
    [decider] = second
    # The winning team of the first table met the team with the bye.
    went_on = final.team_of(opening.placings[0])
    assert {final.team_of(u) for u in decider.placings} == {went_on, bye}
    assert decider.places == (0, 0, 1, 1)
    champions = final.team_of(decider.placings[0])
    podium = final.podium()
    assert {s.user_id for s in podium if s.rank == 1} == set(champions)
    assert {s.user_id for s in podium if s.rank == 2} == set(decider.placings) - set(champions)
    # The podium in text: both teams of the final behind their marks there, champions first.
    (gold_mark, gold), (silver_mark, silver) = team_bracket(final)[-1][0]
    assert gold == champions

    def team_text(mark: int, team: tuple[int, ...]) -> str:
        return f"{team_mark(mark)} " + ", ".join(safe_name(final.entrants[u].name) for u in team)

    podium_text = f"🥇 {team_text(gold_mark, gold)} · 🥈 {team_text(silver_mark, silver)}"
    assert podium_text in final_board.text
    # Every table's match is in the league, naming the tournament, its winning team the one
    # that went on (partners share a place there: their order within the team may differ).
    played = await h.storage.tournament_matches(fake_guild.id, final.tournament_id)
    assert [m.match_uid for m in played] == [f.table_id for f in final.finishes]
    for match, done in zip(played, final.finishes, strict=True):
        assert set(match.placings[:2]) == set(final.team_of(done.placings[0]))
        assert set(match.placings) == set(done.placings)
    # The people on the podium (both partners of each team there) are told of it privately.
    await announcements_sent(h)
    on_podium = {s.user_id for s in podium}
    assert on_podium & {p.id for p in people}  # four of six: a person among them
    for person in people:
        if person.id in on_podium:
            await fake.wait_for(lambda p=person: podium_news(h, p) or None, what="the podium")
        else:
            assert podium_news(h, person) == []
    fake.assert_no_errors()


pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
