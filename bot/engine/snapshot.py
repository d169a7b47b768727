"""What each person may see: the public table (counts, never cards) and one seat's own hand.

Views are frozen, plain data (codes and names as strings) so the renderer and the Discord layer
never touch the live game, and a table picture cannot leak a hand: the public view holds no cards
but the discard pile.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import CARD_COLOR, CARD_RANK, CODES, COLORS, IS_WILD, WILD_SUPER_STAR, Edition
from .game import Do, Game, Phase
from .house import OFFICIAL, HouseRules

RECENT_DISCARDS = 5


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat as everyone sees it."""

    seat: int
    name: str
    cards: int
    active: bool = True
    current: bool = False
    dealer: bool = False
    called_uno: bool = False  # holds one card and called UNO
    catchable: bool = False  # holds one card, did not call, and can still be caught
    score: int = 0  # running total toward the target (or tally under lowest scoring)
    computer: bool = False
    team: int | None = None  # the seat's team in a team game (seat mod teams)


@dataclass(frozen=True, slots=True)
class PublicView:
    """The table as every player sees it."""

    edition: Edition
    seats: tuple[SeatView, ...]
    top: str | None
    recent: tuple[str, ...]  # the last few discards, oldest first, top last
    color: str | None  # the color in force; None while a turned-up wild waits for its color
    direction: int  # 1 clockwise, -1 counter-clockwise
    draw_pile: int
    discard_pile: int
    awaiting: Phase  # what the round waits for
    current: int | None
    pending: str | None = None  # draw2 or wild-draw4 waiting for its target's answer
    pending_from: int | None = None
    winner: int | None = None
    house_rule: str = ""
    round_number: int = 1
    target: int | None = None
    scoring: str = "standard"
    penalty: int | None = None  # the pending total while a penalty awaits its answer
    penalty_target: int | None = None  # the seat that must answer it
    house: HouseRules = OFFICIAL  # the options in force
    # A team game's running totals per team toward the target (empty without teams, or when
    # the view does not know them, as in a replay).
    team_scores: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class HandView:
    """One seat's own hand, for that player's eyes only."""

    edition: Edition
    seat: int
    name: str
    cards: tuple[str, ...]  # display order: wild cards first, then by color and number/symbol
    playable: tuple[bool, ...]
    awaiting: Phase | None  # what the round asks of this seat now, or None
    drawn: str | None = None  # the card just drawn that may be played
    top: str | None = None
    color: str | None = None
    can_call_uno: bool = False
    pending: str | None = None
    can_challenge: bool = False
    can_bounce: bool = False
    other_counts: tuple[int, ...] = field(default_factory=tuple)
    # Per card, in ``cards`` order: may be played now out of turn (a jump-in; also in playable).
    jump_in: tuple[bool, ...] = field(default_factory=tuple)
    # Per card: a play of it must name a seat (``targets``) to swap hands with.
    needs_target: tuple[bool, ...] = field(default_factory=tuple)
    targets: tuple[int, ...] = field(default_factory=tuple)
    penalty: int | None = None  # the total this seat must answer (accept draws it all)
    can_draw: bool = False
    can_pass: bool = False
    can_accept: bool = False
    can_stack: bool = False  # a held draw card may be stacked on the pending penalty


def sort_key(card: int) -> tuple[int, int]:
    """Display order: wild cards first (playable on almost anything, so never left on a later
    page of a big hand), then colors in their usual order, then rank."""
    if IS_WILD[card]:
        return (-1, CARD_RANK[card])
    return (CARD_COLOR[card], CARD_RANK[card])


def public_view(
    game: Game,
    names: list[str] | None = None,
    scores: list[int] | None = None,
    computers: list[bool] | None = None,
    round_number: int = 1,
    target: int | None = None,
    scoring: str = "standard",
    team_scores: list[int] | None = None,
) -> PublicView:
    """The public view of ``game``; ``names`` label the seats, ``team_scores`` are a team
    match's totals per team."""
    n = game.n
    labels = names or [f"Player {s + 1}" for s in range(n)]
    totals = scores or [0] * n
    bots = computers or [False] * n
    uno = game.uno_flags()
    catchable = game.catchable()
    seats = tuple(
        SeatView(
            seat=s,
            name=labels[s],
            cards=len(game.hands[s]),
            active=game.active[s],
            current=game.current == s,
            dealer=game.dealer == s,
            called_uno=uno[s],
            catchable=catchable == s,
            score=totals[s],
            computer=bots[s],
            team=s % game.teams if game.teams else None,
        )
        for s in range(n)
    )
    pending = None
    pending_from = None
    penalty = None
    if game.phase is Phase.RESPOND:
        pending = CODES[game.pending_card]
        pending_from = game.pending_from
        penalty = game.penalty
    return PublicView(
        edition=game.edition,
        seats=seats,
        top=CODES[game.discard[-1]] if game.discard else None,
        recent=tuple(CODES[c] for c in game.discard[-RECENT_DISCARDS:]),
        color=COLORS[game.color] if game.color >= 0 else None,
        direction=game.direction,
        draw_pile=len(game.draw_pile),
        discard_pile=len(game.discard),
        awaiting=game.phase,
        current=game.current if game.current >= 0 else None,
        pending=pending,
        pending_from=pending_from,
        winner=game.winner if game.winner >= 0 else None,
        house_rule=game.house_rule,
        round_number=round_number,
        target=target,
        scoring=scoring,
        penalty=penalty,
        penalty_target=game.current if penalty is not None else None,
        house=game.house,
        team_scores=tuple(team_scores or ()) if game.teams else (),
    )


def hand_view(game: Game, seat: int, name: str = "") -> HandView:
    """What ``seat`` sees of its own hand and what it may do with it now (from
    ``game.legal_actions(seat)``, the one source of legality). ``name`` is the seat's name as
    the table knows it; left empty, the presenter names the seat in its own language."""
    hand = game.hands[seat]
    cards = sorted(hand, key=sort_key)
    mine = game.current == seat and game.phase is not Phase.OVER
    legal = game.legal_actions(seat)
    playable_set = {a.card for a in legal if a.do == Do.PLAY}
    dos = {a.do for a in legal}
    responding = mine and game.phase is Phase.RESPOND
    pending = CODES[game.pending_card] if responding else None
    playable = tuple(c in playable_set for c in cards)
    needs = tuple(game.needs_target(c) and len(hand) > 1 for c in cards)
    return HandView(
        edition=game.edition,
        seat=seat,
        name=name,
        cards=tuple(CODES[c] for c in cards),
        playable=playable,
        awaiting=game.phase if mine else None,
        drawn=CODES[game.drawn] if mine and game.phase is Phase.DRAWN else None,
        top=CODES[game.discard[-1]] if game.discard else None,
        color=COLORS[game.color] if game.color >= 0 else None,
        can_call_uno=len(hand) == 1 and not game.called[seat] and game.phase is not Phase.OVER,
        pending=pending,
        can_challenge="challenge" in dos,
        can_bounce=responding and WILD_SUPER_STAR in playable_set,
        other_counts=tuple(len(h) for h in game.hands),
        jump_in=playable if not mine else tuple(False for _ in cards),
        needs_target=needs,
        targets=tuple(game.swap_targets(seat)) if any(needs) else (),
        penalty=game.penalty if responding else None,
        can_draw="draw" in dos,
        can_pass="pass" in dos,
        can_accept="accept" in dos,
        can_stack=responding and bool(playable_set - {WILD_SUPER_STAR}),
    )
