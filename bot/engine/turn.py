"""A turn's own actions: play a card, draw, pass, name the first card's color, UNO and catches.

A pending penalty's answers are ``penalties``'s; what the house rules add or forbid is
``house_effects``'s. Each action is validated completely before anything changes, so a
rejected action (``RuleError``) leaves the round untouched.
"""

from __future__ import annotations

from . import errors, house_effects, penalties
from .cards import CARD_COLOR, CARD_KINDS, CODES, COLORS, IS_WILD, WILD_CUSTOM
from .events import (
    Caught,
    ColorChosen,
    Played,
    drew,
    jumped_in,
    passed,
    played,
    reversed_,
    skipped,
    uno_called,
)
from .phase import (
    ANSWER_TWO,
    DRAW_FOUR,
    DRAW_TWO,
    DRAWN,
    LAP,
    MATCHES,
    OVER,
    PLAIN,
    RESPOND,
    ROTATE,
    SKIP_NEXT,
    SWAP,
    TURN,
    TURN_BACK,
    Phase,
)
from .state import Event, RoundState


def play(
    state: RoundState,
    seat: int,
    card: int,
    color: int | None = None,
    uno: bool = False,
    target: int | None = None,
) -> None:
    """Play ``card``; ``color`` names the color for wild cards; ``uno`` calls UNO with it;
    ``target`` names the seat a 7 (seven_o) or a swap_hands Wild Customizable swaps with.
    By a seat that is not awaited, while jump_in is on, it is a jump-in."""
    phase = state.phase
    if seat != state.current or phase is OVER:
        if phase is TURN and state.house.jump_in and 0 <= seat < state.n:
            house_effects.check_jump_in(state, seat, card, target)
            # Valid: the jumper's turn replaces the current one (the checks below pass).
            state.events.append(jumped_in(seat, state.current))
            state.current = seat
        else:
            state.check_turn(seat)
    hand = state.hands[seat]
    # Validate everything before changing anything (the checks run in the contract's order).
    if phase is TURN:
        try:
            where = hand.index(card)  # found once, removed by position below
        except ValueError:
            raise errors.not_in_hand() from None
        if not MATCHES[state.color * CARD_KINDS + state.discard[-1]][card]:
            raise errors.cannot_play()
        if state.restrict and not house_effects.allowed(state, seat, card):
            raise house_effects.forbidden(state, seat, card)
    elif phase is DRAWN:
        if card not in hand:
            raise errors.not_in_hand()
        if card != state.drawn:
            raise errors.wrong_card()
        where = hand.index(card)
    elif phase is RESPOND:
        penalties.play_answer(state, seat, card, color, uno)
        return
    else:
        raise errors.not_allowed("choose_first_color")
    wild = IS_WILD[card]
    if wild and (color is None or not 0 <= color < 4) and len(hand) > 1:
        raise errors.bad_color()
    effect = state.effects[card]
    if effect >= SWAP and len(hand) > 1 and not state.valid_target(seat, target):
        raise errors.bad_action("name_swap_target")
    # Valid: from here on the round changes.
    if state.exposed != seat:
        state.exposed = -1
    prev_color = state.color
    del hand[where]
    state.discard.append(card)
    events = state.events
    if wild:
        if color is not None and 0 <= color < 4:
            state.color = color
        event: Event
        if card == WILD_CUSTOM and state.house_rule and effect == PLAIN:
            event = Played(seat, CODES[card], COLORS[state.color], state.house_rule)
        else:
            event = played(seat, CODES[card], COLORS[state.color])
    else:
        state.color = CARD_COLOR[card]
        event = played(seat, CODES[card])
    if phase is DRAWN:
        state.drawn = -1
    events.append(event)
    left = len(hand)
    if left == 1:
        state.called[seat] = uno
        if uno:
            events.append(uno_called(seat))
        else:
            state.exposed = seat
    n = state.n
    nxt = (seat + state.direction) % n if state.players == n else state.next_seat(seat)
    if not left:
        # The last card's draws still happen, with no challenge and no bounce.
        if effect in (DRAW_TWO, ANSWER_TWO):
            state.draw_cards(nxt, 2, "draw2")
        elif effect == DRAW_FOUR:
            state.draw_cards(nxt, 4, "draw4")
        elif effect == LAP:
            state.draw_round(seat, "victory_lap")
        elif effect >= ROTATE:
            house_effects.last_card(state, seat, effect, nxt)
        state.win(seat)
        return
    if phase is not TURN:
        state.phase = TURN
    if effect == PLAIN:
        state.current = nxt
    elif effect == SKIP_NEXT:
        events.append(skipped(nxt))
        state.current = state.next_seat(nxt)
    elif effect == TURN_BACK:
        state.direction = -state.direction
        events.append(reversed_(state.direction))
        if state.players == 2:
            # With two players a Reverse also acts as a Skip: the same player goes again.
            events.append(skipped(nxt))
            state.current = seat
        else:
            state.current = state.next_seat(seat)
    elif effect == DRAW_TWO:
        state.draw_cards(nxt, 2, "draw2")
        events.append(skipped(nxt))
        state.current = state.next_seat(nxt)
    elif effect == ANSWER_TWO:
        penalties.await_answer(state, seat, nxt, card, True, 2)
    elif effect == DRAW_FOUR:
        legal = penalties.draw4_legal(state.edition, hand, prev_color)
        penalties.await_answer(state, seat, nxt, card, legal, 4)
    elif effect == LAP:
        state.draw_round(seat, "victory_lap")
        state.current = nxt
    else:
        house_effects.resolve(state, seat, effect, nxt, target)


def draw(state: RoundState, seat: int) -> None:
    """Draw one card instead of playing; a playable one may then be played at once."""
    phase = state.phase
    if seat != state.current or phase is not TURN:
        state.check_turn(seat)
        if phase is Phase.DRAWN:
            raise errors.not_allowed("already_drew")
        raise errors.not_allowed("cannot_draw")
    if not state.plain_draw:
        house_effects.draw(state, seat)
        return
    if state.exposed != seat:
        state.exposed = -1
    pile = state.draw_pile
    if not pile:
        if state.draw_cards(seat, 1, "draw") and state.can_play(state.hands[seat][-1]):
            state.phase = DRAWN
            state.drawn = state.hands[seat][-1]
        else:
            state.current = state.next_seat(seat)
        return
    # One card from a pile that holds some: draw_cards inlined (a hot path).
    card = pile.pop()
    state.hands[seat].append(card)
    state.called[seat] = False  # the hand now holds two cards or more
    state.events.append(drew(seat, 1, "draw"))
    if MATCHES[state.color * CARD_KINDS + state.discard[-1]][card]:
        state.phase = DRAWN
        state.drawn = card
    elif state.players == state.n:
        state.current = (seat + state.direction) % state.n
    else:
        state.current = state.next_seat(seat)


def pass_turn(state: RoundState, seat: int) -> None:
    """Keep the playable card just drawn and end the turn."""
    state.check_turn(seat)
    if state.phase is not Phase.DRAWN:
        raise errors.not_allowed("pass_after_draw")
    if state.house.must_play:
        raise errors.not_allowed("must_play_drawn")
    state.close_window(seat)
    state.phase = Phase.TURN
    state.drawn = -1
    state.events.append(passed(seat))
    state.current = state.next_seat(seat)


def choose_color(state: RoundState, seat: int, color: int) -> None:
    """Name the color of a wild card turned up first."""
    state.check_turn(seat)
    if state.phase is not Phase.COLOR:
        raise errors.not_allowed("no_color_to_choose")
    if not 0 <= color < 4:
        raise errors.bad_color()
    state.close_window(seat)
    state.color = color
    state.phase = Phase.TURN
    state.events.append(ColorChosen(seat, COLORS[color]))


def call_uno(state: RoundState, seat: int) -> None:
    """Call UNO while holding exactly one card; repeating it changes nothing."""
    if state.phase is Phase.OVER:
        raise errors.not_allowed("round_over")
    if not state.active[seat]:
        raise errors.not_allowed("left_game")
    if len(state.hands[seat]) != 1:
        raise errors.not_allowed("uno_one_card")
    if state.called[seat]:
        return
    state.called[seat] = True
    if state.exposed == seat:
        state.exposed = -1
    state.events.append(uno_called(seat))


def catch(state: RoundState, seat: int, target: int) -> bool:
    """Catch ``target`` for a missed UNO call; too late or safe means no effect, no cost."""
    if state.phase is Phase.OVER:
        raise errors.not_allowed("round_over")
    if not 0 <= target < state.n:
        raise errors.bad_action("no_such_seat")
    if not state.active[seat]:
        raise errors.not_allowed("left_game")
    if target == seat:
        raise errors.not_allowed("catch_self")
    if state.catchable() != target:
        return False
    state.exposed = -1
    state.events.append(Caught(seat, target))
    count = state.house.uno_penalty
    if count:  # a penalty of 0 still makes the catch count, but draws nothing
        state.draw_cards(target, count, "catch")
    return True
