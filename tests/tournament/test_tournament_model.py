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
