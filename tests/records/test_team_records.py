"""Team rounds recorded: every round of seeded simulated team matches (2 to 5 teams, both
scorings, partners seeing or not, players leaving) replays to its stored scores and final
state, and its scenario file carries the teams to the scenario command."""

from __future__ import annotations

import dataclasses
import json

import pytest

from bot.engine import PRESETS, RuleSet
from bot.engine.cards import Edition
from bot.engine.match import Match
from bot.engine.playout import play_match
from bot.engine.record import RecordError, RoundRecord
from bot.engine.review import play_views, team_scores_around
from bot.engine.rules import Scoring
from bot.engine.scenario import Options, run_scenario, state_of, team_state

# (teams, players) that fit: docs/rules.md, "Teams".
LAYOUTS = ((2, 4), (2, 6), (3, 6), (2, 8), (4, 8), (5, 10), (3, 9))
EDITIONS = (Edition.CLASSIC, Edition.SONIC, Edition.MARIO)


def team_match(seed: int) -> Match:
    """A seeded team match of computer players, its layout, edition, scoring and rules varied."""
    teams, players = LAYOUTS[seed % len(LAYOUTS)]
    rules = RuleSet(
        edition=EDITIONS[seed % 3],
        scoring=Scoring.LOWEST if seed % 4 == 3 else Scoring.STANDARD,
        target=150,
        house=PRESETS["party"] if seed % 5 == 1 else PRESETS["official"],
        teams=teams,
        partners_see=seed % 2 == 0,
    )
    levels = [("easy", "normal")[(seed + s) % 2] for s in range(players)]
    return play_match(rules, levels, seed, leave=0.004 if seed % 3 == 0 else 0.0)


@pytest.mark.parametrize("seed", range(28))
def test_every_recorded_team_round_replays_to_its_stored_scores(seed: int) -> None:
    match = team_match(seed)
    assert match.rounds and len(match.records) == len(match.rounds)
    for text, points in zip(match.records, match.rounds, strict=True):
        assert text, "a team round went unrecorded"
        record = RoundRecord.from_text(text)
        assert record.teams == match.teams and record.partners_see == match.rules.partners_see
        assert record.points == tuple(points)
        assert record.replayed_points() == points
        assert record.to_text() == text
    last = RoundRecord.from_text(match.records[-1]).replay()
    assert state_of(last) == state_of(match.game)
    assert last.events == match.game.events
    assert last.teams == match.teams


def test_some_seeded_team_match_has_a_player_leave() -> None:
    records = [
        RoundRecord.from_text(t) for seed in range(0, 28, 3) for t in team_match(seed).records
    ]
    assert any(any(a.do == "leave" for a in r.actions) for r in records)
    assert all(r.replayed_points() == list(r.points or ()) for r in records)


@pytest.mark.parametrize("seed", [0, 3, 5])
def test_a_team_round_file_replays_in_the_scenario_command_with_its_teams(seed: int) -> None:
    match = team_match(seed)
    record = RoundRecord.from_text(match.records[0])
    data = json.loads(json.dumps(record.to_scenario(match=1, round=1)))
    assert data["options"]["teams"] == match.teams
    result = run_scenario(data)
    assert result["error"] is None
    game = record.replay()
    options = Options(record.teams, record.partners_see, record.scoring)
    assert result["state"] == {**state_of(game), **team_state(game, options)}
    assert RoundRecord.from_scenario(data) == record
    winner_team = result["state"]["round_winner_team"]
    if record.scoring is Scoring.STANDARD and winner_team is not None and not record.forfeit:
        assert sum(record.points or ()) == result["state"]["team_scores"][winner_team]


def test_a_stored_record_with_teams_that_do_not_fit_is_refused() -> None:
    text = RoundRecord.from_text(team_match(0).records[0]).to_text()
    with pytest.raises(RecordError, match="teams"):
        RoundRecord.from_text(text.replace('"t":2', '"t":3'))
    with pytest.raises(RecordError, match="teams"):
        RoundRecord.from_text(text.replace('"t":2', '"t":7'))


def test_a_team_rounds_replay_and_recap_frames_show_the_team_scores() -> None:
    match = team_match(0)  # two teams of two, several rounds
    assert len(match.records) >= 2 and match.teams == 2
    view = match.score_view([f"P{s}" for s in range(match.n)])
    second = dataclasses.replace(view, rounds=view.rounds[:2], totals=totals_after(match, 2))
    before, after = team_scores_around(second)
    first_round = totals_after(match, 1)
    assert before == [sum(first_round[s] for s in range(t, match.n, 2)) for t in range(2)]
    assert after == [sum(second.totals[s] for s in range(t, match.n, 2)) for t in range(2)]
    record = RoundRecord.from_text(match.records[1])
    views = play_views(record, list(second.names), 2, (before, after))
    assert all(v.team_scores == tuple(before) for v in views[:-1])
    assert views[-1].team_scores == tuple(after) and views[-1].round_number == 2
    assert team_scores_around(dataclasses.replace(second, teams=0)) == ([], [])


def totals_after(match: Match, rounds: int) -> tuple[int, ...]:
    """Each seat's total after the match's first ``rounds`` rounds."""
    return tuple(map(sum, zip(*match.rounds[:rounds], strict=True)))
