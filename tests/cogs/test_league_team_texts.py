"""The league's texts for team matches: each seat's team mark, the teams with their players and
points, and the team count in the history."""

from __future__ import annotations

from bot.storage.models import MatchDetail, MatchSummary, PlayerResult, RoundSummary
from cogs.league.presenters import history_text, match_text, option_label


def seat(n: int, team: int | None, winner: bool, points: int = 0) -> PlayerResult:
    return PlayerResult(
        n + 1, f"P{n}", n, points, 1 if winner else 2, False, winner, None, None, team
    )


def detail(teams: int) -> MatchDetail:
    players = [seat(n, n % 2 if teams else None, n % 2 == 1, 90 if n == 1 else 0) for n in range(4)]
    return MatchDetail(
        number=7, match_uid="m", guild_id=1, channel_id=2, season=1, edition="classic",
        scoring="standard", target=50, started_at=0.0, finished_at=60.0, players=players,
        rounds=[RoundSummary(1, [0, 90, 0, 0], [0, 90, 0, 0], 1)], events=[], teams=teams,
    )  # fmt: skip


def test_a_team_match_lists_its_teams_winners_first_and_marks_every_seat() -> None:
    text = match_text(detail(2))
    assert "🏆 🟦 Team 2 (P1, P3) · 90 pts\n🟥 Team 1 (P0, P2) · 0 pts" in text
    assert "🏆 🟦 **P1**" in text and "🟥 **P0**" in text


def test_a_match_without_teams_has_no_marks() -> None:
    text = match_text(detail(0))
    assert "Team" not in text and "🟥" not in text and "🟦" not in text


def test_the_history_names_the_team_count_and_marks_the_winners() -> None:
    players = detail(2).players
    winners = [p for p in players if p.winner]
    summary = MatchSummary(3, 1, "classic", "standard", 60.0, 60.0, 1, 4, winners, teams=2)
    text = history_text([summary])
    assert "4 players · 2 teams" in text and "🟦 **P1**, 🟦 **P3**" in text
    assert option_label(summary).endswith("🟦 P1, P3")
    solo = MatchSummary(4, 1, "classic", "standard", 60.0, 60.0, 1, 2, [seat(0, None, True)])
    assert "teams" not in history_text([solo]) and "🟥" not in option_label(solo)
