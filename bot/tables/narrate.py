"""The table's log told in the reader's language: one sentence per entry, with names the caller
made safe (entries are data; they are told when shown)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import ENGLISH_LANG, N_, Lang
from bot.i18n.game_words import card_name as told_card
from bot.i18n.game_words import color_name

from .names import safe_text
from .tablelog import LogEntry, LogLine


def card_name(code: str | None, lang: Lang = ENGLISH_LANG) -> str:
    return told_card(code, lang)


def narrate(line: LogLine, names: Sequence[str], lang: Lang = ENGLISH_LANG) -> str:
    """One entry as a sentence (``names`` must already be safe); an old plain line as it is."""
    if isinstance(line, str):
        return line
    return _tell(line, names, lang)


def _tell(e: LogEntry, names: Sequence[str], lang: Lang) -> str:  # one case a kind
    _ = lang.gettext

    def who(seat: int | None) -> str:
        return f"**{names[seat]}**" if seat is not None and 0 <= seat < len(names) else "?"

    def way(direction: int | None) -> str:
        return _("clockwise") if direction == 1 else _("counter-clockwise")

    kind = e.kind
    count = e.count or 0
    player, target = who(e.seat), who(e.target)
    card, color = card_name(e.card, lang), color_name(e.color, lang)
    if kind == "play":
        if e.color:
            return _("{player} played {card} and chose {color}").format(
                player=player, card=card, color=color
            )
        return _("{player} played {card}").format(player=player, card=card)
    if kind == "house_rule":
        return _("House rule: {rule}").format(rule=safe_text(e.text or ""))
    if kind == "bounce":
        return _("{player} bounced it back with a Super Star at {target} and chose {color}").format(
            player=player, target=target, color=color
        )
    if kind == "draw":
        return _("{player} drew a card").format(player=player) if count else _("Nothing to draw")
    if kind == "draws":
        return lang.ngettext(
            "{player} draws {count} card", "{player} draws {count} cards", count
        ).format(player=player, count=count)
    if kind == "pass":
        return _("{player} kept the drawn card").format(player=player)
    if kind == "skip":
        return _("{player} is skipped").format(player=player)
    if kind == "reverse":
        return _("Play now goes {direction}").format(direction=way(e.direction))
    if kind == "accept":
        return _("{player} accepted +{count}").format(player=player, count=count)
    if kind == "challenge":
        if e.legal:
            return _("{player} challenged {target}'s Wild Draw Four: the play was legal").format(
                player=player, target=target
            )
        return _("{player} challenged {target}'s Wild Draw Four: the play was NOT legal").format(
            player=player, target=target
        )
    if kind == "color":
        return _("{player} chose {color}").format(player=player, color=color)
    if kind == "uno":
        return _("{player} called **UNO!**").format(player=player)
    if kind == "catch":
        if count:
            return _("{player} caught {target} without UNO: +{count}").format(
                player=player, target=target, count=count
            )
        return _("{player} caught {target} without UNO").format(player=player, target=target)
    if kind == "jump_in":
        return _("{player} jumped in!").format(player=player)
    if kind == "stack":
        return _("{player} stacked it: {target} now faces +{count}").format(
            player=player, target=target, count=count
        )
    if kind == "swap":  # seats only: the cards of a swapped hand stay hidden
        return _("{player} swapped hands with {target}").format(player=player, target=target)
    if kind == "rotate":
        return _("Every hand passed to the next player, {direction}").format(
            direction=way(e.direction)
        )
    if kind == "custom_effect":
        effect = CUSTOM_EFFECTS.get(e.text or "")
        return _("Wild Customizable: {effect}").format(effect=_(effect) if effect else "?")
    if kind == "play_again":
        return _("{player} plays again").format(player=player)
    if kind == "first_card":
        return _("First card: {card}").format(card=card)
    if kind == "leave":
        return _("{player} left; their cards went back into the pile").format(player=player)
    if kind == "round_over":
        return lang.ngettext(
            "{player} went out! {count} point", "{player} went out! {count} points", count
        ).format(player=player, count=count)
    if kind == "went_out":  # lowest scoring: each seat's own points are shown with the scores
        return _("{player} went out and scores 0 this round!").format(player=player)
    if kind == "stalled":
        if e.count is None:
            return _(
                "Nobody can play or draw any more, so the round ends: {player} holds the fewest "
                "points and wins it"
            ).format(player=player)
        return lang.ngettext(
            "Nobody can play or draw any more, so the round ends: {player} holds the fewest "
            "points and wins it ({count} point)",
            "Nobody can play or draw any more, so the round ends: {player} holds the fewest "
            "points and wins it ({count} points)",
            count,
        ).format(player=player, count=count)
    if kind == "forfeit":
        return _("{player} is the last player left").format(player=player)
    if kind == "round_begins":
        return _("Round {number} begins").format(number=count)
    if kind == "match_won":
        winners = [who(s) for s in e.seats]
        if len(winners) == 1:
            return _("{players} won the match!").format(players=winners[0])
        joined = _("{first} and {last}").format(first=", ".join(winners[:-1]), last=winners[-1])
        return _("{players} won the match!").format(players=joined)
    if kind == "left_game":
        return _("{player} left the game").format(player=player)
    if kind == "kicked":
        return _("{player} was removed by the host").format(player=player)
    if kind == "timed_out":
        return _("{player} ran out of time").format(player=player)
    if kind == "removed_for_timeouts":
        return lang.ngettext(
            "{player} was removed after {count} timeout",
            "{player} was removed after {count} timeouts",
            count,
        ).format(player=player, count=count)
    if kind == "ended_early":
        return _("The game was ended early")
    if kind == "lobby_expired":
        return _("The lobby closed: nobody started the game in time")
    return kind.replace("_", " ")


CUSTOM_EFFECTS = {
    "everyone_draws_1": N_("everyone else draws 1"),
    "next_draws_2": N_("the next player draws 2 and is skipped"),
    "swap_hands": N_("swap hands"),
    "rotate_hands": N_("every hand passes along"),
    "play_again": N_("play again"),
}
