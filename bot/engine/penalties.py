"""A pending draw penalty and its answers: accept, challenge, a Super Star bounce, a stacked card.

A penalty is pending while a draw2 or wild-draw4 waits for its target (phase RESPOND). Its total
starts at 2 or 4; under the ``stack`` option each stacked card adds its own 2 or 4 and sends the
total on to the next player.
"""

from __future__ import annotations

from . import errors
from .cards import (
    CARD_COLOR,
    CARD_KINDS,
    CARD_RANK,
    CODES,
    COLORS,
    DRAW2,
    IS_WILD,
    WILD_DRAW4,
    WILD_SUPER_STAR,
    Edition,
)
from .events import Bounced, Challenged, Played, accepted, played, stacked, uno_called
from .house import Stack
from .phase import Phase
from .state import RoundState

DRAW2_CARDS: frozenset[int] = frozenset(
    c for c in range(CARD_KINDS) if not IS_WILD[c] and CARD_RANK[c] == DRAW2
)


def draw4_legal(edition: Edition, hand: list[int], color: int) -> bool:
    """Was a wild-draw4 legal: ``hand`` (without it) held no card of ``color``, the color in
    force before it (in sonic, another wild card counts as that color)."""
    if edition is Edition.SONIC:
        return not any(CARD_COLOR[c] == color or IS_WILD[c] for c in hand)
    return not any(CARD_COLOR[c] == color for c in hand)


def await_answer(
    state: RoundState, seat: int, target: int, card: int, legal: bool, total: int
) -> None:
    """``card`` played by ``seat`` puts a penalty of ``total`` on ``target``, who must answer."""
    state.phase = Phase.RESPOND
    state.current = target
    state.pending_card = card
    state.pending_from = seat
    state.pending_legal = legal
    state.pending_hand = list(state.hands[seat]) if card == WILD_DRAW4 else []
    state.penalty = total


def answer_kind(state: RoundState, card: int) -> bool:
    """May a card of this kind answer the pending penalty (bounce or stack)."""
    if card == WILD_SUPER_STAR:
        return True  # only Mario's deck holds one: elsewhere it is a card nobody holds
    stack = state.house.stack
    if stack is Stack.NONE:
        return False
    if card == WILD_DRAW4:
        return stack is Stack.ALL
    # A draw2 stacks on a draw2 only, never on a wild-draw4.
    return card in DRAW2_CARDS and state.pending_card != WILD_DRAW4


def _cannot(state: RoundState, seat: int, card: int) -> bool:
    """Do the options forbid this answer: the last card (no_action_finish), or a bluffed
    wild-draw4 (wd4_strict)."""
    hand = state.hands[seat]
    house = state.house
    if house.no_action_finish and len(hand) == 1:
        return True  # every answer is an action card
    if house.wd4_strict and card == WILD_DRAW4:
        rest = list(hand)
        rest.remove(card)
        return not draw4_legal(state.edition, rest, state.color)
    return False


def answers(state: RoundState, seat: int) -> list[int]:
    """The cards ``seat`` holds that may answer the pending penalty now."""
    return [c for c in state.hands[seat] if answer_kind(state, c) and not _cannot(state, seat, c)]


def _refusal(state: RoundState) -> errors.RuleError:
    """What the target of a penalty may do instead (each way a key a presenter tells)."""
    ways = ["accept"]
    stack = state.house.stack
    if stack is not Stack.NONE and state.pending_card != WILD_DRAW4:
        ways.append("stack_any" if stack is Stack.ALL else "stack_draw2")
    elif stack is Stack.ALL:
        ways.append("stack_draw4")
    if state.pending_card == WILD_DRAW4 and not state.house.wd4_strict:
        ways.append("challenge")
    if state.edition is Edition.MARIO:
        ways.append("bounce")
    return errors.not_allowed("answer_penalty", ways=tuple(ways))


def play_answer(state: RoundState, seat: int, card: int, color: int | None, uno: bool) -> None:
    """The target answers with a card: a Super Star bounce or a stacked draw card."""
    if not answer_kind(state, card):
        raise _refusal(state)
    hand = state.hands[seat]
    if card not in hand:
        raise errors.not_in_hand()
    if _cannot(state, seat, card):
        raise errors.cannot_play("last_action_card" if len(hand) == 1 else "wd4_strict")
    wild = IS_WILD[card]
    if wild and (color is None or not 0 <= color < 4) and len(hand) > 1:
        raise errors.bad_color()
    # Valid: from here on the round changes.
    if state.exposed != seat:
        state.exposed = -1
    prev_color = state.color
    hand.remove(card)
    state.discard.append(card)
    if wild:
        if color is not None and 0 <= color < 4:
            state.color = color
    else:
        state.color = CARD_COLOR[card]
    state.drawn = -1
    if len(hand) == 1:
        state.called[seat] = uno
        if not uno:
            state.exposed = seat
    code = CODES[card]
    if card == WILD_SUPER_STAR:
        bounce = Bounced(seat, code, COLORS[state.color], state.pending_from)
        _bounce(state, seat, hand, bounce, uno)
    else:
        play = played(seat, code, COLORS[state.color]) if wild else played(seat, code)
        _stack(state, seat, card, hand, play, uno, prev_color)


def _bounce(state: RoundState, seat: int, hand: list[int], event: Bounced, uno: bool) -> None:
    """A Super Star sends the whole penalty back to whoever played its last card."""
    state.events.append(event)
    if len(hand) == 1 and uno:
        state.events.append(uno_called(seat))
    author = state.pending_from
    if state.active[author]:  # a penalty's author who left draws nothing
        state.draw_cards(author, state.penalty, "bounce")
    state.end_response()
    if not hand:
        state.win(seat)
        return
    state.current = state.next_seat(seat)


def _stack(
    state: RoundState,
    seat: int,
    card: int,
    hand: list[int],
    event: Played,
    uno: bool,
    prev_color: int,
) -> None:
    """A stacked draw card adds its count and sends the total on to the next player."""
    events = state.events
    events.append(event)
    if len(hand) == 1 and uno:
        events.append(uno_called(seat))
    four = card == WILD_DRAW4
    total = state.penalty + (4 if four else 2)
    target = state.next_seat(seat)
    events.append(stacked(seat, target, total))
    if not hand:
        # Stacked with the last card: the round ends and the target draws the total.
        state.end_response()
        state.draw_cards(target, total, "draw4" if four else "draw2")
        state.win(seat)
        return
    legal = draw4_legal(state.edition, hand, prev_color) if four else True
    await_answer(state, seat, target, card, legal, total)


def accept(state: RoundState, seat: int) -> None:
    """The target draws the whole total and is skipped."""
    if seat != state.current or state.phase is not Phase.RESPOND:
        state.check_turn(seat)
        raise errors.not_allowed("no_penalty")
    if state.exposed != seat:  # a turn action closes another player's UNO window
        state.exposed = -1
    count = state.penalty
    state.events.append(accepted(seat, count))
    state.draw_cards(seat, count, "draw4" if state.pending_card == WILD_DRAW4 else "draw2")
    state.end_response()
    state.current = state.next_seat(seat)


def challenge(state: RoundState, seat: int) -> None:
    """Challenge the pending wild-draw4: the loser of the challenge draws."""
    state.check_turn(seat)
    if state.phase is not Phase.RESPOND or state.pending_card != WILD_DRAW4:
        raise errors.not_allowed("challenge_draw4_only")
    if state.house.wd4_strict:
        raise errors.not_allowed("no_challenge")
    state.close_window(seat)
    culprit = state.pending_from
    legal = state.pending_legal
    total = state.penalty
    # The hand is shown to the challenger only.
    hand = tuple(CODES[c] for c in state.pending_hand)
    state.events.append(Challenged(seat, culprit, legal, hand))
    state.end_response()
    if legal:
        state.draw_cards(seat, total + 2, "challenge")
        state.current = state.next_seat(seat)
    else:
        if state.active[culprit]:  # a culprit who left draws nothing
            state.draw_cards(culprit, total, "challenge")
        state.current = seat
