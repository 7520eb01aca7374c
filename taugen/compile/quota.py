"""GPU and slot quota per gpu class (R26, R27) against the lock's high-water marks."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from taugen.compile.extra import ExtraMarks, plan_extra
from taugen.core.errors import Problem
from taugen.resolve.cluster import ResolvedCluster


@dataclass(frozen=True)
class ClassQuota:
    gpu_class: str
    gpus: int  # R26: the nominal GPU quota written
    observed_gpus: int  # summed allocatable in this inventory
    slots: int  # R27: Ready nodes of the class
    nodes: int  # nodes of the class in this inventory (0: vanished, kept by R26)
    # R44: extra resource -> nominal quota; every class lists the same resources, in order
    extra: Mapping[str, int] = field(default_factory=dict)


def plan_quotas(
    cluster: ResolvedCluster,
    high_water: Mapping[str, int],
    allow_decrease: bool,
    extra_marks: ExtraMarks | None = None,
) -> tuple[list[ClassQuota], list[Problem]]:
    gpus: dict[str, int] = defaultdict(int)
    slots: dict[str, int] = defaultdict(int)
    nodes: dict[str, int] = defaultdict(int)
    for node in cluster.nodes:
        if node.gpu_class is not None:
            gpus[node.gpu_class] += node.gpus
            slots[node.gpu_class] += node.ready
            nodes[node.gpu_class] += 1
    kept = {} if allow_decrease else high_water
    plan = [
        _quota(c, max(gpus.get(c, 0), kept.get(c, 0)), gpus.get(c, 0), slots.get(c, 0), nodes.get(c, 0))
        for c in sorted(set(nodes) | set(kept))
    ]
    extra, held = plan_extra(cluster, [q.gpu_class for q in plan], extra_marks or {}, allow_decrease)
    plan = [replace(q, extra=extra[q.gpu_class]) if extra else q for q in plan]
    return plan, [*(w for q in plan if (w := _warning(cluster, q))), *held]


def _quota(gpu_class: str, quota: int, observed: int, slots: int, nodes: int) -> ClassQuota:
    # R40: a slot admits a rank that needs GPUs; with no GPU quota no rank of the class is admitted
    return ClassQuota(gpu_class, quota, observed, slots if quota > 0 else 0, nodes)


def _warning(cluster: ResolvedCluster, quota: ClassQuota) -> Problem | None:
    if quota.nodes == 0:
        return cluster.inventory.observed_at_pos.problem(
            "R26",
            f"gpu-class {quota.gpu_class} has no nodes in cluster {cluster.name}; its "
            f"flavor and GPU quota {quota.gpus} are kept with slot quota 0",
            "pass --allow-quota-decrease to prune it",
        ).as_warning()
    if quota.gpus > quota.observed_gpus:
        return cluster.inventory.observed_at_pos.problem(
            "R26",
            f"gpu-class {quota.gpu_class}: the inventory has {quota.observed_gpus} GPUs; "
            f"quota stays at its high-water mark {quota.gpus}",
            "pass --allow-quota-decrease to lower it",
        ).as_warning()
    return None
