"""`taugen explain tenant`: how each number of a tenant's queue was derived (SPEC §10, T2-T4, T7)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from taugen.compile.fallback import flavor_order
from taugen.compile.groups import GroupGuarantee
from taugen.compile.guarantee import ClassGuarantee, Guarantees
from taugen.compile.quota import ClassQuota
from taugen.context.cluster import ClusterView
from taugen.core.errors import InputError
from taugen.load.project import load_project_profiles
from taugen.models.fungibility import TenantFungibility
from taugen.models.project import Tenant
from taugen.models.share import share_value
from taugen.schedulers.registry import scheduler_of


@dataclass(frozen=True)
class ClassPart:
    gpu_class: str
    quota: int  # R26: the class quota of this build
    observed: int  # allocatable GPUs in the inventory
    ready_slots: int  # R27
    guaranteed: int
    slots: int
    steps: tuple[str, ...]  # how each number was derived, in words
    borrowable: int
    shared: int  # T3: the shared queue's GPUs of the class


@dataclass(frozen=True)
class GroupLevel:
    """R51: one group on the tenant's path of cohorts, and what its Cohort holds per class."""

    group: str
    cohort: str
    parent: str
    # gpu-class, the subtree's guarantee (None: none written), the Cohort's own, borrowing, lending
    classes: tuple[tuple[str, int | None, int, int | None, int | None], ...]


@dataclass(frozen=True)
class TenantExplanation:
    cluster: str
    namespace: str
    local_queue: str
    queue: str  # the ClusterQueue (Kueue) or leaf Queue (KAI) its LocalQueue or label names
    cohort: str | None
    weight: int
    classes: tuple[ClassPart, ...]
    # R48: its own ClusterQueue's spec.preemption, and whether the tenant set it (else T2's)
    preemption: dict[str, Any] | None = None
    own_preemption: bool = False
    path: tuple[GroupLevel, ...] = ()  # R51: its groups, its own first; () when in the cluster's cohort
    # R47: its own ClusterQueue's spec.flavorFungibility as the tenant set it (None: not written)
    fungibility: TenantFungibility | None = None
    # R47: the classes in the order its queue holds their flavors, and the profiles' lists that
    # made it ((profile, classes)); () when no list orders two of the cluster's classes
    flavor_order: tuple[str, ...] = ()
    fallback_lists: tuple[tuple[str, tuple[str, ...]], ...] = ()


def explain_tenant(view: ClusterView, namespace: str) -> TenantExplanation:
    tenant = next((t for t in view.cluster.tenants if t.namespace == namespace), None)
    if tenant is None:
        known = ", ".join(t.namespace for t in view.cluster.tenants)
        where = view.loaded.doc.at(["clusters", view.loaded.project.clusters.index(view.cluster), "tenants"])
        raise InputError(
            [where.problem("usage", f"cluster {view.name} has no tenant {namespace}", f"tenants: {known}")]
        )
    guarantees = view.guarantees
    backend = scheduler_of(view.cluster.scheduler)
    shared = view.cluster.clusterQueue
    queue = backend.tenant_queue(view.cluster, namespace, guarantees)
    cohort = shared if guarantees.cohort and backend.capabilities.cohorts else None
    parts = tuple(_part(tenant, q, guarantees) for q in view.quotas)
    own = guarantees.of(namespace) if cohort else None
    path = guarantees.path(namespace) if own is not None else ()
    cohort = path[0].cohort if path else cohort
    preemption = None if own is None else backend.tenant_preemption(own)
    return TenantExplanation(
        view.name,
        namespace,
        tenant.localQueue,
        queue,
        cohort,
        tenant.weight,
        parts,
        preemption,
        own is not None and own.preemption is not None,
        tuple(_level(g) for g in path),
        None if own is None else own.fungibility,
        *_fallback(view),
    )


def _fallback(view: ClusterView) -> tuple[tuple[str, ...], tuple[tuple[str, tuple[str, ...]], ...]]:
    """R47: the profiles' gpu_class lists naming two or more of the cluster's classes, and the
    flavor order they give every queue of the cluster; nothing without flavor choice (KAI)."""
    if not view.cluster.capabilities.fallback_classes:
        return (), ()
    classes = [q.gpu_class for q in view.quotas]
    profiles = load_project_profiles(view.loaded)
    lists = tuple(
        (p.profile.metadata.name, p.profile.policy.classes)
        for p in profiles
        if p.profile.policy.fallback and len(set(p.profile.policy.classes) & set(classes)) > 1
    )
    return (tuple(flavor_order(classes, profiles)), lists) if lists else ((), ())


def _level(group: GroupGuarantee) -> GroupLevel:
    classes = tuple(
        (c.gpu_class, c.gpus if c.written is not None else None, c.own, c.borrowing_limit, c.lending_limit)
        for c in group.classes
    )
    return GroupLevel(group.name, group.cohort, group.parent, classes)


def _base(namespace: str, quota: ClassQuota, guarantees: Guarantees) -> tuple[int, str]:
    """R51: what the tenant's share of the class is of: its nearest group guaranteeing the class,
    else the class quota (T4)."""
    for group in guarantees.path(namespace):
        part = group.of(quota.gpu_class)
        if part is not None and part.written is not None:
            return part.gpus, f"group {group.name}'s guarantee of {part.gpus} (R51)"
    return quota.gpus, f"the {_quota_words(quota)}"


def _part(tenant: Tenant, quota: ClassQuota, guarantees: Guarantees) -> ClassPart:
    own = guarantees.of(tenant.namespace)
    part = own.of(quota.gpu_class) if own is not None else None
    shared = guarantees.shared(quota)[0]
    if part is not None:
        steps = _steps(tenant, quota, part, guarantees)
    elif own is not None:
        borrow = guarantees.borrowable(tenant.namespace, quota)
        steps = [f"not guaranteed: its queue's nominal quota is 0 and it may borrow {borrow} from the cohort"]
    else:
        steps = _shared_steps(quota, guarantees)
    return ClassPart(
        quota.gpu_class,
        quota.gpus,
        quota.observed_gpus,
        quota.slots,
        part.gpus if part else 0,
        part.slots if part else 0,
        tuple(steps),
        guarantees.borrowable(tenant.namespace, quota),
        shared,
    )


def _quota_words(quota: ClassQuota) -> str:
    if quota.gpus > quota.observed_gpus:
        return f"class quota {quota.gpus} (R26: the high-water mark; the inventory has {quota.observed_gpus})"
    return f"class quota {quota.gpus} (R26: the inventory's allocatable GPUs)"


def _steps(tenant: Tenant, quota: ClassQuota, part: ClassGuarantee, guarantees: Guarantees) -> list[str]:
    written = part.written
    fraction = share_value(written) if written is not None else None
    if written is None:
        how = "no guarantee (only a limit names the class): nominal quota 0"
    elif fraction is None:
        how = f"guaranteed {part.gpus}: a count, taken as written (T4)"
    else:
        base, words = _base(tenant.namespace, quota, guarantees)
        exact = base * fraction
        how = (
            f"guaranteed {part.gpus}: {written} of {words} is {float(exact):g}; "
            "floor of each share, the largest remainders (ties: namespace) get one more (T4)"
        )
    lines = [how, f"slots {part.slots} = floor({quota.slots} Ready slots * {part.gpus} / {quota.gpus}) (T2)"]
    lines.append(
        _limit("borrowingLimit", part.borrowing_limit, part.slot_borrowing_limit, "may borrow without limit")
    )
    lines.append(_limit("lendingLimit", part.lending_limit, part.slot_lending_limit, "all of it may be lent"))
    borrow = guarantees.borrowable(tenant.namespace, quota)
    if guarantees.path(tenant.namespace):
        lines.append(
            f"may borrow {borrow}: what the cohort tree lends it when every other queue is idle, within "
            "its own and its groups' borrowingLimit (R51)"
        )
        return lines
    pool = guarantees.shared(quota)[0] + guarantees.lendable(quota, tenant.namespace)
    lines.append(f"may borrow {borrow}: the other queues lend {pool}, within its borrowingLimit")
    return lines


def _limit(name: str, gpus: int | None, slots: int | None, absent: str) -> str:
    if gpus is None:
        return f"{name}: none, {absent} (T2)"
    return f"{name} {gpus} GPUs, {slots} slots scaled the same way (T2)"


def _shared_steps(quota: ClassQuota, guarantees: Guarantees) -> list[str]:
    if not guarantees.cohort:
        return [f"no guarantee: the one ClusterQueue holds the whole {_quota_words(quota)} (R25)"]
    shared, _ = guarantees.shared(quota)
    return [
        f"no guarantee: shares the shared queue's {shared} = {quota.gpus} - "
        f"{quota.gpus - shared} guaranteed (T3)",
        f"its queue may borrow {guarantees.lendable(quota)} that the guaranteed tenants lend",
    ]
