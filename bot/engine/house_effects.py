"""House-rule effects on a round: plays the options forbid, jump-ins, drawing until playable,
hands swapped or passed along (7-0), and the Wild Customizable's enforced effects.

Pending penalties, stacking included, are ``penalties``'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import errors
from .cards import IS_NUMBER, IS_WILD, WILD_DRAW4
from .house import CustomEffect
from .penalties import draw4_legal
from .phase import CUSTOM, CUSTOM_SWAP, ROTATE, SWAP, Phase

if TYPE_CHECKING:
    from .game import Game


# ----- what the options forbid -----


def allowed(game: Game, seat: int, card: int) -> bool:
    """May ``seat`` play this matching card under no_action_finish and wd4_strict."""
    hand = game.hands[seat]
    house = game.house
    if house.no_action_finish and len(hand) == 1 and not IS_NUMBER[card]:
        return False
    if house.wd4_strict and card == WILD_DRAW4:
        rest = list(hand)
        rest.remove(card)
        return draw4_legal(game.edition, rest, game.color)
    return True


def forbidden(game: Game, seat: int, card: int) -> errors.RuleError:
    """The cannot_play error for a matching card that ``allowed`` refuses."""
    if len(game.hands[seat]) == 1 and not IS_NUMBER[card]:
        return errors.RuleError("cannot_play", "Your last card may not be an action card.")
    return errors.RuleError(
        "cannot_play", "A Wild Draw Four may not be played while you hold the color in force."
    )


# ----- jump-in -----


def jump_in_cards(game: Game, seat: int) -> list[int]:
    """The cards ``seat`` (not awaited) may jump in with now: identical to the top card."""
    if game.phase is not Phase.TURN or seat == game.current or not game.active[seat]:
        return []
    top = game.discard[-1]
    if IS_WILD[top]:
        return []
    hand = game.hands[seat]
    if len(hand) == 1 and game.house.no_action_finish and not IS_NUMBER[top]:
        return []
    return [c for c in hand if c == top]


def check_jump_in(game: Game, seat: int, card: int, target: int | None) -> None:
    """Raise the RuleError that rejects this jump-in, if any (every check, in contract order)."""
    if not game.active[seat]:
        raise errors.not_allowed("You have left this game.")
    top = game.discard[-1]
    if card != top or IS_WILD[top] or card not in game.hands[seat]:
        raise errors.not_your_turn()
    hand = game.hands[seat]
    if len(hand) == 1 and game.house.no_action_finish and not IS_NUMBER[card]:
        raise forbidden(game, seat, card)
    if game.needs_target(card) and len(hand) > 1 and not game.valid_target(seat, target):
        raise errors.bad_action("Name another player to swap hands with.")


# ----- drawing -----


def draw(game: Game, seat: int) -> None:
    """A draw under must_play, draw_until_playable or wd4_strict (the turn checks are done)."""
    house = game.house
    if house.must_play and game.playable(seat):
        raise errors.not_allowed("You hold a card you can play: play one.")
    game._close_window(seat)
    hand = game.hands[seat]
    playable = False
    if house.draw_until_playable:
        count = 0
        while True:
            pile = game.draw_pile
            if not pile:
                game._reshuffle()
                pile = game.draw_pile
                if not pile:
                    break
            card = pile.pop()
            hand.append(card)
            count += 1
            if game.can_play(card) and allowed(game, seat, card):
                playable = True
                break
        if len(hand) > 1:
            game.called[seat] = False
        game.events.append(
            {"type": "draw", "seat": seat, "count": count, "reason": "until_playable"}
        )
    elif game._draw(seat, 1, "draw"):
        card = hand[-1]
        playable = game.can_play(card) and allowed(game, seat, card)
    if playable:
        game.phase = Phase.DRAWN
        game.drawn = hand[-1]
    else:
        game.current = game.next_seat(seat)


# ----- hands changing owners -----


def _recount_calls(game: Game) -> None:
    # After an exchange of hands a player holding one card counts as having called UNO.
    game.called = [len(hand) == 1 for hand in game.hands]
    game.exposed = -1


def swap(game: Game, seat: int, target: int) -> None:
    """``seat`` and ``target`` exchange hands (the cards stay hidden: only seats are told)."""
    hands = game.hands
    hands[seat], hands[target] = hands[target], hands[seat]
    game.events.append({"type": "swap", "seat": seat, "target": target})
    _recount_calls(game)


def rotate(game: Game) -> None:
    """Every hand passes to the next player in the direction of play."""
    hands = game.hands
    moved = [list[int]() for _ in hands]
    for seat in range(game.n):
        if game.active[seat]:
            moved[game.next_seat(seat)] = hands[seat]
    game.hands = moved
    game.events.append({"type": "rotate", "direction": game.direction})
    _recount_calls(game)


# ----- effects of a play -----


def resolve(game: Game, seat: int, effect: int, nxt: int, target: int | None) -> None:
    """A house effect of a card just played by ``seat`` (its hand is not empty)."""
    game.current = nxt
    if effect == SWAP:
        assert target is not None
        swap(game, seat, target)
        return
    if effect == ROTATE:
        rotate(game)
        return
    kind = game.house.custom_effect
    game.events.append({"type": "custom_effect", "seat": seat, "effect": kind.value})
    if effect == CUSTOM_SWAP:
        assert target is not None
        swap(game, seat, target)
    elif kind is CustomEffect.EVERYONE_DRAWS_1:
        game.draw_round(seat, "custom")
    elif kind is CustomEffect.NEXT_DRAWS_2:
        game._draw(nxt, 2, "custom")
        game.events.append({"type": "skip", "seat": nxt})
        game.current = game.next_seat(nxt)
    elif kind is CustomEffect.ROTATE_HANDS:
        rotate(game)
    elif kind is CustomEffect.PLAY_AGAIN:
        game.events.append({"type": "play_again", "seat": seat})
        game.current = seat


def last_card(game: Game, seat: int, effect: int, nxt: int) -> None:
    """A house effect of a hand's last card: only draws still happen."""
    if effect != CUSTOM and effect != CUSTOM_SWAP:
        return  # a last 7 or 0 swaps and passes nothing
    kind = game.house.custom_effect
    if kind is CustomEffect.EVERYONE_DRAWS_1:
        game.events.append({"type": "custom_effect", "seat": seat, "effect": kind.value})
        game.draw_round(seat, "custom")
    elif kind is CustomEffect.NEXT_DRAWS_2:
        game.events.append({"type": "custom_effect", "seat": seat, "effect": kind.value})
        game._draw(nxt, 2, "custom")
