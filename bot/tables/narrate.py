"""Engine events told as short sentences for the table's log, with user text made harmless."""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.engine import Event
from bot.engine.cards import CARD_INDEX, CARD_LABELS

_MARKDOWN = re.compile(r"([\\*_~`|>#\[\]()-])")
NAME_MAX = 32


def seat_name(name: str) -> str:
    """A display name as a seat keeps it: one line, at most 32 characters (pictures use it)."""
    return " ".join(name.split())[:NAME_MAX] or "Player"


def safe_name(name: str) -> str:
    """A display name that cannot format text or ping anyone when shown in a message."""
    cleaned = seat_name(name)
    cleaned = _MARKDOWN.sub(r"\\\1", cleaned)
    # A zero-width space after @ and inside <@ breaks every mention form.
    return cleaned.replace("@", "@\u200b").replace("<", "<\u200b")


def safe_text(text: str, limit: int = 200) -> str:
    """Free text (the Wild Customizable house rule) that cannot ping or break the layout."""
    flat = " ".join(text.split())[:limit]
    return _MARKDOWN.sub(r"\\\1", flat).replace("@", "@\u200b").replace("<", "<\u200b")


def card_name(code: str) -> str:
    return CARD_LABELS[CARD_INDEX[code]]


def narrate(events: Sequence[Event], names: Sequence[str]) -> list[str]:
    """One line per event worth telling the table (names must already be safe)."""

    def who(seat: object) -> str:
        return f"**{names[seat]}**" if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    lines: list[str] = []
    for event in events:
        kind = event.get("type")
        if kind == "play":
            line = f"{who(event['seat'])} played {card_name(event['card'])}"
            if event.get("color"):
                line += f" and chose {event['color']}"
            lines.append(line)
            if event.get("house_rule"):
                lines.append(f"House rule: {safe_text(str(event['house_rule']))}")
        elif kind == "bounce":
            lines.append(
                f"{who(event['seat'])} bounced it back with a Super Star at "
                f"{who(event['target'])} and chose {event.get('color')}"
            )
        elif kind == "draw":
            count = event["count"]
            reason = event.get("reason")
            cards = f"{count} card" + ("" if count == 1 else "s")
            if reason == "draw":
                lines.append(f"{who(event['seat'])} drew a card" if count else "Nothing to draw")
            elif reason == "victory_lap":
                continue  # told once by the play line
            elif count:
                lines.append(f"{who(event['seat'])} draws {cards}")
        elif kind == "pass":
            lines.append(f"{who(event['seat'])} kept the drawn card")
        elif kind == "skip":
            lines.append(f"{who(event['seat'])} is skipped")
        elif kind == "reverse":
            way = "clockwise" if event["direction"] == 1 else "counter-clockwise"
            lines.append(f"Play now goes {way}")
        elif kind == "accept":
            lines.append(f"{who(event['seat'])} accepted +{event['count']}")
        elif kind == "challenge":
            verdict = "the play was legal" if event["legal"] else "the play was NOT legal"
            lines.append(
                f"{who(event['seat'])} challenged {who(event['target'])}'s "
                f"Wild Draw Four: {verdict}"
            )
        elif kind == "color":
            lines.append(f"{who(event['seat'])} chose {event['color']}")
        elif kind == "uno":
            lines.append(f"{who(event['seat'])} called **UNO!**")
        elif kind == "catch":
            lines.append(f"{who(event['seat'])} caught {who(event['target'])} without UNO: +2")
        elif kind == "first_card" and event.get("effect") == "starts":
            lines.append(f"First card: {card_name(event['card'])}")
        elif kind == "leave":
            lines.append(f"{who(event['seat'])} left; their cards went back into the pile")
        elif kind == "round_over":
            lines.append(f"{who(event['winner'])} went out! {event['points']} points")
        elif kind == "forfeit":
            lines.append(f"{who(event['winner'])} is the last player left")
        elif kind == "jump_in":
            lines.append(f"{who(event['seat'])} jumped in!")
        elif kind == "stack":
            lines.append(
                f"{who(event['seat'])} stacked it: {who(event['target'])} now faces "
                f"+{event['total']}"
            )
        elif kind == "swap":  # seats only: the cards of a swapped hand stay hidden
            lines.append(f"{who(event['seat'])} swapped hands with {who(event['target'])}")
        elif kind == "rotate":
            way = "clockwise" if event["direction"] == 1 else "counter-clockwise"
            lines.append(f"Every hand passed to the next player, {way}")
        elif kind == "custom_effect":
            lines.append("Wild Customizable: " + _CUSTOM_EFFECTS.get(event["effect"], "?"))
        elif kind == "play_again":
            lines.append(f"{who(event['seat'])} plays again")
    return lines


_CUSTOM_EFFECTS = {
    "everyone_draws_1": "everyone else draws 1",
    "next_draws_2": "the next player draws 2 and is skipped",
    "swap_hands": "swap hands",
    "rotate_hands": "every hand passes along",
    "play_again": "play again",
}
