"""A recorded round looked back on: its moves one by one with their events, and its key moments.

A replay steps through these; the scoreboard's awards read them too.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass
from functools import lru_cache

from . import ai
from .action import Action
from .errors import RuleError
from .events import (
    Caught,
    Challenged,
    Drew,
    Forfeit,
    JumpedIn,
    Left,
    Played,
    RoundOver,
    Stacked,
    Stalled,
    Swapped,
)
from .game import Event, Game
from .match import ScoreView
from .record import RecordError, RoundRecord, apply_recorded
from .snapshot import PublicView, public_view

# What makes a move worth jumping to, in the order the replay's list names them.
MOMENT_KINDS = (
    "wild_draw4",
    "challenge",
    "stack",
    "penalty",
    "catch",
    "swap",
    "jump_in",
    "leave",
    "went_out",
)
BIG_DRAW = 4  # a draw of this many cards or more is a key moment
# The hard player's search when judging a decision (about 16 ms; a table's hard player searches
# for up to 120 ms): enough to tell a clearly worse move from one of about the same worth.
HARD_ROLLOUTS = 400


@dataclass(frozen=True, slots=True)
class Move:
    """One recorded action (``number`` counts from 1) and the events it caused."""

    number: int
    action: Action
    events: tuple[Event, ...]
    hand_sizes: tuple[int, ...]  # every seat's card count after it


@dataclass(frozen=True, slots=True)
class Moment:
    """A move worth jumping to and why."""

    number: int
    kind: str  # one of MOMENT_KINDS
    seat: int
    count: int = 0  # cards drawn or penalty size, where that is the point


@dataclass(frozen=True, slots=True)
class ReviewedRound:
    """A round replayed once, move by move."""

    record: RoundRecord
    deal: tuple[Event, ...]  # the deal's own events (the first card turned up ...)
    moves: tuple[Move, ...]
    final: Game

    @property
    def total(self) -> int:
        """How many moves the round had."""
        return len(self.moves)

    def game_at(self, number: int) -> Game:
        """The round after its first ``number`` moves (0: as dealt)."""
        return self.record.replay(max(0, min(number, self.total)))

    def moments(self) -> list[Moment]:
        """The round's key moments, in the order they happened."""
        found: list[Moment] = []
        for move in self.moves:
            found.extend(_moments(move))
        return found


def review(record: RoundRecord) -> ReviewedRound:
    """Replay ``record`` once, keeping each move's events."""
    game = record.new_game()
    deal = tuple(game.events)
    moves: list[Move] = []
    for number, action in enumerate(record.actions, start=1):
        start = len(game.events)
        apply_recorded(game, action)
        sizes = tuple(len(hand) for hand in game.hands)
        moves.append(Move(number, action, tuple(game.events[start:]), sizes))
    return ReviewedRound(record, deal, tuple(moves), game)


def _moments(move: Move) -> list[Moment]:
    out: list[Moment] = []
    number = move.number
    for event in move.events:
        match event:
            case Played(seat=seat, card="wild-draw4"):
                out.append(Moment(number, "wild_draw4", seat))
            case Challenged(seat=seat):
                out.append(Moment(number, "challenge", seat))
            case Stacked(seat=seat, total=total):
                out.append(Moment(number, "stack", seat, total))
            case Drew(seat=seat, count=count) if count >= BIG_DRAW:
                out.append(Moment(number, "penalty", seat, count))
            case Caught(seat=seat):
                out.append(Moment(number, "catch", seat))
            case Swapped(seat=seat) | JumpedIn(seat=seat) | Left(seat=seat):
                out.append(Moment(number, event.TYPE, seat))
            case RoundOver(winner=winner) | Stalled(winner=winner) | Forfeit(winner=winner):
                out.append(Moment(number, "went_out", winner))
    return out


# ----- awards: the round's moments the scoreboard names -----

AWARD_KINDS = ("biggest_penalty", "longest_draw", "challenge_won", "comeback", "catches")
PENALTY_REASONS = frozenset({"draw2", "draw4", "challenge", "bounce"})
LONG_DRAW = 3  # drawing this many cards on one turn is worth naming
COMEBACK_MARGIN = 4  # going out after holding this many cards more than the deal gave


@dataclass(frozen=True, slots=True)
class Award:
    """A moment of the round worth naming on the scoreboard: what, who and how many."""

    kind: str  # one of AWARD_KINDS
    seat: int
    count: int


def awards(reviewed: ReviewedRound) -> tuple[Award, ...]:
    """The round's awards, in AWARD_KINDS order; a kind nobody earned is left out."""
    penalty: Award | None = None
    draw: Award | None = None
    challenges: dict[int, int] = {}
    catches: dict[int, int] = {}
    for move in reviewed.moves:
        for event in move.events:
            match event:
                case Drew(seat=seat, count=count, reason=reason):
                    if reason in PENALTY_REASONS and (penalty is None or count > penalty.count):
                        penalty = Award("biggest_penalty", seat, count)
                    elif reason in ("draw", "until_playable") and count >= max(
                        LONG_DRAW, draw.count + 1 if draw else 0
                    ):
                        draw = Award("longest_draw", seat, count)
                case Challenged(seat=seat, legal=False):
                    challenges[seat] = challenges.get(seat, 0) + 1
                case Caught(seat=seat):
                    catches[seat] = catches.get(seat, 0) + 1
    found = [a for a in (penalty, draw) if a is not None]
    found += [Award("challenge_won", s, n) for s, n in sorted(challenges.items())]
    winner = reviewed.final.winner
    if winner >= 0 and reviewed.moves:
        most = max(move.hand_sizes[winner] for move in reviewed.moves)
        if most >= reviewed.record.house.hand_size + COMEBACK_MARGIN:
            found.append(Award("comeback", winner, most))
    found += [Award("catches", s, n) for s, n in sorted(catches.items())]
    return tuple(sorted(found, key=lambda a: AWARD_KINDS.index(a.kind)))


# ----- agreement with the hard computer player -----

DECISIONS = frozenset({"play", "draw", "pass", "accept", "challenge", "choose_color"})


@dataclass(frozen=True, slots=True)
class Agreement:
    """How often a seat did what the hard computer player would have done in its place, or
    something its search could not tell from that (``exact``: its very choice)."""

    seat: int
    decisions: int
    agreed: int
    exact: int = 0

    @property
    def share(self) -> float:
        """Agreed decisions over all decisions (0 with none)."""
        return self.agreed / self.decisions if self.decisions else 0.0


def same_choice(ours: Action, theirs: Action) -> bool:
    """Two turn decisions agree on what was done and with which card (and color, for the
    color of a card turned up first); a wild card's color is a matter of taste."""
    if ours.do != theirs.do or ours.card != theirs.card:
        return False
    return ours.do != "choose_color" or ours.color == theirs.color


def as_good(action: Action, judged: ai.Search) -> bool:
    """Is ``action`` the judge's choice, or a move its search cannot tell from that choice
    (its rollouts on the same guesses do not put it more than one standard error behind, or,
    without a search, its heuristic scores both alike)?"""
    if same_choice(action, judged.choice):
        return True
    index = next((i for i, m in enumerate(judged.moves) if same_choice(action, m)), None)
    return index is not None and judged.cannot_tell(index)


def decisions(record: RoundRecord, seats: Collection[int]) -> Iterator[tuple[int, Game, Action]]:
    """The turn decisions of ``seats`` in the round, in order: each action's number, the game
    just before it (read it before asking for the next: it moves on) and the action."""
    game = record.new_game()
    for number, action in enumerate(record.actions, start=1):
        seat = action.seat
        if seat in seats and action.do in DECISIONS and game.current == seat and not game.over:
            yield number, game, action
        apply_recorded(game, action)


def agreement(
    record: RoundRecord, seats: Collection[int], *, rollouts: int = HARD_ROLLOUTS, salt: int = 0
) -> dict[int, Agreement]:
    """Per seat in ``seats``: its turn decisions, how many were as good as what the hard
    computer player, put in its place at that moment, would have done (``as_good``), and how
    many were that very move (``ai.reference``: the answer never changes; ``salt`` changes the
    seeds of its search, for a second, independent judge)."""
    asked = {seat: [0, 0, 0] for seat in seats}
    for number, game, action in decisions(record, asked):
        judged = ai.reference_search(game, action.seat, record.seed ^ salt, number, rollouts)
        tally = asked[action.seat]
        tally[0] += 1
        tally[1] += as_good(action, judged)
        tally[2] += same_choice(action, judged.choice)
    return {seat: Agreement(seat, *tally) for seat, tally in asked.items()}


@lru_cache(maxsize=64)
def round_awards(text: str) -> tuple[Award, ...]:
    """The awards of a stored round record (cached: a round-over table asks at every change);
    none for a record that cannot be read or does not replay (a round changed by hand)."""
    try:
        return awards(review(RoundRecord.from_text(text)))
    except (RecordError, RuleError):
        return ()


def plays(reviewed: ReviewedRound) -> int:
    """How many cards the round saw played (none when it was forfeited before anyone played)."""
    return sum(isinstance(e, Played) for move in reviewed.moves for e in move.events)


@lru_cache(maxsize=64)
def round_plays(text: str) -> int:
    """The cards played in a stored round record (cached, as ``round_awards``); 0 for a record
    that cannot be read or does not replay."""
    try:
        return plays(review(RoundRecord.from_text(text)))
    except (RecordError, RuleError):
        return 0


def team_scores_around(scores: ScoreView) -> tuple[list[int], list[int]]:
    """A team round's team totals as they stood while it was played and once it was scored,
    from the scoreboard after it (whose last round is this one); empty lists without teams."""
    teams = scores.teams
    if not teams:
        return [], []
    last = scores.rounds[-1] if scores.rounds else (0,) * len(scores.totals)
    before, after = [0] * teams, [0] * teams
    for seat, total in enumerate(scores.totals):
        after[seat % teams] += total
        before[seat % teams] += total - (last[seat] if seat < len(last) else 0)
    return before, after


def play_views(
    record: RoundRecord,
    names: list[str],
    round_number: int = 1,
    team_scores: tuple[list[int], list[int]] = ([], []),
) -> list[PublicView]:
    """The table as everyone saw it at the deal and after each card played (and at the end);
    ``team_scores``: a team round's team totals while it was played, and once scored."""
    during, scored = team_scores
    game = record.new_game()
    views = [public_view(game, names, round_number=round_number, team_scores=during)]
    for action in record.actions:
        start = len(game.events)
        apply_recorded(game, action)
        played = any(isinstance(e, Played) for e in game.events[start:])
        if played or game.over:
            shown = scored if game.over and scored else during
            views.append(public_view(game, names, round_number=round_number, team_scores=shown))
    return views
