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
    # With one, the judge seeded apart (or the player) disagrees where the search is noise.
    record = hard_round(0x5EED, 24)
    apart = agreement(record, [0], rollouts=24)[0]
    itself = agreement(record, [0], rollouts=24, salt=0x5EED)[0]
    assert itself.agreed == itself.decisions  # the player's own seeds: itself
    assert apart.agreed < apart.decisions
