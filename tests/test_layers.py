"""The layers only call downward: the pure engine and renderer import no Discord, no database
and no cogs, and the engine no languages; the tables import no Discord; the client imports no
cogs."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

PROBE = """
import importlib, json, pkgutil, sys
for package in {packages!r}:
    module = importlib.import_module(package)
    for info in pkgutil.walk_packages(getattr(module, "__path__", []), package + "."):
        if not info.name.endswith("__main__"):
            importlib.import_module(info.name)
print(json.dumps(sorted(sys.modules)))
"""


def modules_loaded_by(*packages: str) -> set[str]:
    """The modules loaded by importing ``packages`` and all their modules afresh."""
    code = PROBE.format(packages=list(packages))
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    return set(json.loads(out.stdout))


def imported_by(*packages: str) -> set[str]:
    """The top-level packages loaded by importing ``packages`` and all their modules afresh."""
    return {name.split(".")[0] for name in modules_loaded_by(*packages)}


@pytest.mark.parametrize("package", ["bot.engine", "bot.render"])
def test_engine_and_renderer_stay_pure(package: str) -> None:
    assert imported_by(package) & {"discord", "aiosqlite", "asyncpg", "cogs", "aiohttp"} == set()


def test_the_engine_holds_no_language() -> None:
    """The engine names its refusals by key: it loads neither Babel nor the bot's languages."""
    loaded = modules_loaded_by("bot.engine")
    assert "babel" not in {name.split(".")[0] for name in loaded}
    assert not {name for name in loaded if name == "bot.i18n" or name.startswith("bot.i18n.")}


def test_tables_know_no_discord_and_the_client_no_cogs() -> None:
    assert imported_by("bot.tables") & {"discord", "cogs"} == set()
    assert "cogs" not in imported_by("bot.client", "bot.config")
