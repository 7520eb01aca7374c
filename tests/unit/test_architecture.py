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
    """STYLE.md, issue 33: a reader who opens the package sees the pipeline, the engines, the
    schedulers and the commands in its folder names, at most 20 entries, no loose module."""
    entries = sorted(p.name for p in PACKAGE.iterdir() if p.name != "__pycache__")
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    pipeline = {"load", "resolve", "compile", "emit", "write", "lock", "validate"}
    assert (
        pipeline | {"cli", "commands", "engines", "schedulers", "context", "core", "api", "models"} <= folders
    )
    assert sorted(p.name for p in PACKAGE.glob("*.py")) == ["__init__.py", "__main__.py"]
    assert len(entries) <= 20, entries
    engines = {p.name for p in (PACKAGE / "engines").iterdir() if (p / "__init__.py").exists()}
    assert engines == {"admission", "changes", "placement", "runs"}


def _public_classes() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in SOURCES:
        for node in ast.parse(path.read_text(), str(path)).body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                found.setdefault(node.name, []).append(path.relative_to(PACKAGE).as_posix())
    return found


def test_no_two_public_classes_share_a_name() -> None:
    """Issue 33: a class name says which one it is, wherever it is imported."""
    assert {name: homes for name, homes in _public_classes().items() if len(homes) > 1} == {}


def test_the_class_check_sees_every_module() -> None:
    found = _public_classes()
    assert found["ProjectContext"] == ["context/session.py"]
    assert len(found) > 300


def test_a_new_scheduler_is_five_files_in_its_package_and_one_registry_line() -> None:
    """Issue 33: docs/development.md lists what a scheduler adds; every listed file is in one
    package but the registry's line, and a scheduler's package holds no other product file it
    would need (the fake scheduler of test_fake_scheduler.py builds a tree from these parts)."""
    text = (PACKAGE.parent / "docs" / "development.md").read_text()
    block = text.split("### Adding a scheduler", 1)[1].split("```text", 1)[1].split("```", 1)[0]
    listed = [line.split()[0] for line in block.splitlines() if line.startswith("taugen/")]
    in_package = [p for p in listed if p.startswith("taugen/schedulers/<name>/")]
    assert listed == [*in_package, "taugen/schedulers/registry.py"]
    assert len(in_package) <= 5
    for name in ("kueue", "kai"):  # the listed files are the ones every scheduler has
        for path in in_package:
            assert (PACKAGE.parent / path.replace("<name>", name)).is_file(), path
