"""Computer players: easy (random legal card), normal (heuristics), hard (memory and Monte Carlo).

Hard plays a sharper heuristic that uses what it remembers of the cards (which colors a seat
showed it lacks) and checks that move by determinized Monte Carlo: rollouts of the round over many
guesses of the hidden cards.

Every decision uses only what its seat could know: its own hand, the public counts and flags, the
discard pile and the public events (a challenge reveal only when this seat was the challenger).
Decisions work on clones and never change the game they are given, so the table manager may run
them in a thread. Randomness comes from the injected ``random.Random``, time from ``clock``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from . import ai_teams
from .ai_challenge import ChallengeRecord as ChallengeRecord
from .ai_challenge import illegal_belief, worth_challenging
from .ai_memory import Knowledge as Knowledge
from .ai_memory import chance_none as chance_none
from .ai_memory import counts_as_color
from .ai_memory import illegal_chance as illegal_chance
from .ai_memory import knowledge as knowledge
from .cards import (
    CARD_COLOR,
    CARD_KINDS,
    CARD_POINTS,
    CARD_RANK,
    DRAW2,
    IS_WILD,
    REVERSE,
    SKIP,
    WILD_DRAW4,
    WILD_SUPER_STAR,
    WILD_VICTORY_LAP,
    Edition,
    shuffle,
)
from .game import DRAWN, MATCHES, RESPOND, TURN, Action, Do, Game, Phase
from .house import CustomEffect
from .phase import CUSTOM, ROTATE, SWAP

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
DEFAULT_BUDGET_S = 0.12
DEFAULT_MAX_ROLLOUTS = 6000
# A rollout that runs this long is scored by hand sizes instead (a guard for the time budget).
ROLLOUT_STEP_CAP = 600
# Points per card a hand exchange (7-0, swap or rotate) would shed (or cost).
EXCHANGE_WEIGHT = 8.0
# Hard keeps its heuristic's move unless another move's rollouts beat it by this many
# standard errors.
PRIOR_Z = 1.0

Clock = Callable[[], float]


# ----- easy -----


def _uno(game: Game, seat: int) -> bool:
    return len(game.hands[seat]) == 2


def _easy(game: Game, seat: int, rng: random.Random) -> Action:
    """A random playable card, else draw; a drawn playable card is played; penalties accepted
    unless a draw card can be stacked on them."""
    phase = game.phase
    if phase is Phase.COLOR:
        return Action(seat, Do.CHOOSE_COLOR, color=rng.randrange(4))
    if phase is Phase.RESPOND:
        stacks = [c for c in game.playable(seat) if c != WILD_SUPER_STAR]
        if not stacks:
            return Action(seat, Do.ACCEPT)
        card = stacks[rng.randrange(len(stacks))]
        color = rng.randrange(4) if IS_WILD[card] else None
        return Action(seat, Do.PLAY, card, color, _uno(game, seat))
    cards = game.playable(seat)
    if not cards:
        return Action(seat, Do.DRAW)
    card = cards[rng.randrange(len(cards))]
    color = rng.randrange(4) if IS_WILD[card] else None
    target = None
    if game.needs_target(card) and len(game.hands[seat]) > 1:
        targets = game.swap_targets(seat)
        target = targets[rng.randrange(len(targets))]
    return Action(seat, Do.PLAY, card, color, _uno(game, seat), target)


# ----- normal -----


def best_color(hand: list[int], rng: random.Random, skip: int = -1) -> int:
    """The color this hand holds most (by count, then points); ``skip`` is one card left out."""
    count = [0, 0, 0, 0]
    points = [0, 0, 0, 0]
    skipped = False
    for c in hand:
        if c == skip and not skipped:
            skipped = True
            continue
        color = CARD_COLOR[c]
        if color >= 0:
            count[color] += 1
            points[color] += CARD_POINTS[c]
    best = max(range(4), key=lambda k: (count[k], points[k]))
    if count[best] == 0:
        return rng.randrange(4)
    return best


def _others(game: Game, seat: int) -> list[int]:
    """The hand sizes of the seats that threaten to go out first (partners do not)."""
    if game.teams:
        return ai_teams.threat_sizes(game, seat)
    return [len(game.hands[s]) for s in range(game.n) if s != seat and game.active[s]]


def swap_target(game: Game, seat: int) -> int:
    """Whom to swap hands with: the opponent holding the fewest cards (among equals, the one
    who plays soonest)."""
    n = game.n
    return min(
        game.swap_targets(seat),
        key=lambda s: (len(game.hands[s]), (s - seat) * game.direction % n),
    )


def _previous_seat(game: Game, seat: int) -> int:
    """The active seat whose next seat is ``seat`` (whose hand a rotation hands to ``seat``)."""
    back = (seat - game.direction) % game.n
    while not game.active[back]:
        back = (back - game.direction) % game.n
    return back


def exchange_gain(game: Game, seat: int, card: int) -> int:
    """Cards this hand would be rid of by the exchange of hands that playing ``card`` brings
    (7 or swap_hands with ``swap_target``, 0 or rotate_hands); negative when it hurts."""
    effect = game.effects[card]
    mine = len(game.hands[seat]) - 1
    if mine <= 0 or effect < ROTATE:
        return 0
    if effect >= SWAP:
        return mine - len(game.hands[swap_target(game, seat)])
    if effect == ROTATE or game.house.custom_effect is CustomEffect.ROTATE_HANDS:
        return mine - len(game.hands[_previous_seat(game, seat)])
    return 0


def _house_bonus(game: Game, seat: int, card: int, danger: bool) -> float:
    """What a heuristic player makes of a card's house-rule effect (0 under the printed rules)."""
    effect = game.effects[card]
    if effect < ROTATE:
        return 0.0
    score = EXCHANGE_WEIGHT * exchange_gain(game, seat, card)
    if effect == CUSTOM:
        kind = game.house.custom_effect
        if kind is CustomEffect.NEXT_DRAWS_2:
            score += 25.0 if len(game.hands[game.next_seat(seat)]) <= 2 else 5.0
        elif kind is CustomEffect.EVERYONE_DRAWS_1:
            score += 15.0 if danger else 3.0
        elif kind is CustomEffect.PLAY_AGAIN:
            score += 10.0
    return score


def _target(game: Game, seat: int, card: int) -> int | None:
    """The seat a play of ``card`` names, if it names one."""
    if game.needs_target(card) and len(game.hands[seat]) > 1:
        return swap_target(game, seat)
    return None


@dataclass(frozen=True, slots=True)
class Style:
    """The weights of a heuristic player: normal's, and hard's sharper ones."""

    wild: float = -30.0  # playing a wild card when a colored one fits
    idle_hit: float = 3.0  # a Skip or Draw Two while nobody is close to going out
    keep_drawn_wild: bool = False  # pass on a drawn wild card while nobody is close to out
    # Bonus per unit of estimated chance that the seat after the play holds nothing that fits,
    # multiplied by ``block_danger`` when that seat is down to two cards.
    block: float = 0.0
    block_danger: float = 1.0
    # The memory is read only at tables of at most this many players: reading the record costs
    # time in proportion to its length, at every decision.
    block_players: int = 10
    same: float = 3.0  # per other card of the played card's color kept in hand
    calm_points: float = 10.0  # the points of a card count 1/calm_points while nobody is close
    # Two players: a Skip, Reverse or Draw Two gives another turn at once. One that cards in
    # hand could follow is worth keeping for a chain that sheds two cards in one turn (this much
    # less per such card, up to two); one that nothing could follow is played first.
    chain: float = 0.0
    four: float = 0.0  # a Wild Draw Four rather than a plain wild card


# Normal's weights with three players or more (docs/performance.md, 4-player rounds).
NORMAL_MANY = Style()
# Hard's with three players or more: tuned on 10,000 seeded rounds per edition against three
# normal players.
SHARP_MANY = Style(wild=-60.0, idle_hit=-5.0, keep_drawn_wild=True, block=10.0, block_danger=3.0)
# Two players: tuned against the outside agents of bench/ai_arena.py (docs/performance.md).
# Against them it plays from its weaker colors, uses its memory of the hands, and keeps a Wild
# Draw Four longer than a plain wild card.
NORMAL = Style(
    wild=-16.0,
    idle_hit=2.0,
    block=15.0,
    block_danger=2.5,
    same=-2.0,
    calm_points=24.0,
    chain=-3.0,
    four=-16.0,
    block_players=2,
)
# Hard's heuristic: normal's, and a drawn wild card kept while nobody is close to going out
# (against the outside agents: 54 / 61 % for normal's 53 / 59 %, seed 7).
SHARP = replace(NORMAL, keep_drawn_wild=True, block_players=10)


def follower(game: Game, seat: int, card: int) -> int:
    """The seat that must match ``card`` after ``seat`` plays it (skips and reverses applied)."""
    nxt = game.next_seat(seat)
    if IS_WILD[card]:
        return nxt
    rank = CARD_RANK[card]
    if rank == SKIP or (rank == DRAW2 and game.edition is not Edition.MARIO):
        return game.next_seat(nxt)
    if rank == REVERSE and game.players > 2:
        back = (seat - game.direction) % game.n
        while not game.active[back]:
            back = (back - game.direction) % game.n
        return back
    return nxt


def _card_score(
    game: Game, seat: int, card: int, danger: bool, style: Style, info: Knowledge | None
) -> float:
    """How much a heuristic player likes playing ``card`` now (higher is better)."""
    hand = game.hands[seat]
    nxt = game.next_seat(seat)
    nxt_cards = len(game.hands[nxt])
    score = _house_bonus(game, seat, card, danger)
    if IS_WILD[card]:
        # Wild cards are kept for when nothing else fits: they are never stuck in hand.
        score += style.wild
        if card == WILD_DRAW4:
            held = any(counts_as_color(game.edition, c, game.color) for c in hand if c != card)
            if held:
                score -= 100.0 if nxt_cards > 1 else 0.0
            if nxt_cards <= 2:
                score += 40.0
            score += style.four
            if game.teams:
                score += ai_teams.card_bonus(game, seat, True, game.next_seat(seat))
        elif card == WILD_VICTORY_LAP:
            score += 15.0 if danger else 0.0
        elif card == WILD_SUPER_STAR:
            score -= 15.0  # better saved to bounce a penalty
        return score + (CARD_POINTS[card] / 2.0 if danger else 0.0)
    color = CARD_COLOR[card]
    same = sum(1 for c in hand if CARD_COLOR[c] == color) - 1
    # Leave the color in force where this hand is strong (same > 0), or shed a weak color first.
    score += style.same * same
    score += CARD_POINTS[card] / (2.0 if danger else style.calm_points)
    rank = CARD_RANK[card]
    if style.chain and game.players == 2 and rank >= SKIP:
        mask = MATCHES[color * CARD_KINDS + card]
        follow = sum(1 for c in hand if mask[c] and c != card and not IS_WILD[c])
        score += style.chain if follow == 0 else -style.chain * min(follow, 2)
    if rank in (SKIP, DRAW2):
        score += 25.0 if nxt_cards <= 2 else style.idle_hit
        if rank == DRAW2:
            score += 3.0
    elif rank == REVERSE and game.players > 2:
        back = game.hands[(seat - game.direction) % game.n]
        if nxt_cards <= 2 and len(back) > nxt_cards:
            score += 20.0
    if game.teams:
        hits = rank in (SKIP, DRAW2)
        score += ai_teams.card_bonus(game, seat, hits, follower(game, seat, card))
    if info is not None and style.block:
        # Leave a color and rank the seat that follows probably cannot match.
        after = follower(game, seat, card)
        weight = style.block * (style.block_danger if len(game.hands[after]) <= 2 else 1.0)
        if game.teams:
            weight *= ai_teams.block_sign(game, seat, after)
        score += weight * chance_none(game, info, after, MATCHES[color * CARD_KINDS + card])
    return score


def heuristic(
    game: Game,
    seat: int,
    rng: random.Random,
    style: Style,
    info: Knowledge | None = None,
    record: ChallengeRecord | None = None,
) -> Action:
    """Heuristic play: keep wilds, shed points under threat, name the strongest color."""
    phase = game.phase
    hand = game.hands[seat]
    if phase is Phase.COLOR:
        return Action(seat, Do.CHOOSE_COLOR, color=best_color(hand, rng))
    if phase is Phase.RESPOND:
        return _answer(game, seat, rng, info, record)
    danger = min(_others(game, seat)) <= 2
    if phase is Phase.DRAWN:
        card = game.drawn
        may_pass = not game.house.must_play
        if IS_WILD[card] and style.keep_drawn_wild and len(hand) > 1 and not danger and may_pass:
            return Action(seat, Do.PASS)  # a wild card is worth more later than one card less now
        if may_pass and exchange_gain(game, seat, card) < 0:
            return Action(seat, Do.PASS)  # the swap it brings would cost more than it sheds
        named = best_color(hand, rng, card) if IS_WILD[card] else None
        return Action(seat, Do.PLAY, card, named, _uno(game, seat), _target(game, seat, card))
    cards = list(dict.fromkeys(game.playable(seat)))
    if not cards:
        return Action(seat, Do.DRAW)
    if style.block and info is None and len(cards) > 1 and game.players <= style.block_players:
        info = knowledge(game, seat)
    best = max(cards, key=lambda c: _card_score(game, seat, c, danger, style, info))
    color = best_color(hand, rng, best) if IS_WILD[best] else None
    return Action(seat, Do.PLAY, best, color, _uno(game, seat), _target(game, seat, best))


def should_challenge(
    game: Game, seat: int, info: Knowledge | None = None, record: ChallengeRecord | None = None
) -> bool:
    """Is the pending Wild Draw Four worth a challenge, judged from the cards and from what the
    table saw of its player (ai_challenge)?"""
    if game.pending_card != WILD_DRAW4 or game.house.wd4_strict:
        return False
    info = info or knowledge(game, seat)
    culprit = game.pending_from
    reads = [*(record.of(culprit) if record else ()), *info.wd4_reads.get(culprit, ())]
    p = illegal_belief(illegal_chance(game, info), reads)
    return worth_challenging(p, game.penalty, game.players)


def _answer(
    game: Game,
    seat: int,
    rng: random.Random,
    info: Knowledge | None,
    record: ChallengeRecord | None = None,
) -> Action:
    """Answer a pending penalty: stack a Draw Two (cheap), else bounce with a Super Star, else
    stack a Wild Draw Four when the penalty is big or lands on a player close to going out,
    else challenge a Wild Draw Four when that is worth it, else accept."""
    hand = game.hands[seat]
    answers = game.playable(seat)
    stacks = [c for c in answers if c != WILD_SUPER_STAR]
    twos = [c for c in stacks if c != WILD_DRAW4]
    if twos:
        # Leave the color in force where this hand is strongest.
        card = max(twos, key=lambda c: sum(1 for h in hand if CARD_COLOR[h] == CARD_COLOR[c]))
        return Action(seat, Do.PLAY, card, None, _uno(game, seat))
    if WILD_SUPER_STAR in answers:
        star = best_color(hand, rng, WILD_SUPER_STAR)
        return Action(seat, Do.PLAY, WILD_SUPER_STAR, star, _uno(game, seat))
    close = len(game.hands[game.next_seat(seat)]) <= 2
    if stacks and (close or game.penalty >= 4):
        named = best_color(hand, rng, WILD_DRAW4)
        return Action(seat, Do.PLAY, WILD_DRAW4, named, _uno(game, seat))
    if should_challenge(game, seat, info, record):
        return Action(seat, Do.CHALLENGE)
    return Action(seat, Do.ACCEPT)


def _normal(game: Game, seat: int, rng: random.Random, record: ChallengeRecord | None) -> Action:
    """Normal's play: the heuristic with its own weights (no search)."""
    style = NORMAL if game.players == 2 else NORMAL_MANY
    return heuristic(game, seat, rng, style, None, record)


# ----- hard -----


def _rollout_policy(game: Game, rng: random.Random) -> None:
    """The fast policy of the rollouts: a random playable colored card before any wild card."""
    if not game.plain_play:
        _house_rollout_policy(game, rng)
        return
    seat = game.current
    phase = game.phase
    hand = game.hands[seat]
    if phase is TURN:
        mask = MATCHES[game.color * CARD_KINDS + game.discard[-1]]
        cards = [c for c in hand if mask[c]]
        if cards:
            # Most players keep their wild cards; modelling that matters more than speed here.
            plain = [c for c in cards if not IS_WILD[c]]
            pick = plain or cards
            card = pick[int(rng.random() * len(pick))]
            color = _quick_color(hand, rng) if IS_WILD[card] else None
            game.play(seat, card, color, True)
        else:
            game.draw(seat)
    elif phase is DRAWN:
        card = game.drawn
        game.play(seat, card, _quick_color(hand, rng) if IS_WILD[card] else None, True)
    elif phase is RESPOND:
        if WILD_SUPER_STAR in hand:
            game.play(seat, WILD_SUPER_STAR, _quick_color(hand, rng), True)
        else:
            game.accept(seat)
    else:
        game.choose_color(seat, _quick_color(hand, rng))


def _house_rollout_policy(game: Game, rng: random.Random) -> None:
    """The rollout policy where an option forbids some matching cards or a card names a seat."""
    seat = game.current
    phase = game.phase
    hand = game.hands[seat]
    if phase is Phase.COLOR:
        game.choose_color(seat, _quick_color(hand, rng))
        return
    cards = game.playable(seat)
    if not cards:
        if phase is RESPOND:
            game.accept(seat)
        else:
            game.draw(seat)
        return
    plain = [c for c in cards if not IS_WILD[c]]
    pick = plain or cards
    card = pick[int(rng.random() * len(pick))]
    color = _quick_color(hand, rng) if IS_WILD[card] else None
    target = None
    if game.needs_target(card) and len(hand) > 1:
        targets = game.swap_targets(seat)
        target = targets[int(rng.random() * len(targets))]
    game.play(seat, card, color, True, target)


def _quick_color(hand: list[int], rng: random.Random) -> int:
    """The color of a random colored card in hand (most held colors most likely), else any."""
    colored = [CARD_COLOR[c] for c in hand if not IS_WILD[c]]
    if colored:
        return colored[int(rng.random() * len(colored))]
    return int(rng.random() * 4)


def determinize(game: Game, info: Knowledge, rng: random.Random) -> Game:
    """A clone where the other hands and the draw pile are one guess consistent with ``info``."""
    world = game.clone(random.Random(rng.getrandbits(32)))
    pool = info.unseen[:]
    shuffle(pool, rng)
    seat = info.seat
    others = [s for s in range(game.n) if s != seat and game.hands[s]]
    hands: dict[int, list[int]] = {s: [] for s in others}
    # Cards seen in a challenge reveal first, then cards constrained by a draw, then the rest.
    for s in others:
        known = info.known.get(s)
        if known:
            want = +known
            for c in list(want.elements()):
                if len(hands[s]) < len(game.hands[s]) and c in pool:
                    pool.remove(c)
                    hands[s].append(c)
    order = [s for s in others if s in info.voids]
    rng.shuffle(order)
    for s in order:
        count, excluded = info.voids[s]
        room = min(count, len(game.hands[s]) - len(hands[s]))
        if room <= 0:
            continue
        keep: list[int] = []
        taken: list[int] = []
        for c in pool:
            if len(taken) < room and c not in excluded:
                taken.append(c)
            else:
                keep.append(c)
        pool = keep
        hands[s] += taken
    for s in others:
        need = len(game.hands[s]) - len(hands[s])
        hands[s] += pool[len(pool) - need :] if need else []
        if need:
            del pool[len(pool) - need :]
        world.hands[s] = hands[s]
    world.draw_pile = pool
    if game.phase is Phase.RESPOND and game.pending_card == WILD_DRAW4:
        culprit = game.pending_from
        world.pending_hand = world.hands[culprit][:]
        before = info.color_before_last_play
        world.pending_legal = not any(
            counts_as_color(game.edition, c, before) for c in world.pending_hand
        )
    return world


def candidates(game: Game, seat: int, rng: random.Random) -> list[Action]:
    """The actions worth simulating: every distinct move; wild cards with normal's color only,
    swaps with normal's seat only."""
    hand = game.hands[seat]
    seen: set[int] = set()
    result: list[Action] = []
    for action in game.legal_actions():
        card = action.card
        if (
            action.do == Do.PLAY
            and card is not None
            and (IS_WILD[card] or action.target is not None)
        ):
            if card in seen:
                continue
            seen.add(card)
            color = best_color(hand, rng, card) if IS_WILD[card] else None
            action = Action(seat, Do.PLAY, card, color, action.uno, _target(game, seat, card))
        result.append(action)
    return result


def _rollout(world: Game, seat: int, rng: random.Random) -> float:
    """Play the guess out with random players; 1 for a win, else a small hand-size credit."""
    steps = 0
    while world.phase is not Phase.OVER:
        if steps >= ROLLOUT_STEP_CAP:
            mine = len(world.hands[seat])
            others = ai_teams.opponents(world, seat) or [s for s in range(world.n) if s != seat]
            least = min(len(world.hands[s]) for s in others)
            return 0.5 * least / (least + mine) if least + mine else 0.0
        _rollout_policy(world, rng)
        steps += 1
    return 1.0 if ai_teams.won_for(world, seat) else 0.0  # a partner's win is the team's


@dataclass(frozen=True, slots=True)
class Search:
    """What the hard player weighed at one decision: the moves, each move's rollout results
    (the same guesses, in the same order, served every move), the heuristic's score of each
    move where no search ran, and the move chosen (``moves[chosen]``)."""

    moves: tuple[Action, ...]
    chosen: int
    results: tuple[tuple[float, ...], ...] = ()
    scores: tuple[float | None, ...] = ()

    @property
    def choice(self) -> Action:
        """The move the hard player makes."""
        return self.moves[self.chosen]

    def cannot_tell(self, index: int, z: float = PRIOR_Z) -> bool:
        """Is ``moves[index]`` as good as the choice, as far as this search can tell: the
        choice's rollouts do not beat its own by more than ``z`` standard errors of their
        paired differences (the bar the choice itself had to clear to override the
        heuristic), or, where no search ran, the heuristic scores both alike."""
        if index == self.chosen:
            return True
        if self.results and len(self.results[self.chosen]) >= 2:
            mean, error = paired_gain(self.results[self.chosen], self.results[index])
            return mean <= z * error
        if self.scores:
            score = self.scores[index]
            return score is not None and score == self.scores[self.chosen]
        return False


def paired_gain(better: tuple[float, ...], base: tuple[float, ...]) -> tuple[float, float]:
    """The mean of the paired differences of two moves' rollouts over the same guesses, and
    its standard error."""
    samples = len(base)
    diffs = [a - b for a, b in zip(better, base, strict=True)]
    mean = sum(diffs) / samples
    spread = sum((d - mean) ** 2 for d in diffs) / (samples - 1)
    return mean, (spread / samples) ** 0.5


def search(
    game: Game,
    seat: int,
    rng: random.Random,
    clock: Clock,
    budget_s: float,
    max_rollouts: int,
    record: ChallengeRecord | None = None,
    partners_see: bool = False,
) -> Search:
    """The hard player's search at a decision the game awaits from ``seat``: the sharp
    heuristic's move, unless rollouts over guesses of the hidden cards beat it, with everything
    it weighed; ``partners_see``: the partners' hands are open to this seat (a team table's
    option)."""
    start = clock()
    moves = candidates(game, seat, rng)
    if len(moves) <= 1:
        return Search(tuple(moves), 0)  # a forced move (the awaited seat always has one)
    info = knowledge(game, seat)
    if game.teams and partners_see:
        ai_teams.see_partners(game, seat, info)
    style = SHARP if game.players == 2 else SHARP_MANY
    prior = heuristic(game, seat, rng, style, info, record)
    if any(move.do is Do.CHALLENGE for move in moves):
        # Rollouts would judge a challenge by the cards alone, as if every player bluffed
        # whenever it could: the judgment of should_challenge stands instead.
        if prior.do is Do.CHALLENGE:
            return Search(tuple(moves), moves.index(prior))
        moves = [move for move in moves if move.do is not Do.CHALLENGE]
        if len(moves) <= 1:
            return Search(tuple(moves), 0)
    # The heuristic's move, with its color, stands in for the same card in the candidates.
    for i, move in enumerate(moves):
        if move.do == prior.do and move.card == prior.card:
            moves[i] = prior
    results: list[list[float]] = [[] for _ in moves]
    rollouts = 0
    while rollouts + len(moves) <= max_rollouts and clock() - start < budget_s:
        world = determinize(game, info, rng)
        for i, move in enumerate(moves):
            trial = world.clone(random.Random(rng.getrandbits(32)))
            trial.apply(move)
            results[i].append(_rollout(trial, seat, rng))
        rollouts += len(moves)
    samples = len(results[0])
    if samples < 2:
        if prior not in moves:
            moves.append(prior)
        scores = _move_scores(game, seat, moves, style, info)
        return Search(tuple(moves), moves.index(prior), scores=scores)
    totals = [sum(r) for r in results]
    best = max(range(len(moves)), key=lambda i: totals[i])
    found = tuple(tuple(r) for r in results)
    if prior not in moves:
        return Search(tuple(moves), best, found)
    # The same guesses served every move, so the paired differences tell signal from noise.
    base = moves.index(prior)
    mean, error = paired_gain(found[best], found[base])
    return Search(tuple(moves), best if mean > PRIOR_Z * error else base, found)


def _move_scores(
    game: Game, seat: int, moves: list[Action], style: Style, info: Knowledge
) -> tuple[float | None, ...]:
    """The heuristic's score of each card played on a turn (None for other moves; nothing
    off a turn, where the heuristic does not score moves)."""
    if game.phase is not TURN:
        return ()
    danger = min(_others(game, seat)) <= 2
    return tuple(
        _card_score(game, seat, m.card, danger, style, info)
        if m.do is Do.PLAY and m.card is not None
        else None
        for m in moves
    )


# ----- the table manager's entry points -----


def decide(
    game: Game,
    seat: int,
    level: str,
    rng: random.Random,
    clock: Clock = time.perf_counter,
    budget_s: float = DEFAULT_BUDGET_S,
    max_rollouts: int = DEFAULT_MAX_ROLLOUTS,
    record: ChallengeRecord | None = None,
    partners_see: bool = False,
) -> Action:
    """The action ``seat`` takes when the game awaits it (turn, drawn, respond or color).

    ``record``: what this seat saw of the players' Wild Draw Fours in earlier rounds of the
    match (the current round's events are read in any case); ``partners_see``: the table lets
    partners look at each other's hands (hard then reads its partners' cards, nothing more)."""
    if game.phase is Phase.OVER or game.current != seat:
        raise ValueError(f"the game does not await seat {seat}")
    if level == "easy":
        return _easy(game, seat, rng)
    if level == "normal":
        return _normal(game, seat, rng, record)
    if level == "hard":
        return search(game, seat, rng, clock, budget_s, max_rollouts, record, partners_see).choice
    raise ValueError(f"unknown level {level!r}")


def reference(game: Game, seat: int, seed: int, number: int, rollouts: int) -> Action:
    """The hard player's choice as a reference: its search seeded by the round's ``seed`` and
    the action's ``number`` and ended on its rollout count alone, so the same place always
    gets the same answer (judging a decision needs a judge that does not change its mind)."""
    return reference_search(game, seat, seed, number, rollouts).choice


def reference_search(game: Game, seat: int, seed: int, number: int, rollouts: int) -> Search:
    """The search behind ``reference``, with every move it weighed."""
    return search(game, seat, random.Random(seed ^ number), _still, 1.0, rollouts)


def _still() -> float:
    """A clock that never moves: a search ends on its rollout count alone."""
    return 0.0


def out_of_turn(game: Game, seat: int, level: str, rng: random.Random) -> Action | None:
    """An UNO call for this seat, or (normal, hard) a catch of someone who forgot, or None."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}")
    if game.phase is Phase.OVER or not game.active[seat]:
        return None
    if len(game.hands[seat]) == 1 and not game.called[seat]:
        return Action(seat, Do.CALL_UNO)
    if level != "easy":
        target = game.catchable()
        if target >= 0 and target != seat and ai_teams.may_catch(game, seat, target):
            return Action(seat, Do.CATCH, target=target)
    return None


def jump_in(game: Game, seat: int, level: str, rng: random.Random) -> Action | None:
    """A jump-in this computer seat (not the awaited one) takes now, or None.

    Easy never jumps in. Normal and hard jump in whenever it helps: a card played out of turn
    is a card shed at no cost, unless the exchange of hands it brings (7-0, swap) would hurt.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}")
    if level == "easy" or seat == game.current:
        return None
    jumps = game.legal_actions(seat)
    if not jumps:
        return None
    card = jumps[0].card
    assert card is not None
    if exchange_gain(game, seat, card) < 0:
        return None
    return Action(seat, Do.PLAY, card, None, _uno(game, seat), _target(game, seat, card))


def timeout_action(game: Game, seat: int, rng: random.Random) -> Action:
    """What the awaited ``seat`` does when its time runs out: the least committal legal action.

    Draw (then keep the drawn card); where must_play forbids that, play as normal would; accept
    a penalty; name the color this hand holds most.
    """
    if game.phase is Phase.OVER or game.current != seat:
        raise ValueError(f"the game does not await seat {seat}")
    dos = {a.do for a in game.legal_actions()}
    for safe in (Do.DRAW, Do.PASS, Do.ACCEPT):
        if safe in dos:
            return Action(seat, safe)
    return heuristic(game, seat, rng, NORMAL)


def policy(level: str) -> Callable[[Game, random.Random], None]:
    """A `simulate` policy where every seat plays at ``level``."""

    def act(game: Game, rng: random.Random) -> None:
        game.apply(decide(game, game.current, level, rng))

    act.__doc__ = f"Every seat plays as the {level} computer player."
    return act
