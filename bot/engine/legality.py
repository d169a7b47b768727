"""What a seat may do now: the one source of legality for hands, computer players and tests."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import house_effects, penalties
from .action import Action
from .cards import CARD_KINDS, IS_WILD, WILD_DRAW4
from .phase import MATCHES, SWAP, TURN, Phase

if TYPE_CHECKING:
    from .game import Game


def playable(game: Game, seat: int) -> list[int]:
    """The cards ``seat`` may play right now (with repeats, in hand order): on its turn,
    the cards that match and that no option forbids, the answers to a pending penalty, or
    the drawn card; out of turn, the identical cards it may jump in with."""
    if seat != game.current:
        return house_effects.jump_in_cards(game, seat) if game.house.jump_in else []
    phase = game.phase
    if phase is TURN:
        mask = MATCHES[game.color * CARD_KINDS + game.discard[-1]]
        cards = [c for c in game.hands[seat] if mask[c]]
        if game.restrict:
            return [c for c in cards if house_effects.allowed(game, seat, c)]
        return cards
    if phase is Phase.DRAWN:
        return [game.drawn]
    if phase is Phase.RESPOND:
        return penalties.answers(game, seat)
    return []


def legal_actions(game: Game, seat: int | None = None) -> list[Action]:
    """Every turn action ``seat`` may take now (the awaited seat by default): wild plays
    once per color, swaps once per seat; for another seat, its jump-ins."""
    phase = game.phase
    if phase is Phase.OVER:
        return []
    if seat is not None and seat != game.current:
        if not game.house.jump_in or not 0 <= seat < game.n:
            return []
        return play_actions(game, seat, house_effects.jump_in_cards(game, seat))
    seat = game.current
    if phase is Phase.COLOR:
        return [Action(seat, "choose_color", color=c) for c in range(4)]
    cards = playable(game, seat)
    actions = play_actions(game, seat, cards)
    house = game.house
    if phase is TURN:
        if not (house.must_play and cards):
            actions.append(Action(seat, "draw"))
    elif phase is Phase.DRAWN:
        if not house.must_play:
            actions.append(Action(seat, "pass"))
    else:
        actions.append(Action(seat, "accept"))
        if game.pending_card == WILD_DRAW4 and not house.wd4_strict:
            actions.append(Action(seat, "challenge"))
    return actions


def play_actions(game: Game, seat: int, cards: list[int]) -> list[Action]:
    """One play per card, per named color for wild cards and per seat for swaps."""
    actions: list[Action] = []
    hand = game.hands[seat]
    calls = len(hand) == 2
    targets: list[int | None] = [None]
    if len(hand) > 1 and any(game.effects[c] >= SWAP for c in cards):
        targets = list(game.swap_targets(seat))
    for card in dict.fromkeys(cards):
        aims = targets if game.effects[card] >= SWAP else [None]
        for target in aims:
            if IS_WILD[card]:
                actions += [Action(seat, "play", card, c, calls, target) for c in range(4)]
            else:
                actions.append(Action(seat, "play", card, None, calls, target))
    return actions
