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

from taugen.compile.groups import (
    GroupGuarantee,
    GroupTree,
    check_group_classes,
    check_group_lending,
    check_group_sums,
    check_groups,
    plan_groups,
    root_sums,
)
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
    group: str | None = None  # R51: the tenant's group; None: in the cluster's cohort (T1)
    fungibility: TenantFungibility | None = None  # R47: the tenant's own; None: not written

    def of(self, gpu_class: str) -> ClassGuarantee | None:
        return next((c for c in self.classes if c.gpu_class == gpu_class), None)


@dataclass(frozen=True)
class Guarantees:
    """The cluster's guaranteed tenants by namespace; none: the cluster compiles as §3 says."""

    tenants: tuple[TenantGuarantee, ...] = ()
    groups: tuple[GroupGuarantee, ...] = ()  # R51: nested cohorts, in the project's order

    @property
    def cohort(self) -> bool:
        return bool(self.tenants)

    def group(self, name: str | None) -> GroupGuarantee | None:
        return next((g for g in self.groups if g.name == name), None)

    def path(self, namespace: str) -> tuple[GroupGuarantee, ...]:
        """R51: the tenant's groups, its own first, up to the one under the cluster's cohort."""
        own = self.of(namespace)
        chain: list[GroupGuarantee] = []
        found = self.group(own.group if own else None)
        while found is not None:
            chain.append(found)
            found = next((g for g in self.groups if g.cohort == found.parent), None)
        return tuple(chain)

    def of(self, namespace: str) -> TenantGuarantee | None:
        return next((t for t in self.tenants if t.namespace == namespace), None)

    def shared(self, quota: ClassQuota) -> tuple[int, int]:
        """T3: the class's GPUs and slots no tenant is guaranteed."""
        parts = [c for t in self.tenants if (c := t.of(quota.gpu_class)) is not None]
        pools = [p for g in self.groups if (p := g.of(quota.gpu_class)) is not None]  # R51
        return (
            quota.gpus - sum(c.gpus for c in parts) - sum(p.own for p in pools),
            quota.slots - sum(c.slots for c in parts) - sum(p.own_slots for p in pools),
        )

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
        if self.groups:  # R51: through the cohort tree, as Kueue computes it
            queue = "queue " + namespace if self.of(namespace) is not None else "queue"
            return _tree_borrowable(self, queue, quota)
        own = self.of(namespace)
        if own is None:  # a best-effort tenant: its shared queue borrows from the guaranteed ones
            return self.lendable(quota)
        pool = self.shared(quota)[0] + self.lendable(quota, namespace)
        part = own.of(quota.gpu_class)
        limit = part.borrowing_limit if part is not None else None
        return pool if limit is None else min(limit, pool)

    def group_borrowable(self, name: str, quota: ClassQuota) -> int:
        """R51: at most how many GPUs of the class group `name`'s subtree may borrow from its
        parent's side of the cohort tree, when every queue outside it is idle."""
        group = self.group(name)
        return 0 if group is None else _tree_borrowable(self, group.cohort, quota)

    def recorded(self) -> dict[str, dict[str, int]]:
        """T6: namespace -> gpu-class -> guaranteed GPUs, as the lock records it."""
        return {
            t.namespace: {c.gpu_class: c.gpus for c in t.classes if c.written is not None}
            for t in self.tenants
        }


NO_GUARANTEES = Guarantees()


def _tree_borrowable(guarantees: Guarantees, node: str, quota: ClassQuota) -> int:
    """R51: what a node of the tree (`queue <namespace>`, `queue` for the shared one, or a group's
    Cohort) may borrow of the class when every other queue is idle: Kueue's potentialAvailable
    less its subtree's quota (pkg/cache/scheduler/resource_node.go). A
    node's SubtreeQuota is its nominal quota plus what its children lend it (their subtree less
    the part their lendingLimit keeps); a borrowingLimit caps what a subtree takes from above."""
    c = quota.gpu_class
    parent: dict[str, str | None] = {g.cohort: g.parent for g in guarantees.groups}
    # node -> (nominal, lendingLimit, borrowingLimit, parent cohort); the cluster's cohort is ""
    nodes: dict[str, tuple[int, int | None, int | None, str | None]] = {"": (0, None, None, None)}
    for g in guarantees.groups:
        own = g.of(c)
        up = g.parent if g.parent in parent else ""
        nodes[g.cohort] = (
            (own.own, own.lending_limit, own.borrowing_limit, up) if own else (0, None, None, up)
        )
    for t in guarantees.tenants:
        cohort = next((g.cohort for g in guarantees.groups if g.name == t.group), "")
        part = t.of(c)
        limits = (part.lending_limit, part.borrowing_limit) if part else (None, None)
        nodes["queue " + t.namespace] = (part.gpus if part else 0, *limits, cohort)
    nodes["queue"] = (guarantees.shared(quota)[0], None, None, "")  # T3: the shared queue

    def subtree(name: str) -> int:
        children = [n for n, (*_, up) in nodes.items() if up == name]
        return nodes[name][0] + sum(subtree(n) - local(n) for n in children)

    def local(name: str) -> int:
        lend = nodes[name][1]
        return 0 if lend is None else max(0, subtree(name) - lend)

    def potential(name: str) -> int:
        _, _, borrow, up = nodes[name]
        if up is None:
            return subtree(name)
        found = local(name) + potential(up)
        return found if borrow is None else min(found, subtree(name) + borrow)

    return potential(node) - subtree(node)  # a queue's subtree is its own nominal quota


def plan_guarantees(cluster: Cluster, quotas: Sequence[ClassQuota], doc: Document, index: int) -> Guarantees:
    """Resolve every guarantee of `cluster` (the project's cluster `index`); InputError lists all."""
    problems = ProblemCollector()
    problems.extend(check_tenant_fields(cluster, doc, index))
    problems.extend(check_groups(cluster, doc, index))
    problems.raise_if_any()
    guaranteed = [(j, t) for j, t in enumerate(cluster.tenants) if t.guaranteed]
    if not guaranteed:
        return Guarantees()
    by_class = {q.gpu_class: q for q in quotas}
    problems.extend(check_classes(cluster, guaranteed, by_class, doc, index))
    problems.extend(check_group_classes(cluster, by_class, doc, index))
    problems.extend(cohort_queue_name(cluster, guaranteed, doc, index))
    problems.raise_if_any()
    resolved = GroupTree(cluster, guaranteed, index).resolve(quotas)  # T4 at each level (R51)
    gpus = {t.namespace: resolved.gpus[t.namespace] for _, t in guaranteed}
    problems.extend(check_sums(cluster, root_sums(resolved), doc))
    problems.extend(check_group_sums(resolved, doc, index))
    problems.extend(check_lending(guaranteed, gpus, doc, index))
    problems.extend(check_group_lending(cluster, resolved, doc, index))
    problems.raise_if_any()
    extra = _extra_parts(gpus, quotas)
    group_of = {ns: g.name for g in cluster.tenant_groups for ns in g.tenants}
    tenants = [
        _tenant(cluster, t, gpus[t.namespace], by_class, extra, group_of.get(t.namespace))
        for _, t in guaranteed
    ]
    groups = plan_groups(cluster, resolved, by_class)
    return Guarantees(tuple(sorted(tenants, key=lambda t: t.namespace)), groups)


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
    group: str | None,
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
        group,
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
