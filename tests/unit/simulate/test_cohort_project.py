"""T8 through the whole command: a compiled tree with a Cohort, a tenant's ClusterQueue and
its LocalQueue is read back, each run goes to its LocalQueue's ClusterQueue, and the victims
of a preemption are named (text and JSON)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import Run
from tests.support.runs import build_lab

CASES = Path(__file__).resolve().parents[2] / "cases" / "simulate"
WORKLOADS = CASES / "cohort.yaml"
H200 = "taugrid-h200-141gb"
T2 = {
    "reclaimWithinCohort": "Any",
    "borrowWithinCohort": {"policy": "LowerPriority"},
    "withinClusterQueue": "LowerPriority",
}


def _quota(queue: dict[str, Any], gpus: int, slots: int) -> None:
    for flavor in queue["spec"]["resourceGroups"][0]["flavors"]:
        if flavor["name"] == H200:
            for resource in flavor["resources"]:
                if resource["name"] == "nvidia.com/gpu":
                    resource["nominalQuota"] = str(gpus)
                if resource["name"] == "tau.azure.com/torchrun-host-slot":
                    resource["nominalQuota"] = str(slots)


def _cohort_tree(built: Path, dest: Path) -> Path:
    """The lab's tree as T1-T5 compile it when team-a is guaranteed 16 H200 GPUs."""
    shutil.copytree(built, dest)
    (shared,) = [d for d in yaml.safe_load_all((dest / "clusterqueue.yaml").read_text()) if d]
    tenant = json.loads(json.dumps(shared))
    tenant["metadata"]["name"] = "taugrid-team-a"
    tenant["spec"].update(cohortName="taugrid", preemption=T2)
    tenant["spec"]["namespaceSelector"]["matchExpressions"][0]["values"] = ["team-a"]
    _quota(tenant, 16, 2)
    shared["spec"].update(cohortName="taugrid", preemption=T2)
    shared["spec"]["namespaceSelector"]["matchExpressions"][0]["values"] = ["team-b"]
    _quota(shared, 32, 3)
    (dest / "clusterqueue.yaml").write_text(yaml.safe_dump_all([shared, tenant]))
    cohort = {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Cohort", "metadata": {"name": "taugrid"}}
    (dest / "cohort.yaml").write_text(yaml.safe_dump(cohort))
    queues = [d for d in yaml.safe_load_all((dest / "localqueues.yaml").read_text()) if d]
    for queue in queues:
        if queue["metadata"]["namespace"] == "team-a":
            queue["spec"]["clusterQueue"] = "taugrid-team-a"
    (dest / "localqueues.yaml").write_text(yaml.safe_dump_all(queues))
    return dest


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    project = build_lab(tmp_path_factory.mktemp("lab"))
    tree = _cohort_tree(project.parent / "out" / "lab", tmp_path_factory.mktemp("cohort") / "lab")
    return project, tree


def test_a_guaranteed_tenant_reclaims_from_the_borrower(run: Run, lab: tuple[Path, Path]) -> None:
    project, tree = lab
    result = run("simulate", WORKLOADS, "-c", project, "--tree", tree, "-o", "json")
    assert result.exit_code == 0, result.output
    runs = {r["name"]: r for r in json.loads(result.stdout)["runs"]}
    assert {n: (r["status"], r["clusterQueue"], r["preempted"], r["reason"]) for n, r in runs.items()} == {
        "fill": (
            "preempted",
            "taugrid",
            [],
            "preempted by team-a/pretrain: reclamation within the cohort (InCohortReclamation)",
        ),
        "pretrain": (
            "admitted",
            "taugrid-team-a",
            [{"run": "team-b/fill", "reason": "InCohortReclamation"}],
            None,
        ),
        "late": ("admitted", "taugrid", [], None),
    }
    assert [h["count"] for h in runs["pretrain"]["hosts"]] == [1, 1]


def test_the_text_names_the_victims(run: Run, lab: tuple[Path, Path]) -> None:
    project, tree = lab
    result = run("simulate", WORKLOADS, "-c", project, "--tree", tree)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "simulate: cluster lab, 3 runs: 2 admitted, 0 pending, 1 preempted"
    assert "            preempted  team-b/fill (InCohortReclamation)" in lines
    assert lines[-1].startswith("note: preemption is Kueue's classical preemption on quota")


def test_a_tree_without_a_cohort_keeps_s2(run: Run, lab: tuple[Path, Path]) -> None:
    """The same set on the lab's own tree: one ClusterQueue, no preemption (S2)."""
    project, _ = lab
    result = run("simulate", WORKLOADS, "-c", project, "-o", "json")
    answer = json.loads(result.stdout)
    assert [(r["name"], r["status"]) for r in answer["runs"]] == [
        ("fill", "admitted"),
        ("pretrain", "pending"),
        ("late", "pending"),
    ]
    assert "clusterQueue" not in answer["runs"][0]
    assert answer["notes"] == [
        "no preemption is simulated: a pending run never displaces an admitted one (S2)"
    ]
