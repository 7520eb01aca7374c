"""End-to-end through the CLI: exit codes of SPEC §6 and the whole-object result."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import Run
from tests.support.helpers import gpu_node, inventory, read_objects, snapshot, write_project, write_yaml


def test_build_writes_tree_and_check_agrees(tmp_path: Path, run: Run) -> None:
    project = write_project(tmp_path, inventory([gpu_node("h200-0"), gpu_node("h200-1", ready=False)]))
    result = run("build", "-c", project)
    assert result.exit_code == 0, result.output
    objs = read_objects(tmp_path / "out" / "c1")
    assert objs["ResourceFlavor/taugrid-h200-141gb"]["spec"] == {
        "nodeLabels": {"tau.azure.com/gpu-class": "h200-141gb"},
        "nodeTaints": [{"effect": "NoSchedule", "key": "sku", "value": "gpu"}],
        "topologyName": "taugrid-gpu-topology",
    }
    assert run("build", "-c", project, "--check").exit_code == 0


def test_check_exits_1_and_names_the_object(tmp_path: Path, run: Run) -> None:
    project = write_project(tmp_path)
    assert run("build", "-c", project).exit_code == 0
    write_yaml(tmp_path / "inventory.yaml", inventory([gpu_node("h200-0"), gpu_node("h200-9")]))
    before = snapshot(tmp_path / "out")
    result = run("build", "-c", project, "--check")
    assert result.exit_code == 1
    assert "ClusterQueue/taugrid differs" in result.output
    assert "nodes/h200-141gb/nodes.yaml: Node/h200-9 missing" in result.output
    assert snapshot(tmp_path / "out") == before


def test_check_names_files_relative_to_the_project_wherever_it_runs(
    tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 34 (8): `build --check` names `out/c1/…` (the project's own paths), not the
    checkout's absolute path; a tree outside the project (--out elsewhere) keeps its whole path."""
    project = write_project(tmp_path / "repo")
    elsewhere = tmp_path / "preview"
    assert run("build", "-c", project).exit_code == 0
    assert run("build", "-c", project, "--out", elsewhere).exit_code == 0
    for folder in (tmp_path / "repo" / "out" / "c1", elsewhere / "c1"):
        queue = folder / "clusterqueue.yaml"
        queue.write_text(queue.read_text().replace("nominalQuota: '8'", "nominalQuota: '800'"))
    monkeypatch.chdir(tmp_path)
    result = run("build", "-c", project, "--check")
    assert (result.exit_code, result.stdout) == (
        1,
        "out/c1/clusterqueue.yaml: ClusterQueue/taugrid differs\n",
    )
    result = run("build", "-c", project, "--check", "--out", elsewhere)
    assert (result.exit_code, result.stdout) == (
        1,
        f"{elsewhere}/c1/clusterqueue.yaml: ClusterQueue/taugrid differs\n",
    )
