"""The table's log told in English: one sentence per entry, with names the caller made safe."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.cards import CARD_INDEX, CARD_LABELS

from .names import safe_text
from .tablelog import LogEntry, LogLine


def card_name(code: str | None) -> str:
    return CARD_LABELS[CARD_INDEX[code]] if code in CARD_INDEX else "?"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def narrate(line: LogLine, names: Sequence[str]) -> str:
    """One entry as a sentence (``names`` must already be safe); an old plain line as it is."""
    if isinstance(line, str):
        return line
    return _tell(line, names)


def _tell(e: LogEntry, names: Sequence[str]) -> str:
    def who(seat: int | None) -> str:
        return f"**{names[seat]}**" if seat is not None and 0 <= seat < len(names) else "?"

    kind = e.kind
    count = e.count or 0
    if kind == "play":
        return f"{who(e.seat)} played {card_name(e.card)}" + (
            f" and chose {e.color}" if e.color else ""
        )
    if kind == "house_rule":
        return f"House rule: {safe_text(e.text or '')}"
    if kind == "bounce":
        return (
            f"{who(e.seat)} bounced it back with a Super Star at {who(e.target)} "
            f"and chose {e.color}"
        )
    if kind == "draw":
        return f"{who(e.seat)} drew a card" if count else "Nothing to draw"
    if kind == "draws":
        return f"{who(e.seat)} draws {_plural(count, 'card')}"
    if kind == "pass":
        return f"{who(e.seat)} kept the drawn card"
    if kind == "skip":
        return f"{who(e.seat)} is skipped"
    if kind == "reverse":
        return f"Play now goes {'clockwise' if e.direction == 1 else 'counter-clockwise'}"
    if kind == "accept":
        return f"{who(e.seat)} accepted +{count}"
    if kind == "challenge":
        verdict = "the play was legal" if e.legal else "the play was NOT legal"
        return f"{who(e.seat)} challenged {who(e.target)}'s Wild Draw Four: {verdict}"
    if kind == "color":
        return f"{who(e.seat)} chose {e.color}"
    if kind == "uno":
        return f"{who(e.seat)} called **UNO!**"
    if kind == "catch":
        penalty = f": +{count}" if count else ""
        return f"{who(e.seat)} caught {who(e.target)} without UNO{penalty}"
    if kind == "jump_in":
        return f"{who(e.seat)} jumped in!"
    if kind == "stack":
        return f"{who(e.seat)} stacked it: {who(e.target)} now faces +{count}"
    if kind == "swap":  # seats only: the cards of a swapped hand stay hidden
        return f"{who(e.seat)} swapped hands with {who(e.target)}"
    if kind == "rotate":
        way = "clockwise" if e.direction == 1 else "counter-clockwise"
        return f"Every hand passed to the next player, {way}"
    if kind == "custom_effect":
        return "Wild Customizable: " + CUSTOM_EFFECTS.get(e.text or "", "?")
    if kind == "play_again":
        return f"{who(e.seat)} plays again"
    if kind == "first_card":
        return f"First card: {card_name(e.card)}"
    if kind == "leave":
        return f"{who(e.seat)} left; their cards went back into the pile"
    if kind == "round_over":
        return f"{who(e.seat)} went out! {count} points"
    if kind == "went_out":  # lowest scoring: each seat's own points are shown with the scores
        return f"{who(e.seat)} went out and scores 0 this round!"
    if kind == "stalled":
        won = f" ({_plural(count, 'point')})" if e.count is not None else ""
        return (
            "Nobody can play or draw any more, so the round ends: "
            f"{who(e.seat)} holds the fewest points and wins it{won}"
        )
    if kind == "forfeit":
        return f"{who(e.seat)} is the last player left"
    if kind == "round_begins":
        return f"Round {count} begins"
    if kind == "match_won":
        return " and ".join(who(s) for s in e.seats) + " won the match!"
    if kind == "left_game":
        return f"{who(e.seat)} left the game"
    if kind == "kicked":
        return f"{who(e.seat)} was removed by the host"
    if kind == "timed_out":
        return f"{who(e.seat)} ran out of time"
    if kind == "removed_for_timeouts":
        return f"{who(e.seat)} was removed after {count} timeouts"
    if kind == "ended_early":
        return "The game was ended early"
    if kind == "lobby_expired":
        return "The lobby closed: nobody started the game in time"
    return kind.replace("_", " ")


CUSTOM_EFFECTS = {
    "everyone_draws_1": "everyone else draws 1",
    "next_draws_2": "the next player draws 2 and is skipped",
    "swap_hands": "swap hands",
    "rotate_hands": "every hand passes along",
    "play_again": "play again",
}
