"""House-rule effects on a round: plays the options forbid, jump-ins, drawing until playable,
hands swapped or passed along (7-0), and the Wild Customizable's enforced effects.

Pending penalties, stacking included, are ``penalties``'s.
"""

from __future__ import annotations

from . import errors
from .cards import IS_NUMBER, IS_WILD, WILD_DRAW4
from .events import custom_effect_done, drew, play_again, rotated, skipped, swapped
from .house import CustomEffect
from .penalties import draw4_legal
from .phase import CUSTOM, CUSTOM_SWAP, ROTATE, SWAP, Phase
from .state import RoundState

# ----- what the options forbid -----


def allowed(state: RoundState, seat: int, card: int) -> bool:
    """May ``seat`` play this matching card under no_action_finish and wd4_strict."""
    hand = state.hands[seat]
    house = state.house
    if house.no_action_finish and len(hand) == 1 and not IS_NUMBER[card]:
        return False
    if house.wd4_strict and card == WILD_DRAW4:
        rest = list(hand)
        rest.remove(card)
        return draw4_legal(state.edition, rest, state.color)
    return True


def holds_playable(state: RoundState, seat: int) -> bool:
    """Does ``seat`` hold a card it could play on its turn (matching, and no option forbids)."""
    return any(state.can_play(c) and allowed(state, seat, c) for c in state.hands[seat])


def forbidden(state: RoundState, seat: int, card: int) -> errors.RuleError:
    """The cannot_play error for a matching card that ``allowed`` refuses."""
    if len(state.hands[seat]) == 1 and not IS_NUMBER[card]:
        return errors.cannot_play("last_action_card")
    return errors.cannot_play("wd4_strict")


# ----- jump-in -----


def jump_in_cards(state: RoundState, seat: int) -> list[int]:
    """The cards ``seat`` (not awaited) may jump in with now: identical to the top card."""
    if state.phase is not Phase.TURN or seat == state.current or not state.active[seat]:
        return []
    top = state.discard[-1]
    if IS_WILD[top]:
        return []
    hand = state.hands[seat]
    if len(hand) == 1 and state.house.no_action_finish and not IS_NUMBER[top]:
        return []
    return [c for c in hand if c == top]


def check_jump_in(state: RoundState, seat: int, card: int, target: int | None) -> None:
    """Raise the RuleError that rejects this jump-in, if any (every check, in contract order)."""
    if not state.active[seat]:
        raise errors.not_allowed("left_game")
    top = state.discard[-1]
    if card != top or IS_WILD[top] or card not in state.hands[seat]:
        raise errors.not_your_turn()
    hand = state.hands[seat]
    if len(hand) == 1 and state.house.no_action_finish and not IS_NUMBER[card]:
        raise forbidden(state, seat, card)
    if state.needs_target(card) and len(hand) > 1 and not state.valid_target(seat, target):
        raise errors.bad_action("name_swap_target")


# ----- drawing -----


def draw(state: RoundState, seat: int) -> None:
    """A draw under must_play, draw_until_playable or wd4_strict (the turn checks are done)."""
    house = state.house
    if house.must_play and holds_playable(state, seat):
        raise errors.not_allowed("must_play")
    state.close_window(seat)
    hand = state.hands[seat]
    playable = False
    if house.draw_until_playable:
        count = 0
        while True:
            pile = state.draw_pile
            if not pile:
                state.reshuffle()
                pile = state.draw_pile
                if not pile:
                    break
            card = pile.pop()
            hand.append(card)
            count += 1
            if state.can_play(card) and allowed(state, seat, card):
                playable = True
                break
        if len(hand) > 1:
            state.called[seat] = False
        state.events.append(drew(seat, count, "until_playable"))
    elif state.draw_cards(seat, 1, "draw"):
        card = hand[-1]
        playable = state.can_play(card) and allowed(state, seat, card)
    if playable:
        state.phase = Phase.DRAWN
        state.drawn = hand[-1]
    else:
        state.current = state.next_seat(seat)


# ----- hands changing owners -----


def _recount_calls(state: RoundState) -> None:
    # After an exchange of hands a player holding one card counts as having called UNO.
    state.called = [len(hand) == 1 for hand in state.hands]
    state.exposed = -1


def swap(state: RoundState, seat: int, target: int) -> None:
    """``seat`` and ``target`` exchange hands (the cards stay hidden: only seats are told)."""
    hands = state.hands
    hands[seat], hands[target] = hands[target], hands[seat]
    state.events.append(swapped(seat, target))
    _recount_calls(state)


def rotate(state: RoundState) -> None:
    """Every hand passes to the next player in the direction of play."""
    hands = state.hands
    moved = [list[int]() for _ in hands]
    for seat in range(state.n):
        if state.active[seat]:
            moved[state.next_seat(seat)] = hands[seat]
    state.hands = moved
    state.events.append(rotated(state.direction))
    _recount_calls(state)


# ----- effects of a play -----


def resolve(state: RoundState, seat: int, effect: int, nxt: int, target: int | None) -> None:
    """A house effect of a card just played by ``seat`` (its hand is not empty)."""
    state.current = nxt
    if effect == SWAP:
        assert target is not None
        swap(state, seat, target)
        return
    if effect == ROTATE:
        rotate(state)
        return
    kind = state.house.custom_effect
    state.events.append(custom_effect_done(seat, kind.value))
    if effect == CUSTOM_SWAP:
        assert target is not None
        swap(state, seat, target)
    elif kind is CustomEffect.EVERYONE_DRAWS_1:
        state.draw_round(seat, "custom")
    elif kind is CustomEffect.NEXT_DRAWS_2:
        state.draw_cards(nxt, 2, "custom")
        state.events.append(skipped(nxt))
        state.current = state.next_seat(nxt)
    elif kind is CustomEffect.ROTATE_HANDS:
        rotate(state)
    elif kind is CustomEffect.PLAY_AGAIN:
        state.events.append(play_again(seat))
        state.current = seat


def last_card(state: RoundState, seat: int, effect: int, nxt: int) -> None:
    """A house effect of a hand's last card: only draws still happen."""
    if effect != CUSTOM and effect != CUSTOM_SWAP:
        return  # a last 7 or 0 swaps and passes nothing
    kind = state.house.custom_effect
    if kind is CustomEffect.EVERYONE_DRAWS_1:
        state.events.append(custom_effect_done(seat, kind.value))
        state.draw_round(seat, "custom")
    elif kind is CustomEffect.NEXT_DRAWS_2:
        state.events.append(custom_effect_done(seat, kind.value))
        state.draw_cards(nxt, 2, "custom")
