"""The tournament model: seating, scoring, standings, the knockout's bracket, its record."""

from __future__ import annotations

import itertools
import random

import pytest

from bot.render.tournament import render_bracket, render_standings
from bot.tournament.model import (
    EditWindow,
    Entrant,
    Finish,
    Kind,
    Tournament,
    TournamentError,
    TournamentResults,
    bracket_marks,
    bracket_names,
    game_points,
    record_of,
    standings,
    standings_lines,
    table_sizes,
)


def arena(ends_at: float = 1800.0) -> Tournament:
    return Tournament("t1", Kind.ARENA, 1, 2, 3, opened_at=0.0, ends_at=ends_at, seed=7)


def knockout(seed: int = 7) -> Tournament:
    return Tournament("k1", Kind.KNOCKOUT, 1, 2, 3, opened_at=0.0, seed=seed)


@pytest.mark.parametrize(
    ("count", "sizes"),
    [
        *[(0, []), (2, []), (3, [3]), (4, [4]), (5, [4]), (6, [3, 3]), (7, [4, 3])],
        *[(8, [4, 4]), (9, [3, 3, 3]), (10, [4, 3, 3]), (12, [4, 4, 4]), (13, [4, 3, 3, 3])],
    ],
)
def test_tables_seat_as_many_as_they_can_evenly(count: int, sizes: list[int]) -> None:
    assert table_sizes(count) == sizes


def test_placing_scores_four_two_one_then_nothing() -> None:
    assert [game_points(p, berserk=False, streak=0) for p in range(4)] == [4, 2, 1, 0]


def test_two_wins_in_a_row_double_the_next_points() -> None:
    assert game_points(0, berserk=False, streak=1) == 4
    assert game_points(0, berserk=False, streak=2) == 8
    assert game_points(1, berserk=False, streak=2) == 4


def test_a_berserk_win_scores_one_more_and_a_berserk_loss_nothing_more() -> None:
    assert game_points(0, berserk=True, streak=0) == 5
    assert game_points(0, berserk=True, streak=2) == 9
    assert game_points(1, berserk=True, streak=0) == 2


def test_standings_recount_streaks_and_share_ranks() -> None:
    people = {u: Entrant(u, f"p{u}") for u in (1, 2, 3, 4)}
    finishes = [
        Finish("a", (1, 2, 3)),
        Finish("b", (1, 3, 2)),
        Finish("c", (1, 2, 3), berserk=frozenset({1})),  # on fire: 8, and berserk 9
        Finish("d", (2, 1, 3)),  # streak broken: 2*2 for second
    ]
    table = standings(people, finishes)
    assert [(s.user_id, s.points, s.wins, s.games) for s in table] == [
        (1, 4 + 4 + 9 + 4, 3, 4),
        (2, 2 + 1 + 2 + 4, 1, 4),
        (3, 1 + 2 + 1 + 1, 0, 4),
        (4, 0, 0, 0),
    ]
    assert [s.rank for s in table] == [1, 2, 3, 4]
    assert not table[0].on_fire
    tied = standings({1: Entrant(1, "a"), 2: Entrant(2, "b")}, [])
    assert [s.rank for s in tied] == [1, 1]


def test_an_arena_seats_the_longest_waiting_and_nobody_twice() -> None:
    t = arena()
    for user_id in range(1, 8):
        t.join(Entrant(user_id, f"p{user_id}"), now=float(user_id))
    groups = t.pair(now=10.0)
    assert groups == [(1, 2, 3, 4), (5, 6, 7)]
    for index, group in enumerate(groups):
        t.seat(f"x{index}", group)
    assert t.waiting == {}
    with pytest.raises(TournamentError) as refused:
        t.join(Entrant(1, "p1"), now=11.0)
    assert refused.value.code == "tournament_joined"
    with pytest.raises(TournamentError):
        t.seat("y", (1, 8))


def test_after_a_table_its_players_wait_again_and_keep_their_points() -> None:
    t = arena()
    for user_id in (1, 2, 3):
        t.join(Entrant(user_id, f"p{user_id}"), now=0.0)
    t.go_berserk(2)
    t.seat("x", t.pair(0.0)[0])
    t.finish("x", (2, 1, 3), now=60.0)
    assert t.waiting == {1: 60.0, 2: 60.0, 3: 60.0}
    assert t.finishes[0].berserk == {2}
    assert [(s.user_id, s.points) for s in t.standings()] == [(2, 5), (1, 2), (3, 1)]
    t.leave(3)
    assert t.pair(61.0) == []
    assert 3 in {s.user_id for s in t.standings()}


def test_an_arena_opens_no_table_after_its_end_but_counts_tables_still_playing() -> None:
    t = arena(ends_at=100.0)
    for user_id in (1, 2, 3):
        t.join(Entrant(user_id, f"p{user_id}"), now=0.0)
    t.seat("x", t.pair(0.0)[0])
    assert not t.finished(100.0)
    t.finish("x", (3, 2, 1), now=120.0)
    assert t.pair(120.0) == [] and t.waiting == {}
    assert t.finished(120.0)
    assert [s.user_id for s in t.podium()] == [3, 2, 1]
    with pytest.raises(TournamentError):
        t.join(Entrant(9, "late"), now=130.0)


def play_knockout(t: Tournament, rng: random.Random, upto: int | None = None) -> int:
    """Play rounds (all, or ``upto``) with random placings; returns the rounds played."""
    played = 0
    while not t.finished(0.0) and (upto is None or played < upto):
        groups = t.pair(0.0)
        assert groups
        for index, group in enumerate(groups):
            t.seat(f"r{t.round}-{index}-{len(t.finishes)}", group)
        for table_id, players in list(t.tables.items()):
            order = list(players)
            rng.shuffle(order)
            t.finish(table_id, order, now=0.0)
        played += 1
    return played


@pytest.mark.parametrize(("count", "rounds"), [(3, 1), (4, 1), (5, 2), (8, 2), (12, 3), (16, 3)])
def test_a_knockout_advances_the_top_two_until_one_final_table(count: int, rounds: int) -> None:
    t = knockout()
    for user_id in range(1, count + 1):
        t.join(Entrant(user_id, f"p{user_id}"), now=float(user_id))
    assert t.pair(0.0) == []  # entries still open
    t.close_entries()
    assert play_knockout(t, random.Random(count)) == rounds
    bracket = t.rounds()
    assert len(bracket[-1]) == 1 and 2 <= len(bracket[-1][0].placings) <= 4
    for earlier, later in itertools.pairwise(bracket):
        went_on = {u for done in later for u in done.placings}
        top = {u for done in earlier for u in done.placings[:2]}
        assert top <= went_on
    everyone = {u for done in bracket[0] for u in done.placings}
    assert everyone | set(t.entrants) == set(t.entrants)
    assert [s.user_id for s in t.podium()] == list(bracket[-1][0].placings[:3])


def test_a_knockout_refuses_late_entrants_and_too_few() -> None:
    t = knockout()
    t.join(Entrant(1, "a"), now=0.0)
    t.join(Entrant(2, "b"), now=0.0)
    with pytest.raises(TournamentError) as refused:
        t.close_entries()
    assert refused.value.code == "tournament_too_few"
    t.join(Entrant(3, "c"), now=0.0)
    t.close_entries()
    with pytest.raises(TournamentError):
        t.join(Entrant(4, "d"), now=0.0)


def test_the_record_round_trips_mid_knockout_and_plays_on_alike() -> None:
    t = knockout(seed=3)
    for user_id in range(1, 13):
        t.join(Entrant(user_id, f"p{user_id}"), now=0.0)
    t.close_entries()
    play_knockout(t, random.Random(1), upto=1)
    saved = Tournament.from_dict(t.to_dict())
    assert saved.to_dict() == t.to_dict()
    play_knockout(t, random.Random(2))
    play_knockout(saved, random.Random(2))
    assert saved.to_dict() == t.to_dict()
    assert saved.podium() == t.podium()


def test_the_edit_window_allows_five_writes_in_five_seconds() -> None:
    window = EditWindow()
    for at in (0.0, 0.1, 0.2, 0.3, 0.4):
        assert window.next_at(at) == at
        window.spend(at)
    assert window.next_at(0.5) == 5.0
    window.spend(5.0)
    assert window.next_at(5.0) == 5.1


def test_an_abandoned_arena_table_scores_nothing_and_its_players_wait_again() -> None:
    t = arena()
    for user_id in (1, 2, 3):
        t.join(Entrant(user_id, f"p{user_id}"), now=0.0)
    t.seat("x", t.pair(0.0)[0])
    t.abandon("x", now=30.0)
    assert t.finishes == [] and t.waiting == {1: 30.0, 2: 30.0, 3: 30.0}
    assert t.pair(30.0) == [(1, 2, 3)] and t.opened == 1


def test_an_abandoned_knockout_table_is_seated_again_before_the_round_goes_on() -> None:
    t = knockout()
    for user_id in range(1, 9):
        t.join(Entrant(user_id, f"p{user_id}"), now=0.0)
    t.close_entries()
    first, second = t.pair(0.0)
    t.seat("a", first)
    t.seat("b", second)
    t.finish("a", first, now=1.0)
    t.abandon("b", now=2.0)
    assert not t.final_played() and t.pair(2.0) == [second]
    t.seat("c", second)
    assert t.round == 1
    t.finish("c", second, now=3.0)
    assert t.advancing() == [*first[:2], *second[:2]]
    saved = Tournament.from_dict(t.to_dict())
    assert saved.to_dict() == t.to_dict()


def test_the_pictures_lines_follow_the_standings_and_the_bracket() -> None:
    t = knockout()
    for user_id in range(1, 9):
        t.join(Entrant(user_id, f"p{user_id}"), now=0.0)
    t.close_entries()
    first, second = t.pair(0.0)
    t.seat("a", first)
    t.seat("b", second)
    t.finish("a", first, now=1.0)
    names = bracket_names(t)
    assert names == [[[f"p{u}" for u in first], [f"p{u}" for u in second]]]
    assert render_bracket("Knockout", names).startswith(b"\x89PNG")
    lines = standings_lines(t)
    assert lines[0][:3] == (1, f"p{first[0]}", 4)
    assert render_standings("Arena", lines).startswith(b"\x89PNG")


def test_an_arena_never_seats_computers_alone() -> None:
    t = arena()
    t.join(Entrant(1, "person"), now=9.0)
    for user_id in range(2, 10):
        t.join(Entrant(user_id, f"c{user_id}", computer="normal"), now=float(user_id))
    [group] = t.pair(now=10.0)
    assert 1 in group and len(group) == 4
    t.join(Entrant(20, "second"), now=11.0)
    groups = t.pair(now=12.0)
    assert len(groups) == 2
    assert all(any(u in (1, 20) for u in g) for g in groups)
    assert sorted(len(g) for g in groups) == [4, 4]


def test_a_players_tournament_record_counts_played_podiums_and_wins() -> None:
    done = []
    for order in ((1, 2, 3), (2, 1, 3), (3, 2, 4)):
        t = arena(ends_at=100.0)
        for user_id in order:
            t.join(Entrant(user_id, f"p{user_id}"), now=0.0)
        t.seat("x", t.pair(0.0)[0])
        t.finish("x", order, now=120.0)
        done.append(t)
    assert record_of(done, 1) == TournamentResults(played=2, podiums=2, won=1)
    assert record_of(done, 4) == TournamentResults(played=1, podiums=1, won=0)
    assert record_of(done, 9) == TournamentResults()


def team_arena() -> Tournament:
    t = arena()
    t.options["teams"] = 2
    return t


def test_a_team_arena_seats_tables_of_two_teams_of_two_only() -> None:
    t = team_arena()
    for user_id in range(1, 4):
        t.join(Entrant(user_id, f"p{user_id}"), now=float(user_id))
    assert t.pair(now=5.0) == []  # three cannot make two teams of two
    for user_id in range(4, 11):
        t.join(Entrant(user_id, f"p{user_id}"), now=float(user_id))
    assert t.pair(now=20.0) == [(1, 2, 3, 4), (5, 6, 7, 8)]  # 9 and 10 wait for two more


def test_partners_share_their_teams_place_and_points() -> None:
    t = team_arena()
    for user_id in range(1, 5):
        t.join(Entrant(user_id, f"p{user_id}"), now=0.0)
    t.go_berserk(3)
    t.seat("x", t.pair(0.0)[0])  # seats alternate: 1 and 3 against 2 and 4
    done = t.finish("x", (3, 1, 4, 2), now=60.0, places=(0, 0, 1, 1))
    assert done.places == (0, 0, 1, 1)
    points = {s.user_id: (s.points, s.wins) for s in t.standings()}
    assert points == {3: (5, 1), 1: (4, 1), 4: (2, 0), 2: (2, 0)}
    again = Tournament.from_dict(t.to_dict())
    assert again.finishes == t.finishes and again.standings() == t.standings()
    old = t.to_dict()
    del old["places"]  # a record written before team arenas: placings count by order
    assert Tournament.from_dict(old).finishes[0].places == ()


def test_a_leaver_missing_from_the_places_comes_after_every_team() -> None:
    t = team_arena()
    for user_id in range(1, 5):
        t.join(Entrant(user_id, f"p{user_id}"), now=0.0)
    t.seat("x", t.pair(0.0)[0])
    done = t.finish("x", (1, 3, 2), now=60.0, places=(0, 0, 1))
    assert done.placings == (1, 3, 2, 4) and done.places == (0, 0, 1, 2)


def team_knockout(count: int, seed: int = 7) -> Tournament:
    t = Tournament("k1", Kind.KNOCKOUT, 1, 2, 3, opened_at=0.0, seed=seed, options={"teams": 2})
    for user_id in range(1, count + 1):
        t.join(Entrant(user_id, f"p{user_id}"), now=float(user_id))
    return t


def team_finish(t: Tournament, table_id: str, won: int) -> Finish:
    """Team ``won`` (0: the first seat's) wins the table: its partners first, sharing a place."""
    a, b, c, d = t.tables[table_id]
    order = (a, c, b, d) if won == 0 else (b, d, a, c)
    return t.finish(table_id, order, now=0.0, places=(0, 0, 1, 1))


def play_team_knockout(t: Tournament, rng: random.Random, upto: int | None = None) -> int:
    """Play rounds (all, or ``upto``), a team winning each table at random; the rounds played."""
    played = 0
    while not t.finished(0.0) and (upto is None or played < upto):
        groups = t.pair(0.0)
        assert groups and all(len(g) == 4 for g in groups)
        for index, group in enumerate(groups):
            t.seat(f"r{t.round}-{index}-{len(t.finishes)}", group)
        for table_id in list(t.tables):
            team_finish(t, table_id, rng.randrange(2))
        played += 1
    return played


def test_a_team_knockout_draws_teams_of_two_and_seats_partners_opposite() -> None:
    t = team_knockout(8)
    assert t.pair(0.0) == [] and t.pairs == []  # entries still open: no teams yet
    t.close_entries()
    assert sorted(u for p in t.pairs for u in p) == list(range(1, 9))
    assert all(len(p) == 2 for p in t.pairs) and len(t.pairs) == 4
    # The draw is the seed's: the same entries and seed draw the same teams.
    again = team_knockout(8)
    again.close_entries()
    assert again.pairs == t.pairs
    other = team_knockout(8, seed=8)
    other.close_entries()
    assert other.pairs != t.pairs
    groups = t.pair(0.0)
    assert len(groups) == 2
    for a, b, c, d in groups:  # seats alternate teams: partners on seats 0 and 2, 1 and 3
        assert t.team_of(a) == t.team_of(c) == tuple(sorted((a, c), key=t.team_of(a).index))
        assert t.team_of(b) == t.team_of(d) != t.team_of(a)
        assert t.pairs.index(t.team_of(a)) < t.pairs.index(t.team_of(b))


@pytest.mark.parametrize(("players", "rounds"), [(4, 1), (6, 2), (8, 2), (10, 3), (16, 3)])
def test_a_team_knockout_advances_the_winning_team_until_a_final_of_two_teams(
    players: int, rounds: int
) -> None:
    t = team_knockout(players)
    t.close_entries()
    assert play_team_knockout(t, random.Random(players)) == rounds
    bracket = t.rounds()
    [final] = bracket[-1]
    assert len(final.placings) == 4 and final.places == (0, 0, 1, 1)
    for index, earlier in enumerate(bracket[:-1]):
        # The winning teams play on (a bye may wait a round); the others never play again.
        went_on = {u for later in bracket[index + 1 :] for done in later for u in done.placings}
        winners = {u for done in earlier for u in t.team_of(done.placings[0])}
        losers = {u for done in earlier for u in done.placings} - winners
        assert winners <= went_on and not losers & went_on
    champions = t.team_of(final.placings[0])
    podium = t.podium()
    assert [(s.rank, s.user_id) for s in podium] == [
        *[(1, u) for u in final.placings if u in champions],
        *[(2, u) for u in final.placings if u not in champions],
    ]
    # Both champions won it; the runners-up were on the podium.
    for s in podium:
        won = int(s.user_id in champions)
        assert record_of([t], s.user_id) == TournamentResults(played=1, podiums=1, won=won)
    out = next(u for u in t.entrants if u not in final.placings) if players > 4 else None
    if out is not None:
        assert record_of([t], out) == TournamentResults(played=1, podiums=0, won=0)


def test_an_odd_team_count_gives_a_bye_never_twice_while_another_team_had_none() -> None:
    t = team_knockout(10)  # five teams: two tables and a bye, then one and a bye, the final
    t.close_entries()
    rng = random.Random(3)
    byes: list[tuple[int, ...]] = []
    while not t.finished(0.0):
        for index, group in enumerate(t.pair(0.0)):
            t.seat(f"r{t.round}-{index}", group)
        if t.byes:
            [bye] = {t.team_of(u) for u in t.byes}
            assert bye not in byes
            byes.append(bye)
        for table_id in list(t.tables):
            team_finish(t, table_id, rng.randrange(2))
    assert [len(r) for r in t.rounds()] == [2, 1, 1] and len(byes) == 2


def test_a_team_knockout_refuses_too_few_or_an_odd_count_of_players() -> None:
    t = team_knockout(3)
    with pytest.raises(TournamentError) as refused:
        t.close_entries()
    assert refused.value.code == "tournament_too_few_teams"
    t.join(Entrant(4, "p4"), now=4.0)
    t.join(Entrant(5, "p5"), now=5.0)
    with pytest.raises(TournamentError) as refused:
        t.close_entries()
    assert refused.value.code == "tournament_odd_players"
    assert not t.drawn and t.pairs == []  # refused: entries stay open
    t.leave(5)
    t.close_entries()
    assert len(t.pairs) == 2 and [len(g) for g in t.pair(0.0)] == [4]


def test_a_leaver_on_the_winning_team_goes_on_with_the_partner_and_a_team_left_empty_loses() -> (
    None
):
    t = team_knockout(8)
    t.close_entries()
    first, second = t.pair(0.0)
    t.seat("a", first)
    t.seat("b", second)
    # At "a" the second seat left: the partner played on and won, the leaver placed last but
    # sharing the team's place (as the table reports a team match).
    a0, a1, a2, a3 = first
    t.finish("a", (a3, a0, a2, a1), now=1.0, places=(0, 1, 1, 0))
    # At "b" both of the first team left: the other team won by forfeit.
    b0, b1, b2, b3 = second
    t.finish("b", (b1, b3, b0, b2), now=2.0, places=(0, 0, 1, 1))
    assert sorted(t.advancing()) == sorted([a1, a3, b1, b3])
    [final] = t.pair(3.0)
    assert {t.team_of(u) for u in final} == {t.team_of(a1), t.team_of(b1)}
    t.seat("c", final)  # the final: both partners of each winning team seated, opposite
    assert {final[0], final[2]} in ({a1, a3}, {b1, b3}) and not t.final_played()
    team_finish(t, "c", won=0)
    assert t.final_played() and {s.user_id for s in t.podium() if s.rank == 1} == {
        final[0],
        final[2],
    }


def test_a_team_knockout_record_round_trips_mid_way_and_plays_on_alike() -> None:
    t = team_knockout(12, seed=5)
    t.close_entries()
    play_team_knockout(t, random.Random(1), upto=1)  # six teams: three tables
    for index, group in enumerate(t.pair(0.0)):  # the next round seated, a team with a bye
        t.seat(f"s{index}", group)
    assert t.byes and t.tables
    data = t.to_dict()
    assert data["pairs"] == [list(p) for p in t.pairs]
    saved = Tournament.from_dict(data)
    assert saved.to_dict() == data and saved.pairs == t.pairs
    assert bracket_names(saved) == bracket_names(t) and bracket_marks(saved) == bracket_marks(t)
    for copy in (t, saved):
        rng = random.Random(2)
        for table_id in list(copy.tables):
            team_finish(copy, table_id, rng.randrange(2))
        play_team_knockout(copy, rng)
    assert saved.to_dict() == t.to_dict() and saved.podium() == t.podium()
    old = t.to_dict()
    del old["pairs"]  # a record from before team knockouts: no teams drawn
    assert Tournament.from_dict(old).pairs == []


def test_a_team_bracket_names_both_teams_of_a_table_behind_their_marks() -> None:
    t = team_knockout(8)
    t.close_entries()
    first, second = t.pair(0.0)
    t.seat("a", first)
    t.seat("b", second)
    team_finish(t, "a", won=1)  # the second seat's team won: listed first, with its mark
    a0, a1, a2, a3 = first
    b0, b1, b2, b3 = second
    assert bracket_names(t) == [
        [[f"p{a1}, p{a3}", f"p{a0}, p{a2}"], [f"p{b0}, p{b2}", f"p{b1}, p{b3}"]]
    ]
    assert bracket_marks(t) == [[[1, 0], [0, 1]]]
    picture = render_bracket("Knockout", bracket_names(t), bracket_marks(t), advance=1)
    assert picture.startswith(b"\x89PNG")
