"""A round looked back on: its moves and key moments, the scoreboard's awards, and a player's
agreement with the hard computer player."""

from __future__ import annotations

import dataclasses
import random

from bot.engine import RuleSet, ai
from bot.engine.cards import CARD_INDEX, Edition, edition_deck, shuffle
from bot.engine.house import HouseRules
from bot.engine.playout import play_match
from bot.engine.record import RoundRecord
from bot.engine.review import (
    HARD_ROLLOUTS,
    Award,
    agreement,
    as_good,
    awards,
    review,
    round_awards,
    same_choice,
)
from bot.tables.snapshot import TableSnapshot
from cogs.ui.table import award_line
from tests.engine.helpers import act, build_deck


def scripted(actions: list[object], house: HouseRules | None = None) -> RoundRecord:
    """Two players: seat 1 holds a Wild Draw Four it may not play (it has a red card)."""
    deck = build_deck(
        "classic",
        [["blue-1", "blue-2", "blue-3"], ["wild-draw4", "red-9", "green-4"]],
        pile=["red-5"],
        dealer=0,
    )
    return RoundRecord(
        Edition.CLASSIC,
        2,
        0,
        tuple(CARD_INDEX[c] for c in deck),
        7,
        tuple(actions),  # type: ignore[arg-type]
        house=house or HouseRules(),
    )


def test_a_won_challenge_and_the_penalty_it_brought_are_named() -> None:
    record = scripted([act(1, "play", "wild-draw4", "blue"), act(0, "challenge")])
    reviewed = review(record)
    assert reviewed.total == 2
    assert [m.kind for m in reviewed.moments()] == ["wild_draw4", "challenge", "penalty"]
    assert awards(reviewed) == (
        Award("biggest_penalty", 1, 4),
        Award("challenge_won", 0, 1),
    )
    assert round_awards(record.to_text()) == awards(reviewed)


def test_a_lost_challenge_names_the_challengers_six_cards_and_no_win() -> None:
    deck = build_deck(
        "classic",
        [["blue-1", "blue-2", "blue-3"], ["wild-draw4", "green-9", "green-4"]],
        pile=["red-5"],
    )
    record = RoundRecord(
        Edition.CLASSIC,
        2,
        0,
        tuple(CARD_INDEX[c] for c in deck),
        7,
        (
            act(1, "play", "wild-draw4", "blue"),
            act(0, "challenge"),
        ),
    )
    assert awards(review(record)) == (Award("biggest_penalty", 0, 6),)


def test_a_long_draw_is_named_under_draw_until_playable() -> None:
    deck = build_deck(
        "classic",
        [["blue-1", "blue-2", "blue-3"], ["green-9", "green-4", "green-2"]],
        pile=["red-5", "yellow-1", "yellow-2", "yellow-3", "red-1"],
    )
    house = HouseRules(draw_until_playable=True)
    record = RoundRecord(
        Edition.CLASSIC, 2, 0, tuple(CARD_INDEX[c] for c in deck), 7, (act(1, "draw"),), house=house
    )
    assert awards(review(record)) == (Award("longest_draw", 1, 4),)


def test_the_awards_read_on_the_scoreboard_without_pings() -> None:
    lines = [
        award_line(Award("biggest_penalty", 0, 8), "@everyone"),
        award_line(Award("longest_draw", 0, 5), "Ann"),
        award_line(Award("challenge_won", 0, 1), "Ann"),
        award_line(Award("comeback", 0, 14), "Ann"),
        award_line(Award("catches", 0, 2), "Ann"),
    ]
    assert lines[0].startswith("Biggest penalty: ") and "@everyone" not in lines[0]
    assert lines[1:] == [
        "Longest draw: Ann drew 5 cards in one go",
        "Challenge won: Ann caught an illegal Wild Draw Four",
        "Comeback: Ann went out after holding 14 cards",
        "Catches: Ann caught 2 missed UNO calls",
    ]
    assert "awards" in TableSnapshot.__dataclass_fields__


def test_simulated_rounds_have_their_catches_and_comebacks_named() -> None:
    kinds: set[str] = set()
    for seed in range(40):
        match = play_match(RuleSet(target=None), ("normal", "easy", "normal"), seed, forget_uno=0.5)
        reviewed = review(RoundRecord.from_text(match.records[0]))
        for award in awards(reviewed):
            kinds.add(award.kind)
            if award.kind == "comeback":
                assert award.seat == reviewed.final.winner
    assert {"catches", "comeback", "biggest_penalty"} <= kinds


def test_agreement_counts_only_the_seats_own_turn_decisions() -> None:
    record = scripted([act(1, "play", "wild-draw4", "blue"), act(0, "challenge")])
    judged = agreement(record, [0, 1])
    assert judged[0].decisions == 1 and judged[1].decisions == 1
    assert agreement(record, [0, 1]) == judged  # a fixed search: the same answer every time


def test_a_player_who_chose_as_the_hard_player_agrees_every_time() -> None:
    deck = edition_deck(Edition.CLASSIC)
    shuffle(deck, random.Random(3))
    record = RoundRecord(Edition.CLASSIC, 2, 0, tuple(deck), 11, ())
    game = record.new_game()
    actions = []
    while not game.over:
        seat = game.current
        if seat == 0:  # the judge's own choice, searched as the judge searches
            rng = random.Random(record.seed ^ (len(actions) + 1))
            action = ai.decide(
                game, 0, "hard", rng, clock=lambda: 0.0, budget_s=1.0, max_rollouts=HARD_ROLLOUTS
            )
        else:
            action = game.legal_actions(seat)[-1]
        actions.append(action)
        game.apply(action)
    judged = agreement(dataclasses.replace(record, actions=tuple(actions)), [0, 1])
    assert judged[0].decisions > 5 and judged[0].agreed == judged[0].decisions
    assert judged[0].share == 1.0 and 0 <= judged[1].share <= 1


def test_a_wild_cards_color_is_a_matter_of_taste() -> None:
    assert same_choice(act(0, "play", "wild", "red"), act(0, "play", "wild", "blue"))
    assert not same_choice(act(0, "play", "wild", "red"), act(0, "draw"))
    assert not same_choice(
        act(0, "choose_color", color="red"), act(0, "choose_color", color="blue")
    )


def test_a_round_that_no_longer_replays_has_no_awards_and_breaks_nothing() -> None:
    record = scripted([act(1, "play", "red-9"), act(0, "play", "yellow-7")])  # not in hand
    assert round_awards(record.to_text()) == ()


def test_a_hard_player_playing_as_the_reference_agrees_with_itself() -> None:
    match = play_match(
        RuleSet(target=None),
        ("hard", "easy"),
        7,
        max_rounds=1,
        hard_rollouts=8,
        hard_reference=True,
    )
    result = agreement(RoundRecord.from_text(match.records[0]), [0], rollouts=8)[0]
    assert result.decisions > 0 and result.agreed == result.decisions


def test_a_hard_player_seeded_apart_from_the_judge_differs_only_where_its_search_does() -> None:
    def hard_round(salt: int, rollouts: int) -> RoundRecord:
        match = play_match(
            RuleSet(target=None),
            ("hard", "easy"),
            7,
            max_rounds=1,
            hard_rollouts=rollouts,
            hard_reference=True,
            hard_salt=salt,
        )
        return RoundRecord.from_text(match.records[0])

    # Without a search both follow the sharp heuristic: the seeds change nothing they choose.
    plain = agreement(hard_round(0x5EED, 0), [0], rollouts=0)[0]
    assert plain.decisions > 0 and plain.agreed == plain.decisions
    # With one, the judge seeded apart (or the player) makes another move where the search is
    # noise, and counts it as agreed: its own search cannot tell that move from its choice.
    record = hard_round(0x5EED, 24)
    apart = agreement(record, [0], rollouts=24)[0]
    itself = agreement(record, [0], rollouts=24, salt=0x5EED)[0]
    assert itself.agreed == itself.exact == itself.decisions  # the player's own seeds: itself
    assert apart.exact < apart.agreed == apart.decisions


def racing(actions: list[object]) -> RoundRecord:
    """Two players dealt three cards each, seat 0 first: all blue but seat 1's green 4."""
    deck = build_deck(
        "classic",
        [["blue-1", "blue-2", "blue-3"], ["blue-7", "blue-8", "green-4"]],
        pile=["blue-5", "red-9"],
        dealer=1,
        hand_size=3,
    )
    return RoundRecord(
        Edition.CLASSIC,
        2,
        1,
        tuple(CARD_INDEX[c] for c in deck),
        5,
        tuple(actions),  # type: ignore[arg-type]
        house=HouseRules(hand_size=3),
    )


def test_a_move_as_good_as_the_judges_choice_agrees_and_a_clearly_worse_one_does_not() -> None:
    # Any of the three blue cards sheds a card just as well; drawing instead does not.
    for card in ("blue-1", "blue-2", "blue-3"):
        judged = agreement(racing([act(0, "play", card)]), [0])[0]
        assert (judged.decisions, judged.agreed) == (1, 1)
    assert (
        sum(
            agreement(racing([act(0, "play", c)]), [0])[0].exact
            for c in ("blue-1", "blue-2", "blue-3")
        )
        == 1
    )
    drew = agreement(racing([act(0, "draw")]), [0])[0]
    assert (drew.decisions, drew.agreed, drew.exact) == (1, 0, 0)


def test_drawing_when_the_last_card_would_go_out_never_agrees() -> None:
    start = [
        act(0, "play", "blue-1"),
        act(1, "play", "blue-7"),
        act(0, "play", "blue-2", uno=True),
        act(1, "play", "blue-8", uno=True),
    ]
    out = agreement(racing([*start, act(0, "play", "blue-3")]), [0])[0]
    drew = agreement(racing([*start, act(0, "draw")]), [0])[0]
    assert out.decisions == drew.decisions == 3
    assert out.agreed == drew.agreed + 1 and out.exact == drew.exact + 1
    assert agreement(racing([*start, act(0, "draw")]), [0]) == {0: drew}  # the same every time


def test_the_judge_counts_a_move_its_rollouts_cannot_tell_from_its_choice() -> None:
    red, blue, draw = act(0, "play", "red-5"), act(0, "play", "blue-5"), act(0, "draw")
    wild = act(0, "play", "wild", "green")
    judged = ai.Search(
        (red, blue, wild, draw),
        0,
        results=(
            (1, 0, 1, 1, 0, 1, 0, 1),
            (1, 1, 0, 1, 0, 1, 0, 1),  # level with the choice on the same guesses
            (0, 1, 0, 1, 0, 1, 0, 1),  # a little behind: within one standard error
            (0, 0, 0, 1, 0, 0, 0, 0),  # far behind
        ),
    )
    assert judged.choice == red and as_good(red, judged)
    assert as_good(blue, judged)
    assert as_good(act(0, "play", "wild", "red"), judged)  # a wild card's color is taste
    assert not as_good(draw, judged)
    assert not as_good(act(0, "play", "green-5"), judged)  # a move the search never weighed


def test_without_a_search_the_judge_counts_a_move_its_heuristic_scores_alike() -> None:
    red, blue, draw = act(0, "play", "red-5"), act(0, "play", "blue-5"), act(0, "draw")
    judged = ai.Search((red, blue, draw), 0, scores=(4.0, 4.0, None))
    assert as_good(blue, judged) and not as_good(draw, judged)
    unequal = ai.Search((red, blue, draw), 0, scores=(4.0, 3.5, None))
    assert not as_good(blue, unequal)
    assert not as_good(blue, ai.Search((red, blue, draw), 0))  # nothing weighed: its move only
