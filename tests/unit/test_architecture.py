"""Issue 18: the import rules that import-linter cannot say — no private name crosses a module,
click stays in the CLI — checked on taugen's own source (`lint-imports` checks the layers)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "taugen"
SOURCES = sorted(PACKAGE.rglob("*.py"))


def _imports(path: Path) -> list[tuple[int, str, str]]:
    tree = ast.parse(path.read_text(), str(path))
    return [
        (node.lineno, node.module, alias.name)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("taugen")
        for alias in node.names
    ]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_no_private_name_is_imported_across_modules(path: Path) -> None:
    private = [
        f"{line}: {module}.{name}"
        for line, module, name in _imports(path)
        if name.startswith("_") and not name.startswith("__")
    ]
    assert private == [], "a helper used from two modules is public and documented (STYLE.md)"


def test_the_layout_shows_the_pipeline() -> None:
    """STYLE.md: a reader who opens the package sees the stages in its folder names."""
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    stages = {"load", "resolve", "compile", "emit", "write", "commands", "context", "api", "models"}
    assert stages | {"cli"} <= folders
    loose = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert loose == [
        "__init__.py",
        "__main__.py",
        "choices.py",
        "errors.py",
        "gcpause.py",
        "jsontext.py",
        "names.py",
        "placeholders.py",  # issue 32: templates filled in one pass (report, init)
        "progress.py",
        "quantity.py",
        "repository.py",  # issue 32: the Git repository a project lies in (cli, completion, write)
        "suggest.py",
        "timestamps.py",
    ]
