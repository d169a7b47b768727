"""The engine is layered: the round's state at the bottom, the rules over it, ``Game`` on top.

Read from the source: no import circle among the engine's modules, no rule module imports
``game``, and no underscore name is imported from another file.
"""

from __future__ import annotations

import ast
from pathlib import Path

import bot.engine

ENGINE = Path(bot.engine.__file__).parent
RULES = ("deal", "turn", "penalties", "house_effects", "leaving", "legality", "stalemate")


def engine_imports() -> dict[str, list[tuple[str, list[str]]]]:
    """Each engine module's imports of other engine modules, with the names it takes."""
    graph: dict[str, list[tuple[str, list[str]]]] = {}
    for path in sorted(ENGINE.glob("*.py")):
        found: list[tuple[str, list[str]]] = []
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                names = [alias.name for alias in node.names]
                if node.level == 1 and node.module:
                    found.append((node.module, names))
                elif node.level == 1:
                    found += [(name, []) for name in names]
                elif node.module and node.module.startswith("bot.engine."):
                    found.append((node.module.removeprefix("bot.engine."), names))
            elif isinstance(node, ast.Import):
                found += [
                    (alias.name.removeprefix("bot.engine."), [])
                    for alias in node.names
                    if alias.name.startswith("bot.engine.")
                ]
        graph[path.stem] = found
    return graph


def test_no_import_circle_in_the_engine() -> None:
    graph = {m: {dep for dep, _ in deps} for m, deps in engine_imports().items()}
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, " -> ".join((*path, module))
        if module in done:
            return
        for dep in graph.get(module, ()):
            visit(dep, (*path, module))
        done.add(module)

    for module in graph:
        visit(module, ())


def test_the_rules_never_import_the_game() -> None:
    graph = engine_imports()
    for module in RULES:
        assert "game" not in {dep for dep, _ in graph[module]}, module
    assert {dep for dep, _ in graph["state"]} <= {"cards", "errors", "events", "house", "phase"}
    assert graph["events"] == []  # the events are the ground floor: they import no rule


def test_no_underscore_name_crosses_a_file() -> None:
    crossing = [
        (module, dep, name)
        for module, deps in engine_imports().items()
        for dep, names in deps
        for name in names
        if name.startswith("_") and name != "__future__"
    ]
    assert crossing == []
