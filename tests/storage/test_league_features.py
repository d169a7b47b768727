"""Per-server match numbers, shown ratings, house rules and the official-rules filter."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from openskill.models import PlackettLuce

from bot.storage import GuildSettings, MatchRecord, StaleTableError, Storage, TableRecord
from bot.storage.rating import PROVISIONAL_MATCHES, display_rating

from .helpers import make_match, random_match

STACKING = {"stack": "all", "jump_in": True}


def house(record: MatchRecord, rules: dict[str, Any] | None = None) -> MatchRecord:
    return replace(record, house_rules=dict(STACKING if rules is None else rules))


async def test_each_server_numbers_its_own_matches(storage: Storage) -> None:
    order = [1, 2, 1, 1, 2, 3]
    for index, guild in enumerate(order):
        assert await storage.record_match(
            make_match(f"m{index}", [(1, 100), (2, 0)], guild_id=guild)
        )
    assert not await storage.record_match(make_match("m0", [(1, 100), (2, 0)]))  # a replay
    assert [m.number for m in await storage.recent_matches(1)] == [3, 2, 1]
    assert [m.number for m in await storage.recent_matches(2)] == [2, 1]
    assert [m.number for m in await storage.recent_matches(3)] == [1]
    assert [m.number for m in await storage.recent_matches(1, limit=2, offset=1)] == [2, 1]
    for guild, number, uid in ((1, 1, "m0"), (1, 3, "m3"), (2, 2, "m4"), (3, 1, "m5")):
        detail = await storage.match_detail(guild, number)
        assert detail is not None and detail.match_uid == uid and detail.number == number
        assert detail.match_id == number  # the old name means the server's number too
    assert await storage.match_detail(2, 3) is None
    assert await storage.match_detail(3, 2) is None
    exported = await storage.export_guild(2)
    assert [(m["match_id"], m["match_uid"]) for m in exported["matches"]] == [(1, "m1"), (2, "m4")]
    assert await storage.record_match(make_match("m9", [(1, 100), (2, 0)], guild_id=2))
    assert (await storage.recent_matches(2))[0].number == 3  # the replay used no number


async def test_shown_ratings_start_at_1000_and_stay_positive(storage: Storage) -> None:
    await storage.record_match(make_match("m1", [(1, 300), (2, 100), (3, 0)]))
    board = await storage.leaderboard(1)
    first, _, last = board.rows
    assert first.display_rating > 1000 > last.display_rating > 500
    assert all(row.display_rating == display_rating(row.rating) for row in board.rows)
    assert all(row.provisional and row.rated_matches == 1 for row in board.rows)
    assert last.rating < 0  # the ordinal people used to see
    stats = await storage.player_stats(1, 1)
    assert stats is not None
    # The shown rating is openskill's ordinal with alpha and target, from mu and sigma.
    model = PlackettLuce()
    expected = model.rating(stats.mu, stats.sigma).ordinal(3.0, 20.0, 1000.0)
    assert stats.display_rating == round(expected) == first.display_rating
    detail = await storage.match_detail(1, 1)
    assert detail is not None
    seat = detail.players[2]
    assert seat.display_before == 1000 and seat.display_after == last.display_rating


async def test_a_rating_is_provisional_until_enough_rated_matches(storage: Storage) -> None:
    for index in range(PROVISIONAL_MATCHES - 1):
        await storage.record_match(make_match(f"m{index}", [(1, 100), (2, 0)]))
    # Unrated: a person against an unrated computer, and a house-ruled match.
    await storage.record_match(make_match("bot", [(1, 100), (-1, 0)], computers=frozenset({-1})))
    await storage.record_match(house(make_match("h", [(1, 100), (2, 0)])))
    stats = await storage.player_stats(1, 1)
    assert stats is not None
    assert (stats.matches, stats.rated_matches, stats.provisional) == (
        PROVISIONAL_MATCHES + 1,
        PROVISIONAL_MATCHES - 1,
        True,
    )
    await storage.record_match(make_match("last", [(1, 100), (2, 0)]))
    stats = await storage.player_stats(1, 1)
    assert stats is not None and stats.rated_matches == PROVISIONAL_MATCHES
    assert not stats.provisional
    [row] = [r for r in (await storage.leaderboard(1)).rows if r.user_id == 1]
    assert not row.provisional and row.rated_matches == PROVISIONAL_MATCHES


async def test_house_rules_are_stored_with_each_match(storage: Storage) -> None:
    rules = {"stack": "draw2", "hand_size": 9, "seven_o": True}
    await storage.record_match(make_match("official", [(1, 100), (2, 0)]))
    await storage.record_match(house(make_match("house", [(1, 100), (2, 0)]), rules))
    newest, oldest = await storage.recent_matches(1)
    assert newest.house_rules == rules and oldest.house_rules == {}
    detail = await storage.match_detail(1, newest.number)
    assert detail is not None and detail.house_rules == rules and not detail.official
    official = await storage.match_detail(1, oldest.number)
    assert official is not None and official.official
    exported = await storage.export_guild(1)
    assert [m["house_rules"] for m in exported["matches"]] == [{}, rules]


async def test_malformed_house_rules_are_rejected_before_storage(storage: Storage) -> None:
    with pytest.raises(ValueError, match="house rule"):
        await storage.record_match(house(make_match("m", [(1, 100), (2, 0)]), {"stack": 2.5}))
    assert await storage.recent_matches(1) == []


async def test_house_ruled_matches_count_but_do_not_rate_by_default(storage: Storage) -> None:
    await storage.record_match(make_match("m1", [(1, 100), (2, 0)]))
    before = await storage.player_stats(1, 2)
    await storage.record_match(house(make_match("m2", [(2, 100), (1, 0)])))
    after = await storage.player_stats(1, 2)
    assert before is not None and after is not None
    assert (after.matches, after.wins) == (2, 1)
    assert (after.mu, after.sigma, after.rated_matches) == (before.mu, before.sigma, 1)
    detail = await storage.match_detail(1, 2)
    assert detail is not None
    assert all(p.rating_before is None and p.rating_after is None for p in detail.players)
    official = await storage.player_stats(1, 2, official_only=True)
    assert official is not None and (official.matches, official.wins) == (1, 0)
    assert official.official_only and not after.official_only
    board = await storage.leaderboard(1, sort="wins", official_only=True)
    assert [(r.user_id, r.wins) for r in board.rows] == [(1, 1), (2, 0)] and board.official_only


async def test_a_server_can_rate_house_ruled_matches_too(storage: Storage) -> None:
    await storage.save_settings(GuildSettings(1, rate_house_rules=True))
    await storage.record_match(make_match("m1", [(1, 100), (2, 0)]))
    await storage.record_match(house(make_match("m2", [(2, 100), (1, 0)])))
    every = await storage.player_stats(1, 2)
    official = await storage.player_stats(1, 2, official_only=True)
    assert every is not None and official is not None
    assert every.rated_matches == 2 and every.mu > official.mu
    assert official.rated_matches == 1
    detail = await storage.match_detail(1, 2)
    assert detail is not None and all(p.rating_after is not None for p in detail.players)


async def test_the_official_filter_is_the_plain_board_until_house_rules_are_played(
    storage: Storage,
) -> None:
    for index in range(3):
        await storage.record_match(make_match(f"m{index}", [(1, 100), (2, 0), (3, index)]))
    for season in (None, 1):
        plain = await storage.leaderboard(1, season)
        official = await storage.leaderboard(1, season, official_only=True)
        assert official.rows == plain.rows and official.total == plain.total
        official_stats = await storage.player_stats(1, 3, season, official_only=True)
        assert official_stats is not None and official_stats.official_only
        assert await storage.player_stats(1, 3, season) == replace(
            official_stats, official_only=False
        )


def replay(
    matches: list[MatchRecord], rate_house_rules: bool
) -> dict[tuple[bool, int], dict[str, Any]]:
    """Standings from scratch for one server and season: (official_only, user) -> totals."""
    model = PlackettLuce()
    rows: dict[tuple[bool, int], dict[str, Any]] = {}
    for m in matches:
        official = not m.house_rules
        for official_only in (False, True):
            if official_only and not official:
                continue
            teams = []
            for p in m.players:
                row = rows.setdefault(
                    (official_only, p.user_id),
                    dict(matches=0, wins=0, points=0, rated=0, mu=model.mu, sigma=model.sigma),
                )
                row["matches"] += 1
                row["wins"] += p.user_id in m.winners
                row["points"] += p.points
                teams.append([model.rating(mu=row["mu"], sigma=row["sigma"])])
            if official or rate_house_rules:
                rated = model.rate(teams, ranks=[p.place for p in m.players])
                for p, team in zip(m.players, rated, strict=True):
                    row = rows[official_only, p.user_id]
                    row.update(mu=team[0].mu, sigma=team[0].sigma, rated=row["rated"] + 1)
    return rows


@pytest.mark.parametrize("rate_house_rules", [False, True])
async def test_both_filters_equal_a_replay_of_the_matches(
    storage: Storage, rate_house_rules: bool
) -> None:
    rng = random.Random(11 + rate_house_rules)
    await storage.save_settings(GuildSettings(1, rate_house_rules=rate_house_rules))
    matches = []
    for index in range(30):
        match = random_match(rng, f"r{index}", 1, list(range(100, 110)))
        # Some players only ever play with house rules, some never do.
        if index >= 5 and rng.random() < 0.4:
            match = house(random_match(rng, f"h{index}", 1, list(range(105, 113))))
        matches.append(match)
        assert await storage.record_match(match)
    expected = replay(matches, rate_house_rules)
    for official_only in (False, True):
        for season in (None, 1):
            board = await storage.leaderboard(1, season, limit=100, official_only=official_only)
            users = sorted(
                (u for o, u in expected if o == official_only),
                key=lambda u: (
                    -(expected[official_only, u]["mu"] - 3 * expected[official_only, u]["sigma"]),
                    u,
                ),
            )
            assert [r.user_id for r in board.rows] == users
            assert board.total == len(users)
            for row in board.rows:
                want = expected[official_only, row.user_id]
                assert (row.matches, row.wins, row.points, row.rated_matches) == (
                    want["matches"],
                    want["wins"],
                    want["points"],
                    want["rated"],
                )
                stats = await storage.player_stats(
                    1, row.user_id, season, official_only=official_only
                )
                assert stats is not None
                assert stats.mu == pytest.approx(want["mu"])
                assert stats.sigma == pytest.approx(want["sigma"])
                assert stats.rank == row.rank
    never_official = {u for o, u in expected if not o} - {u for o, u in expected if o}
    for user in never_official:
        assert await storage.player_stats(1, user, official_only=True) is None


async def test_a_finished_table_is_dropped_only_at_the_version_seen(storage: Storage) -> None:
    await storage.save_table(TableRecord("t1", 1, 10, 7, "{}", 0.0), seen=0)
    record = make_match("m1", [(1, 100), (2, 0)])
    with pytest.raises(StaleTableError, match="already at version 7"):
        await storage.record_match(record, "t1", table_version=6)
    assert await storage.recent_matches(1) == []
    assert await storage.player_stats(1, 1) is None
    assert len(await storage.load_tables()) == 1
    assert await storage.record_match(record, "t1", table_version=7)
    assert await storage.load_tables() == []
    assert [m.number for m in await storage.recent_matches(1)] == [1]


async def test_leaderboard_totals_follow_newcomers_seasons_house_rules_and_forget_me(
    storage: Storage,
) -> None:
    async def totals() -> list[int]:
        pages = [
            await storage.leaderboard(1, season, official_only=official_only)
            for season in (None, 1, 2)
            for official_only in (False, True)
        ]
        for page in pages:  # the kept count agrees with the rows themselves
            assert page.total == len(
                (
                    await storage.leaderboard(
                        1, page.season, limit=100, official_only=page.official_only
                    )
                ).rows
            )
        return [page.total for page in pages]

    await storage.record_match(make_match("m1", [(1, 100), (2, 0)]))
    await storage.record_match(make_match("m2", [(1, 100), (3, 0)]))
    assert await totals() == [3, 3, 3, 3, 0, 0]
    await storage.record_match(house(make_match("h1", [(4, 100), (1, 0)])))
    assert await totals() == [4, 3, 4, 3, 0, 0]
    await storage.start_season(1)
    await storage.record_match(make_match("m3", [(5, 100), (2, 0)]))
    await storage.record_match(house(make_match("h2", [(6, 100), (5, 0)])))
    assert await totals() == [6, 4, 4, 3, 3, 2]
    await storage.forget_user(1, 5)
    assert await totals() == [5, 3, 4, 3, 2, 1]
    await storage.record_match(make_match("m4", [(5, 100), (7, 0)]))
    assert await totals() == [7, 5, 4, 3, 4, 3]
