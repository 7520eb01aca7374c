"""A compiled cohort as preflight and the simulation core count it (T8): every ClusterQueue's quota per
flavor and resource with its limits, its preemption policy, and each run's ClusterQueue
through its LocalQueue (T5)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from taugen.core.quantity import Quantity
from taugen.schedulers.kueue.quota_model import (
    FlavorResource,
    Fungibility,
    PreemptionPolicy,
    Quota,
    SimCohort,
    SimQueue,
)
from taugen.schedulers.kueue.units import units

if TYPE_CHECKING:  # the committed tree is read by the context floor above
    from taugen.context.kueue_tree import CompiledQueue, KueueTree, QueueFlavor
    from taugen.engines.runs.resolution import RunContext


def sim_queues(tree: KueueTree) -> tuple[SimQueue, ...]:
    return tuple(_queue(q) for q in tree.queues)


def sim_cohorts(tree: KueueTree) -> tuple[SimCohort, ...]:
    return tuple(SimCohort(c.name, c.parent, _quotas(c.flavors), c.weight) for c in tree.cohorts)


def queue_of(tree: KueueTree, context: RunContext) -> CompiledQueue:
    """The ClusterQueue of the run's LocalQueue; the cluster's `clusterQueue` when the tree
    has no such LocalQueue (a tree built before the tenant existed)."""
    found = tree.queue_of(context.run.metadata.namespace, context.tenant.localQueue)
    return found if found is not None else tree.queue


def _queue(queue: CompiledQueue) -> SimQueue:
    policy = queue.preemption
    preemption = PreemptionPolicy(
        policy.reclaim_within_cohort,
        policy.borrow_within_cohort.policy,
        policy.borrow_within_cohort.max_priority_threshold,
        policy.within_cluster_queue,
    )
    own = queue.fungibility
    fungibility = Fungibility(own.when_can_borrow, own.when_can_preempt, own.preference)  # R47
    return SimQueue(queue.name, _quotas(queue.flavors), queue.cohort, preemption, fungibility, queue.weight)


def _quotas(flavors: tuple[QueueFlavor, ...]) -> dict[FlavorResource, Quota]:
    return {
        (f.name, resource): Quota(
            units(resource, nominal), _limit(f.borrowing, resource), _limit(f.lending, resource)
        )
        for f in flavors
        for resource, nominal in f.nominal.items()
    }


def _limit(limits: Mapping[str, Quantity], resource: str) -> int | None:
    return units(resource, limits[resource]) if resource in limits else None
