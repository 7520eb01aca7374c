"""The invalid-input corpus (STYLE.md "A case corpus"): one generated test per case folder.

Each `tests/cases/invalid/<case>/` holds the inputs of one project and an `expected.yaml`
naming exactly the problems `taugen build` must report, as (file, line, col, rule). A build
of an invalid project exits 2, prints every problem with its position and a hint, never a
traceback, and leaves a pre-existing output tree and lock exactly as they were (SPEC §4, §6).
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import Run
from tests.support.helpers import snapshot

CASES = Path(__file__).resolve().parent.parent / "cases" / "invalid"
NAMES = sorted(p.name for p in CASES.iterdir() if p.is_dir())
MIN_CASES = 30

# `path:line:col: error: message [rule]` (Problem.render); a hint line follows each one.
ERROR = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): error: .* \[(?P<rule>[^\]]+)\]$")
ANY_ERROR = re.compile(r"(^|: )error: ")
HINT = "  hint: "

# A stand-in for the committed lock: it must be valid, or its own error would hide the case's.
EMPTY_LOCK = {"apiVersion": "taugen.tau.azure.com/v1alpha1", "clusters": {}, "kind": "Lock"}
CLUSTER_NAME = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
FALLBACK_CLUSTER = "sentinel-cluster"

Found = tuple[str, int, int, str]


@dataclass(frozen=True)
class Case:
    description: str
    args: tuple[str, ...]
    problems: list[Found]  # sorted


def _load_case(folder: Path) -> Case:
    data = yaml.safe_load((folder / "expected.yaml").read_text())
    assert isinstance(data, dict), f"{folder.name}: expected.yaml is not a mapping"
    assert set(data) <= {"description", "args", "problems"}, f"{folder.name}: unknown keys in expected.yaml"
    assert isinstance(data.get("description"), str) and data["description"], f"{folder.name}: no description"
    problems = [_expected_problem(folder, p) for p in data.get("problems") or []]
    assert problems, f"{folder.name}: expected.yaml lists no problems"
    args = data.get("args", [])
    assert isinstance(args, list) and all(isinstance(a, str) for a in args), f"{folder.name}: bad args"
    return Case(data["description"], tuple(args), sorted(problems))


def _expected_problem(folder: Path, entry: Any) -> Found:
    assert isinstance(entry, dict) and set(entry) == {"file", "line", "col", "rule"}, entry
    assert (folder / entry["file"]).is_file(), f"{folder.name}: {entry['file']} is not in the case"
    assert entry["line"] >= 1 and entry["col"] >= 1, entry
    return (str(entry["file"]), int(entry["line"]), int(entry["col"]), str(entry["rule"]))


def _seed_outputs(project: Path) -> None:
    """What a previous good build left: out/<cluster>/ for every cluster, and a lock."""
    output, clusters = _project_outputs(project / "taugen.yaml")
    for name in clusters:
        folder = project / output / name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "sentinel.yaml").write_text(f"# {name}: written by an earlier build\nkind: ConfigMap\n")
    lock = project / "taugen.lock"
    if not lock.exists():
        lock.write_text(json.dumps(EMPTY_LOCK, indent=2, sort_keys=True) + "\n")


def _project_outputs(project_file: Path) -> tuple[str, list[str]]:
    """The output root and cluster names the project declares, as far as it can be read."""
    try:
        data = yaml.safe_load(project_file.read_bytes())
    except yaml.YAMLError:  # the case's own YAML error: seed a fixed tree instead
        data = None
    if not isinstance(data, dict):
        return "out", [FALLBACK_CLUSTER]
    output = data.get("output", "out")
    if not isinstance(output, str) or not output or ".." in Path(output).parts or Path(output).is_absolute():
        output = "out"
    clusters = data.get("clusters")
    names = [
        c["name"]
        for c in clusters or []
        if isinstance(clusters, list) and isinstance(c, dict) and CLUSTER_NAME.match(str(c.get("name", "")))
    ]
    return output, sorted(set(names)) or [FALLBACK_CLUSTER]


def _reported(output: str) -> list[Found]:
    """Every positioned error in the output; fails on an error without a position or a hint."""
    lines = output.splitlines()
    found: list[Found] = []
    for index, line in enumerate(lines):
        if line.startswith(HINT) or not ANY_ERROR.search(line):
            continue
        match = ERROR.match(line)
        assert match, f"an error without file:line:col or [rule]: {line!r}"
        following = lines[index + 1] if index + 1 < len(lines) else ""
        assert following.startswith(HINT) and following[len(HINT) :].strip(), f"no hint after: {line!r}"
        found.append((match["file"], int(match["line"]), int(match["col"]), match["rule"]))
    return sorted(found)


def test_the_corpus_is_not_empty() -> None:
    # A glob that matches nothing would make every generated test vanish silently (STYLE.md).
    assert len(NAMES) >= MIN_CASES, NAMES
    assert all((CASES / name / "expected.yaml").is_file() for name in NAMES)


@pytest.mark.parametrize("name", NAMES, ids=NAMES)
def test_invalid_case(name: str, tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    case = _load_case(CASES / name)
    project = tmp_path / "project"
    shutil.copytree(CASES / name, project, ignore=shutil.ignore_patterns("expected.yaml"))
    _seed_outputs(project)
    before = snapshot(tmp_path)
    monkeypatch.chdir(project)  # the CLI prints paths relative to the working directory

    result = run("build", "-c", project / "taugen.yaml", *case.args)

    assert "Traceback" not in result.output, result.output
    assert result.exit_code == 2, result.output
    assert _reported(result.output) == case.problems, f"{case.description}\n{result.output}"
    assert snapshot(tmp_path) == before, "a failed build changed files"
