"""R51 on the real Kueue v0.19.2: two nested groups, each with quota of its own and a limit,
simulated by `taugen simulate` and played through minimalkueue run by run
(tests/realcluster/simkueue_suite.py).

The lab project (48 H200 GPUs of quota, five Ready 8-GPU hosts; every run here is 8-GPU pods
without a topology constraint) with team-a guaranteed 8 in group llm, llm guaranteed 16 under
group org (so llm's Cohort holds 8 of its own) with `borrowingLimit: 8`, team-b guaranteed 8 in
org, org guaranteed 32 (8 of its own) with `lendingLimit: 8`; team-c is best effort in the
shared queue (48 - 32 = 16). Kueue (pkg/cache/scheduler/resource_node.go, `available`,
`potentialAvailable`): a queue uses its own quota, then its Cohort's, then up the tree within
each Cohort's borrowingLimit; a Cohort lends its parent at most its lendingLimit.

- `up`: team-a takes 24 (its 8, llm's 8, 8 borrowed from org: llm's borrowingLimit); one more
  run would take llm past its limit: pending, with the shared queue's 16 idle.
- `lend`: team-c takes its 16 and 8 of org's idle subtree (org's lendingLimit); one more: pending.
- `own`: team-b takes 16 (its 8 and org's own 8); team-a then 24 (llm's 16 and 8 more through
  org, which now borrows from the cluster's Cohort: org has no borrowingLimit)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.realcluster.controlplane import ControlPlane
from tests.realcluster.simkueue_lab import play_sets
from tests.realcluster.simkueue_suite import disagreements, report
from tests.support.lab import lab_project

pytestmark = pytest.mark.realcluster
NESTED: dict[str, Any] = {
    "tenants": [
        {"namespace": "team-a", "guaranteed": {"h200-141gb": 8}},
        {"namespace": "team-b", "localQueue": "b-queue", "guaranteed": {"h200-141gb": 8}},
        {"namespace": "team-c"},
    ],
    "groups": [
        {
            "name": "org",
            "guaranteed": {"h200-141gb": 32},
            "lendingLimit": {"h200-141gb": 8},
            "tenants": ["team-b"],
        },
        {
            "name": "llm",
            "parent": "org",
            "guaranteed": {"h200-141gb": 16},
            "borrowingLimit": {"h200-141gb": 8},
            "tenants": ["team-a"],
        },
    ],
}


def _run(name: str, namespace: str, hour: int, workers: int) -> dict[str, Any]:
    return {
        "metadata": {"name": name, "namespace": namespace},
        "createdAt": f"2026-11-29T{hour:02d}:00:00Z",
        "profile": "h200-any",
        "workers": workers,
        "resources": {"nvidia.com/gpu": 8},
    }


SCENARIOS = {
    "up": [_run("a-three", "team-a", 7, 3), _run("a-one", "team-a", 8, 1)],
    "lend": [_run("c-three", "team-c", 7, 3), _run("c-one", "team-c", 8, 1)],
    "own": [_run("b-two", "team-b", 7, 2), _run("a-three", "team-a", 8, 3)],
}
EXPECTED = {
    "up": {"team-a/a-three": "admitted", "team-a/a-one": "pending"},
    "lend": {"team-c/c-three": "admitted", "team-c/c-one": "pending"},
    "own": {"team-b/b-two": "admitted", "team-a/a-three": "admitted"},
}


@pytest.fixture(scope="module")
def nested(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return lab_project(tmp_path_factory.mktemp("nested"), NESTED)


def test_r51_nested_groups_agree_with_kueue(
    nested: Path, control_plane: ControlPlane, tmp_path: Path
) -> None:
    played = play_sets(control_plane.kube, nested, tmp_path, SCENARIOS, "ng", control_plane.alive)
    print(report(played))
    assert {p.name: {v.key: v.status for v in p.verdicts} for p in played} == EXPECTED
    assert disagreements(played) == [], report(played)
