"""The layers only call downward: the pure engine and renderer import no Discord, no database
and no cogs, and neither loads the languages; the tables import no Discord; the client imports no
cogs (the runner hands it the cogs' command tree); and no module anywhere is part of an import
circle."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

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


@pytest.mark.parametrize("package", ["bot.engine", "bot.render"])
def test_the_engine_and_renderer_hold_no_language(package: str) -> None:
    """The engine names its refusals by key and the renderer marks its words with ``bot.markers``:
    neither loads Babel nor the bot's languages."""
    loaded = modules_loaded_by(package)
    assert "babel" not in {name.split(".")[0] for name in loaded}
    assert not {name for name in loaded if name == "bot.i18n" or name.startswith("bot.i18n.")}


def test_tables_know_no_discord_and_the_client_no_cogs() -> None:
    assert imported_by("bot.tables") & {"discord", "cogs"} == set()
    assert "cogs" not in imported_by("bot.client", "bot.config")


def test_the_client_names_the_cogs_extensions_only() -> None:
    """The runner hands the client its command tree: the client's one mention of the cogs is
    the extensions it loads by name (no ``"cogs.errors:UnoTree"`` looked up from a string)."""
    from bot.client import EXTENSIONS

    tree = ast.parse((ROOT / "bot" / "client.py").read_text())
    named = {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        if node.value.startswith("cogs")
    }
    assert named == set(EXTENSIONS)


PACKAGES = ("bot", "cogs", "card_art", "fake_discord")
ROOT = Path(__file__).resolve().parents[1]


def project_imports() -> dict[str, set[str]]:
    """Each project module's imports of other project modules, read from the source: every
    import counts, at the top, inside a function or under TYPE_CHECKING."""
    paths: dict[str, Path] = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            paths[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path

    def known(name: str) -> str | None:
        while name and name not in paths:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for module, path in paths.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join([*up, base] if base else up)
                names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
            for name in names:
                target = known(name)
                # A package's own modules are below it; importing the package itself is not a
                # step back up.
                if target is not None and target != module and not module.startswith(target + "."):
                    found.add(target)
        graph[module] = found
    return graph


def test_no_import_circle_anywhere() -> None:
    """A module never needs, even for a type, one that needs it: each layer only looks down."""
    graph = project_imports()
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, " -> ".join((*path[path.index(module) :], module))
        if module in done:
            return
        for dep in sorted(graph[module]):
            visit(dep, (*path, module))
        done.add(module)

    for module in sorted(graph):
        visit(module, ())


def test_no_test_imports_another_test_file() -> None:
    """Shared test code lives in fixtures (conftest.py) or a helpers.py, never in a test file;
    a conftest's fixtures reach tests by name, so nothing imports a conftest either."""
    tests = {path.stem for path in (ROOT / "tests").rglob("test_*.py")} | {"conftest"}
    for path in (ROOT / "tests").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
                ours = node.level > 0 or base.split(".")[0] in ("tests", *tests)
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
                ours = any(name.split(".")[0] in ("tests", *tests) for name in names)
            else:
                continue
            for name in names:
                # tests.x.test_y, .test_y, or test_y itself (a test folder is on sys.path)
                assert not (ours and name.rpartition(".")[2] in tests), f"{path}: {name}"
