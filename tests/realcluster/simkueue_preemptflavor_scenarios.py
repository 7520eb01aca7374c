"""R47's `flavorFungibility.whenCanPreempt` for simulate vs the real Kueue (issue 35: SPEC R47,
R52), played by simkueue_preempt.py as the preemption scenarios are.

One fleet of two 8-GPU H200 hosts and one 8-GPU H100 host per scenario. `team-a` is guaranteed
all of it (H200 16, H100 8), so that nobody lends and a run that does not fit must preempt or
move on; the shared queue (best-effort `team-c`, no runs) holds nothing. Every run is one 8-GPU
pod without a topology constraint whose profile lists `gpu_class: [h200-141gb, h100-80gb]`: two
`default` runs (1000) are admitted first and take H200, then a `priority` run (1200) comes, for
which H200 fits only by preempting one of them (T2's withinClusterQueue LowerPriority) while
H100 fits as it is; in `pf-both` a third `default` run holds H100 too, so that both classes
need a preemption. What Kueue v0.19.2 does is the tenant's `whenCanPreempt`
(pkg/scheduler/flavorassigner/flavorassigner.go `shouldTryNextFlavor`, `isPreferred`;
apis/kueue/v1beta2/clusterqueue_types.go: MayStopSearch or TryNextFlavor, the default
TryNextFlavor; v1beta1's `Preempt` is MayStopSearch's old name)"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.realcluster.simkueue_preempt_scenarios import PreemptScenario, gpu_nodes, scenario_project

H200, H100 = "h200-141gb", "h100-80gb"
VM_SIZES = {H200: "Standard_ND96isr_H200_v5", H100: "Standard_ND96isr_H100_v5"}
PROFILE = "h200-else-h100"
HOSTS = {H200: 2, H100: 1}


def run(name: str, tier: str, createdAt: str) -> dict[str, Any]:
    """One 8-GPU pod of team-a, H200 else H100."""
    return {
        "metadata": {"name": name, "namespace": "team-a"},
        "createdAt": createdAt,
        "profile": PROFILE,
        "policy": {"priority_tier": tier},
        "workers": 1,
        "resources": {"nvidia.com/gpu": 8},
    }


def tenants(fungibility: dict[str, str] | None) -> list[dict[str, Any]]:
    team_a: dict[str, Any] = {"namespace": "team-a", "guaranteed": {H200: 16, H100: 8}}
    if fungibility is not None:
        team_a["flavorFungibility"] = fungibility
    return [team_a, {"namespace": "team-c"}]


FIRST = [run("a0", "default", "2026-11-29T06:00:00Z"), run("a1", "default", "2026-11-29T06:01:00Z")]
LATER = [run("a2", "priority", "2026-11-29T08:00:00Z")]
SCENARIOS = [
    PreemptScenario(
        "pf-stop",
        tenants({"whenCanPreempt": "MayStopSearch"}),
        FIRST,
        LATER,
        ("whenCanPreempt MayStopSearch", "preempts on the first class"),
    ),
    PreemptScenario(
        "pf-next",
        tenants({"whenCanPreempt": "TryNextFlavor"}),
        FIRST,
        LATER,
        ("whenCanPreempt TryNextFlavor", "the next class, nobody preempted"),
    ),
    PreemptScenario(
        "pf-default",
        tenants(None),
        FIRST,
        LATER,
        ("whenCanPreempt left to Kueue's default (TryNextFlavor)",),
    ),
    PreemptScenario(
        "pf-both",
        tenants({"whenCanPreempt": "TryNextFlavor"}),
        [*FIRST, run("a3", "default", "2026-11-29T06:02:00Z")],
        LATER,
        ("whenCanPreempt TryNextFlavor", "both classes need a preemption: the first is kept"),
    ),
]


def write_project(root: Path, found: list[PreemptScenario]) -> Path:
    """One project, a cluster per scenario with its own inventory (simkueue_preempt_scenarios'
    `step_set` writes each step's set)."""
    policy = {"priority_tier": "default", "gpu_class": [H200, H100], "topology": "unconstrained"}
    hosts = [
        (f"{gpu_class.split('-')[0]}-{i}", VM_SIZES[gpu_class])
        for gpu_class, count in HOSTS.items()
        for i in range(count)
    ]
    clusters = [{"tenants": s.tenants} for s in found]
    return scenario_project(root, PROFILE, policy, found, gpu_nodes(hosts), clusters)
