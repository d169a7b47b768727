"""Headless rounds for the `simulate` command and the benchmarks."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from . import ai
from .cards import CARD_KINDS, IS_WILD, Edition, edition_deck, shuffle
from .game import DRAWN, MATCHES, OVER, RESPOND, TURN, Game
from .house import OFFICIAL, HouseRules

Policy = Callable[[Game, random.Random], None]


def random_policy(game: Game, rng: random.Random) -> None:
    """The contract's `random` policy: a random playable card, else draw; always call UNO.

    Under house rules it also names a random seat for a swap, accepts every penalty rather than
    stacking, and never jumps in."""
    if game.plain_play:
        _plain_random(game, rng)
    else:
        _house_random(game, rng)


def _plain_random(game: Game, rng: random.Random) -> None:
    """The random policy where every matching card may be played and none names a seat."""
    seat = game.current
    phase = game.phase
    if phase is TURN:
        # Inlined game.playable(seat): this loop is the engine benchmark's hot path.
        mask = MATCHES[game.color * CARD_KINDS + game.discard[-1]]
        cards = [c for c in game.hands[seat] if mask[c]]
        if cards:
            card = cards[int(rng.random() * len(cards))]
            game.play(seat, card, int(rng.random() * 4) if IS_WILD[card] else None, True)
        else:
            game.draw(seat)
    elif phase is DRAWN:
        card = game.drawn
        game.play(seat, card, int(rng.random() * 4) if IS_WILD[card] else None, True)
    elif phase is RESPOND:
        game.accept(seat)
    else:
        game.choose_color(seat, int(rng.random() * 4))


def _house_random(game: Game, rng: random.Random) -> None:
    """The random policy where an option forbids some matching cards or a card names a seat."""
    seat = game.current
    phase = game.phase
    if phase is TURN or phase is DRAWN:
        cards = game.playable(seat)
        if not cards:
            game.draw(seat)
            return
        card = cards[int(rng.random() * len(cards))]
        color = int(rng.random() * 4) if IS_WILD[card] else None
        target = None
        if game.needs_target(card) and len(game.hands[seat]) > 1:
            targets = game.swap_targets(seat)
            target = targets[int(rng.random() * len(targets))]
        game.play(seat, card, color, True, target)
    elif phase is RESPOND:
        game.accept(seat)
    else:
        game.choose_color(seat, int(rng.random() * 4))


POLICIES: dict[str, Policy] = {
    "random": random_policy,
    **{level: ai.policy(level) for level in ai.LEVELS},
}


# Some mixes of house rules allow a round nobody can finish (in sonic under wd4_strict, two
# players who each hold two Wild Draw Fours can never play them); such a round stops here.
ROUND_CAP = 100_000


def play_round(game: Game, policy: Policy, rng: random.Random, cap: int = ROUND_CAP) -> int:
    """Play ``game`` to its end, or ``cap`` actions; returns the number of actions applied."""
    if game.phase is OVER:
        return 0
    for turns in range(1, cap + 1):
        policy(game, rng)
        if game.phase is OVER:
            return turns
    return cap


def simulate(
    edition: str,
    players: int,
    games: int,
    seed: int,
    policy: str,
    house: HouseRules = OFFICIAL,
) -> dict[str, Any]:
    """Play ``games`` seeded rounds under ``house`` rules and summarise them."""
    ed = Edition(edition)
    choose = POLICIES[policy]
    rng = random.Random(seed)
    wins = [0] * players
    unfinished = 0
    turns = 0
    base = edition_deck(ed)
    start = time.perf_counter()
    for _ in range(games):
        deck = base[:]
        shuffle(deck, rng)
        dealer = rng.randrange(players)
        game = Game(ed, players, dealer, deck, random.Random(rng.getrandbits(32)), house=house)
        fast = choose is random_policy and game.plain_play
        turns += play_round(game, _plain_random if fast else choose, rng)
        if game.over:
            wins[game.winner] += 1
        else:
            unfinished += 1
    seconds = time.perf_counter() - start
    return {
        "edition": ed.value,
        "players": players,
        "policy": policy,
        "seed": seed,
        "house": house.to_dict(),
        "games": games,
        "turns": turns,
        "seconds": round(seconds, 6),
        "games_per_s": round(games / seconds, 1) if seconds else None,
        "actions_per_s": round(turns / seconds, 1) if seconds else None,
        "wins": wins,
        "unfinished": unfinished,  # rounds stopped at ROUND_CAP actions (see there)
    }
