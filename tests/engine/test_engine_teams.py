"""Team play (docs/rules.md, "Teams"): the scenario command's options and team fields, team
scoring in a match, forfeits when one team is left, and saves that keep the teams."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from bot.engine import Edition, Game, RuleSet, edition_deck
from bot.engine.cards import CARD_POINTS
from bot.engine.match import Match
from bot.engine.rules import Scoring
from bot.engine.teams import fitting_counts, partners, seat_teams, sides_left
from tests.engine.helpers import build_deck, do, make_game, play, scenario_text

SCENARIOS = Path(__file__).resolve().parents[2] / "tests" / "scenarios"
TEAM_CASES = sorted(SCENARIOS.glob("teams_*.expected.json"))
TEAM_FIELDS = ("teams", "round_winner_team", "team_scores", "match_winner_teams")


def four_players(**options: Any) -> dict[str, Any]:
    return {
        "edition": "classic",
        "players": 4,
        "dealer": 0,
        "deck": build_deck("classic", [[], ["red-2"], [], []], ["red-5"]),
        "seed": 1,
        "options": options,
        "actions": [{"seat": 1, "do": "play", "card": "red-2"}],
    }


def test_counts_that_fit_each_team_count() -> None:
    assert fitting_counts(2) == [4, 6, 8, 10]
    assert fitting_counts(3) == [6, 9]
    assert fitting_counts(4) == [8]
    assert fitting_counts(5) == [10]
    assert seat_teams(6, 3) == [0, 1, 2, 0, 1, 2]
    assert partners(1, 4, 2) == [3] and partners(0, 6, 2) == [2, 4] and partners(0, 4, 0) == []


@pytest.mark.parametrize("path", TEAM_CASES, ids=[p.stem for p in TEAM_CASES])
def test_team_scenarios_carry_the_team_fields(path: Path) -> None:
    expected = json.loads(path.read_text())["state"]
    data = json.loads(path.with_name(path.name.replace(".expected", "")).read_text())
    got = json.loads(scenario_text(data).stdout)["state"]
    for field in TEAM_FIELDS:
        assert got[field] == expected[field], field


def test_standard_team_round_scores_only_the_other_teams_cards() -> None:
    out = json.loads((SCENARIOS / "teams_standard.expected.json").read_text())["state"]
    hands = out["hands"]
    assert out["winner"] == 1 and out["round_winner_team"] == 1
    # Seat 3 is seat 1's partner: its cards count for nobody; the contract's points still do.
    assert out["team_scores"][1] < out["points"][1]
    assert out["team_scores"] == [0, out["points"][1] - card_points(hands[3])]
    assert out["match_winner_teams"] == [1]


def card_points(hand: list[str]) -> int:
    def one(code: str) -> int:
        if code.startswith("wild"):
            return 50
        tail = code.rsplit("-", 1)[1]
        return int(tail) if tail.isdigit() else 20

    return sum(one(c) for c in hand)


def test_lowest_team_round_keeps_each_teams_own_cards() -> None:
    out = json.loads((SCENARIOS / "teams_lowest.expected.json").read_text())["state"]
    hands, teams = out["hands"], out["teams"]
    tallies = [sum(card_points(h) for s, h in enumerate(hands) if teams[s] == t) for t in range(3)]
    assert out["team_scores"] == tallies
    assert out["match_winner_teams"] == [tallies.index(min(tallies))]


def test_no_team_fields_without_teams() -> None:
    state = json.loads(scenario_text(four_players(teams=0)).stdout)["state"]
    assert not set(TEAM_FIELDS) & set(state)


def test_team_fields_are_null_while_the_round_goes_on() -> None:
    state = json.loads(scenario_text(four_players(teams=2)).stdout)["state"]
    assert state["teams"] == [0, 1, 0, 1]
    assert [state[f] for f in TEAM_FIELDS[1:]] == [None, None, None]


def test_target_not_reached_leaves_the_match_undecided() -> None:
    data = json.loads((SCENARIOS / "teams_standard.json").read_text())
    data["options"]["target"] = 500
    state = json.loads(scenario_text(data).stdout)["state"]
    assert state["round_winner_team"] == 1 and state["match_winner_teams"] is None


BAD_OPTIONS: dict[str, Any] = {
    "options not an object": [2],
    "unknown option": {"partners": True},
    "teams not an integer": {"teams": "2"},
    "teams a boolean": {"teams": True},
    "teams out of the list": {"teams": 1},
    "partners_see not a boolean": {"partners_see": 1},
    "unknown scoring": {"scoring": "highest"},
    "target zero": {"target": 0},
    "target not an integer": {"target": 1.5},
    "teams that do not divide the players": {"teams": 3},
}


@pytest.mark.parametrize("options", BAD_OPTIONS.values(), ids=list(BAD_OPTIONS))
def test_bad_options_exit_2_with_one_line(options: Any) -> None:
    data = four_players()
    data["options"] = options
    result = scenario_text(data)
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1


def test_a_count_that_does_not_fit_names_the_counts_that_do() -> None:
    data = four_players(teams=3)
    assert "6 or 9" in scenario_text(data).stderr
    data["players"] = 5
    data["deck"] = build_deck("classic", [[], ["red-2"], [], [], []], ["red-5"])
    data["options"] = {"teams": 2}
    assert "4, 6, 8 or 10" in scenario_text(data).stderr


def test_leaving_out_of_turn_keeps_the_seat_and_its_team() -> None:
    data = four_players(teams=2)
    data["actions"] = [{"seat": 3, "do": "leave"}, {"seat": 1, "do": "play", "card": "red-2"}]
    out = json.loads(scenario_text(data).stdout)
    state = out["state"]
    assert out["error"] is None and state["hands"][3] == [] and state["uno"][3] is False
    assert state["teams"] == [0, 1, 0, 1] and state["seat"] == 2
    assert sum(len(h) for h in state["hands"]) + state["draw_pile"] + state["discard_pile"] == 108


def test_a_team_with_somebody_left_plays_on() -> None:
    game = make_game("classic", [[], ["red-2"], [], []], ["red-5"], house=None)
    game.teams = 2
    do(game, 3, "leave")
    assert not game.over and sides_left(game) == {0, 1}
    play(game, 1, "red-2")
    assert game.current == 2


def test_the_last_team_left_wins_by_forfeit() -> None:
    game = Game(Edition.CLASSIC, 4, 0, deck(), random.Random(1), teams=2)
    do(game, 1, "leave")
    do(game, 3, "leave")
    assert game.over and game.points == [0, 0, 0, 0] and game.winner in (0, 2)


def deck() -> list[int]:
    cards = edition_deck(Edition.CLASSIC)
    random.Random(4).shuffle(cards)
    return cards


def test_a_round_needs_teams_that_fit() -> None:
    with pytest.raises(ValueError, match="4, 6, 8 or 10"):
        Game(Edition.CLASSIC, 5, 0, deck(), random.Random(1), teams=2)


def test_a_saved_round_keeps_its_teams_and_an_old_save_has_none() -> None:
    game = Game(Edition.CLASSIC, 6, 0, deck(), random.Random(1), teams=3)
    saved = game.to_dict()
    assert Game.from_dict(saved).teams == 3
    del saved["teams"]
    assert Game.from_dict(saved).teams == 0


def finish(match: Match, rng: random.Random) -> None:
    """Play the match's round out with random legal actions and score it."""
    game = match.game
    while not game.over:
        actions = game.legal_actions(game.current)
        game.apply(rng.choice(actions))
        game.end_if_stalled()
    match.finish_round()


def test_team_match_standard_scores_go_to_the_team_that_went_out() -> None:
    rng = random.Random(11)
    match = Match(RuleSet(Edition.CLASSIC, teams=2, target=None), 4, random.Random(2))
    game = match.game
    finish(match, rng)
    won = game.winner % 2
    expected = sum(card_points_of(game, s) for s in range(4) if s % 2 != won)
    assert match.team_totals()[won] == expected and match.team_totals()[1 - won] == 0
    assert match.winner_teams() == [won] and set(match.winners) == {won, won + 2}


def card_points_of(game: Game, seat: int) -> int:
    return sum(CARD_POINTS[c] for c in game.hands[seat])


def test_team_match_lowest_reaches_the_target_and_the_lowest_tally_wins() -> None:
    rng = random.Random(5)
    rules = RuleSet(Edition.CLASSIC, scoring=Scoring.LOWEST, target=60, teams=3)
    match = Match(rules, 6, random.Random(9))
    rounds = 0
    while not match.over and rounds < 50:
        if rounds:
            match.next_round()
        finish(match, rng)
        rounds += 1
    totals = match.team_totals()
    assert match.over and max(totals) >= 60
    assert match.winner_teams() == sorted(t for t in range(3) if totals[t] == min(totals))
    view = match.score_view(["a", "b", "c", "d", "e", "f"])
    assert view.teams == 3 and view.team_totals == tuple(totals)


def test_match_forfeit_when_one_team_is_left_and_saved_matches_keep_teams() -> None:
    match = Match(RuleSet(Edition.SONIC, teams=2), 4, random.Random(3))
    match.leave(0)
    assert not match.over
    restored = Match.from_dict(json.loads(json.dumps(match.to_dict())))
    assert restored.teams == 2 and restored.game.teams == 2
    restored.leave(2)
    assert restored.over and restored.forfeit and restored.winner_teams() == [1]
    assert restored.winners == [1, 3] and restored.rounds[-1] == [0, 0, 0, 0]


def test_rules_without_teams_load_from_an_old_record() -> None:
    data = RuleSet(Edition.MARIO, teams=2, partners_see=True).to_dict()
    assert RuleSet.from_dict(data).teams == 2 and RuleSet.from_dict(data).partners_see
    del data["teams"], data["partners_see"]
    assert RuleSet.from_dict(data) == RuleSet(Edition.MARIO)


def test_a_match_without_teams_has_no_team_totals() -> None:
    match = Match(RuleSet(Edition.CLASSIC, target=None), 3, random.Random(1))
    finish(match, random.Random(2))
    assert match.team_totals() == [] and match.winner_teams() == []
    assert match.score_view(["a", "b", "c"]).team_totals == ()
