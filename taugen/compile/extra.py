"""Device resources a cluster lists in `extraResources` (SPEC R44): the names its GPU nodes'
allocatable holds, and per gpu-class the nominal quota of each, kept by the high-water mark.

An entry ending in `/` is a prefix (`rdma/` matches `rdma/rdma_shared_device_a`); any other
entry is one resource name. The quota of a class is the summed allocatable over its Ready nodes
(a node that is not Ready admits nothing); like GPU quota (R26) it never goes below the lock's
mark unless `--allow-quota-decrease` is given. A cluster that lists nothing has none: its
ClusterQueue is R25's, byte for byte.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from math import floor

from taugen.core.errors import Problem
from taugen.load.document import Document
from taugen.models.project import FIXED_RESOURCES as COVERED_FIXED
from taugen.models.project import Cluster
from taugen.resolve.cluster import ResolvedCluster

MAX_COVERED = 64  # Kueue v1beta2: coveredResources of a resource group (MaxItems)
MAX_COVERED = 64  # Kueue v1beta2: coveredResources of a resource group (MaxItems)
ExtraMarks = Mapping[str, Mapping[str, int]]  # gpu-class -> resource -> quota


def patterns_of(cluster: Cluster) -> tuple[str, ...]:
    """R44: the cluster's `extraResources` (a scheduler whose entry has none: none)."""
    return cluster.extra_resources


def matches(resource: str, patterns: Iterable[str]) -> bool:
    return any(resource.startswith(p) if p.endswith("/") else resource == p for p in patterns)


def observed_extra(cluster: ResolvedCluster) -> tuple[dict[str, dict[str, int]], tuple[str, ...]]:
    """Per gpu-class the summed allocatable of each extra resource over its Ready nodes, and
    every extra resource any GPU node has (Ready or not), sorted."""
    patterns = patterns_of(cluster.cluster)
    sums: dict[str, dict[str, int]] = {}
    found: set[str] = set()
    if not patterns:
        return sums, ()
    for node in cluster.nodes:
        if node.gpu_class is None:
            continue
        mine = sums.setdefault(node.gpu_class, {})
        for resource, quantity in node.facts.allocatable.items():
            if not matches(resource, patterns):
                continue
            found.add(resource)
            mine.setdefault(resource, 0)
            if node.ready:
                mine[resource] += floor(quantity.value)
    return sums, tuple(sorted(found))


def plan_extra(
    cluster: ResolvedCluster, classes: Sequence[str], marks: ExtraMarks, allow_decrease: bool
) -> tuple[dict[str, dict[str, int]], list[Problem]]:
    """gpu-class -> resource -> nominal quota, every class listing every covered extra resource
    (sorted; 0 where it has none), and a warning for each quota kept above what the Ready nodes
    hold (R26)."""
    observed, found = observed_extra(cluster)
    kept: ExtraMarks = {} if allow_decrease else marks
    if not patterns_of(cluster.cluster) and not kept:
        return {}, []
    names = sorted({*found, *(r for c in classes for r in kept.get(c, {}))})
    quotas = {
        c: {r: max(observed.get(c, {}).get(r, 0), kept.get(c, {}).get(r, 0)) for r in names} for c in classes
    }
    held = [
        (c, r, q, observed.get(c, {}).get(r, 0))
        for c in classes
        for r, q in quotas[c].items()
        if q > observed.get(c, {}).get(r, 0)
    ]
    return quotas, [_held(cluster, *h) for h in held]


def _held(cluster: ResolvedCluster, gpu_class: str, resource: str, quota: int, observed: int) -> Problem:
    return cluster.inventory.observed_at_pos.problem(
        "R44",
        f"gpu-class {gpu_class}: the Ready nodes have {observed} {resource}; "
        f"quota stays at its high-water mark {quota}",
        "pass --allow-quota-decrease to lower it",
    ).as_warning()


def check_extra(cluster: ResolvedCluster, covered: Sequence[str], doc: Document, index: int) -> list[Problem]:
    """R44: Kueue's 64 covered resources per group (an error at the list), and a warning for an
    entry no GPU node's allocatable holds (runs asking for it would be refused, R45)."""
    patterns = patterns_of(cluster.cluster)
    where: list[str | int] = ["clusters", index, "extraResources"]
    problems: list[Problem] = []
    total = len(COVERED_FIXED) + len(covered)
    if total > MAX_COVERED:
        problems.append(
            doc.at(where, key=True).problem(
                "limits",
                f"cluster {cluster.name}: extraResources match {len(covered)} resources; with R25's "
                f"{len(COVERED_FIXED)} that is {total} covered resources, over Kueue's limit of "
                f"{MAX_COVERED} per resource group",
                "list the resource names runs request rather than a broad prefix",
            )
        )
    for j, pattern in enumerate(patterns):
        if not any(matches(r, [pattern]) for r in covered):
            problems.append(
                doc.at([*where, j])
                .problem(
                    "R44",
                    f"cluster {cluster.name}: extra resource {pattern!r} is in no GPU node's allocatable: "
                    "the ClusterQueue does not cover it",
                    "check the device plugin's resource name (`kubectl get nodes -o yaml`, "
                    "status.allocatable), or remove the entry",
                )
                .as_warning()
            )
    return problems
