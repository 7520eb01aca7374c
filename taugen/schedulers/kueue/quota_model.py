"""Kueue quota as preflight and the simulator count it (T8): per ClusterQueue and Cohort, per
(flavor, resource), with borrowing and lending limits and the classical preemption policy."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

FlavorResource = tuple[str, str]  # (flavor, resource): the unit Kueue counts quota in
ReclaimPolicy = Literal["Never", "LowerPriority", "Any"]
WithinPolicy = Literal["Never", "LowerPriority", "LowerOrNewerEqualPriority"]


@dataclass(frozen=True)
class Quota:
    nominal: int
    borrowing_limit: int | None = None  # None: may borrow without limit
    lending_limit: int | None = None  # None: all of it may be lent


@dataclass(frozen=True)
class PreemptionPolicy:
    """A ClusterQueue's classical preemption policy (Kueue's ClusterQueuePreemption)."""

    reclaim_within_cohort: ReclaimPolicy = "Never"
    borrow_within_cohort: Literal["Never", "LowerPriority"] = "Never"
    max_priority_threshold: int | None = None  # borrowWithinCohort.maxPriorityThreshold
    within_cluster_queue: WithinPolicy = "Never"


@dataclass(frozen=True)
class Fungibility:
    """A ClusterQueue's flavorFungibility (R47), Kueue's defaults when the queue sets none."""

    when_can_borrow: Literal["MayStopSearch", "TryNextFlavor"] = "MayStopSearch"
    when_can_preempt: Literal["MayStopSearch", "TryNextFlavor"] = "TryNextFlavor"
    preference: Literal["BorrowingOverPreemption", "PreemptionOverBorrowing"] | None = None


@dataclass(frozen=True)
class SimQueue:
    """A ClusterQueue (T2, T3); quotas per (flavor, resource) it covers."""

    name: str
    quotas: Mapping[FlavorResource, Quota]
    cohort: str | None = None
    preemption: PreemptionPolicy = PreemptionPolicy()
    fungibility: Fungibility = Fungibility()
    weight: float = 1.0  # fairSharing.weight (R49: read only when Kueue runs with fair sharing)


@dataclass(frozen=True)
class SimCohort:
    name: str
    parent: str | None = None
    quotas: Mapping[FlavorResource, Quota] = field(default_factory=dict)
    weight: float = 1.0  # fairSharing.weight, as a ClusterQueue's
