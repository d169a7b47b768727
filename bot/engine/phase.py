"""What a round waits for, what each played card does and on what it may go."""

from __future__ import annotations

from enum import IntEnum
from functools import lru_cache

from .cards import (
    CARD_COLOR,
    CARD_KINDS,
    CARD_RANK,
    COLORS,
    DRAW2,
    IS_WILD,
    REVERSE,
    SKIP,
    WILD_CUSTOM,
    WILD_DRAW4,
    WILD_VICTORY_LAP,
    Edition,
)
from .house import OFFICIAL, CustomEffect, HouseRules, Stack


class Phase(IntEnum):
    """What the round waits for."""

    TURN = 0  # play or draw
    DRAWN = 1  # play the card just drawn, or pass
    RESPOND = 2  # the target of a draw2 or wild-draw4 answers
    COLOR = 3  # name the color of a wild card turned up first
    OVER = 4


AWAITING: tuple[str, ...] = ("turn", "drawn", "respond", "color", "round_over")
TURN, DRAWN, RESPOND, COLOR, OVER = Phase.TURN, Phase.DRAWN, Phase.RESPOND, Phase.COLOR, Phase.OVER

# What a played card does, looked up once per play instead of a chain of comparisons.
PLAIN, SKIP_NEXT, TURN_BACK, DRAW_TWO, DRAW_FOUR, LAP, ANSWER_TWO = range(7)
# House-rule effects (``house_effects.resolve``); from SWAP on they need a seat to swap with.
ROTATE, CUSTOM, SWAP, CUSTOM_SWAP = 8, 9, 10, 11
EFFECT: tuple[int, ...] = tuple(
    DRAW_FOUR
    if card == WILD_DRAW4
    else LAP
    if card == WILD_VICTORY_LAP
    else PLAIN
    if IS_WILD[card] or CARD_RANK[card] < 10
    else {SKIP: SKIP_NEXT, REVERSE: TURN_BACK, DRAW2: DRAW_TWO}[CARD_RANK[card]]
    for card in range(CARD_KINDS)
)


@lru_cache(maxsize=64)
def effect_table(edition: Edition, house: HouseRules) -> tuple[int, ...]:
    """Each card's effect in this edition under these options."""
    table = list(EFFECT)
    answered = edition is Edition.MARIO or house.stack is not Stack.NONE
    for card in range(CARD_KINDS):
        if IS_WILD[card]:
            continue
        rank = CARD_RANK[card]
        if rank == DRAW2 and answered:
            table[card] = ANSWER_TWO  # the target answers: accept, stack or bounce
        elif house.seven_o and rank == 7:
            table[card] = SWAP
        elif house.seven_o and rank == 0:
            table[card] = ROTATE
    effect = house.custom_effect
    if edition is Edition.MARIO and effect is not CustomEffect.NONE:
        table[WILD_CUSTOM] = CUSTOM_SWAP if effect is CustomEffect.SWAP_HANDS else CUSTOM
    return tuple(table)


@lru_cache(maxsize=64)
def lookups(edition: Edition, house: HouseRules) -> tuple[tuple[int, ...], bool, bool, bool]:
    """What a game looks up of its options: the effect table, then whether plays need checks,
    whether draws are plain, and whether every matching card may be played with no seat named
    (the policies' fast path)."""
    effects = effect_table(edition, house)
    restrict = house.wd4_strict or house.no_action_finish
    plain_draw = not (house.must_play or house.draw_until_playable or house.wd4_strict)
    return effects, restrict, plain_draw, not restrict and max(effects) < SWAP


# The printed rules' lookups per edition (classic, sonic, mario), picked without hashing.
OFFICIAL_LOOKUPS = tuple(
    lookups(e, OFFICIAL) for e in (Edition.CLASSIC, Edition.SONIC, Edition.MARIO)
)

# MATCHES[color * CARD_KINDS + top][card]: may ``card`` go on ``top`` with ``color`` in force.
MATCHES: tuple[tuple[bool, ...], ...] = tuple(
    tuple(
        IS_WILD[card] or CARD_COLOR[card] == color or CARD_RANK[card] == CARD_RANK[top]
        for card in range(CARD_KINDS)
    )
    for color in range(len(COLORS))
    for top in range(CARD_KINDS)
)
