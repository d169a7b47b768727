"""The catalogues: the template matches the code, and every language has every message, with the
same placeholders as English, valid plural forms and texts within Discord's limits."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from bot.i18n import SUPPORTED, TRANSLATED
from bot.i18n.catalog import TEMPLATE, po_path, read_catalog
from cogs.catalogue import all_command_texts, build, message_set, render
from cogs.translator import DESCRIPTION_MAX, NAME_CONTEXT, valid_name

# The nine languages besides English the bot ships, as Babel names them. A language is added
# here and in bot/i18n/locales.py together.
EXPECTED = ("de", "fr", "es_ES", "pt_BR", "it", "pl", "nl", "ru", "tr")


def template() -> Catalog:
    with TEMPLATE.open("rb") as file:
        return read_po(file)


def fields(text: str) -> set[str]:
    """The ``str.format`` fields of a text (ValueError if its braces are malformed)."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def forms(message: Message) -> tuple[str, ...]:
    return message.string if isinstance(message.string, tuple) else (message.string,)


def ids(message: Message) -> tuple[str, ...]:
    return message.id if isinstance(message.id, tuple) else (message.id,)


def translated(catalog: Catalog) -> list[Message]:
    return [m for m in catalog if m.id and all(forms(m)) and not m.fuzzy]


def test_the_languages_shipped_are_the_expected_ones() -> None:
    assert TRANSLATED == EXPECTED
    assert ("en", *EXPECTED) == SUPPORTED
    for code in EXPECTED:
        assert po_path(code).is_file(), f"no catalogue for {code}"


def test_the_template_is_up_to_date_with_the_code() -> None:
    fresh = build()
    committed = template()
    assert message_set(fresh) - message_set(committed) == set(), "run: python -m cogs.catalogue"
    assert message_set(committed) - message_set(fresh) == set(), "run: python -m cogs.catalogue"
    # Plural pairs and contexts are the same too (not just the first form).
    assert {m.id for m in fresh if m.id} == {m.id for m in committed if m.id}


def test_the_template_file_is_stable(tmp_path: Path) -> None:
    """No source lines and a sorted order: an edit elsewhere in the code changes nothing."""
    text = render(build()).decode()
    assert "\n#: " not in text
    assert text.count("msgid ") > 400


@pytest.mark.parametrize("code", EXPECTED)
def test_every_catalogue_has_every_message_of_the_template(code: str) -> None:
    catalog = read_catalog(po_path(code), code)
    assert message_set(template()) - message_set(catalog) == set(), f"run: pybabel update ({code})"
    assert message_set(catalog) - message_set(template()) == set(), f"stale messages in {code}"
    assert catalog.num_plurals == get_plural(code).num_plurals
    for message in catalog:
        if message.id and isinstance(message.id, tuple):
            assert len(forms(message)) == catalog.num_plurals, message.id


@pytest.mark.parametrize("code", EXPECTED)
def test_translations_keep_the_english_placeholders(code: str) -> None:
    catalog = read_catalog(po_path(code), code)
    wrong = []
    for message in translated(catalog):
        english = set().union(*(fields(text) for text in ids(message)))
        for text in forms(message):
            try:
                if fields(text) != english and not (
                    # A plural form may write its number out ("eine Karte"), never another field.
                    isinstance(message.id, tuple) and fields(text) < english
                ):
                    wrong.append((message.id, text))
            except ValueError:
                wrong.append((message.id, text))
    assert wrong == []


@pytest.mark.parametrize("code", EXPECTED)
def test_command_translations_keep_discords_limits(code: str) -> None:
    catalog = read_catalog(po_path(code), code)
    descriptions = {t.message for t in all_command_texts() if not t.name}
    bad = []
    for message in translated(catalog):
        text = forms(message)[0]
        if (message.context == NAME_CONTEXT and not valid_name(text)) or (
            message.id in descriptions and not 1 <= len(text) <= DESCRIPTION_MAX
        ):
            bad.append((message.id, text))
    assert bad == []


def test_every_catalogue_is_complete() -> None:
    """Every message of every language translated (none empty, none fuzzy)."""
    missing = {}
    for code in EXPECTED:
        catalog = read_catalog(po_path(code), code)
        total = [m for m in catalog if m.id]
        left = len(total) - len(translated(catalog))
        if left:
            missing[code] = f"{left} of {len(total)} untranslated"
    assert missing == {}


def test_the_check_fails_on_a_stale_template(tmp_path: Path) -> None:
    from cogs.catalogue import main

    fresh = tmp_path / "messages.pot"
    assert main(["--output", str(fresh)]) == 0
    assert main(["--check", "--output", str(fresh)]) == 0
    text = fresh.read_text(encoding="utf-8")
    stale = text.replace('msgid "Show my hand"\nmsgstr ""\n', 'msgid "Show my cards"\nmsgstr ""\n')
    assert stale != text
    fresh.write_text(stale, encoding="utf-8")
    assert main(["--check", "--output", str(fresh)]) == 1
