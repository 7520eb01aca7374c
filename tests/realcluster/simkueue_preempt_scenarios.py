"""Preemption scenarios for simulate vs the real Kueue (issue 35: SPEC R48, R50; T8).

One fleet of four 8-GPU H200 hosts (32 GPUs) per scenario, and a cohort of two or three
tenants: `team-a` guaranteed 16 GPUs, `team-b` guaranteed 8 (in most), and best-effort
`team-c` on the shared queue (what nobody is guaranteed: 8, or 16 without team-b). Every run
is one 8-GPU pod without a topology constraint, so a run is a host and quota alone decides.
Some runs are admitted first (`first`: created one by one, each awaited until admitted), then
the others (`later`) come one at a time, each awaited until Kueue has preempted what it
preempts and admitted or left the run pending. Priorities are TauGrid's two tiers (default
1000, priority 1200) and two declared ones (batch 500, urgent 1500, R50)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.support.helpers import write_yaml

GPU_CLASS = "h200-141gb"
VM_SIZE = "Standard_ND96isr_H200_v5"
HOSTS = 4
OBSERVED = "2026-11-28T12:00:00Z"
TIERS = [{"name": "batch", "value": 500}, {"name": "urgent", "value": 1500}]


@dataclass(frozen=True)
class PreemptScenario:
    name: str  # the cluster's name, and the prefix of everything it puts on the real cluster
    tenants: list[dict[str, Any]]  # taugen.yaml tenant entries
    first: list[dict[str, Any]]  # admitted first, in this order
    later: list[dict[str, Any]]  # then each of these, in simulate's admission order
    covers: tuple[str, ...] = field(default=())  # what it is about, for the report
    # later runs created before everything (as their createdAt says: older), their Workloads in
    # a LocalQueue that does not exist, moved to their tenant's at their step
    parked: tuple[str, ...] = ()


def run(
    name: str, namespace: str, tier: str = "default", minute: int = 0, workers: int = 1
) -> dict[str, Any]:
    """`workers` 8-GPU pods of `tier`; created at 08:<minute> (the first runs at 06:<minute>)."""
    return {
        "metadata": {"name": name, "namespace": namespace},
        "createdAt": f"2026-11-29T08:{minute:02d}:00Z",
        "profile": GPU_CLASS,
        "policy": {"topology": "unconstrained", "priority_tier": tier},
        "workers": workers,
        "resources": {"nvidia.com/gpu": 8},
    }


def early(name: str, namespace: str, tier: str = "default", minute: int = 0) -> dict[str, Any]:
    return run(name, namespace, tier, minute) | {"createdAt": f"2026-11-29T06:{minute:02d}:00Z"}


def tenants(a: dict[str, Any] | None = None, b: bool = True, a_gpus: int = 16) -> list[dict[str, Any]]:
    """team-a (guaranteed, with preemption `a` when given), team-b (guaranteed 8, T2's) when
    `b`, team-c best effort."""
    team_a: dict[str, Any] = {"namespace": "team-a", "guaranteed": {GPU_CLASS: a_gpus}}
    if a is not None:
        team_a["preemption"] = a
    team_b = [{"namespace": "team-b", "guaranteed": {GPU_CLASS: 8}}] if b else []
    return [team_a, *team_b, {"namespace": "team-c"}]


def _borrowers(count: int, tier: str = "default") -> list[dict[str, Any]]:
    return [early(f"c{i}", "team-c", tier, i) for i in range(count)]


def _full(first: str, second: str) -> list[dict[str, Any]]:
    """A full cohort where nobody borrows: team-a's two runs at these tiers, team-b's and team-c's own."""
    return [
        early("a0", "team-a", first, 0),
        early("a1", "team-a", second, 1),
        early("b0", "team-b"),
        early("c0", "team-c"),
    ]


BORROWING = {"reclaimWithinCohort": "Any", "borrowWithinCohort": {"policy": "LowerPriority"}}
SCENARIOS = [
    # reclaimWithinCohort: team-c borrows 16 of team-a's; team-a takes its guarantee back
    PreemptScenario(
        "pr-reclaim-any",
        tenants({"reclaimWithinCohort": "Any"}),
        _borrowers(3),
        [run("a0", "team-a", "batch", 1), run("a1", "team-a", "batch", 2)],
        ("reclaimWithinCohort Any", "batch below the borrower"),
    ),
    PreemptScenario(
        "pr-reclaim-lower",
        tenants({"reclaimWithinCohort": "LowerPriority"}),
        _borrowers(4),
        [
            run("a0", "team-a", "default", 1),
            run("a1", "team-a", "default", 2),
            run("a2", "team-a", "urgent", 3),
        ],
        ("reclaimWithinCohort LowerPriority", "equal priority spared", "urgent"),
    ),
    PreemptScenario(
        "pr-reclaim-lower-tiers",
        tenants({"reclaimWithinCohort": "LowerPriority"}),
        [
            early("c0", "team-c", "batch", 0),
            early("c1", "team-c", "urgent", 1),
            early("c2", "team-c", "priority", 2),
        ],
        [run("a0", "team-a", "default", 1), run("a1", "team-a", "default", 2)],
        ("reclaimWithinCohort LowerPriority", "lower priority first, across tiers"),
    ),
    PreemptScenario(
        "pr-reclaim-never",
        tenants({"reclaimWithinCohort": "Never"}),
        _borrowers(3),
        [run("a0", "team-a", "urgent", 1), run("a1", "team-a", "urgent", 2)],
        ("reclaimWithinCohort Never", "borrowWithinCohort Never by default"),
    ),
    # a run of two hosts needs two victims: the batch borrower first, then the newest; the
    # first victim is not put back (Kueue's minimal set: only the last is kept in)
    PreemptScenario(
        "pr-reclaim-pair",
        tenants(),
        [early("c0", "team-c", "batch", 0), *[early(f"c{i}", "team-c", "default", i) for i in (1, 2, 3)]],
        [run("a0", "team-a", "default", 1, workers=2), run("b0", "team-b", "batch", 2)],
        ("two victims for one run", "a batch run reclaims from default borrowers (Any)"),
    ),
    # two guaranteed tenants reclaim from the same borrower
    PreemptScenario(
        "pr-reclaim-two",
        tenants(),
        _borrowers(4),
        [
            run("a0", "team-a", "default", 1),
            run("b0", "team-b", "default", 2),
            run("a1", "team-a", "priority", 3),
        ],
        ("T2's preemption", "three tenants", "newest admitted first"),
    ),
    # borrowWithinCohort: team-a is at its guarantee, team-c borrows team-b's; team-a borrows back
    PreemptScenario(
        "pr-borrow-lower",
        tenants(BORROWING | {"withinClusterQueue": "Never"}),
        [early("a0", "team-a", "default", 0), early("a1", "team-a", "default", 1), *_borrowers(2)],
        [run("a2", "team-a", "urgent", 1), run("a3", "team-a", "default", 2)],
        ("borrowWithinCohort LowerPriority", "equal priority spared while borrowing"),
    ),
    PreemptScenario(
        "pr-borrow-threshold-above",
        tenants(
            {**BORROWING, "borrowWithinCohort": {"policy": "LowerPriority", "maxPriorityThreshold": 500}}
        ),
        [early("a0", "team-a", "default", 0), early("a1", "team-a", "default", 1), *_borrowers(2)],
        [run("a2", "team-a", "urgent", 1)],
        ("maxPriorityThreshold 500 below the borrowers (1000)", "withinClusterQueue instead"),
    ),
    PreemptScenario(
        "pr-borrow-threshold-at",
        tenants(
            {**BORROWING, "borrowWithinCohort": {"policy": "LowerPriority", "maxPriorityThreshold": 1000}}
            | {"withinClusterQueue": "Never"}
        ),
        [early("a0", "team-a", "default", 0), early("a1", "team-a", "default", 1), *_borrowers(2)],
        [run("a2", "team-a", "urgent", 1)],
        ("maxPriorityThreshold 1000 at the borrowers",),
    ),
    PreemptScenario(
        "pr-borrow-never",
        tenants({"reclaimWithinCohort": "Any", "borrowWithinCohort": {"policy": "Never"}}),
        [early("a0", "team-a", "batch", 0), early("a1", "team-a", "default", 1), *_borrowers(2)],
        [run("a2", "team-a", "urgent", 1)],
        ("borrowWithinCohort Never", "withinClusterQueue LowerPriority instead"),
    ),
    # withinClusterQueue: the cohort is full and nobody borrows
    PreemptScenario(
        "pr-within-lower",
        tenants({"withinClusterQueue": "LowerPriority"}),
        _full("batch", "default"),
        [
            run("a2", "team-a", "default", 1),
            run("a3", "team-a", "urgent", 2),
            run("a4", "team-a", "urgent", 3),
        ],
        ("withinClusterQueue LowerPriority", "batch before default"),
    ),
    PreemptScenario(
        "pr-within-never",
        tenants({"withinClusterQueue": "Never"}),
        _full("batch", "default"),
        [run("a2", "team-a", "urgent", 1)],
        ("withinClusterQueue Never",),
    ),
    PreemptScenario(
        "pr-within-newer",
        tenants({"withinClusterQueue": "LowerOrNewerEqualPriority"}),
        _full("priority", "default"),
        [run("a2", "team-a", "priority", 1), run("a3", "team-a", "priority", 2)],
        (
            "withinClusterQueue LowerOrNewerEqualPriority",
            "a newer equal priority is not preempted by a later one",
        ),
    ),
    # an older run of equal priority preempts the newer ones; the later of them first
    PreemptScenario(
        "pr-within-older",
        tenants({"withinClusterQueue": "LowerOrNewerEqualPriority"}),
        _full("priority", "priority"),
        [run("a2", "team-a", "priority") | {"createdAt": "2026-11-29T05:00:00Z"}],
        ("withinClusterQueue LowerOrNewerEqualPriority", "an older equal priority preempts"),
        parked=("a2",),
    ),
    # the best-effort queue's own R25 withinClusterQueue: LowerPriority
    PreemptScenario(
        "pr-shared-within",
        tenants(b=False),
        [
            early("c0", "team-c", "batch", 0),
            early("c1", "team-c", "default", 1),
            *[early(f"a{i}", "team-a", "default", 2 + i) for i in range(2)],
        ],
        [run("c2", "team-c", "urgent", 1)],
        ("the shared queue's withinClusterQueue LowerPriority", "it never reclaims"),
    ),
]


def write_project(root: Path, found: list[PreemptScenario]) -> Path:
    """One project, a cluster per scenario with its own inventory. Each step's set is written
    once the steps before it are simulated (`step_set`)."""
    policy = {"priority_tier": "default", "gpu_class": GPU_CLASS, "topology": "unconstrained"}
    nodes = gpu_nodes([(f"n{i}", VM_SIZE) for i in range(HOSTS)])
    clusters = [{"tenants": s.tenants} for s in found]
    return scenario_project(root, GPU_CLASS, policy, found, nodes, clusters, priorityTiers=TIERS)


def gpu_nodes(hosts: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """8-GPU hosts (name, vmSize) with no labels of their own: the rules class them by vmSize."""
    allocatable = {"cpu": "96", "memory": "1800Gi", "nvidia.com/gpu": "8"}
    return [
        {"name": name, "vmSize": size, "allocatable": dict(allocatable), "labels": {}} for name, size in hosts
    ]


def scenario_project(
    root: Path,
    profile: str,
    policy: dict[str, Any],
    found: Sequence[PreemptScenario],
    nodes: list[dict[str, Any]],
    clusters: list[dict[str, Any]],
    **project: Any,
) -> Path:
    """The differentials' project: one profile, and per scenario a cluster (its entry in
    `clusters`, completed with its name and inventory) on an inventory of `nodes`."""
    doc: dict[str, Any] = {
        "apiVersion": "taugen.tau.azure.com/v1alpha1",
        "kind": "WorkloadProfile",
        "metadata": {"name": profile},
        "policy": policy,
    }
    write_yaml(root / "profiles" / f"{profile}.yaml", doc)
    entries = []
    for scenario, cluster in zip(found, clusters, strict=True):
        inventory = {
            "apiVersion": "taugen.tau.azure.com/v1alpha1",
            "kind": "ClusterInventory",
            "metadata": {"name": scenario.name},
            "observedAt": OBSERVED,
            "site": "eastus",
            "nodes": nodes,
        }
        write_yaml(root / "inventories" / f"{scenario.name}.yaml", inventory)
        entries.append({"name": scenario.name, "inventory": f"inventories/{scenario.name}.yaml", **cluster})
    doc = {
        "apiVersion": "taugen.tau.azure.com/v1alpha1",
        "kind": "Project",
        "profiles": ["profiles"],
        **project,
        "clusters": entries,
    }
    return write_yaml(root / "taugen.yaml", doc)


def workload_set(cluster: str, runs: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "apiVersion": "taugen.tau.azure.com/v1alpha1",
        "kind": "WorkloadSet",
        "cluster": cluster,
        "runs": runs,
    }


def step_set(
    root: Path, scenario: PreemptScenario, step: int, admitted: dict[str, dict[str, str]], waiting: list[str]
) -> Path:
    """The set simulate decides at `step`: the runs admitted so far (`admitted`: run name ->
    rank -> host, in the order they were admitted, a second apart), the runs still pending
    (`waiting`), then the step's own run."""
    runs = {r["metadata"]["name"]: r for r in scenario.first + scenario.later}
    found = [
        runs[name] | {"admitted": {"ranks": ranks, "at": admitted_at(i)}}
        for i, (name, ranks) in enumerate(admitted.items())
    ]
    found += [runs[name] for name in waiting]
    found.append((scenario.first + scenario.later)[step])
    return write_yaml(root / "sets" / f"{scenario.name}-{step}.yaml", workload_set(scenario.name, found))


def admitted_at(index: int) -> str:
    return f"2026-11-29T07:{index // 60:02d}:{index % 60:02d}Z"
