"""R51, R52: a compiled tree with nested cohorts simulates with Kueue's hierarchical borrowing.

The lab project (48 H200 GPUs, 8 per host, one torchrun slot per host) with team-a and team-b
guaranteed 8 H200 each in group org, which is guaranteed 32 (its Cohort holds the other 16) and
may borrow nothing from the cluster's cohort (`borrowingLimit: 0`); team-c is best effort in the
shared queue, which keeps 48 - 32 = 16.

Kueue v0.19.2 behaviour encoded, read from its sources:
- pkg/cache/scheduler/resource_node.go: a Cohort's SubtreeQuota is its own nominalQuota plus its
  children's (updateCohortResourceNode, accumulateFromChild), and what a queue may use is its
  own plus what its parent has available, where a node's borrowingLimit caps what its subtree
  takes from its parent (`available`, `potentialAvailable`). So team-a may use org's whole
  subtree (8 + 8 + 16 = 32) but none of the shared queue's 16.
- pkg/scheduler/preemption/preemption.go (findCandidates): with reclaimWithinCohort other than
  Never, the candidates are the borrowing workloads of every ClusterQueue of the cohort tree
  (`cq.Parent().Root().SubtreeClusterQueues()`): team-b reclaims its lent guarantee from team-a.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from taugen.commands.build import BuildOptions, build
from tests.conftest import Run
from tests.support.helpers import write_yaml
from tests.support.runs import PROJECT

GROUPED: dict[str, Any] = {
    "tenants": [
        {"namespace": "team-a", "guaranteed": {"h200-141gb": 8}},
        {"namespace": "team-b", "localQueue": "b-queue", "guaranteed": {"h200-141gb": 8}},
        {"namespace": "team-c"},
    ],
    "groups": [
        {
            "name": "org",
            "guaranteed": {"h200-141gb": 32},
            "borrowingLimit": {"h200-141gb": 0},
            "tenants": ["team-a", "team-b"],
        }
    ],
}
HOST = {"profile": "h200-any", "resources": {"nvidia.com/gpu": 8}}


def _run(name: str, namespace: str, created: str, workers: int, **fields: Any) -> dict[str, Any]:
    meta = {"metadata": {"name": name, "namespace": namespace}, "createdAt": f"2026-11-29T{created}:00Z"}
    return meta | HOST | {"workers": workers} | fields


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The lab project with the groups above, built: simulate reads the compiled tree."""
    root = tmp_path_factory.mktemp("lab")
    shutil.copytree(PROJECT, root, dirs_exist_ok=True)
    doc = yaml.safe_load((root / "taugen.yaml").read_text())
    doc["clusters"][0].update(GROUPED)
    write_yaml(root / "taugen.yaml", doc)
    build(BuildOptions(project_file=root / "taugen.yaml"))
    return root / "taugen.yaml"


def _simulate(run: Run, project: Path, runs: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    workloads = {"apiVersion": "taugen.tau.azure.com/v1alpha1", "kind": "WorkloadSet", "runs": runs, **extra}
    path = write_yaml(project.parent / "workloads.yaml", workloads)
    result = run("simulate", path, "-c", project, "-o", "json")
    assert result.exit_code == 0, result.output
    answer: dict[str, Any] = json.loads(result.stdout)
    return answer


def test_r52_a_groups_borrowing_limit_caps_its_tenants_at_the_groups_subtree(run: Run, project: Path) -> None:
    """team-a may use org's 32 GPUs (its own 8, team-b's idle 8, org's own 16), never the
    shared queue's 16: 5 hosts stay pending, 4 are admitted."""
    answer = _simulate(run, project, [_run("wide", "team-a", "08:00", 5), _run("fits", "team-c", "08:00", 2)])
    runs = {r["name"]: r for r in answer["runs"]}
    assert {n: (r["status"], r["clusterQueue"]) for n, r in runs.items()} == {
        "wide": ("pending", "taugrid-team-a"),
        "fits": ("admitted", "taugrid"),
    }
    assert runs["wide"]["reason"] == (
        "quota: nvidia.com/gpu in flavor taugrid-h200-141gb: the run requests 40, more than ClusterQueue "
        "taugrid-team-a (nominal 8, cohort taugrid-org) can ever use: 32 with borrowing"
    )
    four = _simulate(run, project, [_run("wide", "team-a", "08:00", 4)])
    assert [(r["name"], r["status"]) for r in four["runs"]] == [("wide", "admitted")]


def test_r52_a_tenant_reclaims_its_lent_guarantee_from_a_borrower_in_its_group(
    run: Run, project: Path
) -> None:
    """team-a runs on 32 GPUs (24 borrowed in org); team-b's 8-GPU run reclaims its guarantee by
    preempting team-a's run; team-c's run fits the shared queue's own 16."""
    ranks = {str(i): f"h200-a{i}" for i in range(4)}
    admitted = {"admitted": {"at": "2026-11-29T08:01:00Z", "ranks": ranks}}
    runs = [
        _run("wide", "team-a", "08:00", 4, **admitted),
        _run("own", "team-b", "10:00", 1),
        _run("rest", "team-c", "11:00", 2),
    ]
    running = [
        {"node": f"h200-a{i}", "requests": {"nvidia.com/gpu": 8}, "run": "wide", "rank": i} for i in range(4)
    ]
    answer = _simulate(run, project, runs, running=running)
    assert {r["name"]: (r["status"], r["clusterQueue"], r["preempted"]) for r in answer["runs"]} == {
        "wide": ("preempted", "taugrid-team-a", []),
        "own": ("admitted", "taugrid-team-b", [{"run": "team-a/wide", "reason": "InCohortReclamation"}]),
        "rest": ("admitted", "taugrid", []),
    }
