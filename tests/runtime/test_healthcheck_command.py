"""`python -m bot healthcheck`: exit 0 while the bot's /healthz says healthy, 1 with one line
otherwise (a container's HEALTHCHECK runs it)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator

import pytest

from bot.cli import main
from bot.scale.ops import OpsServer


@pytest.fixture
def serving() -> Iterator[tuple[OpsServer, dict[str, bool]]]:
    """An ops server on a thread of its own, whose gateway probe the test flips."""
    state = {"gateway": True}
    ready = threading.Event()
    loop = asyncio.new_event_loop()

    async def storage() -> int:
        return 4

    server = OpsServer(lambda: state["gateway"], storage)

    def run() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(server.start(0, "127.0.0.1"))
        ready.set()
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(10)
    yield server, state
    asyncio.run_coroutine_threadsafe(server.close(), loop).result(10)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(10)
    loop.close()


def test_healthy_then_unhealthy(
    serving: tuple[OpsServer, dict[str, bool]],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    server, state = serving
    monkeypatch.setenv("METRICS_PORT", str(server.port))
    assert main(["healthcheck"], load_env=False) == 0
    assert capsys.readouterr().out == 'uno-bot: healthy: {"gateway": true, "storage": true}\n'
    state["gateway"] = False
    assert main(["healthcheck"], load_env=False) == 1
    assert capsys.readouterr().err == ('uno-bot: unhealthy: {"gateway": false, "storage": true}\n')


def test_without_a_metrics_port_it_says_there_is_nothing_to_ask(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("METRICS_PORT", raising=False)
    assert main(["healthcheck"], load_env=False) == 1
    assert "METRICS_PORT is not set" in capsys.readouterr().err
