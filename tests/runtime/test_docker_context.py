"""The Docker image holds every package the bot imports, the playground's stand-in Discord
included (``python -m bot playground`` must run in the container)."""

from __future__ import annotations

import ast
import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def copied_into_image() -> set[str]:
    """The repository paths the Dockerfile copies (the sources of its COPY lines)."""
    copied: set[str] = set()
    for line in (ROOT / "Dockerfile").read_text(encoding="utf-8").splitlines():
        words = line.split()
        if words and words[0] == "COPY" and not any(w.startswith("--from") for w in words):
            copied.update(word.rstrip("/") for word in words[1:-1])
    return copied


def first_party_imports(package: str) -> set[str]:
    """The repository's own top-level packages that ``package`` imports anywhere."""
    own = {p.name for p in ROOT.iterdir() if (p / "__init__.py").is_file()}
    found: set[str] = set()
    for source in (ROOT / package).rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module.split(".")[0])
    return found & own


def test_the_image_copies_every_package_the_bot_and_playground_import() -> None:
    needed = {"bot"} | first_party_imports("bot") | first_party_imports("cogs")
    assert "fake_discord" in needed  # the playground runs the bot against it
    assert needed <= copied_into_image()
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    assert not [p for p in needed for rule in ignored if fnmatch.fnmatch(p, rule)]


def test_the_image_installs_what_it_copies() -> None:
    """pip install . inside the image packages only what pyproject lists."""
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    for package in copied_into_image() & {"bot", "cogs", "fake_discord"}:
        assert f'"{package}*"' in pyproject
