"""The /uno rules and /uno help texts, and the editions as command choices."""

from __future__ import annotations

from typing import Any

from discord import app_commands, ui

from bot.engine import PRESETS, HouseRules
from bot.engine.cards import EDITION_TITLES, Edition
from bot.i18n import ENGLISH_LANG, N_, Lang
from bot.i18n.game_words import edition_title
from bot.tables.house_words import explain, rules_line
from bot.tables.names import safe_text
from bot.tables.notes import note

EDITION_CHOICES: list[app_commands.Choice[str]] = [
    app_commands.Choice(name=EDITION_TITLES[edition], value=edition.value) for edition in Edition
]
PRESET_CHOICES: list[app_commands.Choice[str]] = [
    app_commands.Choice(name=note(f"preset.{name}").english()[:100], value=name) for name in PRESETS
]

# Each bullet of the rules one message, so a translation never has to keep the markup of many.
COMMON = (
    N_("Match the top card by **color**, **number** or **symbol**; wild cards go on anything."),
    N_("Instead of playing you may **draw** one card; if it fits you may play it at once."),
    N_(
        "**Skip**: the next player misses a turn. **Reverse**: play changes direction "
        "(with two players it acts as a skip). **Draw Two**: the next player draws 2 and is "
        "skipped."
    ),
    N_(
        "**Wild Draw Four**: the next player draws 4 and is skipped, or **challenges**: if the "
        "player held a card of the color in force, they draw 4 instead; if not, the challenger "
        "draws 6."
    ),
    N_(
        "Call **UNO!** with your next-to-last card (press UNO! in your hand first). Until the "
        "next player acts, anyone may **Catch** you: you draw 2."
    ),
    N_(
        "Going out scores the cards left in the other hands: numbers at face value, action "
        "cards 20, wild cards 50."
    ),
)

EXTRA: dict[Edition, tuple[str, ...]] = {
    Edition.CLASSIC: (),
    Edition.SONIC: (
        N_("**Wild Victory Lap**: every other player draws 1 card; you name the color."),
        N_("In a challenge, any other wild card in the hand also counts as the color in force."),
        N_("An action card turned up first is ignored; the dealer is chosen at random."),
    ),
    Edition.MARIO: (
        N_(
            "**Super Star**: a wild card, or **bounce** a Draw Two or Wild Draw Four played on "
            "you back to its player (they draw instead). A Draw Two must be accepted or bounced."
        ),
        N_("**Wild Customizable**: a wild card that announces the table's house rule."),
    ),
}

HELP = (
    N_("## 🎴 UNO"),
    N_(
        "`/uno new` opens a lobby: friends press **Join**, the host presses **Start**. The game "
        "runs in a thread. Press **Show my hand** to see your cards privately and play by "
        "clicking them. Press **UNO!** before playing your next-to-last card."
    ),
    "",
    N_(
        "**Computer players** fill empty seats from the lobby: *easy* plays any card that fits, "
        "*normal* plays sensibly, *hard* remembers what every draw showed and tries its moves "
        "against many guesses of your hands."
    ),
    "",
    N_(
        "**House rules** (stacking, jump-in, 7-0 and more): the host picks a preset or the "
        "options one by one with **House rules** in the lobby, or the `house_rules` option of "
        "`/uno new` names a preset. `/uno rules` explains the rules of the table you are at."
    ),
    "",
    N_(
        "**Game**: `/uno new`, `/uno hand`, `/uno leave`, `/uno end` (host or Manage Server), "
        "`/uno kick` (host), `/uno rules`, `/uno help`, `/uno about`."
    ),
    N_(
        "**League**: `/uno leaderboard`, `/uno stats`, `/uno profile`, `/uno history`, "
        "`/uno forget-me`. "
        "A **rating** starts at 1000 and moves with where you finish and against whom; "
        "a **?** after it means provisional (fewer than 5 rated matches)."
    ),
    N_(
        "**Server managers** (Manage Server): `/uno-admin settings`, `/uno-admin season new`, "
        "`/uno-admin export`, `/uno-admin status`."
    ),
    N_(
        "**Tournaments**: `/uno tournament open` (Manage Server, or anyone if the server "
        "allows it) opens an arena or a knockout; join, leave and berserk with its buttons; "
        "managers find the same commands under `/uno-admin tournament open`."
    ),
)


def help_text(lang: Lang = ENGLISH_LANG) -> str:
    """/uno help in ``lang`` (command names stay as typed: Discord shows them localized)."""
    return "\n".join(lang.gettext(line) if line else "" for line in HELP)


HELP_TEXT = help_text()


def rules_summary(edition: Edition, house_rule: str = "", lang: Lang = ENGLISH_LANG) -> str:
    """The rules of ``edition`` in a few lines (well under Discord's 2000 characters)."""
    bullets = [f"• {lang.gettext(line)}" for line in (*COMMON, *EXTRA[edition])]
    text = f"## {edition_title(edition, lang)}\n" + "\n".join(bullets)
    if house_rule:
        text += "\n• " + lang.gettext("This table's house rule: {rule}").format(
            rule=safe_text(house_rule)
        )
    return text


def house_summary(house: HouseRules, lang: Lang = ENGLISH_LANG) -> str:
    """A table's house rules: the one line, then each option in force in a sentence or two."""
    lines = [f"### {rules_line(house, lang)}"]
    lines += [f"• {line.render(lang)}" for line in explain(house)]
    if not house.changed():
        lines.append("• " + lang.gettext("This table plays the printed rules: no house rules."))
    return "\n".join(lines)


def rules_view(
    edition: Edition,
    house_rule: str = "",
    house: HouseRules | None = None,
    lang: Lang = ENGLISH_LANG,
) -> ui.LayoutView:
    """/uno rules as a private message: the edition's rules, and a table's house rules (every
    option explained can pass the 2,000 characters of a plain message, not a layout's 4,000)."""
    view = ui.LayoutView(timeout=None)
    container = ui.Container[Any](ui.TextDisplay(rules_summary(edition, house_rule, lang)))
    if house is not None:
        container.add_item(ui.TextDisplay(house_summary(house, lang)))
    view.add_item(container)
    return view
