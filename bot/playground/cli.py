"""`uno-bot playground`: try the bot in a browser in ten seconds, with no Discord account, no
token and no network. Starts the playground, prints its address, opens the browser if there
is one, and stops cleanly on Ctrl-C."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
import webbrowser
from pathlib import Path

from bot.logs import setup_logging
from bot.playground.session import LOCALHOST, Playground, PlaygroundError
from bot.playground.world import MAX_USERS, MIN_USERS
from fake_discord.server import is_loopback

DEFAULT_PORT = 8765


def _users(raw: str) -> int:
    try:
        count = int(raw)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{raw!r} is not a number") from None
    if not MIN_USERS <= count <= MAX_USERS:
        raise argparse.ArgumentTypeError(f"choose {MIN_USERS} to {MAX_USERS} people")
    return count


def _port(raw: str) -> int:
    try:
        port = int(raw)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{raw!r} is not a port number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError("a port is 0 to 65535 (0: any free one)")
    return port


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="uno-bot playground",
        description=(
            "Try the UNO bot in your browser: the real bot plays against a stand-in for "
            "Discord on this computer. No Discord account, no token, no network."
        ),
    )
    p.add_argument(
        "--port",
        type=_port,
        default=None,
        help=f"the page's port (default {DEFAULT_PORT}, or a free one if that is taken)",
    )
    p.add_argument(
        "--host",
        default=LOCALHOST,
        help="the address to listen on (default 127.0.0.1: this computer only)",
    )
    p.add_argument(
        "--users",
        type=_users,
        default=3,
        help=f"how many local people to play as ({MIN_USERS} to {MAX_USERS}, default 3)",
    )
    p.add_argument(
        "--database",
        type=Path,
        default=None,
        help="keep the league in this SQLite file (default: a temporary one, gone at exit)",
    )
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")
    return p


def main(argv: list[str]) -> int:
    """Run the playground until Ctrl-C; the exit status."""
    try:
        args = parser().parse_args(argv)
    except SystemExit as exc:  # --help, or a bad argument (argparse said why)
        return exc.code if isinstance(exc.code, int) else 2
    setup_logging("WARNING")
    warning = exposure_warning(args.host)
    if warning is not None:
        print(warning, file=sys.stderr)
    try:
        asyncio.run(_serve(args))
    except PlaygroundError as exc:
        print(f"uno-bot playground: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


def exposure_warning(host: str) -> str | None:
    """What to say when the page is opened to more than this computer (None: it is not)."""
    if is_loopback(host):
        return None
    return (
        f"warning: listening on {host}: anyone who can reach this address can play as the "
        "playground's people. Use it only on a network you trust."
    )


async def _serve(args: argparse.Namespace) -> None:
    ports = [args.port] if args.port is not None else [DEFAULT_PORT, 0]
    playground: Playground | None = None
    for i, port in enumerate(ports):
        playground = Playground(users=args.users, database=args.database, host=args.host, port=port)
        try:
            await playground.start()
            break
        except PlaygroundError:
            if i == len(ports) - 1:
                raise
    assert playground is not None
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    signals = [signal.SIGINT, signal.SIGTERM]
    for sig in signals:
        with contextlib.suppress(NotImplementedError):  # not on Windows
            loop.add_signal_handler(sig, stopping.set)
    try:
        print(f"UNO playground: {playground.url}  (Ctrl-C to stop)", flush=True)
        if args.database is None:
            print("The league lives in a temporary database: use --database to keep it.")
        if not args.no_browser:
            await asyncio.to_thread(open_browser, playground.url)
        await stopping.wait()
        print("Stopping…", flush=True)
    finally:
        for sig in signals:
            with contextlib.suppress(NotImplementedError):
                loop.remove_signal_handler(sig)
        await playground.stop()


def open_browser(url: str) -> bool:
    """Open `url` in a graphical browser if this machine has one (a browser that would take
    over the terminal is left alone); whether one opened."""
    try:
        browser = webbrowser.get()
    except webbrowser.Error:
        return False
    if type(browser) is webbrowser.GenericBrowser:
        return False  # a console browser: it would fight the playground for the terminal
    if isinstance(browser, webbrowser.UnixBrowser) and not browser.background:
        return False
    try:
        return bool(browser.open(url, new=2))
    except OSError:
        return False
