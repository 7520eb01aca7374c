"""Issue 17 item 9: out/ is read as YAML 1.2 with core tags only, by check, diff and simulate.

PyYAML read a tree by YAML 1.1's rules: an unquoted `yes` was True, `2026-11-29` a date, and
`!!binary` built bytes. A tree comes from the pull request; it is read as the inputs are
(load/compiled.py), and a tag beyond the core schema is refused with its position.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from taugen.context.catalog import read_catalog
from taugen.context.tree import CompiledTree
from taugen.core.errors import InputError
from tests.conftest import Run
from tests.support.helpers import gpu_node, inventory, rules, write_project

NODES = "c1/nodes/h200-141gb/nodes.yaml"
LABELS = {"pool.example.com/spot": "yes", "pool.example.com/day": "2026-11-29", "pool.example.com/y": "y"}
PLAIN = {"spot: 'yes'": "spot: yes", "day: '2026-11-29'": "day: 2026-11-29", "/y: 'y'": "/y: y"}
BINARY = {"spot: 'yes'": "spot: !!binary eWVz"}  # b"yes"
BINARY_PROBLEM = "tag !!binary is not allowed: taugen reads plain data, never objects [yaml]"


def _built(tmp_path: Path, run: Run) -> Path:
    project = write_project(
        tmp_path, inventory([gpu_node("h-0")]), rules((["Standard_ND96isr_H200_v5"], LABELS))
    )
    assert run("build", "-c", project).exit_code == 0
    shutil.copytree(tmp_path / "out", tmp_path / "base")
    return project


def _edit(tmp_path: Path, replacements: dict[str, str]) -> Path:
    path = tmp_path / "out" / NODES
    text = path.read_text()
    for old, new in replacements.items():
        assert old in text, text
        text = text.replace(old, new)
    path.write_text(text)
    return path


def test_check_reads_unquoted_scalars_as_yaml_1_2(tmp_path: Path, run: Run) -> None:
    project = _built(tmp_path, run)
    path = _edit(tmp_path, PLAIN)
    result = run("build", "-c", project, "--check")
    assert (result.exit_code, result.stdout) == (
        1,
        f"{path.relative_to(tmp_path)}: same objects, different text (comments or formatting)\n",
    )


def test_check_reports_a_binary_scalar_as_a_differing_file(tmp_path: Path, run: Run) -> None:
    project = _built(tmp_path, run)
    path = _edit(tmp_path, BINARY)
    result = run("build", "-c", project, "--check")
    assert (result.exit_code, result.stdout) == (
        1,
        f"{path.relative_to(tmp_path)}: differs from what taugen writes\n",
    )
    assert "Traceback" not in result.output


def test_diff_sees_no_change_in_unquoted_scalars(
    tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    _built(tmp_path, run)
    _edit(tmp_path, PLAIN)
    monkeypatch.chdir(tmp_path)
    result = run("diff", "base", "out")
    assert (result.exit_code, result.stdout) == (
        0,
        "Plan: 0 to add, 0 to change, 0 to remove — 0 risky   (base → out)\nNo changes.\n",
    )


def test_diff_refuses_a_binary_scalar_with_its_position(
    tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    _built(tmp_path, run)
    _edit(tmp_path, BINARY)
    monkeypatch.chdir(tmp_path)
    result = run("diff", "base", "out")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"out/{NODES}:11:28: error: {BINARY_PROBLEM}\n  hint: remove the tag\n"


def test_simulate_reads_a_trees_node_labels_as_yaml_1_2(tmp_path: Path, run: Run) -> None:
    _built(tmp_path, run)
    _edit(tmp_path, PLAIN)
    labels = CompiledTree.read(tmp_path / "out" / "c1").node_labels()
    assert labels is not None
    assert {k: v for k, v in labels["h-0"].items() if k.startswith("pool.")} == LABELS
    path = _edit(tmp_path, {"spot: yes": "spot: !!binary eWVz"})
    with pytest.raises(InputError) as err:
        CompiledTree.read(tmp_path / "out" / "c1").node_labels()
    assert [p.render() for p in err.value.problems] == [
        f"{path}:11:28: error: {BINARY_PROBLEM}\n  hint: remove the tag"
    ]


def test_the_catalog_is_read_as_yaml_1_2(tmp_path: Path, run: Run) -> None:
    """`ready: no` was False to PyYAML; to YAML 1.2 it is the string "no", not a boolean."""
    _built(tmp_path, run)
    path = tmp_path / "out" / "c1" / "profile-catalog.yaml"
    path.write_text(path.read_text().replace("      ready: false\n", "      ready: no\n", 1))
    with pytest.raises(InputError) as err:
        read_catalog(path.parent)
    (problem,) = err.value.problems
    assert (problem.path, problem.line, problem.rule) == (path, 14, "R30")
    assert problem.message.startswith("profiles.0.ready: Input should be a valid boolean"), problem.message
    path.write_text(path.read_text().replace("      ready: no\n", "      ready: !!bool false\n", 1))
    assert read_catalog(path.parent).body.profiles[0].ready is False  # a core tag is fine
