"""One named test per printed rule (docs/rules.md), on decks arranged so hands and top are explicit.

Unless a test says otherwise: three players, dealer 0, so seat 1 (the dealer's left) starts.
"""

from __future__ import annotations

import pytest

from bot.engine import Edition, Game
from bot.engine.cards import CARD_POINTS, CODES, parse_card
from bot.engine.events import (
    Bounced,
    Caught,
    Challenged,
    ColorChosen,
    FirstCard,
    Passed,
    Played,
    Reshuffled,
    Reversed,
    RoundOver,
    Skipped,
    UnoCalled,
)
from tests.engine.helpers import (
    act,
    all_cards,
    color,
    do,
    draws,
    edition_codes,
    give,
    hand,
    make_game,
    play,
    rejects,
    set_top,
    top,
)

# Hands without red cards or wild cards unless a test adds them.
P0 = ["green-1", "green-2", "green-3", "yellow-1", "yellow-2", "yellow-3", "blue-1"]
P1 = ["blue-2", "blue-3", "blue-4", "green-4", "green-6", "yellow-4", "yellow-6"]
P2 = ["green-7", "green-8", "yellow-7", "yellow-8", "blue-7", "blue-8", "blue-9"]


def three(
    edition: str,
    p1: list[str],
    first: str = "red-5",
    then: tuple[str, ...] = (),
    p0: list[str] = P0,
    p2: list[str] = P2,
    house_rule: str = "",
) -> Game:
    """Three players, dealer 0, seat 1 holding ``p1`` (padded from P1), ``first`` turned up."""
    full = list(p1) + [c for c in P1 if c not in p1][: 7 - len(p1)]
    return make_game(edition, [p0, full, p2], [first, *then], house_rule=house_rule)


# ----- seats, dealer, deal -----


def test_play_starts_with_dealers_left_clockwise() -> None:
    game = make_game("classic", [P0, P1, P2, []], ["red-5"], dealer=2)
    assert game.current == 3 and game.direction == 1
    play(game, 3, game_card(game, 3))
    assert game.current == 0


def game_card(game: Game, seat: int) -> str:
    """Any card ``seat`` may play now (not a wild, so no color is needed)."""
    return next(CODES[c] for c in game.playable(seat) if not CODES[c].startswith("wild"))


# ----- the first card -----


def test_first_card_sonic_action_cards_ignored_until_a_number() -> None:
    firsts = ("red-skip", "wild", "green-reverse", "wild-victory-lap", "blue-draw2", "wild-draw4")
    game = three("sonic", P1, firsts[0], (*firsts[1:], "green-7"))
    assert top(game) == "green-7" and color(game) == "green"
    assert [CODES[c] for c in game.discard] == [*firsts, "green-7"]
    assert game.current == 1 and game.direction == 1 and game.awaiting == "turn"
    assert [len(h) for h in game.hands] == [7, 7, 7]
    effects = [e.effect for e in game.events if isinstance(e, FirstCard)]
    assert effects == ["ignored"] * 6 + ["starts"]


@pytest.mark.parametrize("edition", ["classic", "mario"])
def test_first_card_number_dealers_left_starts(edition: str) -> None:
    game = three(edition, P1, "red-5")
    assert (game.current, game.direction, color(game), game.awaiting) == (1, 1, "red", "turn")


@pytest.mark.parametrize("edition", ["classic", "mario"])
def test_first_card_draw2_dealers_left_draws_and_is_skipped(edition: str) -> None:
    game = three(edition, P1, "red-draw2", ("green-9", "yellow-9"))
    assert hand(game, 1)[-2:] == ["green-9", "yellow-9"] and len(hand(game, 1)) == 9
    assert game.current == 2 and game.awaiting == "turn"  # no bounce: nobody played it
    assert draws(game.events) == [(1, 2, "draw2")]


@pytest.mark.parametrize("edition", ["classic", "mario"])
def test_first_card_skip_dealers_left_is_skipped(edition: str) -> None:
    game = three(edition, P1, "red-skip")
    assert game.current == 2 and game.direction == 1 and len(hand(game, 1)) == 7


@pytest.mark.parametrize("edition", ["classic", "mario"])
def test_first_card_reverse_dealer_starts_counter_clockwise(edition: str) -> None:
    game = three(edition, P1, "red-reverse", p0=["red-1", *P0[1:]])
    assert game.current == 0 and game.direction == -1
    play(game, 0, "red-1")
    assert game.current == 2


@pytest.mark.parametrize(
    ("edition", "card"),
    [
        ("classic", "wild"),
        ("mario", "wild"),
        ("mario", "wild-custom"),
        ("mario", "wild-super-star"),
    ],
)
def test_first_card_wild_dealers_left_chooses_color_then_plays(edition: str, card: str) -> None:
    game = three(edition, ["green-9", *P1[1:]], card)
    assert game.awaiting == "color" and game.current == 1 and color(game) is None
    rejects(game, act(1, "play", "green-9"), "not_allowed")
    do_color = game.apply(act(1, "choose_color", color="green"))
    assert do_color == [ColorChosen(seat=1, color="green")]
    assert game.awaiting == "turn" and game.current == 1 and color(game) == "green"
    play(game, 1, "green-9")
    assert game.current == 2


@pytest.mark.parametrize("edition", ["classic", "mario"])
@pytest.mark.parametrize("seed", range(5))
def test_first_card_wild_draw4_goes_back_into_the_pile(edition: str, seed: int) -> None:
    game = make_game(edition, [P0, P1, P2], ["wild-draw4", "red-5"], seed=seed)
    assert top(game) != "wild-draw4" and len(game.discard) == 1
    assert game.draw_pile.count(parse_card("wild-draw4")) == 4
    assert any(isinstance(e, FirstCard) and e.effect == "returned" for e in game.events)
    assert all_cards(game) == all_cards_of(edition)


def all_cards_of(edition: str) -> object:
    from collections import Counter

    return Counter(parse_card(c) for c in edition_codes(edition))


# ----- a turn -----


@pytest.mark.parametrize(
    ("first", "card", "ok"),
    [
        ("red-5", "red-2", True),  # color
        ("red-5", "blue-5", True),  # number
        ("red-skip", "blue-skip", True),  # symbol
        ("red-draw2", "green-draw2", True),
        ("red-reverse", "yellow-reverse", True),
        ("red-5", "wild", True),
        ("red-5", "wild-draw4", True),
        ("red-5", "green-7", False),
        ("red-5", "blue-skip", False),
        ("red-skip", "blue-reverse", False),
        ("red-draw2", "blue-2", False),
    ],
)
def test_card_matches_color_number_symbol_or_is_wild(first: str, card: str, ok: bool) -> None:
    game = three("classic", [card])
    set_top(game, first)
    wild_color = "blue" if card.startswith("wild") else None
    assert (parse_card(card) in game.playable(1)) is ok
    if ok:
        play(game, 1, card, wild_color)
        assert top(game) == card
    else:
        rejects(game, act(1, "play", card, wild_color), "cannot_play")


def test_wild_names_any_color_including_the_current_one() -> None:
    game = three("classic", ["wild", "wild"])
    play(game, 1, "wild", "red")
    assert color(game) == "red"


def test_wild_draw4_may_always_be_played() -> None:
    game = three("classic", ["wild-draw4", "red-1", "red-2"])  # it holds red: a bluff
    events = play(game, 1, "wild-draw4", "blue")
    assert isinstance(events[0], Played) and game.awaiting == "respond" and game.current == 2


def test_voluntary_draw_even_with_a_playable_card() -> None:
    game = three("classic", ["red-2"], then=("green-9",))
    do(game, 1, "draw")
    assert hand(game, 1)[-1] == "green-9" and game.current == 2 and game.awaiting == "turn"


def test_drawn_playable_card_only_that_card_may_be_played() -> None:
    game = three("classic", ["red-2"], then=("red-9",))
    do(game, 1, "draw")
    assert game.awaiting == "drawn" and game.current == 1
    rejects(game, act(1, "play", "red-2"), "wrong_card")
    rejects(game, act(1, "draw"), "not_allowed")
    play(game, 1, "red-9")
    assert top(game) == "red-9" and game.current == 2


def test_drawn_playable_card_may_be_kept_with_pass() -> None:
    game = three("classic", ["red-2"], then=("wild",))
    do(game, 1, "draw")
    assert game.awaiting == "drawn"
    assert do(game, 1, "pass") == [Passed(seat=1)]
    assert "wild" in hand(game, 1) and game.current == 2 and game.awaiting == "turn"


def test_unplayable_drawn_card_is_kept_and_ends_the_turn() -> None:
    game = three("classic", [], then=("green-9",))
    do(game, 1, "draw")
    assert hand(game, 1)[-1] == "green-9" and game.current == 2 and game.awaiting == "turn"


def test_empty_draw_pile_reshuffles_the_discards_but_the_top() -> None:
    game = three("classic", [], then=("green-9",))
    game.discard[:0] = game.draw_pile  # every card of the pile becomes an old discard
    game.draw_pile = []
    before = all_cards(game)
    events = do(game, 1, "draw")
    assert isinstance(events[0], Reshuffled)
    assert top(game) == "red-5" and len(game.discard) == 1
    assert len(hand(game, 1)) == 8 and len(game.draw_pile) == 108 - 21 - 1 - 1
    assert all_cards(game) == before


def test_nothing_left_to_draw_the_draw_does_not_happen() -> None:
    game = three("classic", ["red-draw2"])
    game.hands[0] += game.draw_pile  # every card is held: nothing can be drawn
    game.draw_pile = []
    before = all_cards(game)
    events = do(game, 1, "draw")
    assert draws(events) == [(1, 0, "draw")] and game.current == 2
    assert all_cards(game) == before


def test_penalty_draws_as_many_cards_as_there_are() -> None:
    game = three("classic", ["red-draw2"])
    game.hands[0] += game.draw_pile  # only the old top (red-5) will be left to reshuffle
    game.draw_pile = []
    events = play(game, 1, "red-draw2")
    assert [e.TYPE for e in events] == ["play", "reshuffle", "draw", "skip"]
    assert draws(events) == [(2, 1, "draw2")] and hand(game, 2)[-1] == "red-5"
    assert game.current == 0


# ----- action cards -----


def test_skip_next_player_is_skipped() -> None:
    game = three("classic", ["red-skip"])
    events = play(game, 1, "red-skip")
    assert Skipped(seat=2) in events and game.current == 0


def test_reverse_changes_direction() -> None:
    game = three("classic", ["red-reverse"])
    play(game, 1, "red-reverse")
    assert game.direction == -1 and game.current == 0


def test_reverse_with_two_players_acts_as_a_skip_and_turns_the_direction() -> None:
    game = make_game("classic", [P0, ["red-reverse", "blue-reverse", *P1[2:]]], ["red-5"])
    assert game.current == 1
    events = play(game, 1, "red-reverse")
    assert events[1:] == [Reversed(direction=-1), Skipped(seat=0)]
    assert game.current == 1 and game.direction == -1
    play(game, 1, "blue-reverse")
    assert game.current == 1 and game.direction == 1


@pytest.mark.parametrize("edition", ["classic", "sonic"])
def test_draw2_next_player_draws_two_and_is_skipped(edition: str) -> None:
    game = three(edition, ["red-draw2"], then=("green-9",))
    events = play(game, 1, "red-draw2")
    assert draws(events) == [(2, 2, "draw2")] and len(hand(game, 2)) == 9
    assert game.current == 0 and game.awaiting == "turn"


def test_mario_draw2_target_must_accept() -> None:
    game = three("mario", ["red-draw2"])
    play(game, 1, "red-draw2")
    assert game.awaiting == "respond" and game.current == 2 and len(hand(game, 2)) == 7
    rejects(game, act(2, "draw"), "not_allowed")
    rejects(game, act(2, "challenge"), "not_allowed")
    rejects(game, act(2, "play", "green-7"), "not_allowed")
    rejects(game, act(0, "accept"), "not_your_turn")
    events = do(game, 2, "accept")
    assert draws(events) == [(2, 2, "draw2")] and game.current == 0 and game.awaiting == "turn"


def test_victory_lap_every_other_player_draws_one_in_turn_order() -> None:
    game = make_game("sonic", [P0, ["wild-victory-lap", *P1[1:]], P2, []], ["red-5"])
    events = play(game, 1, "wild-victory-lap", "blue")
    assert draws(events) == [(2, 1, "victory_lap"), (3, 1, "victory_lap"), (0, 1, "victory_lap")]
    assert game.current == 2 and color(game) == "blue"  # nobody is skipped
    assert [len(h) for h in game.hands] == [8, 6, 8, 8]


def test_wild_draw4_accept_draws_four_and_is_skipped() -> None:
    game = three("classic", ["wild-draw4"])
    play(game, 1, "wild-draw4", "green")
    events = do(game, 2, "accept")
    assert draws(events) == [(2, 4, "draw4")] and game.current == 0 and color(game) == "green"


# "yellow-5" matches the number and "blue-skip"... none of P1's cards is red.
LEGAL_HAND = ["wild-draw4", "yellow-5", "blue-2", "blue-3", "green-4", "green-6", "yellow-6"]


@pytest.mark.parametrize("edition", ["classic", "sonic", "mario"])
def test_wild_draw4_challenge_legal_challenger_draws_six_and_is_skipped(edition: str) -> None:
    game = three(edition, LEGAL_HAND)
    play(game, 1, "wild-draw4", "green")
    events = do(game, 2, "challenge")
    assert events[0].legal is True
    assert draws(events) == [(2, 6, "challenge")]
    assert game.current == 0 and color(game) == "green" and len(hand(game, 1)) == 6


@pytest.mark.parametrize("edition", ["classic", "sonic", "mario"])
def test_wild_draw4_challenge_illegal_player_draws_four_challenger_plays(edition: str) -> None:
    game = three(edition, ["wild-draw4", "red-9"])
    play(game, 1, "wild-draw4", "green")
    events = do(game, 2, "challenge")
    assert events[0].legal is False
    assert draws(events) == [(1, 4, "challenge")]
    assert game.current == 2 and game.awaiting == "turn" and color(game) == "green"
    assert len(hand(game, 1)) == 10 and len(hand(game, 2)) == 7


@pytest.mark.parametrize("edition", ["classic", "mario"])
@pytest.mark.parametrize("extra", ["wild", "wild-draw4", "blue-5", "blue-skip"])
def test_wild_draw4_challenge_classic_mario_only_previous_color_counts(
    edition: str, extra: str
) -> None:
    game = three(edition, ["wild-draw4", extra])
    set_top(game, "red-skip" if extra == "blue-skip" else "red-5")
    play(game, 1, "wild-draw4", "yellow")
    events = do(game, 2, "challenge")
    assert events[0].legal is True  # wilds and matching numbers/symbols do not count


def test_wild_draw4_challenge_sonic_other_wild_counts_as_color() -> None:
    game = three("sonic", ["wild-draw4", "wild-victory-lap"])
    play(game, 1, "wild-draw4", "green")
    events = do(game, 2, "challenge")
    assert events[0].legal is False and draws(events) == [(1, 4, "challenge")]


def test_wild_draw4_challenge_sonic_second_draw4_counts_as_color() -> None:
    game = three("sonic", ["wild-draw4", "wild-draw4"])
    play(game, 1, "wild-draw4", "green")
    assert do(game, 2, "challenge")[0].legal is False


def test_wild_draw4_challenge_judges_the_color_in_force_not_the_top_card() -> None:
    # The top is a wild turned up first and named yellow: red cards do not make the play illegal.
    game = three("classic", ["wild-draw4", "red-1", "red-2"], "wild")
    do_color = act(1, "choose_color", color="yellow")
    game.apply(do_color)
    play(game, 1, "wild-draw4", "red")
    assert do(game, 2, "challenge")[0].legal is True


def test_challenge_reveals_the_hand_as_it_was_at_the_play() -> None:
    game = three("classic", LEGAL_HAND)
    play(game, 1, "wild-draw4", "green")
    event = do(game, 2, "challenge")[0]
    assert isinstance(event, Challenged) and event.seat == 2 and event.target == 1
    assert sorted(event.hand) == sorted(LEGAL_HAND[1:])


def test_super_star_is_a_wild_on_ones_own_turn() -> None:
    game = three("mario", ["wild-super-star"])
    events = play(game, 1, "wild-super-star", "yellow")
    assert isinstance(events[0], Played) and color(game) == "yellow" and game.current == 2


def test_super_star_bounces_draw2_back() -> None:
    game = three("mario", ["red-draw2"], p2=["wild-super-star", *P2[1:]])
    play(game, 1, "red-draw2")
    events = play(game, 2, "wild-super-star", "blue")
    assert isinstance(events[0], Bounced) and events[0].target == 1
    assert draws(events) == [(1, 2, "bounce")] and len(hand(game, 2)) == 6
    assert game.current == 0 and game.awaiting == "turn" and color(game) == "blue"


def test_super_star_bounces_wild_draw4_back() -> None:
    game = three("mario", ["wild-draw4"], p2=["wild-super-star", *P2[1:]])
    play(game, 1, "wild-draw4", "green")
    rejects(game, act(2, "play", "wild-super-star"), "bad_color")
    events = play(game, 2, "wild-super-star", "yellow")
    assert draws(events) == [(1, 4, "bounce")] and len(hand(game, 1)) == 10
    assert game.current == 0 and color(game) == "yellow"


def test_bounce_cannot_be_bounced() -> None:
    game = three("mario", ["red-draw2", "wild-super-star"], p2=["wild-super-star", *P2[1:]])
    play(game, 1, "red-draw2")
    play(game, 2, "wild-super-star", "blue")
    assert game.awaiting == "turn" and game.current == 0
    rejects(game, act(1, "play", "wild-super-star", "red"), "not_your_turn")
    assert all(a.do != "accept" for a in game.legal_actions())


def test_super_star_bounce_plays_continue_after_the_bouncer_counter_clockwise() -> None:
    game = three("mario", ["red-draw2"], p0=["wild-super-star", *P0[1:]], first="red-reverse")
    # Reverse first: the dealer (0) starts counter-clockwise; seat 2 then seat 1.
    give(game, 0, ["red-draw2", "wild-super-star", *P0[2:]])
    play(game, 0, "red-draw2")
    assert game.current == 2
    give(game, 2, ["wild-super-star", *P2[1:]])
    play(game, 2, "wild-super-star", "green")
    assert draws(game.events[-2:]) == [(0, 2, "bounce")] and game.current == 1


def test_wild_custom_announces_the_house_rule() -> None:
    game = three("mario", ["wild-custom"], house_rule="Everyone swaps hands")
    event = play(game, 1, "wild-custom", "green")[0]
    assert event.card == "wild-custom" and event.house_rule == "Everyone swaps hands"
    assert color(game) == "green" and game.current == 2


# ----- the last card -----


def hand_points(game: Game, seat: int) -> int:
    return sum(CARD_POINTS[c] for c in game.hands[seat])


@pytest.mark.parametrize("edition", ["classic", "sonic", "mario"])
def test_last_card_draw2_still_draws_and_counts(edition: str) -> None:
    game = three(edition, [])
    give(game, 1, ["red-draw2"])
    events = play(game, 1, "red-draw2")
    assert draws(events) == [(2, 2, "draw2")] and len(hand(game, 2)) == 9
    assert game.awaiting == "round_over" and game.winner == 1
    assert game.points == [0, hand_points(game, 0) + hand_points(game, 2), 0]


@pytest.mark.parametrize("edition", ["classic", "mario"])
def test_last_card_wild_draw4_still_draws_and_counts(edition: str) -> None:
    game = three(edition, [])
    give(game, 1, ["wild-draw4"])
    events = play(game, 1, "wild-draw4", "blue")
    assert draws(events) == [(2, 4, "draw4")] and len(hand(game, 2)) == 11
    assert game.winner == 1 and game.points is not None
    assert game.points[1] == hand_points(game, 0) + hand_points(game, 2)


def test_last_card_victory_lap_still_draws_and_counts() -> None:
    game = three("sonic", [])
    give(game, 1, ["wild-victory-lap"])
    events = play(game, 1, "wild-victory-lap", "blue")
    assert draws(events) == [(2, 1, "victory_lap"), (0, 1, "victory_lap")]
    assert game.points == [0, hand_points(game, 0) + hand_points(game, 2), 0]


def test_last_card_wild_needs_no_color() -> None:
    game = three("classic", [])
    give(game, 1, ["wild"])
    play(game, 1, "wild")
    assert game.winner == 1 and game.awaiting == "round_over"


# ----- UNO -----


def two_left(edition: str = "classic") -> Game:
    game = three(edition, [])
    give(game, 1, ["red-2", "red-3"])
    return game


def test_uno_called_with_the_play() -> None:
    game = two_left()
    events = play(game, 1, "red-2", uno=True)
    assert UnoCalled(seat=1) in events and game.uno_flags() == [False, True, False]
    assert do(game, 0, "catch", target=1) == [] and len(hand(game, 1)) == 1


def test_uno_called_while_holding_one_card() -> None:
    game = two_left()
    play(game, 1, "red-2")
    assert game.uno_flags() == [False, False, False] and game.catchable() == 1
    assert do(game, 1, "call_uno") == [UnoCalled(seat=1)]
    assert game.uno_flags() == [False, True, False] and game.catchable() == -1


def test_repeat_uno_call_changes_nothing() -> None:
    game = two_left()
    play(game, 1, "red-2", uno=True)
    before = game.to_dict()
    assert do(game, 1, "call_uno") == []
    assert game.to_dict() == before


def test_uno_on_a_play_that_does_not_leave_one_card_is_ignored() -> None:
    game = three("classic", ["red-2"])
    events = play(game, 1, "red-2", uno=True)
    assert [e.TYPE for e in events] == ["play"] and not any(game.called)


def test_catch_in_the_window_draws_two() -> None:
    game = two_left()
    play(game, 1, "red-2")
    events = do(game, 0, "catch", target=1)
    assert events[0] == Caught(seat=0, target=1)
    assert draws(events) == [(1, 2, "catch")] and len(hand(game, 1)) == 3
    assert game.current == 2  # a catch is not a turn action


def test_catch_by_the_next_player_before_acting() -> None:
    game = two_left()
    play(game, 1, "red-2")
    assert draws(do(game, 2, "catch", target=1)) == [(1, 2, "catch")]


@pytest.mark.parametrize("action", ["draw", "play"])
def test_catch_window_closes_after_next_turn_action(action: str) -> None:
    game = two_left()
    play(game, 1, "red-2")
    if action == "draw":
        do(game, 2, "draw")
    else:
        give(game, 2, ["red-7", *P2[1:]])
        play(game, 2, "red-7")
    assert game.catchable() == -1


@pytest.mark.parametrize("action", ["accept", "challenge"])
def test_catch_window_closes_after_accept_or_challenge(action: str) -> None:
    game = three("classic", [])
    give(game, 1, ["wild-draw4", "red-3"])
    play(game, 1, "wild-draw4", "red")  # next-to-last card, no UNO call
    assert game.catchable() == 1
    do(game, 2, action)
    assert game.catchable() == -1 or len(hand(game, 1)) > 1


def test_late_catch_costs_nothing() -> None:
    game = two_left()
    play(game, 1, "red-2")
    do(game, 2, "draw")
    before = game.to_dict()
    assert do(game, 0, "catch", target=1) == []
    assert game.to_dict() == before and len(hand(game, 1)) == 1


def test_catch_of_a_safe_player_costs_nothing() -> None:
    game = two_left()
    play(game, 1, "red-2", uno=True)
    before = game.to_dict()
    assert do(game, 2, "catch", target=1) == [] and do(game, 0, "catch", target=2) == []
    assert game.to_dict() == before


def test_catch_of_oneself_is_not_allowed() -> None:
    game = two_left()
    play(game, 1, "red-2")
    rejects(game, act(1, "catch", target=1), "not_allowed")


def test_hand_growing_past_one_resets_the_call() -> None:
    game = three("classic", [], then=("green-9", "green-8", "yellow-9", "green-9", "yellow-9"))
    give(game, 1, ["red-2", "red-3"])
    play(game, 1, "red-2", uno=True)
    assert game.called[1]
    do(game, 2, "draw")  # green-9: cannot be played on red-2
    do(game, 0, "draw")  # green-8
    do(game, 1, "draw")  # yellow-9: the hand grows past one and the call lapses
    assert hand(game, 1) == ["red-3", "yellow-9"] and not game.called[1]
    do(game, 2, "draw")
    do(game, 0, "draw")
    play(game, 1, "red-3")  # down to one again, without calling
    assert game.uno_flags() == [False, False, False] and game.catchable() == 1


# ----- scoring -----


def test_round_winner_scores_the_cards_left_in_the_other_hands() -> None:
    game = three("classic", [])
    give(game, 0, ["red-5", "wild", "blue-skip"])  # 5 + 50 + 20
    give(game, 2, ["green-9", "wild-draw4"])  # 9 + 50
    give(game, 1, ["red-1"])
    events = play(game, 1, "red-1")
    assert game.points == [0, 134, 0] and game.winner == 1
    assert events[-1] == RoundOver(winner=1, points=134)


def test_card_points_follow_the_table() -> None:
    assert CARD_POINTS[parse_card("blue-7")] == 7 and CARD_POINTS[parse_card("red-0")] == 0
    for code in ("red-skip", "yellow-reverse", "green-draw2"):
        assert CARD_POINTS[parse_card(code)] == 20
    for code in ("wild", "wild-draw4", "wild-victory-lap", "wild-super-star", "wild-custom"):
        assert CARD_POINTS[parse_card(code)] == 50


@pytest.mark.parametrize("edition", list(Edition))
def test_decks_hold_exactly_the_editions_cards(edition: Edition) -> None:
    codes = edition_codes(edition)
    assert len(codes) == (108 if edition is Edition.CLASSIC else 112)
    for c in ("red", "yellow", "green", "blue"):
        assert codes.count(f"{c}-0") == 1
        for rank in [*map(str, range(1, 10)), "skip", "reverse", "draw2"]:
            assert codes.count(f"{c}-{rank}") == 2
    assert codes.count("wild") == 4 and codes.count("wild-draw4") == 4
    extras = {
        Edition.CLASSIC: {},
        Edition.SONIC: {"wild-victory-lap": 4},
        Edition.MARIO: {"wild-super-star": 2, "wild-custom": 2},
    }[edition]
    for name in ("wild-victory-lap", "wild-super-star", "wild-custom"):
        assert codes.count(name) == extras.get(name, 0)


def test_bounce_with_ones_last_card_sends_the_penalty_back_and_wins() -> None:
    game = three("mario", ["wild-draw4"])
    give(game, 2, ["wild-super-star"])
    play(game, 1, "wild-draw4", "green")
    events = play(game, 2, "wild-super-star")  # the last card needs no color
    assert draws(events) == [(1, 4, "bounce")] and game.winner == 2
    assert game.points == [0, 0, hand_points(game, 0) + hand_points(game, 1)]
