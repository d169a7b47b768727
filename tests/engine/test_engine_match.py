"""The first dealer, the deal, matches to a target, both scorings, and players leaving."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.engine import Edition, Game, Match, RuleError, RuleSet, Scoring
from bot.engine.ai_memory import knowledge
from bot.engine.cards import CARD_POINTS, CARD_RANK, IS_NUMBER, parse_card
from bot.engine.events import DealerChosen, DealerDraw, Drew, Forfeit, Left
from bot.engine.match import choose_first_dealer
from bot.engine.simulate import random_policy
from tests.engine.helpers import all_cards, build_deck, deal_order, do, give, hand, make_game, play

P0 = ["green-1", "green-2", "green-3", "yellow-1", "yellow-2", "yellow-3", "blue-1"]
P1 = ["red-2", "blue-2", "blue-3", "green-4", "green-6", "yellow-4", "yellow-6"]
P2 = ["green-7", "green-8", "yellow-7", "yellow-8", "blue-7", "blue-8", "blue-9"]
P3 = ["green-9", "yellow-9", "blue-4", "blue-5", "blue-6", "green-5", "yellow-5"]


def finish(game: Game, rng: random.Random) -> None:
    """Play the round to its end with the contract's random policy."""
    while not game.over:
        random_policy(game, rng)


# ----- dealer and deal -----


def dealer_value(code: str) -> int:
    card = parse_card(code)
    return CARD_RANK[card] if IS_NUMBER[card] else 0


@pytest.mark.parametrize("edition", [Edition.CLASSIC, Edition.MARIO])
def test_first_dealer_high_card_action_cards_zero_ties_redraw(edition: Edition) -> None:
    ties = 0
    for seed in range(200):
        dealer, events = choose_first_dealer(edition, 6, random.Random(seed))
        contenders = set(range(6))
        draws = [e for e in events if isinstance(e, DealerDraw)]
        for draw in draws:
            cards = {int(s): code for s, code in draw.cards.items()}
            assert set(cards) == contenders  # only the tied highest draw again
            best = max(dealer_value(c) for c in cards.values())
            contenders = {s for s, c in cards.items() if dealer_value(c) == best}
        assert contenders == {dealer}
        assert events[-1] == DealerChosen(seat=dealer, how="high_card")
        ties += len(draws) > 1
    assert ties > 0


def test_first_dealer_action_card_counts_as_zero() -> None:
    assert dealer_value("red-skip") == 0 and dealer_value("wild-draw4") == 0
    assert dealer_value("blue-0") == 0 and dealer_value("blue-9") == 9


def test_first_dealer_sonic_at_random() -> None:
    seen = Counter(choose_first_dealer(Edition.SONIC, 4, random.Random(s))[0] for s in range(200))
    assert set(seen) == {0, 1, 2, 3}
    _, events = choose_first_dealer(Edition.SONIC, 4, random.Random(1))
    assert events[0].how == "random"


def test_deal_seven_cards_one_at_a_time_from_the_dealers_left() -> None:
    deck = build_deck("classic", [P0, P1, P2, P3], ["red-5"], dealer=1)
    assert deal_order(4, 1) == [2, 3, 0, 1]
    assert deck[:4] == [P2[0], P3[0], P0[0], P1[0]] and deck[4:8] == [P2[1], P3[1], P0[1], P1[1]]
    game = make_game("classic", [P0, P1, P2, P3], ["red-5"], dealer=1)
    assert [hand(game, s) for s in range(4)] == [P0, P1, P2, P3]
    assert game.discard == [parse_card("red-5")] and len(game.draw_pile) == 108 - 28 - 1
    assert game.current == 2


def test_deal_passes_to_the_dealers_left_each_round() -> None:
    rng = random.Random(3)
    match = Match(RuleSet(Edition.CLASSIC, target=10_000), 3, rng)
    dealers = [match.dealer]
    for _ in range(4):
        finish(match.game, rng)
        match.finish_round()
        dealers.append(match.next_round().dealer)
    assert dealers == [(dealers[0] + i) % 3 for i in range(5)]


def test_deal_skips_a_seat_that_left() -> None:
    rng = random.Random(4)
    match = Match(RuleSet(Edition.SONIC, target=10_000), 4, rng)
    first = match.dealer
    match.leave((first + 1) % 4)
    finish(match.game, rng)
    match.finish_round()
    assert match.next_round().dealer == (first + 2) % 4


# ----- scoring and the match -----


def test_match_goes_to_the_target() -> None:
    rng = random.Random(5)
    match = Match(RuleSet(Edition.MARIO, target=200), 3, rng)
    while True:
        finish(match.game, rng)
        added = match.finish_round()
        assert added == match.game.points
        if match.over:
            break
        match.next_round()
    (winner,) = match.winners
    assert match.totals[winner] >= 200
    assert all(t < 200 for s, t in enumerate(match.totals) if s != winner)
    assert sum(map(sum, match.rounds)) == sum(match.totals)
    with pytest.raises(RuleError, match="match_over"):
        match.next_round()


def test_single_round_match() -> None:
    rng = random.Random(6)
    match = Match(RuleSet(Edition.CLASSIC, target=None), 4, rng)
    finish(match.game, rng)
    match.finish_round()
    assert match.over and match.winners == [match.game.winner]


def test_round_must_be_over_and_scored_once() -> None:
    rng = random.Random(7)
    match = Match(RuleSet(Edition.CLASSIC), 2, rng)
    with pytest.raises(RuleError, match="round_playing"):
        match.finish_round()
    with pytest.raises(RuleError, match="round_playing"):
        match.next_round()
    finish(match.game, rng)
    match.finish_round()
    with pytest.raises(RuleError, match="round_scored"):
        match.finish_round()


def lowest_match(finals: list[int], target: int) -> Match:
    """A lowest-scoring match whose finished round brings the tallies to ``finals``."""
    rng = random.Random(8)
    match = Match(RuleSet(Edition.CLASSIC, scoring=Scoring.LOWEST, target=target), 3, rng)
    finish(match.game, rng)
    own = [sum(CARD_POINTS[c] for c in h) for h in match.game.hands]
    match.totals = [f - o for f, o in zip(finals, own, strict=True)]
    assert match.finish_round() == own  # each adds the points left in their own hand
    return match


def test_lowest_scoring_lowest_tally_wins_when_one_reaches_the_target() -> None:
    match = lowest_match([1000, 400, 2000], 1500)
    assert match.winners == [1]


def test_lowest_scoring_ties_share_the_win() -> None:
    match = lowest_match([1000, 1000, 2000], 1500)
    assert match.winners == [0, 1]


def test_lowest_scoring_goes_on_below_the_target() -> None:
    match = lowest_match([1000, 1000, 1200], 1500)
    assert not match.over


def test_standard_round_scores_only_the_winner() -> None:
    rng = random.Random(9)
    match = Match(RuleSet(Edition.SONIC), 4, rng)
    finish(match.game, rng)
    game = match.game
    added = match.finish_round()
    others = sum(CARD_POINTS[c] for s, h in enumerate(game.hands) if s != game.winner for c in h)
    assert added == [others if s == game.winner else 0 for s in range(4)]


# ----- leaving -----


def four() -> Game:
    return make_game("mario", [P0, P1, P2, P3], ["red-5"])


def test_leaver_hand_is_shuffled_into_the_draw_pile_and_play_continues() -> None:
    game = four()
    before = all_cards(game)
    pile = len(game.draw_pile)
    game.leave(2)
    assert game.hands[2] == [] and len(game.draw_pile) == pile + 7 and not game.active[2]
    assert all_cards(game) == before
    assert game.events[-1] == Left(seat=2, returned=7)
    play(game, 1, "red-2")
    assert game.current == 3


def test_leaver_whose_turn_it_is() -> None:
    game = four()
    game.leave(1)
    assert game.current == 2 and game.awaiting == "turn"


def test_leaver_who_drew_a_playable_card() -> None:
    game = make_game("classic", [P0, P1, P2, P3], ["red-5", "red-9"])
    do(game, 1, "draw")
    assert game.awaiting == "drawn"
    game.leave(1)
    assert game.current == 2 and game.awaiting == "turn" and game.drawn == -1


def test_leaver_choosing_the_first_color() -> None:
    game = make_game("classic", [P0, P1, P2, P3], ["wild"])
    game.leave(1)
    assert game.current == 2 and game.awaiting == "color"


def test_leaver_target_of_a_penalty_the_penalty_lapses() -> None:
    game = four()
    give(game, 1, ["red-draw2", *P1[1:]])
    play(game, 1, "red-draw2")
    assert game.awaiting == "respond" and game.current == 2
    game.leave(2)
    assert game.awaiting == "turn" and game.current == 3 and game.pending_card == -1


def test_leaver_who_played_the_pending_penalty_target_still_answers() -> None:
    game = four()
    give(game, 1, ["wild-draw4", *P1[1:]])
    play(game, 1, "wild-draw4", "green")
    game.leave(1)
    assert game.awaiting == "respond" and game.current == 2
    events = do(game, 2, "accept")
    assert [e.count for e in events if isinstance(e, Drew)] == [4]
    assert game.current == 3


@pytest.mark.parametrize(("extra", "legal"), [("red-9", False), ("blue-2", True)])
def test_challenge_of_a_leavers_wild_draw4(extra: str, legal: bool) -> None:
    game = four()
    give(game, 1, ["wild-draw4", extra])
    play(game, 1, "wild-draw4", "green")
    game.leave(1)
    events = do(game, 2, "challenge")
    assert events[0].legal is legal
    assert game.hands[1] == []  # a culprit who left draws nothing
    assert len(hand(game, 2)) == (13 if legal else 7)
    assert game.current == (3 if legal else 2)


def test_bounce_against_a_leaver_draws_nothing() -> None:
    game = four()
    give(game, 1, ["red-draw2", *P1[1:]])
    give(game, 2, ["wild-super-star", *P2[1:]])
    play(game, 1, "red-draw2")
    game.leave(1)
    before = all_cards(game)
    play(game, 2, "wild-super-star", "blue")
    assert game.hands[1] == [] and game.current == 3 and all_cards(game) == before


def test_one_player_left_wins_by_forfeit_and_the_round_scores_nothing() -> None:
    rng = random.Random(10)
    match = Match(RuleSet(Edition.CLASSIC), 2, rng)
    match.totals = [300, 100]
    match.leave(0)
    game = match.game
    assert game.over and game.winner == 1 and game.points == [0, 0]
    assert game.events[-1] == Forfeit(winner=1)
    assert match.over and match.winners == [1] and match.rounds == [[0, 0]]
    assert match.totals == [300, 100]


def test_forfeit_in_a_round_with_more_seats() -> None:
    game = four()
    for seat in (0, 1, 2):
        game.leave(seat)
    assert game.over and game.winner == 3 and game.points == [0, 0, 0, 0]


def test_the_match_keeps_each_seats_wild_draw_fours_from_round_to_round() -> None:
    rng = random.Random(4)
    match = Match(RuleSet(edition=Edition.CLASSIC, target=100_000), 3, random.Random(4))
    expected: dict[int, list[int]] = {}
    for _ in range(12):
        finish(match.game, rng)
        seen = knowledge(match.game, 1).wd4_reads
        assert match.challenges.reads == expected  # a round counts once it is over
        match.finish_round()
        for seat, reads in seen.items():
            expected.setdefault(seat, []).extend(reads)
        assert match.challenges.reads == expected
        match = Match.from_dict(match.to_dict())  # a restart keeps it
        assert match.challenges.reads == expected
        match.next_round()
    assert sum(map(len, expected.values())) > 5
    old = match.to_dict()
    del old["challenges"]  # saved before the record was kept
    assert Match.from_dict(old).challenges.reads == {}
