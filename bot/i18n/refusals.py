"""The engine's refusals in English, keyed by reason: the engine names why, this module says it.

Each text is a message id of the catalogue, so a presenter tells it in the reader's language
(``bot/tables/notes.py``, key ``rule``); ``english`` tells one in English for the engine's
command line and the logs. Nothing here loads a catalogue.
"""

from __future__ import annotations

from bot.engine.errors import ParamValue, RuleError
from bot.markers import N_

REFUSALS: dict[str, str] = {
    # the contract's codes, when the code says it all
    "not_your_turn": N_("It is not your turn."),
    "not_in_hand": N_("You do not hold that card."),
    "cannot_play": N_("That card does not match the color, number or symbol."),
    "wrong_card": N_("After drawing, only the card you just drew may be played."),
    "bad_color": N_("Choose a color: red, yellow, green or blue."),
    # cannot_play
    "last_action_card": N_("Your last card may not be an action card."),
    "wd4_strict": N_("A Wild Draw Four may not be played while you hold the color in force."),
    # not_allowed
    "round_over": N_("The round is over."),
    "left_game": N_("You have left this game."),
    "choose_first_color": N_("First choose the color of the card turned up."),
    "already_drew": N_("You already drew: play the card you drew or keep it."),
    "cannot_draw": N_("You cannot draw now."),
    "pass_after_draw": N_("You can only pass after drawing a playable card."),
    "must_play_drawn": N_("At this table a playable drawn card must be played."),
    "must_play": N_("You hold a card you can play: play one."),
    "no_color_to_choose": N_("There is no color to choose now."),
    "uno_one_card": N_("Call UNO when you hold exactly one card."),
    "catch_self": N_("You cannot catch yourself."),
    "answer_penalty": N_("Answer the penalty first: {ways}."),
    "no_penalty": N_("There is no penalty to accept."),
    "challenge_draw4_only": N_("Only a Wild Draw Four can be challenged."),
    "no_challenge": N_("At this table a Wild Draw Four cannot be challenged."),
    "not_in_round": N_("That player is not in this round."),
    "round_playing": N_("The round is still being played."),
    "round_scored": N_("This round was already scored."),
    "match_over": N_("The match is over."),
    "not_in_match": N_("That player is not in this match."),
    # bad_action
    "name_swap_target": N_("Name another player to swap hands with."),
    "no_such_seat": N_("That seat is not at this table."),
    "say_card": N_("Say which card to play."),
    "say_target": N_("Say whom to catch."),
    "unknown_action": N_("Unknown action {action}."),
    "needs_seat": N_("Every action needs a seat."),
    "play_needs_card": N_("A play needs a card."),
    "catch_needs_target": N_("A catch needs a target."),
}

# The ways to answer a penalty (``answer_penalty``'s ``ways``).
WAYS: dict[str, str] = {
    "accept": N_("accept the penalty"),
    "stack_any": N_("stack a Draw Two or a Wild Draw Four"),
    "stack_draw2": N_("stack a Draw Two"),
    "stack_draw4": N_("stack a Wild Draw Four"),
    "challenge": N_("challenge it"),
    "bounce": N_("bounce it with a Super Star"),
}


def template(error: RuleError) -> tuple[str, dict[str, ParamValue]]:
    """The refusal's English template (its message id) and its parameters, each list of ways
    as their English texts."""
    params = {
        name: tuple(WAYS[way] for way in value) if isinstance(value, tuple) else value
        for name, value in error.params.items()
    }
    return REFUSALS[error.reason], params


def english(error: RuleError) -> str:
    """The refusal in English (a list told as ``a, b or c``)."""
    text, params = template(error)
    return text.format_map(
        {k: _english_list(v) if isinstance(v, tuple) else v for k, v in params.items()}
    )


def _english_list(items: tuple[str, ...]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]
