"""Sample views for the demo, the benchmark and the tests (fixed, no game needed)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.engine.cards import Edition
from bot.engine.match import ScoreView
from bot.engine.phase import Phase
from bot.engine.snapshot import HandView, PublicView, SeatView

from .art import edition_cards

SAMPLE_NAMES = (
    "Crème Brûlée",
    "Gökhan",
    "**bold** _markdown_",
    "名前テスト",
    "A very long display name that goes on",
    "Zoë 🎉",
    "Łukasz",
    "Søren",
    "Ana-María",
    "Jürgen",
)
RECENT_BY_EDITION = {
    Edition.CLASSIC: ("blue-7", "blue-reverse", "green-reverse", "green-2", "wild-draw4"),
    Edition.SONIC: ("yellow-3", "yellow-skip", "red-skip", "red-9", "wild-victory-lap"),
    Edition.MARIO: ("green-5", "green-draw2", "blue-draw2", "blue-1", "wild-super-star"),
}


def sample_table(
    players: int = 4, edition: Edition = Edition.CLASSIC, color: str | None = "green"
) -> PublicView:
    """A table mid-round with every seat feature shown somewhere."""
    current = 1 % players
    seats = tuple(
        SeatView(
            seat=s,
            name=SAMPLE_NAMES[s % len(SAMPLE_NAMES)],
            cards=(1 if s in (2, 3) else 7 - s % 4 + s // 4),
            active=not (players > 4 and s == 4),
            current=s == current,
            dealer=s == 0,
            called_uno=s == 2,
            catchable=s == 3,
            score=s * 35,
            computer=s == 5 or (players == 2 and s == 1),
        )
        for s in range(players)
    )
    recent = RECENT_BY_EDITION[edition]
    return PublicView(
        edition=edition,
        seats=seats,
        top=recent[-1],
        recent=recent,
        color=color,
        direction=-1 if players % 2 else 1,
        draw_pile=61,
        discard_pile=17,
        awaiting=Phase.TURN,
        current=current,
        pending="wild-draw4" if edition is Edition.CLASSIC and players == 4 else None,
        pending_from=0,
        round_number=2,
        target=500,
    )


def sample_team_table(
    players: int = 4, teams: int = 2, edition: Edition = Edition.CLASSIC
) -> PublicView:
    """The sample table played in ``teams`` teams (seat s on team s mod teams), with scores."""
    view = sample_table(players, edition)
    seats = tuple(replace(seat, team=seat.seat % teams) for seat in view.seats)
    scores = tuple(sum(seat.score for seat in seats if seat.team == t) for t in range(teams))
    return replace(view, seats=seats, team_scores=scores)


def sample_hand(cards: int = 7, edition: Edition = Edition.CLASSIC) -> HandView:
    """A hand of ``cards`` cards in display order, every other one playable."""
    deck = edition_cards(edition)
    step = max(1, len(deck) // max(1, cards)) if cards <= len(deck) else 1
    codes = [deck[(i * step + i // len(deck)) % len(deck)] for i in range(cards)]
    order = {c: i for i, c in enumerate(deck)}
    codes.sort(key=lambda c: order[c])
    playable = tuple(
        c.startswith("wild") or c.startswith("green") or c.endswith("-2") for c in codes
    )
    return HandView(
        edition=edition,
        seat=0,
        name="Crème Brûlée",
        cards=tuple(codes),
        playable=playable,
        awaiting=Phase.TURN,
        top="green-2",
        color="green",
    )


def sample_scores(
    players: int = 4, edition: Edition = Edition.CLASSIC, teams: int = 0
) -> ScoreView:
    """A match a few rounds in (in ``teams`` teams when given)."""
    rounds = (
        tuple(0 if s != 0 else 86 for s in range(players)),
        tuple(0 if s != 1 else 142 for s in range(players)),
        tuple(0 if s != 2 else 57 for s in range(players)),
        tuple(0 if s != 0 else 120 for s in range(players)),
        tuple(0 if s != 1 else 98 for s in range(players)),
    )
    totals = tuple(sum(r[s] for r in rounds) for s in range(players))
    return ScoreView(
        edition=edition,
        names=tuple(SAMPLE_NAMES[s % len(SAMPLE_NAMES)] for s in range(players)),
        rounds=rounds,
        totals=totals,
        target=500,
        scoring="standard",
        round_winners=(0, 1, 2, 0, 1),
        winners=(),
        active=tuple(True for _ in range(players)),
        teams=teams,
        team_totals=tuple(sum(totals[s] for s in range(t, players, teams)) for t in range(teams)),
    )


@dataclass(frozen=True, slots=True)
class SampleLine:
    """A leaderboard line (the fields storage's LeaderboardRow has)."""

    rank: int
    name: str
    matches: int
    wins: int
    win_rate: float
    points: int
    display_rating: int
    provisional: bool = False


def sample_standings(rows: int = 10) -> list[SampleLine]:
    """A page of standings, best first."""
    return [
        SampleLine(
            rank=i + 1,
            name=SAMPLE_NAMES[i % len(SAMPLE_NAMES)],
            matches=40 - i,
            wins=20 - i,
            win_rate=(20 - i) / (40 - i),
            points=5000 - 321 * i,
            display_rating=1630 - 34 * i,
            provisional=i >= rows - 2,  # the last two are new
        )
        for i in range(rows)
    ]
