"""ClusterQueue: quota by flavor, and how workloads queue, borrow and preempt."""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar, Literal

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
from taugen.api.rules import Breach, Json, ObjectCheck, places, text


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


TRY_NEXT = "TryNextFlavor"
NEVER = "Never"


def _default(model: type[KueueModel], field: str) -> str:
    """The default the API server applies before its rules: the model's (they agree)."""
    return str(model.model_fields[field].default)


def _borrowing(spec: Json) -> Iterator[Breach]:
    if "cohortName" not in spec:
        for at, quota in places(spec, "resourceGroups[].flavors[].resources[]"):
            if "borrowingLimit" in quota:
                yield Breach(
                    (*at, "borrowingLimit"), "a borrowingLimit needs a cohortName: there is nothing to borrow"
                )


def _preference(value: Json) -> Iterator[Breach]:
    borrow = value.get("whenCanBorrow", _default(FlavorFungibility, "when_can_borrow"))
    preempt = value.get("whenCanPreempt", _default(FlavorFungibility, "when_can_preempt"))
    typed = isinstance(borrow, str) and isinstance(preempt, str)
    if "preference" in value and typed and (borrow, preempt) != (TRY_NEXT, TRY_NEXT):
        said = f"whenCanBorrow is {borrow}, whenCanPreempt {preempt}"
        yield Breach(("preference",), f"a preference applies only when both try the next flavor ({said})")


def _borrow_within(value: Json) -> Iterator[Breach]:
    reclaim = value.get("reclaimWithinCohort", _default(Preemption, "reclaim_within_cohort"))
    within = value.get("borrowWithinCohort")
    policy = text(within, "policy") if isinstance(within, dict) else None
    if reclaim == NEVER and policy is not None and policy != NEVER:
        yield Breach(
            ("borrowWithinCohort", "policy"),
            f"borrowWithinCohort.policy is {policy} but reclaimWithinCohort is Never: a queue that never "
            "preempts in its cohort cannot preempt there to borrow either",
        )


CLUSTER_QUEUE_CHECKS = (
    ObjectCheck(
        "borrowing-cohort", "spec", _borrowing, "set the queue's cohortName, or drop the borrowingLimit"
    ),
    ObjectCheck(
        "fungibility-preference",
        "spec.flavorFungibility",
        _preference,
        "set whenCanBorrow and whenCanPreempt to TryNextFlavor, or drop the preference",
    ),
    ObjectCheck(
        "preemption-borrow",
        "spec.preemption",
        _borrow_within,
        "set reclaimWithinCohort to LowerPriority or Any, or borrowWithinCohort.policy to Never",
    ),
)


class ClusterQueue(KueueObject):
    """A cluster-scoped pool of quota that LocalQueues submit to."""

    kind: Literal["ClusterQueue"]
    spec: ClusterQueueSpec | None = None

    checks: ClassVar[tuple[ObjectCheck, ...]] = CLUSTER_QUEUE_CHECKS
