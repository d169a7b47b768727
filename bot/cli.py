"""`python -m bot [COMMAND]`: run the bot, migrate, copy-db or backup its database, or ask
the running bot whether it is healthy."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import sys
from collections.abc import Sequence
from typing import NoReturn

from dotenv import load_dotenv

from bot.config import ConfigError, Settings
from bot.logs import setup_logging
from bot.runner import StartError, serve
from bot.storage import StorageError, is_postgres_url, open_storage

log = logging.getLogger(__name__)


class _Parser(argparse.ArgumentParser):
    """argparse that reports a bad command line in one line."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"uno-bot: {message} (see python -m bot --help)\n")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="python -m bot",
        description="An UNO bot for Discord. With no command it runs the bot.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.add_parser(
        "playground",
        help="try the bot in a browser against a local Discord stand-in (no token, no network)",
        add_help=False,
    )
    commands.add_parser(
        "migrate",
        help="bring the database (DATABASE_URL, else DATABASE_PATH) to the latest schema",
        description="Apply the database migrations without starting the bot.",
    )
    copy = commands.add_parser(
        "copy-db",
        help="copy a SQLite league and its live tables into an empty PostgreSQL database",
        description="Copy everything from a SQLite file into an empty PostgreSQL database.",
    )
    copy.add_argument("sqlite_path", metavar="SQLITE_PATH")
    copy.add_argument("postgres_url", metavar="POSTGRES_URL", help="postgresql://...")
    backup = commands.add_parser(
        "backup",
        help="write a consistent copy of the SQLite database (DATABASE_PATH) to FILE",
        description="Copy the SQLite database with SQLite's online backup API, even while the "
        "bot runs. For PostgreSQL, use pg_dump.",
    )
    backup.add_argument("file", metavar="FILE")
    commands.add_parser(
        "healthcheck",
        help="ask the running bot's /healthz (METRICS_PORT) whether it is healthy: exit 0 or 1",
        description="For a container's health check: GET http://127.0.0.1:METRICS_PORT/healthz.",
    )
    return parser


def main(argv: Sequence[str] | None = None, *, load_env: bool = True) -> int:
    """Parse the command line and run it; the process exit status."""
    words = list(sys.argv[1:] if argv is None else argv)
    if words[:1] == ["playground"]:
        # The playground has its own options and needs no token, database or network.
        from bot.playground import main as playground

        return playground(words[1:])
    args = _parser().parse_args(words)
    if load_env:
        load_dotenv()
    try:
        if args.command is None:
            return _run_bot()
        logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
        if args.command == "migrate":
            return asyncio.run(_migrate())
        if args.command == "copy-db":
            return asyncio.run(_copy(args.sqlite_path, args.postgres_url))
        if args.command == "healthcheck":
            return _healthcheck()
        return _backup(args.file)
    except ConfigError as error:
        print(f"uno-bot: {error}", file=sys.stderr)
        return 2
    except StorageError as error:
        print(f"uno-bot: {error}", file=sys.stderr)
        return 1


def _run_bot() -> int:
    """Read the settings, set up logging, open storage and run the bot until stopped."""
    settings = Settings.from_env()
    secrets = [settings.token, settings.database_url or "", settings.database_lease_url or ""]
    setup_logging(
        settings.log_level,
        secrets=[str(s) for s in secrets if s],
        json_lines=settings.log_format == "json",
    )
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(_serve(settings))
    except StartError as error:
        print(f"uno-bot: {error}", file=sys.stderr)
        return 1
    return 0


async def _serve(settings: Settings) -> None:
    storage = await open_storage(settings)
    try:
        await serve(settings, storage)
    finally:
        await storage.close()


async def _migrate() -> int:
    settings = Settings.from_env(require_token=False)
    storage = await open_storage(settings)
    try:
        version = await storage.schema_version()
    finally:
        await storage.close()
    print(f"uno-bot: the {storage.backend} database {storage.target} is at schema {version}")
    return 0


async def _copy(sqlite_path: str, url: str) -> int:
    from bot.storage.postgres.schema import redact
    from bot.storage.transfer import copy_database

    if not is_postgres_url(url):
        print(f"uno-bot: {url} is not a postgresql:// URL", file=sys.stderr)
        return 2
    copied = await copy_database(sqlite_path, url)
    print(
        f"uno-bot: copied {copied['matches']} matches, {copied['standings']} standings rows and "
        f"{copied['live_tables']} live tables from {sqlite_path} to {redact(url)}"
    )
    return 0


def _healthcheck() -> int:
    import urllib.error
    import urllib.request

    settings = Settings.from_env(require_token=False)
    if settings.metrics_port is None:
        print("uno-bot: METRICS_PORT is not set, so the bot serves no /healthz", file=sys.stderr)
        return 1
    url = f"http://127.0.0.1:{settings.metrics_port}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            print(f"uno-bot: healthy: {answer.read().decode()}")
            return 0
    except urllib.error.HTTPError as error:
        print(f"uno-bot: unhealthy: {error.read().decode()}", file=sys.stderr)
    except OSError as error:
        print(f"uno-bot: the bot does not answer at {url}: {error}", file=sys.stderr)
    return 1


def _backup(file: str) -> int:
    from bot.storage.sqlite.backup import backup

    settings = Settings.from_env(require_token=False)
    if settings.database_url:
        print(
            "uno-bot: this bot stores its data in PostgreSQL (DATABASE_URL); back it up with "
            'pg_dump, e.g. pg_dump --format=custom --file=uno.dump "$DATABASE_URL"',
            file=sys.stderr,
        )
        return 1
    size = backup(settings.database_path, file)
    print(f"uno-bot: backed up {settings.database_path} to {file} ({size} bytes)")
    return 0
