"""The message catalogue's template, made from the code: ``python -m cogs.catalogue``.

Babel extracts every marked text of the bot and its cogs (``_``, ``gettext``, ``ngettext``,
``pgettext``, the ``N_``/``Np_`` markers of constants, the engine's refusals among them), and the
slash commands' names, descriptions and choices are read from the command definitions. The
result is ``bot/i18n/locales/messages.pot``; ``pybabel update`` carries it into each language
(see docs/translating.md). ``--check`` fails when the template is out of date with the code.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po, write_po

from bot.i18n.catalog import DOMAIN, TEMPLATE
from cogs.translator import NAME_CONTEXT, CommandText, command_texts

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("bot", "cogs")
# Modules whose texts no Discord user reads (developer tools) are left out.
METHOD_MAP = [
    ("bot/playground/**.py", "ignore"),
    ("**.py", "python"),
]
KEYWORDS = {
    **DEFAULT_KEYWORDS,
    "Np_": (1, 2),  # a constant with plural forms
}
COMMENT_TAGS = ("Translators:",)
NAME_NOTE = "A slash command or option name: lower case, no spaces, at most 32 characters."


def _source_messages(catalog: Catalog) -> None:
    for source in SOURCES:
        found = extract_from_dir(
            ROOT / source,
            method_map=METHOD_MAP,
            keywords=KEYWORDS,
            comment_tags=COMMENT_TAGS,
            strip_comment_tags=True,
        )
        for filename, lineno, message, comments, context in found:
            path = f"{source}/{filename}"
            catalog.add(message, None, [(path, lineno)], auto_comments=comments, context=context)


def all_command_texts() -> list[CommandText]:
    """The texts of every command the bot registers under /uno and /uno-admin."""
    from cogs.group import admin_group
    from cogs.league.commands import LEAGUE_ADMIN_COMMANDS, LEAGUE_COMMANDS
    from cogs.settings import SETTINGS_COMMANDS
    from cogs.status import STATUS_COMMANDS
    from cogs.tournament import MEMBER_TOURNAMENT_COMMANDS, TOURNAMENT_COMMANDS
    from cogs.uno import UnoCog

    own = tuple(UnoCog.__cog_app_commands__) + LEAGUE_COMMANDS + MEMBER_TOURNAMENT_COMMANDS
    group = (str(UnoCog.__cog_group_name__), str(UnoCog.__cog_group_description__))
    admin = admin_group()
    admin_texts = (admin.name, str(admin.description))
    return [
        *command_texts(own, group),
        *command_texts(
            LEAGUE_ADMIN_COMMANDS + SETTINGS_COMMANDS + STATUS_COMMANDS + TOURNAMENT_COMMANDS,
            admin_texts,
        ),
    ]


def _command_messages(catalog: Catalog) -> None:

    for text in all_command_texts():
        if not text.message or text.message == "…":  # discord.py's placeholder description
            continue
        context = NAME_CONTEXT if text.name else None
        notes = [text.where] + ([NAME_NOTE] if text.name else [])
        existing = catalog.get(text.message, context)
        if existing is not None:
            existing.auto_comments = sorted(set(existing.auto_comments) | set(notes))
            continue
        catalog.add(text.message, None, auto_comments=notes, context=context)


def build() -> Catalog:
    """The template as the code stands."""
    catalog = Catalog(project="uno-bot", domain=DOMAIN, charset="utf-8", fuzzy=False)
    _source_messages(catalog)
    _command_messages(catalog)
    return catalog


def render(catalog: Catalog) -> bytes:
    """The template as a file: sorted, without source lines, so edits elsewhere do not churn."""
    out = io.BytesIO()
    write_po(out, catalog, width=100, no_location=True, sort_output=True, omit_header=False)
    return out.getvalue()


def message_set(catalog: Iterable[object]) -> set[tuple[object, object]]:
    """The messages (id and context) of a catalogue, without its header."""
    return {(m.id, m.context) for m in catalog if m.id}  # type: ignore[attr-defined]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the template is stale")
    parser.add_argument("--output", type=Path, default=TEMPLATE)
    args = parser.parse_args(argv)
    fresh = build()
    if args.check:
        with args.output.open("rb") as file:
            committed = read_po(file)
        missing = message_set(fresh) - message_set(committed)
        stale = message_set(committed) - message_set(fresh)
        for message in sorted(missing, key=str):
            print(f"not in the template: {message}", file=sys.stderr)
        for message in sorted(stale, key=str):
            print(f"no longer in the code: {message}", file=sys.stderr)
        if missing or stale:
            print("run: python -m cogs.catalogue (then pybabel update)", file=sys.stderr)
            return 1
        return 0
    text = render(fresh)
    if args.output.exists():
        with args.output.open("rb") as file:
            committed = read_po(file)
        old = {(m.id, m.context): m.auto_comments for m in committed if m.id}
        if old == {(m.id, m.context): m.auto_comments for m in fresh if m.id}:
            print(f"{args.output} is up to date ({len(old)} messages)")
            return 0  # not rewritten: only its date would change
    args.output.write_bytes(text)
    print(f"{len(message_set(fresh))} messages written to {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
