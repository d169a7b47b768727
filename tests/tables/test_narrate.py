"""The table's log: engine events become structured entries, told in the same English as ever."""

from __future__ import annotations

import json

from bot.engine.events import (
    Accepted,
    Bounced,
    Caught,
    Challenged,
    ColorChosen,
    Dealt,
    Drew,
    FirstCard,
    Forfeit,
    Left,
    Passed,
    Played,
    Reversed,
    RoundOver,
    Skipped,
    UnoCalled,
)
from bot.tables.narrate import narrate
from bot.tables.play import scored_lowest
from bot.tables.tablelog import LogEntry, dump_line, entries, load_line

NAMES = ["Ann", "Bo", "Cy"]

TOLD = [
    (Played(seat=0, card="red-7"), ["**Ann** played Red 7"]),
    (
        Played(seat=1, card="wild-custom", color="blue", house_rule="Swap"),
        ["**Bo** played Wild Customizable and chose blue", "House rule: Swap"],
    ),
    (
        Bounced(seat=2, target=0, color="red", card="wild-super-star"),
        ["**Cy** bounced it back with a Super Star at **Ann** and chose red"],
    ),
    (Drew(seat=0, count=1, reason="draw"), ["**Ann** drew a card"]),
    (Drew(seat=0, count=0, reason="draw"), ["Nothing to draw"]),
    (Drew(seat=1, count=2, reason="draw2"), ["**Bo** draws 2 cards"]),
    (Drew(seat=1, count=1, reason="victory_lap"), []),
    (Passed(seat=2), ["**Cy** kept the drawn card"]),
    (Skipped(seat=2), ["**Cy** is skipped"]),
    (Reversed(direction=-1), ["Play now goes counter-clockwise"]),
    (Accepted(seat=0, count=4), ["**Ann** accepted +4"]),
    (
        Challenged(seat=1, target=0, legal=False, hand=("red-1",)),
        ["**Bo** challenged **Ann**'s Wild Draw Four: the play was NOT legal"],
    ),
    (ColorChosen(seat=0, color="green"), ["**Ann** chose green"]),
    (UnoCalled(seat=2), ["**Cy** called **UNO!**"]),
    (Caught(seat=0, target=2), ["**Ann** caught **Cy** without UNO"]),
    (FirstCard(card="blue-3", effect="starts"), ["First card: Blue 3"]),
    (FirstCard(card="wild-draw4", effect="returned"), []),
    (Dealt(dealer=0, cards=7), []),
    (
        Left(seat=1, returned=5),
        ["**Bo** left; their cards went back into the pile"],
    ),
    (RoundOver(winner=2, points=93), ["**Cy** went out! 93 points"]),
    (Forfeit(winner=0), ["**Ann** is the last player left"]),
]


def test_a_catch_is_told_once_with_the_cards_it_cost() -> None:
    events = [
        Caught(seat=0, target=2),
        Drew(seat=2, count=4, reason="catch"),
    ]
    assert [narrate(e, NAMES) for e in entries(events)] == ["**Ann** caught **Cy** without UNO: +4"]


def test_engine_events_are_told_as_before() -> None:
    for event, lines in TOLD:
        assert [narrate(e, NAMES) for e in entries([event])] == lines, event


def test_table_entries_are_told() -> None:
    told = {
        LogEntry("round_begins", count=2): "Round 2 begins",
        LogEntry("match_won", seats=(0, 2)): "**Ann** and **Cy** won the match!",
        LogEntry("left_game", seat=1): "**Bo** left the game",
        LogEntry("kicked", seat=1): "**Bo** was removed by the host",
        LogEntry("timed_out", seat=0): "**Ann** ran out of time",
        LogEntry("removed_for_timeouts", seat=0, count=3): "**Ann** was removed after 3 timeouts",
        LogEntry("ended_early"): "The game was ended early",
        LogEntry("lobby_expired"): "The lobby closed: nobody started the game in time",
        LogEntry("went_out", seat=2): "**Cy** went out and scores 0 this round!",
        LogEntry("stalled", seat=1): (
            "Nobody can play or draw any more, so the round ends: **Bo** holds the fewest "
            "points and wins it"
        ),
    }
    for entry, line in told.items():
        assert narrate(entry, NAMES) == line


def test_entries_round_trip_and_old_lines_stay_as_they_were() -> None:
    for event, _ in TOLD:
        for entry in entries([event]):
            assert load_line(json.loads(json.dumps(dump_line(entry)))) == entry
    assert narrate(load_line("**Ann** played Red 7"), NAMES) == "**Ann** played Red 7"
    house = entries([Played(seat=0, card="wild-custom", house_rule="@x *y*")])
    assert narrate(house[1], NAMES) == "House rule: @\u200bx \\*y\\*"


def test_under_lowest_scoring_the_one_who_went_out_is_told_without_the_others_points() -> None:
    [entry] = entries([RoundOver(winner=2, points=93)])
    assert narrate(scored_lowest(entry), NAMES) == "**Cy** went out and scores 0 this round!"
    other = LogEntry("play", seat=0, card="red-7")
    assert scored_lowest(other) is other
