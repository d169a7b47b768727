"""Private notes and refusals as message keys with parameters, and their English texts.

The manager never builds sentences for people: it hands back a ``Note`` (a key and its
parameters), kept as data. ``render(lang)`` tells it in the reader's language at presentation
time (the English text is the catalogue's message id); ``english()`` in English.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from bot.i18n import ENGLISH_LANG, N_, Lang, Np_

# A text, or its singular and plural forms (told with ngettext by the count in COUNT_OF).
Text = str | tuple[str, str]
Param: TypeAlias = "str | int | tuple[str, ...] | Note"

ENGLISH: dict[str, Text] = {
    # refusals
    "gone": N_("This game has ended or no longer exists."),
    "stale_hand": N_("That button was out of date: here is your current hand."),
    "stale_prompt": N_("That button was out of date: the game has moved on."),
    "save_failed": N_("Could not save the game, so nothing changed. Please try again."),
    "channel_busy": N_(
        "A game is already open in this channel. Finish it first, or start one in another "
        "channel (I need permission to create threads to host several here)."
    ),
    "exists": N_("That game already exists."),
    "already_started": N_("This game has already started."),
    "start_closed": N_("This game has already started or was closed."),
    "lobby_closed": N_("This lobby is closed."),
    "already_joined": N_("You are already in this game."),
    "table_full": Np_(
        "The table is full ({seats} player).", "The table is full ({seats} players)."
    ),
    "not_in_lobby": N_("You are not in this game."),
    "computers_off": N_("Computer players are turned off on this server."),
    "no_custom_card": N_("Only UNO Super Mario has the Wild Customizable card."),
    "house_rule_too_long": N_("The house rule can be at most {limit} characters."),
    "too_few": Np_(
        "At least {seats} player is needed to start.",
        "At least {seats} players are needed to start.",
    ),
    "host_only": N_("Only the host can do that."),
    "host_only_start": N_("Only the host can start the game."),
    "host_only_rule": N_("Only the host can write the house rule."),
    "round_over_wait": N_("The round is over: the next one starts soon."),
    "round_over_until": N_("The round is over: the next one starts {when}."),
    "next_started": N_("The next round has already started."),
    "not_seated": N_("You are not playing at this table."),
    "not_playing_here": N_("You are not playing in a game here."),
    "not_started": N_("The game has not started yet."),
    "you_left": N_("You have left this game."),
    "kick_self": N_("Use /uno leave to leave your own game."),
    "kick_not_seated": N_("That member is not playing at this table."),
    "kick_already_left": N_("That player has already left."),
    "end_not_allowed": N_("Only the host or a server manager can end this game."),
    "rematch_open": N_("The rematch is already open: {link}"),
    "rematch_busy": N_(
        "A lobby is already open in this channel: join that one, or finish it first."
    ),
    "rematch_players_only": N_("Only the players of this match can ask for a rematch."),
    "rematch_tournament": N_(
        "This match was a tournament's table: the tournament seats its players at their next table."
    ),
    "rematch_gone": N_("This rematch offer has expired: start a new game with /uno new."),
    "rematch_opened": N_("The rematch lobby is open: {link}"),
    "broken_button": N_("That button was out of date: it does nothing any more."),
    "broken_card": N_("That card button is broken; open your hand again."),
    "host_only_house_rules": N_("Only the host can choose the house rules."),
    "bad_house_option": N_("That choice is not offered for the house rules."),
    "host_only_teams": N_("Only the host can choose the teams."),
    "no_teams": N_("This game is not played in teams."),
    "teams_misfit": N_(
        "{teams} teams cannot be made of {players} players: {teams} teams need {counts} "
        "players. Add or remove players, or change the teams."
    ),
    "team_overfull": N_(
        "Team {team} was picked by {picked} players, but a team has {size} seats here: "
        "someone should pick another team."
    ),
    "partners_only": N_("Only your partners' hands can be shown, and only at a team game."),
    "partners_hidden": N_("At this table partners do not see each other's hands."),
    "deal_too_big": N_(
        "{cards} cards each is too many for {seats} players: choose a smaller hand size in the "
        "house rules."
    ),
    "jump_in_too_late": N_("Too late to jump in: **{name}** played first. Here is your hand now."),
    "turn_taken": N_(
        "**{name}** jumped in first and took your turn, so your move did not happen. "
        "Here is your hand now."
    ),
    "rule": "{text}",  # the engine's own words (an English template and its params; code)
    # notes to whoever acted
    "joined": N_("You joined the game."),
    "left": N_("You left the game."),
    "left_closed": N_("You left, and the empty game was closed."),
    "computer_added": N_("Added a {level} computer player."),
    "level.easy": N_("easy"),
    "level.normal": N_("normal"),
    "level.hard": N_("hard"),
    "house_rule_saved": N_("House rule saved."),
    "house_rule_cleared": N_("House rule cleared."),
    "cancelled": N_("The game was cancelled."),
    "removed_from_lobby": N_("Removed from the lobby."),
    "ended": N_("The game was ended."),
    "uno_armed": N_("You will call UNO with your next card."),
    "uno_withdrawn": N_("UNO call withdrawn."),
    "uno": N_("UNO!"),
    "caught": N_("Caught! They draw {count}."),
    "caught_free": N_("Caught! At this table that costs no cards."),
    "house_rules_saved": N_("House rules saved."),
    "teams_saved": N_("Teams saved."),
    "cheer_wait": N_("Easy there! You can cheer again in {seconds} s."),
    "team_chosen": N_("You will play for team {team}."),
    "team_any": N_("The bot will seat you in a team."),
    "catch_missed": N_("Too late, or they were safe: nothing happens."),
    "done": N_("Done."),
    "hand_out_of_date": N_("That button was out of date: here is your current hand."),
    "choose_color": N_("Choose the color."),
    "game_over": N_("This game is over."),
    "hand_asleep": N_(
        "This hand no longer follows the game. Press **Show my hand** on the table for a fresh one."
    ),
    "choose_target": N_("Choose whom to swap hands with."),
    # what a table and a hand tell of the house rules in play
    "jump_in_hint": N_("⚡ Jump-in: anyone holding {card} may play it now (Show my hand)."),
    "jump_in_yours": N_(
        "⚡ **Jump in!** You hold {card}, identical to the top card: play it now, out of turn."
    ),
    "penalty_on_you": N_("**+{count} on you** ({card})! {answers}."),
    "answer.accept": N_("accept"),
    "answer.stack": N_("stack a draw card"),
    "answer.challenge": N_("challenge"),
    "answer.bounce": N_("bounce it with a Super Star"),
    "answer.or": N_("{first} or {last}"),
    "must_play_hint": N_("You hold a card you can play, so you may not draw: play one."),
    "must_play_drawn": N_("At this table a playable drawn card must be played."),
    "swap_with": N_("Swap hands with…"),
    "swap_target": Np_("{name} · {count} card", "{name} · {count} cards"),
    # the rules in force, in a few words each (the lobby's and the table's one line)
    "rules_official": N_("Official rules"),
    "rules_house": N_("House rules: {rules}"),
    "house.stack.draw2": N_("stacking (Draw Two)"),
    "house.stack.all": N_("stacking (all)"),
    "house.jump_in": N_("jump-in"),
    "house.seven_o": N_("7-0"),
    "house.draw_until_playable": N_("draw until playable"),
    "house.must_play": N_("must play"),
    "house.wd4_strict": N_("no challenges (strict Wild Draw Four)"),
    "house.hand_size": Np_("{count} card each", "{count} cards each"),
    "house.uno_penalty": N_("UNO penalty {count}"),
    "house.no_action_finish": N_("no action card to finish"),
    "house.custom_effect": N_("Wild Customizable: {effect}"),
    "effect.none": N_("the written rule"),
    "effect.everyone_draws_1": N_("everyone else draws 1"),
    "effect.next_draws_2": N_("the next player draws 2"),
    "effect.swap_hands": N_("swap hands"),
    "effect.rotate_hands": N_("hands pass along"),
    "effect.play_again": N_("play again"),
    # the house rules in force explained (/uno rules), a sentence or two each
    "explain.stack.draw2": N_(
        "**Stacking (Draw Two):** answer a Draw Two played on you with another Draw Two; the "
        "total grows and moves on to the next player. **Accept** draws the whole total."
    ),
    "explain.stack.all": N_(
        "**Stacking (all):** answer a Draw Two or Wild Draw Four played on you with a Draw Two "
        "or a Wild Draw Four (never a Draw Two on a Wild Draw Four); the total grows and moves "
        "on. **Accept** draws the whole total."
    ),
    "explain.jump_in": N_(
        "**Jump-in:** anyone holding a card identical to the top card (same color and same "
        "number or symbol, never a wild card) may play it out of turn; play goes on from them."
    ),
    "explain.seven_o": N_(
        "**7-0:** playing a 7, you swap hands with a player you choose; playing a 0, every "
        "hand passes to the next player in the direction of play."
    ),
    "explain.draw_until_playable": N_(
        "**Draw until playable:** a draw goes on, one card at a time, until a card you can "
        "play comes."
    ),
    "explain.must_play": N_(
        "**Must play:** no drawing while you hold a card you can play, and a playable card you "
        "draw must be played."
    ),
    "explain.wd4_strict": N_(
        "**Strict Wild Draw Four:** it may only be played when you hold no card of the color "
        "in force, so it is never challenged."
    ),
    "explain.hand_size": Np_(
        "**Hand size:** {count} card each is dealt instead of 7.",
        "**Hand size:** {count} cards each are dealt instead of 7.",
    ),
    "explain.uno_penalty": N_(
        "**UNO penalty:** a player caught without calling UNO draws {count} instead of 2."
    ),
    "explain.uno_penalty_free": N_(
        "**UNO penalty:** a player caught without calling UNO draws nothing, but is safe "
        "afterwards."
    ),
    "explain.no_action_finish": N_(
        "**No action card to finish:** your last card must be a number card, not an action "
        "or wild card."
    ),
    "explain.custom_effect": N_(
        "**Wild Customizable:** besides naming a color, {effect}. As a player's last card only "
        "its draws still happen."
    ),
    "explain_effect.everyone_draws_1": N_("every other player draws 1"),
    "explain_effect.next_draws_2": N_("the next player draws 2 and is skipped"),
    "explain_effect.swap_hands": N_("you swap hands with a player you choose"),
    "explain_effect.rotate_hands": N_("every hand passes to the next player"),
    "explain_effect.play_again": N_("you play again at once"),
    # the options' names, as the house rules panel lists them
    "option.stack": N_("Stacking"),
    "option.jump_in": N_("Jump-in"),
    "option.seven_o": N_("7-0"),
    "option.draw_until_playable": N_("Draw until playable"),
    "option.must_play": N_("Must play"),
    "option.wd4_strict": N_("Strict Wild Draw Four"),
    "option.hand_size": N_("Hand size"),
    "option.uno_penalty": N_("UNO penalty"),
    "option.no_action_finish": N_("No action card to finish"),
    "option.custom_effect": N_("Wild Customizable"),
    "value.on": N_("on"),
    "value.off": N_("off"),
    "stack.none": N_("no stacking"),
    "stack.draw2": N_("Draw Two on Draw Two"),
    "stack.all": N_("all draw cards"),
    "preset.official": N_("Official (the default)"),
    "preset.party": N_("Party: stacking all + jump-in + 7-0"),
    "preset.chill": N_("Chill: draw until playable + no challenges"),
    "preset.custom": N_("Custom: {rules}"),
}


# The parameter whose number chooses the plural form of a note with plural forms.
COUNT_OF: dict[str, str] = {
    "table_full": "seats",
    "too_few": "seats",
    "swap_target": "count",
    "house.hand_size": "count",
    "explain.hand_size": "count",
}


@dataclass(frozen=True, slots=True)
class Note:
    """A message for one person: a key of ``ENGLISH`` and the values of its placeholders (a
    value may be a note itself, told in the same language)."""

    key: str
    params: tuple[tuple[str, Param], ...] = ()

    def get(self, name: str) -> Param | None:
        return next((value for key, value in self.params if key == name), None)

    def render(self, lang: Lang) -> str:
        """The note in ``lang`` (names and other values as they are)."""
        text = ENGLISH[self.key]
        if self.key == "rule":  # the engine's English template is itself the message id
            text = str(self.get("text"))
        if isinstance(text, tuple):
            count = self.get(COUNT_OF[self.key])
            template = lang.ngettext(text[0], text[1], count if isinstance(count, int) else 2)
        else:
            template = lang.gettext(text)
        if not self.params:
            return template
        return template.format_map({k: _told(v, lang) for k, v in self.params})

    def english(self) -> str:
        return self.render(ENGLISH_LANG)

    def __str__(self) -> str:
        return self.english()


def _told(value: Param, lang: Lang) -> str | int:
    """A parameter in ``lang``: a note told, a tuple of texts told as ``a, b or c``."""
    if isinstance(value, Note):
        return value.render(lang)
    if isinstance(value, tuple):
        words = [lang.gettext(item) for item in value]
        if len(words) == 1:
            return words[0]
        return note("answer.or", first=", ".join(words[:-1]), last=words[-1]).render(lang)
    return value


def note(key: str, **params: Param) -> Note:
    """A note with its parameters (``note("computer_added", level="hard")``)."""
    if key not in ENGLISH:
        raise KeyError(key)
    return Note(key, tuple(params.items()))
