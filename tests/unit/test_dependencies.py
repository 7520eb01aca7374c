"""Issue 30: every third-party module taugen imports is a dependency pyproject.toml declares, and
each runtime dependency has a lower bound (tested: `.ci/lowest` runs the suite with every one of
them pinned to it) and a major-version upper bound (`>=X.Y,<N`)."""

from __future__ import annotations

import ast
import sys
import tomllib
from collections.abc import Iterable
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from tests.conftest import REPO

PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
RUNTIME = [Requirement(text) for text in PROJECT["dependencies"]]
TEST_EXTRA = [Requirement(text) for text in PROJECT["optional-dependencies"]["test"]]
SERVER_EXTRA = [Requirement(text) for text in PROJECT["optional-dependencies"]["server"]]
SERVER_MODULE = "taugen/validate/server.py"  # the one module that imports the `server` extra
OWN = {"taugen", "tests", "benchmarks"}  # this repository's own top-level packages


def imported(folder: Path) -> dict[str, list[str]]:
    """Top-level module -> the files that import it: every absolute `import` statement under
    `folder` (in functions too), the standard library and this repository's packages aside."""
    found: dict[str, set[str]] = {}
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for top in {name.partition(".")[0] for name in names}:
                if top not in sys.stdlib_module_names and top not in OWN and top != "__future__":
                    found.setdefault(top, set()).add(path.relative_to(REPO).as_posix())
    return {module: sorted(files) for module, files in sorted(found.items())}


def undeclared(modules: dict[str, list[str]], declared: Iterable[Requirement]) -> dict[str, list[str]]:
    """Each module no declared distribution provides -> the files that import it (and the
    distributions that do provide it, or that none installed does)."""
    names = {canonicalize_name(req.name) for req in declared}
    providers = packages_distributions()
    missing: dict[str, list[str]] = {}
    for module, files in modules.items():
        dists = {canonicalize_name(d) for d in providers.get(module, [])}
        if not dists & names:
            missing[module] = [
                *files,
                f"provided by: {', '.join(sorted(dists)) or 'no installed distribution'}",
            ]
    return missing


def test_the_scan_sees_imports_at_the_top_and_in_functions() -> None:
    modules = imported(REPO / "taugen")
    assert {"click", "pydantic_core", "re2", "referencing"} <= set(modules)
    assert modules["lark"] == ["taugen/validate/cel.py"]  # imported inside a function there
    assert not {"json", "re", "taugen", "__future__"} & set(modules)


def test_taugen_imports_only_distributions_it_declares() -> None:
    modules = imported(REPO / "taugen")
    assert undeclared(modules, [*RUNTIME, *SERVER_EXTRA]) == {}
    # the `server` extra (validate --server) is imported by its module alone, inside functions
    beyond = undeclared(modules, RUNTIME)
    assert set(beyond) == {"kubernetes", "urllib3"}
    assert {module: files[:-1] for module, files in beyond.items()} == {
        "kubernetes": [SERVER_MODULE],
        "urllib3": [SERVER_MODULE],
    }


def test_the_tests_import_only_runtime_or_test_extra_distributions() -> None:
    assert undeclared(imported(REPO / "tests"), [*RUNTIME, *TEST_EXTRA]) == {}
    assert undeclared(imported(REPO / "benchmarks"), RUNTIME) == {}


def test_an_undeclared_import_is_found() -> None:
    assert undeclared({"lark": ["x.py"]}, [r for r in RUNTIME if r.name != "lark"]) == {
        "lark": ["x.py", "provided by: lark"]
    }


def bound_problems(req: Requirement) -> list[str]:
    """What is wrong with a runtime requirement's bounds: it must be exactly `>=X.Y,<N`, N a
    major version above X."""
    lower = [Version(s.version) for s in req.specifier if s.operator == ">="]
    upper = [Version(s.version) for s in req.specifier if s.operator == "<"]
    problems = []
    if len(lower) != 1:
        problems.append("needs one lower bound `>=`")
    if len(upper) != 1 or len(upper[0].release) != 1:
        problems.append("needs one major-version upper bound `<N`")
    elif lower and upper[0].major <= lower[0].major:
        problems.append(f"upper bound {upper[0]} is not above the lower bound's major version")
    if len(req.specifier) != len(lower) + len(upper):
        problems.append("has specifiers other than `>=` and `<`")
    return problems


def test_each_runtime_dependency_has_a_lower_and_a_major_upper_bound() -> None:
    assert {req.name: bound_problems(req) for req in [*RUNTIME, *SERVER_EXTRA] if bound_problems(req)} == {}


@pytest.mark.parametrize(
    ("text", "problems"),
    [
        ("lark>=1.2.2,<2", []),
        ("ruamel.yaml>=0.18.6,<1", []),
        ("lark>=1.2", ["needs one major-version upper bound `<N`"]),
        ("lark<2", ["needs one lower bound `>=`"]),
        ("lark>=1.2,<1.5", ["needs one major-version upper bound `<N`"]),
        ("lark>=2.1,<2", ["upper bound 2 is not above the lower bound's major version"]),
        ("lark>=1.2,<2,!=1.3", ["has specifiers other than `>=` and `<`"]),
    ],
)
def test_bounds_are_read_as_meant(text: str, problems: list[str]) -> None:
    assert bound_problems(Requirement(text)) == problems


def test_the_lowest_bounds_script_is_there_and_executable() -> None:
    script = REPO / ".ci" / "lowest"
    assert script.is_file() and script.stat().st_mode & 0o111
    assert "pyproject.toml" in script.read_text() and "pytest" in script.read_text()
