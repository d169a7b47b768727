"""Every word the pictures draw, in one place: English by default, a translation replaces it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields


def _english_cards(count: int) -> str:
    return f"{count} card" if count == 1 else f"{count} cards"


@dataclass(frozen=True, slots=True)
class Words:
    """The texts of the table, hand, scoreboard and leaderboard pictures.

    Templates use ``str.format`` fields: ``{n}`` a number, ``{name}`` a player's name,
    ``{target}`` the match's target score. ``cards`` is a function so that a translation can
    supply its own plural forms. Every text is fitted to its box when drawn, so a longer
    translation shrinks or ends with an ellipsis instead of running out of its plate.
    """

    # The table.
    round_number: str = "Round {n}"
    to_target: str = "to {target}"
    clockwise: str = "clockwise ↻"
    counter_clockwise: str = "counter-clockwise ↺"
    computer: str = "BOT"
    dealer: str = "D"
    uno: str = "UNO!"
    catch: str = "catch!"
    left_table: str = "left the table"
    card_count: str = "× {n}"
    draw_pile: str = "{n} left"
    choosing: str = "choosing…"
    wins_round: str = "{name} wins the round!"
    picks_color: str = "{name} picks a color"
    must_answer: str = "{name} must answer the draw"
    may_play_drawn: str = "{name} may play the drawn card"
    to_play: str = "{name} to play"
    player: str = "Player {n}"
    # The color in force (drawn as written, so a translation chooses its own capitals).
    red: str = "RED"
    yellow: str = "YELLOW"
    green: str = "GREEN"
    blue: str = "BLUE"
    # The hand.
    hand_title: str = "{name} · {cards}"
    cards: Callable[[int], str] = _english_cards
    color: str = "color"
    no_cards: str = "No cards in hand"
    new_card: str = "NEW"
    # The scoreboard.
    scores: str = "Scores"
    scores_after: str = "Scores after round {n}"
    first_to: str = "first to {target}"
    ends_at: str = "ends at {target}"  # lowest scoring: the match ends when someone reaches it
    lowest_wins: str = "lowest total wins"
    player_column: str = "Player"
    round_column: str = "round"
    total_column: str = "total"
    left: str = "left"
    # The leaderboard.
    leaderboard: str = "Leaderboard"
    rank_column: str = "#"
    matches_column: str = "Matches"
    wins_column: str = "Wins"
    win_rate_column: str = "Win %"
    points_column: str = "Points"
    rating_column: str = "Rating"
    no_ranked: str = "No ranked players yet: finish a match to appear here."

    def color_name(self, color: str) -> str:
        """The drawn name of a card color (red, yellow, green or blue)."""
        names = {"red": self.red, "yellow": self.yellow, "green": self.green, "blue": self.blue}
        return names[color]

    def player_name(self, seat: int) -> str:
        """The name shown for a seat whose own name cannot be drawn (seat counts from 0)."""
        return self.player.format(n=seat + 1)


ENGLISH = Words()


def text_fields() -> tuple[str, ...]:
    """The names of the fields that hold a text (all but the plural function)."""
    return tuple(f.name for f in fields(Words) if f.name != "cards")
