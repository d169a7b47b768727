"""Who speaks what: Discord locales mapped to catalogues, notes, refusals, the log, numbers and
the slash commands told in a language, with English (the message ids) unchanged."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from discord import Locale, app_commands
from discord.app_commands import TranslationContext
from discord.app_commands import TranslationContextLocation as Where

import bot.engine
from bot.engine.errors import RuleError
from bot.i18n import ENGLISH_LANG, lang, refusals, resolve
from bot.i18n.game_words import card_name
from bot.i18n.pictures import picture_words
from bot.render.words import ENGLISH
from bot.tables.narrate import narrate
from bot.tables.notes import note
from bot.tables.refusals import TableError
from bot.tables.tablelog import LogEntry
from cogs import translator
from cogs.translator import CatalogueTranslator, fits, localize


@pytest.mark.parametrize(
    ("discord_locale", "code"),
    [
        ("de", "de"),
        ("fr", "fr"),
        ("es-ES", "es_ES"),
        ("es-419", "es_ES"),
        ("pt-BR", "pt_BR"),
        ("it", "it"),
        ("pl", "pl"),
        ("nl", "nl"),
        ("ru", "ru"),
        ("tr", "tr"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("ja", "en"),
        ("zh-CN", "en"),
        ("", "en"),
        (None, "en"),
    ],
)
def test_discord_locales_map_to_a_catalogue(discord_locale: str | None, code: str) -> None:
    assert resolve(discord_locale) == code
    assert lang(discord_locale).code == code


def test_every_discord_locale_resolves() -> None:
    assert {resolve(locale.value) for locale in Locale} <= {
        "en", "de", "fr", "es_ES", "pt_BR", "it", "pl", "nl", "ru", "tr"
    }  # fmt: skip


def test_notes_are_told_in_the_readers_language() -> None:
    german, polish = lang("de"), lang("pl")
    joined = note("joined")
    assert joined.english() == "You joined the game."
    assert joined.render(polish) == polish.gettext("You joined the game.") != joined.english()
    # A parameter that is a note itself is told in the same language.
    added = note("computer_added", level=note("level.hard"))
    assert added.english() == "Added a hard computer player."
    assert "trudny" not in added.english()
    assert added.render(german) == german.gettext("Added a {level} computer player.").format(
        level=german.gettext("hard")
    )


def test_an_engine_refusal_is_told_in_the_readers_language() -> None:
    error = RuleError("not_your_turn")
    text, params = refusals.template(error)
    refused = TableError("rule", text=text, code=error.code, **params)
    assert refused.message == refusals.english(error) == "It is not your turn."
    assert refused.note.render(lang("de")) == "Du bist nicht am Zug."
    listed = RuleError("not_allowed", "answer_penalty", ways=("accept", "stack_draw2", "challenge"))
    assert refusals.english(listed) == (
        "Answer the penalty first: accept the penalty, stack a Draw Two or challenge it."
    )
    text, params = refusals.template(listed)
    told = TableError("rule", text=text, code=listed.code, **params)
    assert told.message == refusals.english(listed)
    assert told.note.render(lang("de")) != told.message  # each way told in German too


def test_every_engine_refusal_has_its_text() -> None:
    """Every reason the engine raises has an English text (read from the engine's source)."""
    reasons: set[str] = set()
    for path in Path(bot.engine.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            said = node.args[1:2] if name == "RuleError" else node.args[:1]
            if name in {"not_allowed", "bad_action", "cannot_play", "RuleError"}:
                reasons.update(
                    str(c.value)
                    for arg in said
                    for c in ast.walk(arg)
                    if isinstance(c, ast.Constant) and isinstance(c.value, str)
                )
    assert len(reasons) > 20 and reasons <= set(refusals.REFUSALS)
    assert set(refusals.WAYS) >= {"accept", "challenge", "bounce"}


def test_plural_forms_come_from_the_catalogue() -> None:
    polish = picture_words(lang("pl"))
    assert [polish.cards(n) for n in (1, 2, 5, 12, 22, 25)] == [
        "1 karta", "2 karty", "5 kart", "12 kart", "22 karty", "25 kart"
    ]  # fmt: skip
    assert [ENGLISH.cards(n) for n in (1, 2)] == ["1 card", "2 cards"]
    assert picture_words(ENGLISH_LANG) is ENGLISH
    assert picture_words(lang("de")) is picture_words(lang("de"))  # built once per language


def test_the_log_is_told_in_the_readers_language() -> None:
    names = ["**Ann**", "**Bo**"]
    play = LogEntry("play", seat=0, card="red-7", color=None)
    polish = lang("pl")
    assert narrate(play, ["Ann", "Bo"]) == "**Ann** played Red 7"
    told = narrate(play, ["Ann", "Bo"], polish)
    assert told == polish.gettext("{player} played {card}").format(
        player="**Ann**", card=card_name("red-7", polish)
    )
    assert told != narrate(play, ["Ann", "Bo"])
    draws = LogEntry("draws", seat=1, count=5)
    assert narrate(draws, names, polish).endswith("5 kart")
    assert narrate(LogEntry("draws", seat=1, count=1), ["Ann", "Bo"]) == "**Bo** draws 1 card"


def test_names_typed_by_users_are_never_translated() -> None:
    polish = lang("pl")
    entry = LogEntry("play", seat=0, card="red-7")
    assert "**Join**" in narrate(entry, ["Join", "Show my hand"], polish)


def test_numbers_follow_the_language() -> None:
    assert ENGLISH_LANG.number(1234.5, 1) == "1234.5" and ENGLISH_LANG.percent(0.5) == "50%"
    assert lang("de").number(1234.5, 1) == "1234,5"
    assert lang("de").percent(0.5) == "50\xa0%"  # a no-break space, as German writes it
    assert lang("tr").percent(0.5) == "%50"


def test_command_translations_respect_discords_rules() -> None:
    assert fits("neu", name=True) and fits("forget-me", name=True) and fits("żółw", name=True)
    assert not fits("Neu", name=True) and not fits("neues spiel", name=True)
    assert not fits("x" * 33, name=True) and not fits("", name=False)
    assert not fits("x" * 101, name=False) and fits("x" * 100, name=False)
    assert localize("new", "de", name=True) == "neu"
    assert localize("new", "en-US", name=True) is None  # English is the source
    assert localize("new", "ja", name=True) is None  # no catalogue


def test_a_translation_that_breaks_a_limit_falls_back_to_english(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Loud:
        code = "de"

        def pgettext(self, context: str, message: str) -> str:
            return "Neues Spiel"  # capitals and a space: not a valid command name

        def gettext(self, message: str) -> str:
            return "x" * 101

    monkeypatch.setattr(translator, "lang", lambda code: Loud())
    assert localize("new", "de", name=True) is None
    assert localize("Play UNO", "de", name=False) is None


async def test_the_translator_localizes_names_and_descriptions() -> None:
    tree = CatalogueTranslator()
    name = TranslationContext(Where.command_name, None)
    description = TranslationContext(Where.command_description, None)
    assert await tree.translate(app_commands.locale_str("new"), Locale.german, name) == "neu"
    assert await tree.translate(app_commands.locale_str("new"), Locale.polish, name) == "nowa"
    assert (
        await tree.translate(app_commands.locale_str("new"), Locale.american_english, name) is None
    )
    text = app_commands.locale_str("Open a lobby for a new UNO game")
    german = await tree.translate(text, Locale.german, description)
    assert german == lang("de").gettext("Open a lobby for a new UNO game") != text.message


async def test_a_changed_translation_changes_the_synced_payload(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Commands are synced again when their localizations change, not only their English."""
    import discord

    from bot.sync import tree_hash, tree_payload

    tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(
        discord.Client(intents=discord.Intents.none())
    )
    group = app_commands.Group(name="uno", description="Play UNO")

    @group.command(name="new", description="Open a lobby for a new UNO game")
    async def new(interaction: discord.Interaction[discord.Client]) -> None: ...

    tree.add_command(group)
    plain = await tree_payload(tree, None)
    await tree.set_translator(CatalogueTranslator())
    localized = await tree_payload(tree, None)
    [command] = localized[0]["options"]
    assert command["name_localizations"]["de"] == "neu"
    assert tree_hash(localized, 1) != tree_hash(plain, 1)
    monkeypatch.setattr(translator, "localize", lambda message, locale, name: None)
    assert tree_hash(await tree_payload(tree, None), 1) != tree_hash(localized, 1)
