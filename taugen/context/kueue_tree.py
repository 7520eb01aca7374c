"""A compiled Kueue tree's ResourceFlavors, ClusterQueues, Cohorts and LocalQueues, as
preflight and simulate read them (§3; T1-T5: a cohort of one ClusterQueue per guaranteed
tenant and the shared one, each tenant's LocalQueue pointing to its own queue)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from taugen.api.kueue.clusterqueue import ClusterQueue
from taugen.api.kueue.cohort import Cohort
from taugen.api.kueue.common import FairSharing, LabelSelector
from taugen.api.kueue.flavor import ResourceFlavor, Toleration
from taugen.api.kueue.policies import FlavorFungibility, Preemption
from taugen.api.kueue.queues import LocalQueue
from taugen.api.kueue.resources import ResourceGroup
from taugen.core.quantity import Quantity

NAMESPACE_NAME = "kubernetes.io/metadata.name"  # the one label every namespace carries


@dataclass(frozen=True)
class Flavor:
    name: str
    node_labels: dict[str, str]
    topology: str | None
    tolerations: tuple[Toleration, ...] = ()  # spec.tolerations (taugen compiles none; a --tree may)


@dataclass(frozen=True)
class QueueFlavor:
    name: str
    nominal: dict[str, Quantity]  # resource -> nominalQuota
    borrowing: dict[str, Quantity] = field(default_factory=dict)  # resource -> borrowingLimit, when set
    lending: dict[str, Quantity] = field(default_factory=dict)  # resource -> lendingLimit, when set


@dataclass(frozen=True)
class CompiledQueue:
    name: str
    covered: tuple[str, ...]
    flavors: tuple[QueueFlavor, ...]  # in the queue's order
    cohort: str | None = None
    selector: LabelSelector | None = None  # namespaceSelector; None admits no namespace
    preemption: Preemption = field(default_factory=Preemption)
    fungibility: FlavorFungibility = field(default_factory=FlavorFungibility)  # R47
    weight: float = 1.0  # spec.fairSharing.weight (R49: Kueue reads it only with fair sharing on)

    def flavor(self, name: str) -> QueueFlavor | None:
        return next((f for f in self.flavors if f.name == name), None)

    def admits(self, namespace: str) -> bool:
        return self.selector is not None and selects(self.selector, {NAMESPACE_NAME: namespace})


@dataclass(frozen=True)
class CompiledCohort:
    name: str
    parent: str | None
    flavors: tuple[QueueFlavor, ...] = ()
    weight: float = 1.0  # spec.fairSharing.weight, as a ClusterQueue's


@dataclass(frozen=True)
class KueueTree:
    flavors: tuple[Flavor, ...]
    queue: CompiledQueue  # the cluster's `clusterQueue` (the shared one, T3)
    queues: tuple[CompiledQueue, ...] = ()  # every ClusterQueue of the tree, by name
    cohorts: tuple[CompiledCohort, ...] = ()
    local_queues: dict[tuple[str, str], str] = field(default_factory=dict)  # (namespace, name) -> CQ

    def queue_of(self, namespace: str, local_queue: str) -> CompiledQueue | None:
        """The ClusterQueue a namespace's LocalQueue submits to; None when it names none of the tree's."""
        name = self.local_queues.get((namespace, local_queue))
        return next((q for q in self.queues if q.name == name), None)


def kueue_tree(
    flavors: Sequence[ResourceFlavor],
    queue: ClusterQueue,
    queues: Sequence[ClusterQueue] = (),
    cohorts: Sequence[Cohort] = (),
    local_queues: Sequence[LocalQueue] = (),
) -> KueueTree:
    main = _queue(queue)
    every = tuple(sorted({q.name: q for q in (main, *map(_queue, queues))}.values(), key=lambda q: q.name))
    return KueueTree(
        tuple(_flavor(f) for f in flavors),
        main,
        every,
        tuple(sorted((_cohort(c) for c in cohorts), key=lambda c: c.name)),
        {
            (lq.metadata.namespace or "", lq.metadata.name or ""): lq.spec.cluster_queue
            for lq in local_queues
            if lq.spec is not None and lq.spec.cluster_queue
        },
    )


def selects(selector: LabelSelector, labels: dict[str, str]) -> bool:
    """A Kubernetes label selector on a set of labels (an empty selector matches everything)."""
    if any(labels.get(k) != v for k, v in (selector.match_labels or {}).items()):
        return False
    for rule in selector.match_expressions or []:
        present, values = rule.key in labels, rule.values or []
        matches = {
            "In": present and labels.get(rule.key) in values,
            "NotIn": not present or labels.get(rule.key) not in values,
            "Exists": present,
            "DoesNotExist": not present,
        }
        if not matches.get(rule.operator, False):
            return False
    return True


def _flavor(flavor: ResourceFlavor) -> Flavor:
    spec = flavor.spec
    labels = dict(spec.node_labels or {}) if spec else {}
    tolerations = tuple(spec.tolerations or ()) if spec else ()
    return Flavor(flavor.metadata.name or "", labels, spec.topology_name if spec else None, tolerations)


def _groups(groups: Sequence[ResourceGroup]) -> tuple[QueueFlavor, ...]:
    return tuple(
        QueueFlavor(
            f.name,
            {r.name: Quantity.parse(r.nominal_quota) for r in f.resources},
            {r.name: Quantity.parse(r.borrowing_limit) for r in f.resources if r.borrowing_limit is not None},
            {r.name: Quantity.parse(r.lending_limit) for r in f.resources if r.lending_limit is not None},
        )
        for g in groups
        for f in g.flavors
    )


def _queue(queue: ClusterQueue) -> CompiledQueue:
    spec = queue.spec
    groups = (spec.resource_groups or []) if spec else []
    covered = tuple(r for g in groups for r in g.covered_resources)
    if spec is None:
        return CompiledQueue(queue.metadata.name or "", covered, _groups(groups))
    return CompiledQueue(
        queue.metadata.name or "",
        covered,
        _groups(groups),
        spec.cohort_name,
        spec.namespace_selector,
        spec.preemption,
        spec.flavor_fungibility,
        fair_weight(spec.fair_sharing),
    )


def _cohort(cohort: Cohort) -> CompiledCohort:
    spec = cohort.spec
    groups = (spec.resource_groups or []) if spec else []
    return CompiledCohort(
        cohort.metadata.name or "",
        spec.parent_name if spec else None,
        _groups(groups),
        fair_weight(spec.fair_sharing if spec else None),
    )


def fair_weight(found: FairSharing | None) -> float:
    """Kueue's parseFairWeight: the quantity as a number; absent, 1."""
    return 1.0 if found is None else float(Quantity.parse(found.weight).value)
