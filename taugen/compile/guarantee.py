"""Tenants' guaranteed GPU quota (SPEC §10, T2-T4): resolved per class against the class quota.

A share ("50%") is resolved against the class quota of this build, high-water mark included
(R26), with the largest-remainder rule of T4; a count is taken as written. What no tenant is
guaranteed stays in the shared ClusterQueue (T3). Slot quotas and limits scale the same way
(T2). Every problem names the project file's line (the tenant's key).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from taugen.compile.guarantee_checks import (
    check_classes,
    check_lending,
    check_sums,
    check_tenant_fields,
    cohort_queue_name,
)
from taugen.compile.quota import ClassQuota
from taugen.compile.shares import resolve_shares, scaled
from taugen.core.errors import ProblemCollector
from taugen.load.document import Document
from taugen.models.fungibility import TenantFungibility
from taugen.models.preemption import TenantPreemption
from taugen.models.project import Cluster, Tenant
from taugen.models.share import share_value


@dataclass(frozen=True)
class ClassGuarantee:
    """One tenant's part of one gpu-class (T2): GPUs and slots, and the limits on both."""

    gpu_class: str
    gpus: int  # resolved guarantee: the nominal GPU quota of the tenant's queue
    slots: int  # floor(ready slots * gpus / class GPU quota)
    written: int | str | None  # as the project writes it; None: only a limit names the class
    borrowing_limit: int | None  # None: may borrow without limit
    lending_limit: int | None  # None: all of it may be lent
    slot_borrowing_limit: int | None
    slot_lending_limit: int | None
    # R44: extra resource -> the tenant's part, in proportion to `gpus` of the class quota (T4)
    extra: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class TenantGuarantee:
    namespace: str
    local_queue: str
    queue: str  # T2: <clusterQueue>-<namespace>
    weight: int
    classes: tuple[ClassGuarantee, ...]  # by gpu-class
    preemption: TenantPreemption | None = None  # R48: the tenant's own; None: T2's
    fungibility: TenantFungibility | None = None  # R47: the tenant's own; None: not written

    def of(self, gpu_class: str) -> ClassGuarantee | None:
        return next((c for c in self.classes if c.gpu_class == gpu_class), None)


@dataclass(frozen=True)
class Guarantees:
    """The cluster's guaranteed tenants by namespace; none: the cluster compiles as §3 says."""

    tenants: tuple[TenantGuarantee, ...] = ()

    @property
    def cohort(self) -> bool:
        return bool(self.tenants)

    def of(self, namespace: str) -> TenantGuarantee | None:
        return next((t for t in self.tenants if t.namespace == namespace), None)

    def shared(self, quota: ClassQuota) -> tuple[int, int]:
        """T3: the class's GPUs and slots no tenant is guaranteed."""
        parts = [c for t in self.tenants if (c := t.of(quota.gpu_class)) is not None]
        return quota.gpus - sum(c.gpus for c in parts), quota.slots - sum(c.slots for c in parts)

    def shared_extra(self, quota: ClassQuota) -> dict[str, int]:
        """R44, T3: the class's extra resources no tenant is given a part of."""
        parts = [c for t in self.tenants if (c := t.of(quota.gpu_class)) is not None]
        return {r: q - sum(c.extra.get(r, 0) for c in parts) for r, q in quota.extra.items()}

    def lendable(self, quota: ClassQuota, but: str | None = None) -> int:
        """GPUs of the class the guaranteed tenants other than `but` may lend (T2: lendingLimit,
        else all of the guarantee)."""
        parts = [c for t in self.tenants if t.namespace != but and (c := t.of(quota.gpu_class))]
        return sum(c.gpus if c.lending_limit is None else c.lending_limit for c in parts)

    def borrowable(self, namespace: str, quota: ClassQuota) -> int:
        """At most how many GPUs of the class the tenant's queue may borrow from the cohort: what
        the other queues lend (the shared queue lends all it has), within its borrowingLimit."""
        own = self.of(namespace)
        if own is None:  # a best-effort tenant: its shared queue borrows from the guaranteed ones
            return self.lendable(quota)
        pool = self.shared(quota)[0] + self.lendable(quota, namespace)
        part = own.of(quota.gpu_class)
        limit = part.borrowing_limit if part is not None else None
        return pool if limit is None else min(limit, pool)

    def recorded(self) -> dict[str, dict[str, int]]:
        """T6: namespace -> gpu-class -> guaranteed GPUs, as the lock records it."""
        return {
            t.namespace: {c.gpu_class: c.gpus for c in t.classes if c.written is not None}
            for t in self.tenants
        }


NO_GUARANTEES = Guarantees()


def plan_guarantees(cluster: Cluster, quotas: Sequence[ClassQuota], doc: Document, index: int) -> Guarantees:
    """Resolve every guarantee of `cluster` (the project's cluster `index`); InputError lists all."""
    problems = ProblemCollector()
    problems.extend(check_tenant_fields(cluster, doc, index))
    problems.raise_if_any()
    guaranteed = [(j, t) for j, t in enumerate(cluster.tenants) if t.guaranteed]
    if not guaranteed:
        return Guarantees()
    by_class = {q.gpu_class: q for q in quotas}
    problems.extend(check_classes(cluster, guaranteed, by_class, doc, index))
    problems.extend(cohort_queue_name(cluster, guaranteed, doc, index))
    problems.raise_if_any()
    gpus = _resolve(guaranteed, quotas)
    problems.extend(check_sums(cluster, guaranteed, gpus, by_class, doc, index))
    problems.extend(check_lending(guaranteed, gpus, doc, index))
    problems.raise_if_any()
    extra = _extra_parts(gpus, quotas)
    tenants = [_tenant(cluster, t, gpus[t.namespace], by_class, extra) for _, t in guaranteed]
    return Guarantees(tuple(sorted(tenants, key=lambda t: t.namespace)))


def _resolve(
    guaranteed: Sequence[tuple[int, Tenant]], quotas: Sequence[ClassQuota]
) -> dict[str, dict[str, int]]:
    """T4: namespace -> gpu-class -> GPUs; counts as written, shares by largest remainders."""
    gpus: dict[str, dict[str, int]] = {t.namespace: {} for _, t in guaranteed}
    for quota in quotas:
        shares: dict[str, Fraction] = {}
        for _, tenant in guaranteed:
            share = tenant.guaranteed.get(quota.gpu_class)
            if share is None:
                continue
            fraction = share_value(share)
            if fraction is None:
                gpus[tenant.namespace][quota.gpu_class] = int(share)
            else:
                shares[tenant.namespace] = fraction
        for namespace, part in resolve_shares(quota.gpus, shares).items():
            gpus[namespace][quota.gpu_class] = part
    return gpus


def _extra_parts(
    gpus: Mapping[str, Mapping[str, int]], quotas: Sequence[ClassQuota]
) -> dict[str, dict[str, dict[str, int]]]:
    """R44: namespace -> gpu-class -> extra resource -> part. Each tenant's share of a class's
    extra quota is its GPU guarantee over the class's GPU quota, resolved as T4 (floor, then the
    largest remainders): the parts sum exactly, and never above the quota."""
    parts: dict[str, dict[str, dict[str, int]]] = {n: {} for n in gpus}
    for quota in quotas:
        if not quota.extra or quota.gpus <= 0:
            continue
        shares = {
            n: Fraction(g[quota.gpu_class], quota.gpus) for n, g in gpus.items() if g.get(quota.gpu_class)
        }
        for resource, total in quota.extra.items():
            for namespace, part in resolve_shares(total, shares).items():
                parts[namespace].setdefault(quota.gpu_class, {})[resource] = part
    return parts


def _tenant(
    cluster: Cluster,
    tenant: Tenant,
    gpus: Mapping[str, int],
    quotas: Mapping[str, ClassQuota],
    extra: Mapping[str, Mapping[str, Mapping[str, int]]],
) -> TenantGuarantee:
    named = sorted({*tenant.guaranteed, *tenant.borrowingLimit, *tenant.lendingLimit})
    mine = extra.get(tenant.namespace, {})
    classes = tuple(_class(tenant, c, gpus.get(c, 0), quotas[c], mine.get(c, {})) for c in named)
    queue = f"{cluster.clusterQueue}-{tenant.namespace}"
    return TenantGuarantee(
        tenant.namespace,
        tenant.localQueue,
        queue,
        tenant.weight,
        classes,
        tenant.preemption,
        tenant.flavorFungibility,
    )


def _class(
    tenant: Tenant, gpu_class: str, gpus: int, quota: ClassQuota, extra: Mapping[str, int]
) -> ClassGuarantee:
    borrow = tenant.borrowingLimit.get(gpu_class)
    lend = tenant.lendingLimit.get(gpu_class)
    return ClassGuarantee(
        gpu_class,
        gpus,
        scaled(quota.slots, gpus, quota.gpus),
        tenant.guaranteed.get(gpu_class),
        borrow,
        lend,
        None if borrow is None else scaled(quota.slots, borrow, quota.gpus),
        None if lend is None else scaled(quota.slots, lend, quota.gpus),
        {r: extra.get(r, 0) for r in quota.extra},
    )
