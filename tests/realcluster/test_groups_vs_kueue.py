"""R51 on the real Kueue v0.19.2: a grouped tree (nested Cohorts with parentName, a resource
group of their own quota and limits) applies cleanly to the real API server (its CRDs' schemas
and CEL rules; no Kueue webhook runs here, docs/realcluster.md), and `taugen simulate`'s
hierarchical borrowing agrees with minimalkueue's decisions run by run.

The lab project with team-a and team-b guaranteed 8 H200 each in group org, guaranteed 32 (its
Cohort holds 16 of its own) and `borrowingLimit: 0` toward the cluster's cohort; team-c is best
effort in the shared queue (16). Kueue (pkg/cache/scheduler/resource_node.go, `available`):
team-a may take org's whole subtree, 32 GPUs, and nothing beyond it while the shared queue's GPUs
sit idle. Played through tests/realcluster/simkueue_suite.py, which gives a Cohort's flavors the
scenario's names as it does a ClusterQueue's."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from taugen.context.session import open_project
from taugen.load.inventory import NodeFacts
from tests.realcluster.binaries import Binaries
from tests.realcluster.controlplane import ControlPlane
from tests.realcluster.exercise import exercise
from tests.realcluster.simkueue_suite import Case, disagreements, plan_cases, play_all, report
from tests.support.helpers import write_yaml
from tests.support.lab import lab_project
from tests.unit.simulate.test_cohort_groups_simulate import GROUPED

pytestmark = pytest.mark.realcluster


def _run(name: str, namespace: str, hour: int, workers: int) -> dict[str, Any]:
    return {
        "metadata": {"name": name, "namespace": namespace},
        "createdAt": f"2026-11-29T{hour:02d}:00:00Z",
        "profile": "h200-any",
        "workers": workers,
        "resources": {"nvidia.com/gpu": 8},
    }


RUNS = [
    _run("c-one", "team-c", 7, 1),  # 8 of the shared queue's own 16
    _run("a-four", "team-a", 8, 4),  # 32: org's whole subtree (its own 16, team-b's idle 8)
    _run("a-one", "team-a", 9, 1),  # the shared queue has 8 idle, but org may borrow none of it
]


@pytest.fixture(scope="module")
def grouped(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return lab_project(tmp_path_factory.mktemp("grouped"), GROUPED)


def test_r51_a_grouped_tree_applies_cleanly(
    grouped: Path, control_plane: ControlPlane, binaries: Binaries
) -> None:
    context = open_project(grouped)
    inventory: Mapping[str, NodeFacts] = {
        n.name: n for n in context.cluster(context.pick("lab")).inventory.nodes
    }
    outcome = exercise(control_plane, binaries["kustomize"], grouped.parent / "out" / "lab", inventory)
    assert (outcome.dry_run, outcome.applied) == ([], [])
    assert outcome.second_writes == {} and outcome.read_back == {}
    assert {k: v for k, v in outcome.rewritten.items() if v} == {}


def test_r52_hierarchical_borrowing_agrees_with_kueue(
    grouped: Path, control_plane: ControlPlane, tmp_path: Path
) -> None:
    workloads = {"apiVersion": "taugen.tau.azure.com/v1alpha1", "kind": "WorkloadSet", "runs": RUNS}
    path = write_yaml(tmp_path / "groups.yaml", workloads)
    plans = plan_cases(grouped, [Case("groups", path, None, "grp")])
    played, _ = play_all(control_plane.kube, plans, control_plane.alive)
    verdicts = {v.key: v.status for p in played for v in p.verdicts}
    assert verdicts == {"team-a/a-four": "admitted", "team-a/a-one": "pending", "team-c/c-one": "admitted"}
    assert disagreements(played) == [], report(played)
