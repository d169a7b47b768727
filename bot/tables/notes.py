"""Private notes and refusals as message keys with parameters, and their English texts.

The manager never builds sentences for people: it hands back a ``Note`` (a key and its
parameters). ``english()`` renders it today; a translation layer can render the same key in the
reader's language later.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .snapshot import Outcome

Param = str | int

ENGLISH: dict[str, str] = {
    # refusals
    "gone": "This game has ended or no longer exists.",
    "stale_hand": "That was an old button: here is your current hand.",
    "stale_prompt": "That prompt is over: the game has moved on.",
    "save_failed": "Could not save the game, so nothing changed. Please try again.",
    "channel_busy": (
        "A game is already open in this channel. Finish it first, or start one in another "
        "channel (I need permission to create threads to host several here)."
    ),
    "exists": "That game already exists.",
    "already_started": "This game has already started.",
    "start_closed": "This game has already started or was closed.",
    "lobby_closed": "This lobby is closed.",
    "already_joined": "You are already in this game.",
    "table_full": "The table is full ({seats} players).",
    "not_in_lobby": "You are not in this game.",
    "computers_off": "Computer players are turned off on this server.",
    "no_custom_card": "Only UNO Super Mario has the Wild Customizable card.",
    "house_rule_too_long": "The house rule can be at most {limit} characters.",
    "too_few": "At least {seats} players are needed to start.",
    "host_only": "Only the host can do that.",
    "host_only_start": "Only the host can start the game.",
    "host_only_rule": "Only the host can write the house rule.",
    "round_over_wait": "The round is over: the next one starts soon.",
    "next_started": "The next round has already started.",
    "not_seated": "You are not playing at this table.",
    "not_playing_here": "You are not playing in a game here.",
    "not_started": "The game has not started yet.",
    "you_left": "You have left this game.",
    "kick_self": "Use /uno leave to leave your own game.",
    "kick_not_seated": "That member is not playing at this table.",
    "kick_already_left": "That player has already left.",
    "end_not_allowed": "Only the host or a server manager can end this game.",
    "broken_button": "That button does nothing any more.",
    "broken_card": "That card button is broken; open your hand again.",
    "rule": "{text}",  # the engine's own words for a rule it refuses (code: its RuleError code)
    # notes to whoever acted
    "joined": "You joined the game.",
    "left": "You left the game.",
    "left_closed": "You left, and the empty game was closed.",
    "computer_added": "Added a {level} computer player.",
    "house_rule_saved": "House rule saved.",
    "house_rule_cleared": "House rule cleared.",
    "cancelled": "The game was cancelled.",
    "removed_from_lobby": "Removed from the lobby.",
    "ended": "The game was ended.",
    "uno_armed": "You will call UNO with your next card.",
    "uno_withdrawn": "UNO call withdrawn.",
    "uno": "UNO!",
    "caught": "Caught! They draw 2.",
    "catch_missed": "Too late, or they were safe: nothing happens.",
    "done": "Done.",
    "hand_out_of_date": "That hand was out of date: here is your current hand.",
    "choose_color": "Choose the color.",
    "game_over": "This game is over.",
}


@dataclass(frozen=True, slots=True)
class Note:
    """A message for one person: a key of ``ENGLISH`` and the values of its placeholders."""

    key: str
    params: tuple[tuple[str, Param], ...] = ()

    def get(self, name: str) -> Param | None:
        return next((value for key, value in self.params if key == name), None)

    def english(self) -> str:
        return ENGLISH[self.key].format_map(dict(self.params))

    def __str__(self) -> str:
        return self.english()


def note(key: str, **params: Param) -> Note:
    """A note with its parameters (``note("computer_added", level="hard")``)."""
    if key not in ENGLISH:
        raise KeyError(key)
    return Note(key, tuple(params.items()))


class TableError(Exception):
    """A request the table refuses; nothing changed. ``current`` is the table as it stands."""

    def __init__(self, key: str | Note, **params: Param) -> None:
        self.note = key if isinstance(key, Note) else note(key, **params)
        super().__init__(self.note.english())
        self.current: Outcome | None = None  # filled in by the manager, under the table's lock

    @property
    def message(self) -> str:
        """The refusal in English."""
        return self.note.english()


class StaleClick(TableError):
    """A click on buttons drawn for an older state of the table."""

    def __init__(self) -> None:
        super().__init__("stale_hand")
