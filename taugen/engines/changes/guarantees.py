"""T6: a headline per tenant and gpu-class whose guarantee changes, read from the cohort's queues.

A guaranteed tenant's ClusterQueue (`<clusterQueue>-<namespace>`, cohortName `<clusterQueue>`,
admitting exactly its namespace) holds its guarantee as each GPU flavor's nominal quota (T2).
A guarantee that goes down is a capacity risk, whatever the quota of the class does. R51: a
grouped tenant's queue joins its group's Cohort (`<clusterQueue>-<group>`), and a group's
Cohort, under its parent's, holds what its members are not guaranteed: what a group's subtree
holds (its Cohort's quota and its members') going down is a capacity risk too.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Iterator, Mapping
from typing import Any

from taugen.core.quantity import Quantity, QuantityError
from taugen.engines.changes.objects import Identity, PlacedObject
from taugen.engines.changes.risks import Risk

Key = tuple[str, str, str]  # cluster, namespace (or a group's Cohort), gpu-class
GPU = "nvidia.com/gpu"
PREFIX = "taugrid-"
QUOTA_KINDS = ("ClusterQueue", "Cohort")  # R51: a group's Cohort holds nominal quota too


def guarantees(side: Mapping[Identity, PlacedObject]) -> dict[Key, tuple[Identity, int]]:
    """(cluster, namespace, gpu-class) -> the tenant queue and its guaranteed GPUs."""
    found: dict[Key, tuple[Identity, int]] = {}
    for ident, placed in side.items():
        namespace = _tenant_of(ident, placed.obj)
        if namespace is None:
            continue
        for gpu_class, gpus in gpu_quotas(placed.obj).items():
            found[(ident.cluster, namespace, gpu_class)] = (ident, gpus)
    return found


def _tenant_of(ident: Identity, obj: dict[str, Any]) -> str | None:
    spec: dict[str, Any] = obj["spec"] if isinstance(obj.get("spec"), dict) else {}
    cohort = spec.get("cohortName")
    if ident.kind != "ClusterQueue" or not isinstance(cohort, str) or ident.name == cohort:
        return None
    expressions = (spec.get("namespaceSelector") or {}).get("matchExpressions") or []
    values = expressions[0].get("values") if len(expressions) == 1 else None
    namespace = values[0] if isinstance(values, list) and len(values) == 1 else None
    if namespace is None or ident.name == cohort:
        return None
    # T2: <clusterQueue>-<namespace> in the cluster's Cohort <clusterQueue>; R51: in a group's
    return (
        namespace if ident.name == f"{cohort}-{namespace}" or ident.name.endswith(f"-{namespace}") else None
    )


def gpu_quotas(obj: dict[str, Any]) -> dict[str, int]:
    """A ClusterQueue's (or a Cohort's, R51) non-zero GPU nominal quota per gpu-class (its
    taugrid-<class> flavors)."""
    quotas: dict[str, int] = {}
    for group in _spec(obj).get("resourceGroups") or []:
        for flavor in group.get("flavors") or []:
            name = str(flavor.get("name", ""))
            for resource in flavor.get("resources") or []:
                if resource.get("name") == GPU and name.startswith(PREFIX):
                    quotas[name.removeprefix(PREFIX)] = _count(resource.get("nominalQuota", 0))
    return {c: g for c, g in quotas.items() if g > 0}


def _count(value: Any) -> int:
    try:
        return int(Quantity.parse(value if isinstance(value, int | str) else str(value)).value)
    except QuantityError:
        return 0


def guarantee_changes(
    base: Mapping[Identity, PlacedObject], head: Mapping[Identity, PlacedObject]
) -> Iterator[tuple[Identity, str, tuple[Risk, ...]]]:
    """(tenant queue, headline, risks) per tenant and class whose guarantee changes, in order."""
    return _changed(
        guarantees(base),
        guarantees(head),
        lambda namespace, gpu_class, old, new: f"{namespace} guaranteed {gpu_class} {old} → {new}",
        "the tenant's guarantee decreases",
    )


def _changed(
    old: Mapping[Key, tuple[Identity, int]],
    new: Mapping[Key, tuple[Identity, int]],
    headline: Callable[[str, str, int, int], str],
    decrease: str,
) -> Iterator[tuple[Identity, str, tuple[Risk, ...]]]:
    """Per (cluster, owner, gpu-class) whose GPUs differ: its object, headline, and a capacity
    risk when they go down."""
    for key in sorted(old.keys() | new.keys()):
        before, after = old.get(key, (None, 0)), new.get(key, (None, 0))
        if before[1] == after[1]:
            continue
        ident = after[0] or before[0]
        assert ident is not None
        _, owner, gpu_class = key
        risks = (Risk("capacity", decrease),) if after[1] < before[1] else ()
        yield ident, headline(owner, gpu_class, before[1], after[1]), risks


def subtrees(side: Mapping[Identity, PlacedObject]) -> dict[Key, tuple[Identity, int]]:
    """R51: (cluster, Cohort, gpu-class) -> the Cohort and the GPU nominal quota its subtree
    holds (its own, its ClusterQueues' and its child Cohorts'), for the Cohorts with a parent."""
    cohorts = {(i.cluster, i.name): i for i in side if i.kind == "Cohort"}
    parents = {k: _spec(side[i].obj).get("parentName") for k, i in cohorts.items()}
    held: dict[tuple[str, str], dict[str, int]] = {k: {} for k in cohorts}
    for ident, placed in side.items():
        start = ident.name if ident.kind == "Cohort" else _spec(placed.obj).get("cohortName")
        if ident.kind not in QUOTA_KINDS or not isinstance(start, str):
            continue
        key, seen = (ident.cluster, start), set()
        while key in held and key not in seen:  # up the tree to its root; a cycle stops it
            seen.add(key)
            for gpu_class, gpus in gpu_quotas(placed.obj).items():
                held[key][gpu_class] = held[key].get(gpu_class, 0) + gpus
            up = parents[key]
            key = (ident.cluster, up if isinstance(up, str) else "")
    return {
        (cluster, name, c): (cohorts[(cluster, name)], gpus)
        for (cluster, name), quotas in held.items()
        if parents[(cluster, name)]
        for c, gpus in quotas.items()
    }


def _spec(obj: dict[str, Any]) -> dict[str, Any]:
    spec = obj.get("spec")
    return spec if isinstance(spec, dict) else {}


def group_changes(
    base: Mapping[Identity, PlacedObject], head: Mapping[Identity, PlacedObject]
) -> Iterator[tuple[Identity, str, tuple[Risk, ...]]]:
    """R51: (Cohort, headline, risks) per group Cohort and class whose subtree's GPUs change."""
    return _changed(
        subtrees(base),
        subtrees(head),
        lambda cohort, gpu_class, old, new: f"Cohort {cohort} holds {gpu_class} {old} → {new} GPUs",
        "the group's quota decreases",
    )


def held_quotas(
    head: Mapping[Identity, PlacedObject],
    inventory: Mapping[str, Mapping[str, int]],
    clusters: Collection[str],
) -> Iterator[tuple[Identity, str, tuple[Risk, ...]]]:
    """Issue 34 (7): per cluster of `clusters` and gpu-class, the GPU quota the head tree's
    ClusterQueues hold together (the class quota, R26: kept at its high-water mark) when it is
    above the GPUs `inventory` (cluster -> gpu-class -> allocatable GPUs) has. The line is on
    the class's shared queue (a tenant's only when the class has no other)."""
    held: dict[tuple[str, str], int] = defaultdict(int)
    queues: dict[tuple[str, str], list[Identity]] = defaultdict(list)
    for ident, placed in sorted(head.items(), key=lambda item: (item[0].cluster, item[0].name)):
        if ident.kind not in QUOTA_KINDS or ident.cluster not in clusters or ident.cluster not in inventory:
            continue
        for gpu_class, gpus in gpu_quotas(placed.obj).items():
            held[(ident.cluster, gpu_class)] += gpus
            if ident.kind == "Cohort":  # R51: a group's own quota counts; the line is on a queue
                continue
            found = queues[(ident.cluster, gpu_class)]
            if _tenant_of(ident, placed.obj) is None:  # the shared queue first
                found.insert(0, ident)
            else:
                found.append(ident)
    for (cluster, gpu_class), gpus in sorted(held.items()):
        have = inventory[cluster].get(gpu_class, 0)
        if gpus > have:
            ident = queues[(cluster, gpu_class)][0]
            headline = f"quota held above inventory: {gpu_class} quota {gpus} GPUs, the inventory has {have}"
            reason = (
                f"the ClusterQueues hold {gpu_class} quota {gpus} (R26: its high-water mark); "
                f"the inventory has {have}"
            )
            yield ident, headline, (Risk("held", reason),)
