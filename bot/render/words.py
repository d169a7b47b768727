"""Every word the pictures draw, in one place: English by default (each text a catalogue message
id, so ``bot.i18n.pictures`` builds the same words in any language)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields

from bot.markers import N_


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
    round_number: str = N_("Round {n}")
    to_target: str = N_("to {target}")
    clockwise: str = N_("clockwise ↻")
    counter_clockwise: str = N_("counter-clockwise ↺")
    computer: str = N_("BOT")
    dealer: str = N_("D")
    uno: str = N_("UNO!")
    catch: str = N_("catch!")
    berserk: str = N_("⚔ {n} s")  # a tournament player on half the turn timer, its seconds
    left_table: str = N_("left the table")
    card_count: str = N_("× {n}")
    draw_pile: str = N_("{n} left")
    choosing: str = N_("choosing…")
    wins_round: str = N_("{name} wins the round!")
    picks_color: str = N_("{name} picks a color")
    must_answer: str = N_("{name} must answer the draw")
    may_play_drawn: str = N_("{name} may play the drawn card")
    to_play: str = N_("{name} to play")
    player: str = N_("Player {n}")
    # The color in force (drawn as written, so a translation chooses its own capitals).
    red: str = N_("RED")
    yellow: str = N_("YELLOW")
    green: str = N_("GREEN")
    blue: str = N_("BLUE")
    # The hand.
    hand_title: str = N_("{name} · {cards}")
    cards: Callable[[int], str] = _english_cards
    color: str = N_("color")
    no_cards: str = N_("No cards in hand")
    new_card: str = N_("NEW")
    # The scoreboard.
    scores: str = N_("Scores")
    scores_after: str = N_("Scores after round {n}")
    first_to: str = N_("first to {target}")
    ends_at: str = N_("ends at {target}")  # lowest scoring: the match ends when someone reaches it
    lowest_wins: str = N_("lowest total wins")
    player_column: str = N_("Player")
    round_column: str = N_("round")
    total_column: str = N_("total")
    left: str = N_("left")
    # The leaderboard.
    leaderboard: str = N_("Leaderboard")
    rank_column: str = N_("#")
    matches_column: str = N_("Matches")
    wins_column: str = N_("Wins")
    win_rate_column: str = N_("Win %")
    points_column: str = N_("Points")
    rating_column: str = N_("Rating")
    no_ranked: str = N_("No ranked players yet: finish a match to appear here.")

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
