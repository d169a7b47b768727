"""A player's partners' hands, told to that player alone (tables with ``partners_see``)."""

from __future__ import annotations

from bot.i18n import ENGLISH_LANG, Lang
from bot.i18n.game_words import card_name
from bot.tables.names import safe_name
from bot.tables.snapshot import Reveal, TableSnapshot


def partners_text(
    table: TableSnapshot, hands: tuple[Reveal, ...], tongue: Lang = ENGLISH_LANG
) -> str:
    """Each partner's cards in words (a partner who left holds none)."""
    _ = tongue.gettext
    lines = ["👀 **" + _("Your partners' hands") + "**"]
    for hand in hands:
        name = safe_name(table.seats[hand.seat].name)
        cards = ", ".join(card_name(code, tongue) for code in hand.cards) or _("no cards")
        lines.append(_("**{name}**: {cards}").format(name=name, cards=cards))
    return "\n".join(lines)
