"""explain, inventory show/import and drift through the CLI (issue 11): streams, exit codes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import Run
from tests.support.helpers import snapshot
from tests.support.views import CASES, GOLDEN, PROJECT, SYNCED, built_copy

LIVE = CASES / "live" / "import.yaml"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_copy(tmp_path_factory.mktemp("built"))


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_explain_node_prints_the_golden_output(run: Run, fmt: str) -> None:
    result = run("explain", "node", "h200-1", "-c", PROJECT, "--cluster", "kube", "-o", fmt)
    assert (result.exit_code, result.stderr) == (0, "")
    assert (
        result.stdout == (GOLDEN / "kube" / f"node-h200-1.{'txt' if fmt == 'text' else 'json'}").read_text()
    )


def test_explain_class_prints_the_golden_output(run: Run) -> None:
    result = run("explain", "class", "gb200-186gb", "-c", PROJECT, "--cluster", "native")
    assert (result.exit_code, result.stdout) == (0, (GOLDEN / "native" / "class-gb200-186gb.txt").read_text())


def test_explain_needs_a_cluster_in_a_project_of_two(run: Run) -> None:
    result = run("explain", "node", "h200-0", "-c", PROJECT)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.endswith(
        "views/project/taugen.yaml:6:3: error: the project has 2 clusters [cluster]\n"
        "  hint: pass --cluster with one of: native, kube\n"
    )


def test_explain_an_unknown_class_is_exit_2(run: Run) -> None:
    result = run("explain", "class", "b200", "-c", PROJECT, "--cluster", "native")
    assert result.exit_code == 2
    assert "error: cluster native has no gpu-class b200 [usage]" in result.stderr


def test_inventory_show_is_a_table_even_piped_and_json_on_request(run: Run, built: Path) -> None:
    """Issue 21: the format never changes with the terminal (kubectl prints a table piped too)."""
    assert run("inventory", "show", "-c", built, "--cluster", "native").stdout.startswith("cluster native")
    as_json = run("inventory", "show", "-c", built, "--cluster", "native", "-o", "json")
    assert json.loads(as_json.stdout)["classes"][0] == {
        "gpuClass": "a100-80gb",
        "nodes": 2,
        "gpus": 16,
        "readySlots": 2,
        "gpuQuota": 16,
        "highWaterMark": 16,
    }
    table = run("inventory", "show", "-c", built, "--cluster", "native")
    assert table.stdout.splitlines()[-1] == "h200-141gb       2    16     16          16            1"


def test_inventory_import_into_the_projects_inventory(run: Run, tmp_path: Path) -> None:
    """Without --into: the inventory the project names for --cluster."""
    shutil.copytree(PROJECT.parent, tmp_path / "p")
    project = tmp_path / "p" / "taugen.yaml"
    dry = run("inventory", "import", LIVE, "-c", project, "--cluster", "native", "--dry-run")
    assert dry.exit_code == 0
    assert dry.stdout.splitlines()[-1] == "dry run: nothing written"
    result = run("inventory", "import", LIVE, "-c", project, "--cluster", "native", "-o", "json")
    summary = json.loads(result.stdout)
    assert (summary["form"], summary["action"], summary["written"], summary["added"]) == (
        "ClusterInventory",
        "updated",
        True,
        ["h200-2"],
    )
    assert (tmp_path / "p" / "native" / "inventory.yaml").read_text() == (
        GOLDEN / "import" / "inventory.yaml"
    ).read_text()


def test_inventory_import_summary_text(run: Run, tmp_path: Path) -> None:
    target = Path(shutil.copy(PROJECT.parent / "native" / "inventory.yaml", tmp_path / "inventory.yaml"))
    result = run("inventory", "import", LIVE, "--into", target, "--dry-run")
    assert result.stdout == (
        f"inventory {target.as_posix()} "
        "(ClusterInventory: facts updated; comments, key order and other fields kept)\n"
        "  observedAt 2026-11-28T12:00:00Z -> 2026-11-29T09:00:00Z\n"
        "  added    h200-2\n"
        "  removed  a100-with-a-hostname-far-too-long-for-a-singleton-label-value-0\n"
        "  changed  a100-0: label net.unbounded-cloud.io/accelerator-domain added: island-9\n"
        "  changed  gb200-0: label net.unbounded-cloud.io/accelerator-domain removed (was nvl72-a)\n"
        "  changed  h200-0: allocatable nvidia.com/gpu 8 -> 7\n"
        "  changed  h200-1: ready false -> true; label net.unbounded-cloud.io/network-domain fab-1 -> fab-3\n"
        "  changed  sys-0: vmSize Standard_D8s_v5 -> Standard_D16s_v5; allocatable cpu 8 -> 16; "
        "allocatable memory 28Gi -> 56Gi\n"
        "  unchanged 1\n"
        "dry run: nothing written\n"
    )


def test_inventory_import_refuses_an_inventory_as_the_node_list(run: Run, tmp_path: Path) -> None:
    target = Path(shutil.copy(PROJECT.parent / "native" / "inventory.yaml", tmp_path / "inventory.yaml"))
    before = snapshot(tmp_path)
    result = run("inventory", "import", target, "--into", target)
    assert (result.exit_code, result.stdout) == (2, "")
    assert snapshot(tmp_path) == before


def test_drift_exit_codes(run: Run, built: Path, tmp_path: Path) -> None:
    """Exit 0 without drift, 1 with drift, 2 on bad input."""
    synced = run("drift", SYNCED, "-c", built, "--cluster", "kube")
    assert (synced.exit_code, synced.stdout) == (0, "cluster kube: no drift\n")
    drifted = run("drift", LIVE, "-c", built, "--cluster", "kube", "-o", "json")
    found = json.loads(drifted.stdout)
    assert (drifted.exit_code, found["drift"], found["notInInventory"], found["notInCluster"]) == (
        1,
        True,
        ["h200-2"],
        ["a100-with-a-hostname-far-too-long-for-a-singleton-label-value-0"],
    )
    missing = run("drift", tmp_path / "none.yaml", "-c", built, "--cluster", "kube")
    assert (missing.exit_code, missing.stdout) == (2, "")
