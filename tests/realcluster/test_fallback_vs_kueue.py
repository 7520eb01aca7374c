"""R47 on the real Kueue v0.19.2: runs whose profile lists fallback classes, simulated by
`taugen simulate` and played through minimalkueue (tests/realcluster/simkueue_suite.py) run by
run; Kueue's flavor per pod set, and pods per host, must be taugen's.

The lab project (one shared ClusterQueue: H200 48 GPUs of quota on five 8-GPU hosts, A100 on
one host, GB200 islands of 4-GPU hosts) with two fallback profiles. Scenarios:

- `tas`: `fill` and `rest` take the five H200 hosts (40 of 48 GPUs of quota); `next` (H200, else A100) fits
  H200's quota but no H200 host: Kueue checks topology after the flavor, keeps the workload's
  LastTriedFlavorIdx and admits it on A100 in a later cycle.
- `jobset`: `fill` holds 32 of H200's 48; a JobSet's `head` (8) takes H200, its `workers`
  (3 x 4 GPUs) on top of it would need 20 of H200's 16 left: Kueue assigns them GB200
  (flavorassigner.go, per pod set).
- `none`: no listed class can place `wide`: pending on both sides."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.realcluster.controlplane import ControlPlane
from tests.realcluster.simkueue_lab import play_sets
from tests.realcluster.simkueue_suite import disagreements, report
from tests.support.lab import lab_project
from tests.support.unit import profile

pytestmark = pytest.mark.realcluster
WORKERS = [
    {"name": "head", "workers": 1},
    {"name": "workers", "workers": 3, "resources": {"nvidia.com/gpu": 4}},
]


def _run(name: str, prof: str, hour: int, **fields: Any) -> dict[str, Any]:
    return {
        "metadata": {"name": name, "namespace": "team-a"},
        "createdAt": f"2026-11-29T{hour:02d}:00:00Z",
        "profile": prof,
        "resources": {"nvidia.com/gpu": 8},
        **fields,
    }


SCENARIOS = {
    "tas": [
        _run("fill", "h200-any", 6, workers=4),
        _run("rest", "h200-any", 7, workers=1),
        _run("next", "h200-else-a100", 8, workers=1),
    ],
    "jobset": [
        _run("fill", "h200-any", 7, workers=4),
        _run("js", "h200-else-gb200", 8, workload="jobset", jobs=WORKERS),
    ],
    "none": [_run("fill", "h200-any", 7, workers=5), _run("wide", "h200-else-a100", 8, workers=2)],
}
EXPECTED = {
    "tas": {"team-a/fill": "admitted", "team-a/rest": "admitted", "team-a/next": "admitted"},
    "jobset": {"team-a/fill": "admitted", "team-a/js": "admitted"},
    "none": {"team-a/fill": "admitted", "team-a/wide": "pending"},
}


@pytest.fixture(scope="module")
def fallback(tmp_path_factory: pytest.TempPathFactory) -> Path:
    profiles = {
        name: profile(name, ["h200-141gb", other], "unconstrained")
        for name, other in (("h200-else-a100", "a100-80gb"), ("h200-else-gb200", "gb200-186gb"))
    }
    return lab_project(tmp_path_factory.mktemp("fallback"), profiles=profiles)


def test_r47_fallback_classes_agree_with_kueue(
    fallback: Path, control_plane: ControlPlane, tmp_path: Path
) -> None:
    played = play_sets(control_plane.kube, fallback, tmp_path, SCENARIOS, "fb", control_plane.alive)
    print(report(played))
    assert {p.name: {v.key: v.status for v in p.verdicts} for p in played} == EXPECTED
    assert disagreements(played) == [], report(played)


# --- flavorFungibility (whenCanBorrow) on guaranteed tenants ------------------------------------

TENANTS: dict[str, Any] = {
    "tenants": [
        {
            "namespace": "team-a",
            "guaranteed": {"h200-141gb": 8, "a100-80gb": 8},
            "flavorFungibility": {"whenCanBorrow": "TryNextFlavor"},
        },
        {"namespace": "team-b", "localQueue": "b-queue", "guaranteed": {"h200-141gb": 8}},
        {"namespace": "team-c"},
    ]
}
BORROW = {
    # team-a's second run would borrow H200: TryNextFlavor takes its own A100 instead
    "try": [_run("one", "h200-else-a100", 7, workers=1), _run("again", "h200-else-a100", 8, workers=1)],
    # team-b (Kueue's default MayStopSearch) borrows H200 from the shared queue
    "stop": [
        {**_run("one", "h200-else-a100", 7, workers=1), "metadata": {"name": "one", "namespace": "team-b"}},
        {
            **_run("again", "h200-else-a100", 8, workers=1),
            "metadata": {"name": "again", "namespace": "team-b"},
        },
    ],
}


@pytest.fixture(scope="module")
def fungible(tmp_path_factory: pytest.TempPathFactory) -> Path:
    profiles = {"h200-else-a100": profile("h200-else-a100", ["h200-141gb", "a100-80gb"])}
    return lab_project(tmp_path_factory.mktemp("fungible"), TENANTS, profiles)


def test_r47_when_can_borrow_agrees_with_kueue(
    fungible: Path, control_plane: ControlPlane, tmp_path: Path
) -> None:
    played = play_sets(control_plane.kube, fungible, tmp_path, BORROW, "fg", control_plane.alive)
    print(report(played))
    assert disagreements(played) == [], report(played)
