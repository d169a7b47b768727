"""What a seat may do now: the one source of legality for hands, computer players and tests."""

from __future__ import annotations

from . import house_effects, penalties
from .action import Action, Do
from .cards import CARD_KINDS, IS_WILD, WILD_DRAW4
from .phase import MATCHES, SWAP, TURN, Phase
from .state import RoundState

PLAY = Do.PLAY  # looked up once: plays are made in a loop


def playable(state: RoundState, seat: int) -> list[int]:
    """The cards ``seat`` may play right now (with repeats, in hand order): on its turn,
    the cards that match and that no option forbids, the answers to a pending penalty, or
    the drawn card; out of turn, the identical cards it may jump in with."""
    if seat != state.current:
        return house_effects.jump_in_cards(state, seat) if state.house.jump_in else []
    phase = state.phase
    if phase is TURN:
        mask = MATCHES[state.color * CARD_KINDS + state.discard[-1]]
        cards = [c for c in state.hands[seat] if mask[c]]
        if state.restrict:
            return [c for c in cards if house_effects.allowed(state, seat, c)]
        return cards
    if phase is Phase.DRAWN:
        return [state.drawn]
    if phase is Phase.RESPOND:
        return penalties.answers(state, seat)
    return []


def legal_actions(state: RoundState, seat: int | None = None) -> list[Action]:
    """Every turn action ``seat`` may take now (the awaited seat by default): wild plays
    once per color, swaps once per seat; for another seat, its jump-ins."""
    phase = state.phase
    if phase is Phase.OVER:
        return []
    if seat is not None and seat != state.current:
        if not state.house.jump_in or not 0 <= seat < state.n:
            return []
        return play_actions(state, seat, house_effects.jump_in_cards(state, seat))
    seat = state.current
    if phase is Phase.COLOR:
        return [Action(seat, Do.CHOOSE_COLOR, color=c) for c in range(4)]
    cards = playable(state, seat)
    actions = play_actions(state, seat, cards)
    house = state.house
    if phase is TURN:
        if not (house.must_play and cards):
            actions.append(Action(seat, Do.DRAW))
    elif phase is Phase.DRAWN:
        if not house.must_play:
            actions.append(Action(seat, Do.PASS))
    else:
        actions.append(Action(seat, Do.ACCEPT))
        if state.pending_card == WILD_DRAW4 and not house.wd4_strict:
            actions.append(Action(seat, Do.CHALLENGE))
    return actions


def play_actions(state: RoundState, seat: int, cards: list[int]) -> list[Action]:
    """One play per card, per named color for wild cards and per seat for swaps."""
    actions: list[Action] = []
    hand = state.hands[seat]
    calls = len(hand) == 2
    targets: list[int | None] = [None]
    if len(hand) > 1 and any(state.effects[c] >= SWAP for c in cards):
        targets = list(state.swap_targets(seat))
    for card in dict.fromkeys(cards):
        aims = targets if state.effects[card] >= SWAP else [None]
        for target in aims:
            if IS_WILD[card]:
                actions += [Action(seat, PLAY, card, c, calls, target) for c in range(4)]
            else:
                actions.append(Action(seat, PLAY, card, None, calls, target))
    return actions
