"""Fair-sharing scenarios for the real Kueue's manager and simulate (issue 35: SPEC R49, R51,
R52; T2's weights).

One fleet of six 8-GPU H200 hosts (48 GPUs) per scenario; every run is one 8-GPU pod without
a topology constraint, so a run is a host and quota alone decides. Guaranteed tenants hold 8
each; what nobody is guaranteed is the shared queue's (best-effort team-c, no runs), idle and
lent. Some runs are admitted first, borrowing the idle quota (`first`), then the others come
one at a time (`later`, simkueue_preempt.py), each awaited until Kueue has preempted what it
preempts to restore the shares, and admitted or left the run pending. All runs are of one
priority (default), so that no classical rule (lower priority) explains a preemption.

Each base scenario is played under each of Kueue's preemptionStrategies lists (STRATEGIES): a
cluster per (scenario, list), with taugen.yaml's `kueue.fairSharing` as the manager's
Configuration has it (kueue_manager.py)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.realcluster.simkueue_preempt_scenarios import (
    GPU_CLASS,
    VM_SIZE,
    PreemptScenario,
    early,
    gpu_nodes,
    run,
    scenario_project,
)

HOSTS = 6
FINAL, INITIAL = "LessThanOrEqualToFinalShare", "LessThanInitialShare"
# Kueue v0.19.2's accepted lists (pkg/config/validation.go), each a suffix of its clusters' names
STRATEGIES: dict[str, tuple[str, ...]] = {"final": (FINAL,), "initial": (INITIAL,), "both": (FINAL, INITIAL)}


@dataclass(frozen=True)
class FairScenario(PreemptScenario):
    strategies: tuple[str, ...] = (FINAL, INITIAL)
    groups: list[dict[str, Any]] = field(default_factory=list)  # R51 `groups:` of the cluster

    @property
    def base(self) -> str:
        return self.name.rsplit("-", 1)[0]


def tenant(namespace: str, weight: int | None = None) -> dict[str, Any]:
    entry: dict[str, Any] = {"namespace": namespace, "guaranteed": {GPU_CLASS: 8}}
    return entry if weight is None else entry | {"weight": weight}


def _runs(prefix: str, namespace: str, count: int, start: int = 0) -> list[dict[str, Any]]:
    return [run(f"{prefix}{i}", namespace, "default", 1 + i) for i in range(start, start + count)]


def _first(prefix: str, namespace: str, count: int) -> list[dict[str, Any]]:
    return [early(f"{prefix}{i}", namespace, "default", i) for i in range(count)]


BEST_EFFORT = {"namespace": "team-c"}
ORG = {"name": "org", "tenants": ["team-a", "team-b"], "guaranteed": {GPU_CLASS: 24}}  # own 8
BASES = [
    # weights 1 and 2: team-a borrows all the idle quota (32), then team-b (weight 2) takes its
    # guarantee from the idle 8 and borrows by preempting team-a's newest runs while its
    # weighted share stays below team-a's (after, or before, the victim goes: the strategy)
    FairScenario(
        "fw",
        [tenant("team-a"), tenant("team-b", 2), BEST_EFFORT],
        _first("a", "team-a", 5),
        _runs("b", "team-b", 5),
        ("weights 1 and 2", "idle quota borrowed", "preemption restores the weighted shares"),
    ),
    # weight 0: team-z's share is infinite once it borrows, so team-a (weight 1) preempts it
    # while borrowing itself; team-z, borrowing, preempts nobody
    FairScenario(
        "fz",
        [tenant("team-a"), tenant("team-z", 0), BEST_EFFORT],
        _first("z", "team-z", 5),
        [*_runs("a", "team-a", 5), run("z5", "team-z", "default", 9)],
        ("weight 0", "a borrower of infinite share", "preempted by one of weight 1"),
    ),
    # R51: team-a and team-b (weight 2) in group org (24: 8 of its own) beside team-d (the
    # cluster's cohort); team-d borrows 16, team-a fills org's subtree, then borrows from the
    # cluster's cohort by preempting team-d while org's share stays below team-d's
    FairScenario(
        "fg",
        [tenant("team-a"), tenant("team-b", 2), tenant("team-d"), BEST_EFFORT],
        _first("d", "team-d", 3),
        _runs("a", "team-a", 5),
        ("nested cohort", "the group's share at the cluster's cohort", "weights inside the group"),
        groups=[ORG],
    ),
    # the same with org's Cohort at weight 3: its share is a third, so it preempts once more
    # (with LessThanInitialShare) than at weight 1
    FairScenario(
        "fg3",
        [tenant("team-a"), tenant("team-b", 2), tenant("team-d"), BEST_EFFORT],
        _first("d", "team-d", 3),
        _runs("a", "team-a", 5),
        ("nested cohort with a weight", "the group's weighted share"),
        groups=[ORG | {"weight": 3}],  # its Cohort's fairSharing.weight (R51)
    ),
]
SCENARIOS = {
    suffix: [dataclasses.replace(b, name=f"{b.name}-{suffix}", strategies=listed) for b in BASES]
    for suffix, listed in STRATEGIES.items()
}


def fair_sharing(scenario: FairScenario) -> dict[str, Any]:
    """The cluster's `kueue.fairSharing` in taugen.yaml, and the manager's Configuration's."""
    return {"enable": True, "preemptionStrategies": list(scenario.strategies)}


def write_project(root: Path, found: list[FairScenario]) -> Path:
    """One project, a cluster per scenario with its own inventory and Kueue configuration."""
    policy = {"priority_tier": "default", "gpu_class": GPU_CLASS, "topology": "unconstrained"}
    nodes = gpu_nodes([(f"n{i}", VM_SIZE) for i in range(HOSTS)])
    clusters = [
        {
            "tenants": s.tenants,
            "kueue": {"fairSharing": fair_sharing(s)},
            **({"groups": s.groups} if s.groups else {}),
        }
        for s in found
    ]
    return scenario_project(root, GPU_CLASS, policy, found, nodes, clusters)
