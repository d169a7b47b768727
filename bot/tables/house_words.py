"""The house rules in force as notes: a few words each for one short line, a sentence or two each
for /uno rules, and the options' names and values as a settings panel lists them.

Everything is a ``Note`` (a key of ``notes.ENGLISH`` and its parameters), told in the reader's
language by the functions that return text (``lang``, English by default).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from bot.engine import HouseRules
from bot.engine.cards import Edition
from bot.engine.house import OPTION_BY_NAME, CustomEffect
from bot.i18n import ENGLISH_LANG, Lang

from .notes import Note, note

SEPARATOR = " · "


def for_edition(house: HouseRules, edition: Edition) -> HouseRules:
    """The options as a table of ``edition`` plays them: the Wild Customizable's effect only
    in Super Mario (other editions have no such card)."""
    if edition is Edition.MARIO or house.custom_effect is CustomEffect.NONE:
        return house
    return house.with_option("custom_effect", CustomEffect.NONE.value)


def in_force(house: HouseRules) -> tuple[Note, ...]:
    """A few words per option that differs from the printed rules, in option order."""
    words: list[Note] = []
    for name, value in house.changed():
        if name == "stack":
            words.append(note(f"house.stack.{value}"))
        elif name in ("hand_size", "uno_penalty"):
            words.append(note(f"house.{name}", count=int(value)))
        elif name == "custom_effect":
            words.append(note("house.custom_effect", effect=note(f"effect.{value}")))
        else:
            words.append(note(f"house.{name}"))
    return tuple(words)


@lru_cache(maxsize=256)  # every table and hand message shows it; few mixes are ever played
def rules_line(house: HouseRules, lang: Lang = ENGLISH_LANG) -> str:
    """One short line: ``House rules: stacking (all) · jump-in · 7-0`` or ``Official rules``."""
    words = in_force(house)
    if not words:
        return note("rules_official").render(lang)
    return note("rules_house", rules=SEPARATOR.join(w.render(lang) for w in words)).render(lang)


def options_in_force(house: HouseRules, lang: Lang = ENGLISH_LANG) -> str:
    """The options alone (``stacking (all) · jump-in``), or ``Official rules``: for a line that
    already says it is about house rules."""
    words = in_force(house)
    if not words:
        return note("rules_official").render(lang)
    return SEPARATOR.join(w.render(lang) for w in words)


def stored_line(options: Mapping[str, object], lang: Lang = ENGLISH_LANG) -> str:
    """The rules line of a recorded match's options (names this version does not know are
    shown as they are)."""
    try:
        return rules_line(HouseRules.parse(options), lang)
    except ValueError:
        listed = SEPARATOR.join(f"{name}={value}" for name, value in options.items())
        return note("rules_house", rules=listed).render(lang)


def explain(house: HouseRules) -> tuple[Note, ...]:
    """A sentence or two per option in force (for /uno rules)."""
    lines: list[Note] = []
    for name, value in house.changed():
        if name == "stack":
            lines.append(note(f"explain.stack.{value}"))
        elif name == "hand_size":
            lines.append(note("explain.hand_size", count=int(value)))
        elif name == "uno_penalty":
            count = int(value)
            lines.append(
                note("explain.uno_penalty", count=count)
                if count
                else note("explain.uno_penalty_free")
            )
        elif name == "custom_effect":
            effect = note(f"explain_effect.{value}")
            lines.append(note("explain.custom_effect", effect=effect))
        else:
            lines.append(note(f"explain.{name}"))
    return tuple(lines)


def option_name(name: str, lang: Lang = ENGLISH_LANG) -> str:
    """An option's name as the panel shows it (``Jump-in``)."""
    return note(f"option.{name}").render(lang)


def value_name(name: str, value: object, lang: Lang = ENGLISH_LANG) -> str:
    """An option's value as the panel shows it (``all draw cards``, ``9``, ``play again``)."""
    if name == "stack":
        return note(f"stack.{value}").render(lang)
    if name == "custom_effect":
        return note(f"effect.{value}").render(lang)
    if isinstance(OPTION_BY_NAME[name].default, bool):
        return note("value.on" if value else "value.off").render(lang)
    return str(value)


def preset_label(house: HouseRules, lang: Lang = ENGLISH_LANG) -> str:
    """The preset these options are, or ``Custom: ...`` for a mix of one's own."""
    preset = house.preset_name
    if preset is not None:
        return note(f"preset.{preset}").render(lang)
    words = SEPARATOR.join(w.render(lang) for w in in_force(house))
    return note("preset.custom", rules=words).render(lang)
