"""The engine is layered: the round's state at the bottom, the rules over it, ``Game`` on top.

Read from the source: no import circle among the engine's modules, each floor (the ground,
the state, the rules, the game, what is above it) importing only its own and those below, so
nothing below ``game`` imports it, and no underscore name is imported from another file.
"""

from __future__ import annotations

import ast
from pathlib import Path

import bot.engine

ENGINE = Path(bot.engine.__file__).parent
RULES = ("deal", "turn", "penalties", "house_effects", "leaving", "legality", "stalemate", "teams")
# Each module's floor, lowest first (docs/architecture.md): a module imports only its own floor
# and those below. Above the game, anything goes but a circle.
FLOORS = (
    ("cards", "house", "rules", "phase", "errors", "action", "events"),
    ("state",),
    RULES,
    ("game",),
    (
        "__init__", "__main__", "match", "snapshot", "ai", "ai_memory", "ai_challenge", "ai_teams",
        "record", "review", "achievements", "playout", "scenario", "simulate",
    ),
)  # fmt: skip


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
                elif node.module == "bot.engine":
                    found += [(name, []) for name in names if (ENGINE / f"{name}.py").is_file()]
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


def test_each_floor_imports_only_its_own_and_those_below() -> None:
    graph = engine_imports()
    floor_of = {module: floor for floor, modules in enumerate(FLOORS) for module in modules}
    assert sorted(floor_of) == sorted(graph)  # a new module is given its floor here
    above = {
        (module, dep)
        for module, deps in graph.items()
        for dep, _ in deps
        if floor_of[dep] > floor_of[module]
    }
    assert above == set()


def test_no_underscore_name_crosses_a_file() -> None:
    crossing = [
        (module, dep, name)
        for module, deps in engine_imports().items()
        for dep, names in deps
        for name in names
        if name.startswith("_") and name != "__future__"
    ]
    assert crossing == []
