"""Starting and stopping the playground: the real bot on the fake Discord, the loopback
guard for the whole run, a temporary or kept database, clear start errors, and the command
line (`uno-bot playground`, `python -m bot playground`) with its clean stop on Ctrl-C."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import socket
import sys
import webbrowser
from pathlib import Path

import aiohttp
import pytest
from discord.http import Route

from bot.__main__ import main as bot_main
from bot.playground import Playground, PlaygroundError
from bot.playground.cli import exposure_warning, main, open_browser
from fake_discord import NonLoopbackConnection
from fake_discord.netguard import LoopbackOnly

DOCUMENTATION_ADDRESS = ("203.0.113.7", 443)  # TEST-NET-3: never a real host
DISCORD_BASE = Route.BASE


async def test_the_real_bot_runs_behind_the_loopback_guard() -> None:
    playground = Playground(users=4, bot_options={"rng": random.Random(1)})
    async with playground:
        assert playground.world is not None and playground.bot is not None
        assert [u.display_name for u in playground.world.users] == ["Alice", "Bob", "Carol", "Dave"]
        assert "uno" in playground.fake.commands[None]  # UnoBot synced its commands
        assert LoopbackOnly.active() and playground.fake.api_base == Route.BASE
        assert playground.url == f"http://127.0.0.1:{playground.port}/"
        async with (
            aiohttp.ClientSession() as http,
            http.get(playground.url + "api/state") as resp,
        ):
            assert resp.status == 200
        with (
            socket.socket() as sock,
            pytest.raises(NonLoopbackConnection, match=r"203\.0\.113\.7"),
        ):
            sock.connect(DOCUMENTATION_ADDRESS)
    assert not LoopbackOnly.active() and Route.BASE == DISCORD_BASE


async def test_the_world_is_the_same_on_every_run(tmp_path: Path) -> None:
    path = tmp_path / "kept" / "league.db"
    worlds = []
    for _ in range(2):
        async with Playground(users=2, database=path) as playground:
            assert playground.world is not None
            world = playground.world
            worlds.append((world.guild.id, world.channel.id, [u.id for u in world.users]))
        assert path.exists()  # kept: the league of one run is there on the next
    assert worlds[0] == worlds[1]


async def test_a_taken_port_is_a_clear_error_and_leaves_nothing_running() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        playground = Playground(users=2, port=port)
        with pytest.raises(PlaygroundError, match=f"cannot listen on 127.0.0.1:{port}"):
            await playground.start()
    assert not LoopbackOnly.active() and Route.BASE == DISCORD_BASE
    await playground.stop()  # stopping again is harmless


def test_command_line_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    assert "--database" in capsys.readouterr().out
    assert main(["--users", "9"]) == 2
    assert "choose 2 to 4 people" in capsys.readouterr().err
    assert main(["--port", "70000"]) == 2
    # `python -m bot playground` goes to the playground before any token is needed.
    assert bot_main(["playground", "--users", "x"]) == 2
    assert "'x' is not a number" in capsys.readouterr().err


def test_opening_the_network_is_warned_about() -> None:
    assert exposure_warning("127.0.0.1") is None
    assert exposure_warning("localhost") is None
    warning = exposure_warning("0.0.0.0")
    assert warning is not None and "anyone who can reach this address" in warning


def test_a_browser_opens_only_if_it_would_not_take_the_terminal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    opened: list[str] = []

    class Window(webbrowser.BackgroundBrowser):
        def open(self, url: str, new: int = 0, autoraise: bool = True) -> bool:
            opened.append(url)
            return True

    monkeypatch.setattr(webbrowser, "get", lambda: Window("firefox"))
    assert open_browser("http://127.0.0.1:1/") and opened == ["http://127.0.0.1:1/"]
    monkeypatch.setattr(webbrowser, "get", lambda: webbrowser.GenericBrowser("lynx"))
    assert not open_browser("http://127.0.0.1:1/")

    def none() -> webbrowser.BaseBrowser:
        raise webbrowser.Error("could not locate runnable browser")

    monkeypatch.setattr(webbrowser, "get", none)
    assert not open_browser("http://127.0.0.1:1/")
    assert opened == ["http://127.0.0.1:1/"]


async def test_the_command_runs_and_stops_cleanly_on_ctrl_c(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "playground",
        "--port",
        "0",
        "--no-browser",
        "--users",
        "2",
        "--database",
        str(tmp_path / "uno.db"),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=env,
        cwd=tmp_path,
    )
    try:
        assert process.stdout is not None
        line = (await asyncio.wait_for(process.stdout.readline(), 60)).decode()
        assert line.startswith("UNO playground: http://127.0.0.1:"), line
        url = line.split()[2]
        async with (
            aiohttp.ClientSession() as http,
            http.get(url + "api/state") as resp,
        ):
            assert resp.status == 200
            assert [u["name"] for u in (await resp.json())["users"]] == ["Alice", "Bob"]
        process.send_signal(signal.SIGINT)
        out, err = await asyncio.wait_for(process.communicate(), 30)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.returncode == 0, err.decode()
    assert "Stopping" in out.decode()
    assert "Traceback" not in err.decode()
    assert (tmp_path / "uno.db").exists()
