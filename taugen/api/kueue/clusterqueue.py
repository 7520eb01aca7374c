"""ClusterQueue: quota by flavor, and how workloads queue, borrow and preempt."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from taugen.api.kueue.common import FairSharing, KueueObject, LabelSelector, StopPolicy
from taugen.api.kueue.meta import DNSSubdomain, KueueModel
from taugen.api.kueue.policies import (
    AdmissionChecksStrategy,
    AdmissionScope,
    ConcurrentAdmissionPolicy,
    FlavorFungibility,
    Preemption,
)
from taugen.api.kueue.resources import ResourceGroups


class ClusterQueueSpec(KueueModel):
    """A ClusterQueue's quota and policies."""

    resource_groups: ResourceGroups | None = None
    cohort_name: DNSSubdomain | None = Field(
        default=None, description="The Cohort this queue borrows from and lends to."
    )
    queueing_strategy: Literal["StrictFIFO", "BestEffortFIFO"] = "BestEffortFIFO"
    namespace_selector: LabelSelector | None = Field(
        default=None, description="Namespaces whose LocalQueues may use this queue; unset means none."
    )
    flavor_fungibility: FlavorFungibility = Field(default_factory=FlavorFungibility)
    preemption: Preemption = Field(default_factory=Preemption)
    admission_checks_strategy: AdmissionChecksStrategy | None = None
    stop_policy: StopPolicy = "None"
    fair_sharing: FairSharing | None = None
    admission_scope: AdmissionScope | None = None
    concurrent_admission_policy: ConcurrentAdmissionPolicy | None = None


class ClusterQueue(KueueObject):
    """A cluster-scoped pool of quota that LocalQueues submit to."""

    kind: Literal["ClusterQueue"]
    spec: ClusterQueueSpec | None = None
