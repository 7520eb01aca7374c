"""Kueue cohorts (SPEC §10, T1-T3, T5): the Cohort, a ClusterQueue per guaranteed tenant, the
shared ClusterQueue of the rest, and LocalQueues that point at their tenant's queue.

Every queue of the cohort has R25's one resource group and flavors (Kueue lends only
[flavor, resource] pairs that both queues list). A LocalQueue's spec.clusterQueue is
immutable in Kueue (CEL `self == oldSelf`): the LocalQueues of a cohort cluster ask Flux to
recreate them when an apply fails on it; Argo CD has no such option short of recreating on
every sync, so `taugen diff` names the change as `rejected` (docs/cohorts.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from taugen.compile.groups import GroupClass, GroupGuarantee
from taugen.compile.guarantee import ClassGuarantee, Guarantees, TenantGuarantee
from taugen.compile.manifest import Manifest, annotate, object_
from taugen.compile.quota import ClassQuota
from taugen.compile.slot import SLOT
from taugen.core.quantity import canonical
from taugen.resolve.cluster import ResolvedCluster
from taugen.schedulers.kueue.flavors import API, GPU, flavor_name, flavor_quota

COHORT_FILE = "cohort.yaml"
FLUX_FORCE = "kustomize.toolkit.fluxcd.io/force"  # recreate only when an apply hits an immutable field
PREEMPTION = {  # T2
    "reclaimWithinCohort": "Any",
    "borrowWithinCohort": {"policy": "LowerPriority"},
    "withinClusterQueue": "LowerPriority",
}


def cohort(name: str) -> Manifest:
    """T1: the Cohort the cluster's queues join; no quota of its own (the queues hold it all)."""
    return Manifest(COHORT_FILE, object_(API, "Cohort", name))


def group_cohort(group: GroupGuarantee, quotas: Sequence[ClassQuota]) -> Manifest:
    """R51: a group's Cohort under its parent's, with a resource group of its own when it names
    a class: its own nominal quota (what its members are not guaranteed) and its limits toward
    the parent, on the class's GPUs and, scaled as T2, slots. Kueue accepts limits on a Cohort
    only with a parent (pkg/webhooks/cohort_webhook.go); a group always has one."""
    flavors = [_group_flavor(c) for q in quotas if (c := group.of(q.gpu_class)) is not None]
    spec: dict[str, Any] = {"parentName": group.parent}
    if flavors:
        spec["resourceGroups"] = [{"coveredResources": [GPU, SLOT], "flavors": flavors}]
    if group.weight is not None:  # a quantity, written as Kueue writes it back (as T2's)
        spec["fairSharing"] = {"weight": canonical(group.weight)}
    return Manifest(COHORT_FILE, object_(API, "Cohort", group.cohort, spec=spec))


def _group_flavor(part: GroupClass) -> dict[str, Any]:
    resources = []
    for name, nominal, borrow, lend in (
        (GPU, part.own, part.borrowing_limit, part.lending_limit),
        (SLOT, part.own_slots, part.slot_borrowing_limit, part.slot_lending_limit),
    ):
        resource: dict[str, Any] = {"name": name, "nominalQuota": canonical(nominal)}
        if borrow is not None:
            resource["borrowingLimit"] = canonical(borrow)
        if lend is not None:
            resource["lendingLimit"] = canonical(lend)
        resources.append(resource)
    return {"name": flavor_name(part.gpu_class), "resources": resources}


def tenant_queue_spec(
    guarantee: TenantGuarantee, cohort_name: str, quotas: Sequence[ClassQuota], base: dict[str, Any]
) -> dict[str, Any]:
    """T2: R25's queue with the tenant's guarantees as nominal quota, its limits and weight."""
    flavors = [dict(base["resourceGroups"][0]["flavors"][0])]
    flavors += [_flavor(q, guarantee.of(q.gpu_class)) for q in quotas]
    return {
        **base,
        "cohortName": cohort_name,
        # a quantity: written as Kueue writes it back, a string, or every sync rewrites it (issue 31)
        "fairSharing": {"weight": canonical(guarantee.weight)},
        "namespaceSelector": admits([guarantee.namespace]),
        "preemption": tenant_preemption(guarantee),  # T2, R48
        "resourceGroups": [{**base["resourceGroups"][0], "flavors": flavors}],
        # R47: only when the tenant sets it (absent: Kueue's defaults, and today's tree)
        **({} if guarantee.fungibility is None else {"flavorFungibility": guarantee.fungibility.as_spec()}),
    }


def tenant_preemption(guarantee: TenantGuarantee) -> dict[str, Any]:
    """The tenant's own ClusterQueue's `preemption`: its own (R48), else T2's."""
    return PREEMPTION if guarantee.preemption is None else guarantee.preemption.as_spec()


def admits(namespaces: Sequence[str]) -> dict[str, Any]:
    """A namespaceSelector admitting exactly `namespaces`; none: no namespace (T3).

    `In` with no values is refused by the label-selector parser, so "none" is `DoesNotExist` of
    the label the API server puts on every namespace."""
    key = "kubernetes.io/metadata.name"
    if not namespaces:
        return {"matchExpressions": [{"key": key, "operator": "DoesNotExist"}]}
    return {"matchExpressions": [{"key": key, "operator": "In", "values": sorted(namespaces)}]}


def _flavor(quota: ClassQuota, part: ClassGuarantee | None) -> dict[str, Any]:
    extra = part.extra if part else dict.fromkeys(quota.extra, 0)  # R44: in proportion to the GPUs
    flavor = flavor_quota(
        flavor_name(quota.gpu_class), part.gpus if part else 0, part.slots if part else 0, extra
    )
    if part is not None:
        limits = {
            GPU: (part.borrowing_limit, part.lending_limit),
            SLOT: (part.slot_borrowing_limit, part.slot_lending_limit),
        }
        for resource in flavor["resources"]:
            borrow, lend = limits.get(resource["name"], (None, None))
            if borrow is not None:
                resource["borrowingLimit"] = canonical(borrow)
            if lend is not None:
                resource["lendingLimit"] = canonical(lend)
    return flavor


def local_queue(cluster: ResolvedCluster, guarantees: Guarantees, namespace: str, name: str) -> Manifest:
    """T5: the tenant's LocalQueue keeps its name and points at its own queue, or the shared one."""
    own = guarantees.of(namespace)
    target = own.queue if own is not None else cluster.cluster.clusterQueue
    obj = object_(API, "LocalQueue", name, namespace, spec={"clusterQueue": target})
    if guarantees.cohort:
        annotate(obj, {FLUX_FORCE: "enabled"})
    return Manifest("localqueues.yaml", obj)
