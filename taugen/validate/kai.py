"""KAI Scheduler rules across objects (SPEC §8): queue hierarchy, reserved names, quotas, levels.

Objects are grouped per cluster folder (semantic.by_cluster): two clusters validated together
never satisfy each other's references.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

from taugen.api.kai import KAI_TOPOLOGY_API, QUEUE_API, RESERVED_QUEUES
from taugen.resolve.labels import GPU_CLASS, OWN_PREFIXES
from taugen.validate.findings import Finding, finding
from taugen.validate.resources import Resource
from taugen.validate.semantic import Tree, by_cluster, list_of, map_of, meta_of, spec_of

MAX_LABEL_VALUE = 63


def _queues(tree: Tree) -> dict[Path, list[Resource]]:
    return by_cluster(tree, "Queue", QUEUE_API)


def queue_parents(tree: Tree) -> Iterator[Finding]:
    """K2: every leaf's parentQueue is a Queue of the same tree (KAI leaves an orphan unscheduled)."""
    for queues in _queues(tree).values():
        names = {q.name for q in queues}
        for queue in queues:
            parent = spec_of(queue).get("parentQueue")
            if parent is not None and parent not in names:
                yield finding(
                    queue,
                    ["spec", "parentQueue"],
                    "kai-queue-parent",
                    f"parent Queue {parent!r} is not in the tree",
                    "add the parent Queue, or point parentQueue at one that is",
                )


def reserved_names(tree: Tree) -> Iterator[Finding]:
    """K2: KAI's Helm chart owns default-queue and default-parent-queue; Argo CD would fight it.
    A leaf's name is also the pods' queue label value (K4): at most 63 characters."""
    for queues in _queues(tree).values():
        for queue in queues:
            if queue.name in RESERVED_QUEUES:
                yield finding(
                    queue,
                    ["metadata", "name"],
                    "kai-reserved-queue",
                    f"Queue name {queue.name} is reserved: KAI's Helm chart creates and owns it",
                    "name the queue something else (taugen's parent defaults to taugrid)",
                )
            if spec_of(queue).get("parentQueue") is not None and len(queue.name) > MAX_LABEL_VALUE:
                yield finding(
                    queue,
                    ["metadata", "name"],
                    "kai-queue-name",
                    f"leaf Queue name is {len(queue.name)} characters; pods name it in a label (at most 63)",
                    "shorten the tenant namespace: its leaf Queue is taugrid-<namespace>",
                )


def _gpu_quota(queue: Resource) -> float | None:
    value = map_of(map_of(spec_of(queue).get("resources")).get("gpu")).get("quota")
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def leaf_quotas(tree: Tree) -> Iterator[Finding]:
    """K2: the leaves' deserved GPUs fit in their parent's (a -1 leaf under a finite parent does not)."""
    for queues in _queues(tree).values():
        children: dict[str, list[Resource]] = defaultdict(list)
        for queue in queues:
            if isinstance(parent := spec_of(queue).get("parentQueue"), str):
                children[parent].append(queue)
        for queue in queues:
            own = _gpu_quota(queue)
            leaves = [q for q in children.get(queue.name, []) if _gpu_quota(q) is not None]
            if own is None or own < 0 or not leaves:
                continue
            quotas = [_gpu_quota(q) or 0.0 for q in leaves]
            if any(q < 0 for q in quotas) or sum(quotas) > own:
                total = "unlimited" if any(q < 0 for q in quotas) else f"{sum(quotas):g}"
                yield finding(
                    queue,
                    ["spec", "resources", "gpu", "quota"],
                    "kai-leaf-quota",
                    f"its leaf Queues deserve {total} GPUs, more than its quota {own:g}",
                    "lower the tenants' gpuQuota: together they may not exceed the cluster's GPUs",
                )


def topology_levels(tree: Tree) -> dict[Path, set[str]]:
    """Cluster folder -> the level labels of its KAI Topologies ({} in a Kueue tree)."""
    return {
        folder: {
            str(lv.get("nodeLabel"))
            for t in found
            for lv in list_of(spec_of(t).get("levels"))
            if isinstance(lv, dict)
        }
        for folder, found in by_cluster(tree, "Topology", KAI_TOPOLOGY_API).items()
    }


def node_levels(tree: Tree) -> Iterator[Finding]:
    """K1/R17: KAI, like Kueue, drops a node that misses any level label of the Topology."""
    topologies = topology_levels(tree)
    if not topologies:  # a Kueue tree: its Nodes are nodes.py's to check
        return
    nodes = by_cluster(tree, "Node", "v1")
    for folder, levels in topologies.items():
        for node in nodes.get(folder, []):
            labels = meta_of(node, "labels")
            # the hostname is the kubelet's (R29), a declared level the node's own (R42)
            missing = sorted(lv for lv in levels - set(labels) if lv.startswith(OWN_PREFIXES))
            if labels.get(GPU_CLASS) and missing:
                yield finding(
                    node,
                    ["metadata", "labels", GPU_CLASS],
                    "kai-node-levels",
                    f"gpu-class {labels[GPU_CLASS]} node misses level labels {', '.join(missing)}",
                    "KAI drops a node without every level label from topology-aware scheduling (R17)",
                )
