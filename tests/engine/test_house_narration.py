"""The table log tells each house-rule event in one short line, and never a swapped hand's cards."""

from __future__ import annotations

import json
import random

from bot.engine import Event, Game, HouseRules
from bot.engine.cards import CARD_LABELS, Edition, edition_deck, shuffle
from bot.engine.events import JumpedIn, Rotated, Stacked, read_all
from bot.engine.simulate import random_policy
from bot.tables.narrate import narrate
from bot.tables.tablelog import entries
from tests.engine.helpers import CASES, act, play, table3

NAMES = ["Ann", "Bob", "Cy", "Di"]


def tell(events: list[Event], names: list[str]) -> list[str]:
    """The table log's lines for these engine events."""
    return [narrate(entry, names) for entry in entries(events)]


NEW_TYPES = {"jump_in", "stack", "swap", "rotate", "custom_effect", "play_again"}


def test_every_new_event_type_has_a_line() -> None:
    seen: set[str] = set()
    for path in CASES:
        data = json.loads(path.with_suffix(".expected.json").read_text())
        for event in read_all(data["events"]):
            if event.TYPE in NEW_TYPES:
                lines = tell([event], NAMES)
                assert len(lines) == 1 and "?" not in lines[0], event
                seen.add(event.TYPE)
    game = table3("mario", ["wild-custom", "green-6"], house={"custom_effect": "play_again"})
    events = play(game, 1, "wild-custom", "green")
    assert tell(events, NAMES)[-2:] == ["Wild Customizable: play again", "**Bob** plays again"]
    seen.update(e.TYPE for e in events if e.TYPE in NEW_TYPES)
    assert seen == NEW_TYPES


def test_a_swap_is_told_without_the_cards() -> None:
    game = table3("classic", ["red-7"], house={"seven_o": True})
    events = game.apply(act(1, "play", "red-7", target=0))
    text = "\n".join(tell(events, NAMES))
    assert "**Bob** swapped hands with **Ann**" in text
    held = {CARD_LABELS[c] for hand in game.hands for c in hand}
    assert not any(label in text for label in held)


def test_stack_and_jump_in_lines() -> None:
    lines = tell(
        [
            JumpedIn(seat=2, turn_of=1),
            Stacked(seat=2, target=0, total=6),
            Rotated(direction=-1),
        ],
        NAMES,
    )
    assert lines == [
        "**Cy** jumped in!",
        "**Cy** stacked it: **Ann** now faces +6",
        "Every hand passed to the next player, counter-clockwise",
    ]


def test_house_ruled_rounds_narrate_every_event_on_one_line() -> None:
    rules = HouseRules.preset("party").with_option("custom_effect", "rotate_hands")
    for seed in range(10):
        deck = edition_deck(Edition.MARIO)
        rng = random.Random(seed)
        shuffle(deck, rng)
        game = Game(Edition.MARIO, 4, 0, deck, random.Random(seed), house=rules)
        while not game.over:
            random_policy(game, rng)
        for line in tell(game.events, NAMES):
            assert "\n" not in line and line.strip()
