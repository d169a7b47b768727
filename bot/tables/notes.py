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
    "stale_hand": "That button was out of date: here is your current hand.",
    "stale_prompt": "That button was out of date: the game has moved on.",
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
    "rematch_open": "The rematch is already open: {link}",
    "rematch_busy": "A lobby is already open in this channel: join that one, or finish it first.",
    "rematch_players_only": "Only the players of this match can ask for a rematch.",
    "rematch_gone": "This rematch offer has expired: start a new game with /uno new.",
    "rematch_opened": "The rematch lobby is open: {link}",
    "broken_button": "That button was out of date: it does nothing any more.",
    "broken_card": "That card button is broken; open your hand again.",
    "host_only_house_rules": "Only the host can choose the house rules.",
    "bad_house_option": "That choice is not offered for the house rules.",
    "deal_too_big": (
        "{cards} cards each is too many for {seats} players: choose a smaller hand size in the "
        "house rules."
    ),
    "jump_in_too_late": "Too late to jump in: **{name}** played first. Here is your hand now.",
    "turn_taken": (
        "**{name}** jumped in first and took your turn, so your move did not happen. "
        "Here is your hand now."
    ),
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
    "caught": "Caught! They draw {count}.",
    "caught_free": "Caught! At this table that costs no cards.",
    "house_rules_saved": "House rules saved.",
    "catch_missed": "Too late, or they were safe: nothing happens.",
    "done": "Done.",
    "hand_out_of_date": "That button was out of date: here is your current hand.",
    "choose_color": "Choose the color.",
    "game_over": "This game is over.",
    "choose_target": "Choose whom to swap hands with.",
    # what a table and a hand tell of the house rules in play
    "jump_in_hint": "⚡ Jump-in: anyone holding {card} may play it now (Show my hand).",
    "jump_in_yours": (
        "⚡ **Jump in!** You hold {card}, identical to the top card: play it now, out of turn."
    ),
    "penalty_on_you": "**+{count} on you** ({card})! {answers}.",
    "answer.accept": "accept",
    "answer.stack": "stack a draw card",
    "answer.challenge": "challenge",
    "answer.bounce": "bounce it with a Super Star",
    "answer.or": "{first} or {last}",
    "must_play_hint": "You hold a card you can play, so you may not draw: play one.",
    "must_play_drawn": "At this table a playable drawn card must be played.",
    "swap_with": "Swap hands with…",
    "swap_target": "{name} · {count} cards",
    # the rules in force, in a few words each (the lobby's and the table's one line)
    "rules_official": "Official rules",
    "rules_house": "House rules: {rules}",
    "house.stack.draw2": "stacking (Draw Two)",
    "house.stack.all": "stacking (all)",
    "house.jump_in": "jump-in",
    "house.seven_o": "7-0",
    "house.draw_until_playable": "draw until playable",
    "house.must_play": "must play",
    "house.wd4_strict": "no challenges (strict Wild Draw Four)",
    "house.hand_size": "{count} cards each",
    "house.uno_penalty": "UNO penalty {count}",
    "house.no_action_finish": "no action card to finish",
    "house.custom_effect": "Wild Customizable: {effect}",
    "effect.none": "the written rule",
    "effect.everyone_draws_1": "everyone else draws 1",
    "effect.next_draws_2": "the next player draws 2",
    "effect.swap_hands": "swap hands",
    "effect.rotate_hands": "hands pass along",
    "effect.play_again": "play again",
    # the house rules in force explained (/uno rules), a sentence or two each
    "explain.stack.draw2": (
        "**Stacking (Draw Two):** answer a Draw Two played on you with another Draw Two; the "
        "total grows and moves on to the next player. **Accept** draws the whole total."
    ),
    "explain.stack.all": (
        "**Stacking (all):** answer a Draw Two or Wild Draw Four played on you with a Draw Two "
        "or a Wild Draw Four (never a Draw Two on a Wild Draw Four); the total grows and moves "
        "on. **Accept** draws the whole total."
    ),
    "explain.jump_in": (
        "**Jump-in:** anyone holding a card identical to the top card (same color and same "
        "number or symbol, never a wild card) may play it out of turn; play goes on from them."
    ),
    "explain.seven_o": (
        "**7-0:** playing a 7, you swap hands with a player you choose; playing a 0, every "
        "hand passes to the next player in the direction of play."
    ),
    "explain.draw_until_playable": (
        "**Draw until playable:** a draw goes on, one card at a time, until a card you can "
        "play comes."
    ),
    "explain.must_play": (
        "**Must play:** no drawing while you hold a card you can play, and a playable card you "
        "draw must be played."
    ),
    "explain.wd4_strict": (
        "**Strict Wild Draw Four:** it may only be played when you hold no card of the color "
        "in force, so it is never challenged."
    ),
    "explain.hand_size": "**Hand size:** {count} cards each are dealt instead of 7.",
    "explain.uno_penalty": (
        "**UNO penalty:** a player caught without calling UNO draws {count} instead of 2."
    ),
    "explain.uno_penalty_free": (
        "**UNO penalty:** a player caught without calling UNO draws nothing, but is safe "
        "afterwards."
    ),
    "explain.no_action_finish": (
        "**No action card to finish:** your last card must be a number card, not an action "
        "or wild card."
    ),
    "explain.custom_effect": (
        "**Wild Customizable:** besides naming a color, {effect}. As a player's last card only "
        "its draws still happen."
    ),
    "explain_effect.everyone_draws_1": "every other player draws 1",
    "explain_effect.next_draws_2": "the next player draws 2 and is skipped",
    "explain_effect.swap_hands": "you swap hands with a player you choose",
    "explain_effect.rotate_hands": "every hand passes to the next player",
    "explain_effect.play_again": "you play again at once",
    # the options' names, as the house rules panel lists them
    "option.stack": "Stacking",
    "option.jump_in": "Jump-in",
    "option.seven_o": "7-0",
    "option.draw_until_playable": "Draw until playable",
    "option.must_play": "Must play",
    "option.wd4_strict": "Strict Wild Draw Four",
    "option.hand_size": "Hand size",
    "option.uno_penalty": "UNO penalty",
    "option.no_action_finish": "No action card to finish",
    "option.custom_effect": "Wild Customizable",
    "value.on": "on",
    "value.off": "off",
    "stack.none": "no stacking",
    "stack.draw2": "Draw Two on Draw Two",
    "stack.all": "all draw cards",
    "preset.official": "Official (the default)",
    "preset.party": "Party: stacking all + jump-in + 7-0",
    "preset.chill": "Chill: draw until playable + no challenges",
    "preset.custom": "Custom: {rules}",
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
    """A click on buttons drawn for an older state of the table (``key`` says what happened
    meanwhile when the table knows: a jump-in that came first, say)."""

    def __init__(self, key: str = "stale_hand", **params: Param) -> None:
        super().__init__(key, **params)
