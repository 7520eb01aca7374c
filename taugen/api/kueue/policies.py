"""ClusterQueue policies: preemption, flavor fungibility, admission checks and admission scope."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field, StrictStr

from taugen.api.kueue.meta import DNSSubdomain, Int32, KueueModel

MAX_ADMISSION_CHECKS = 64

PreemptionPolicy = Literal["Never", "LowerPriority"]
FungibilityAction = Literal["MayStopSearch", "TryNextFlavor"]


def _unique(names: list[str]) -> list[str]:
    if len(set(names)) < len(names):
        raise ValueError("a flavor is listed more than once")
    return names


# The CRD's list-type "set": the API server rejects a repeated item.
FlavorSet = Annotated[
    list[DNSSubdomain],
    AfterValidator(_unique),
    Field(max_length=MAX_ADMISSION_CHECKS, json_schema_extra={"uniqueItems": True}),
]


class BorrowWithinCohort(KueueModel):
    """Whether a queue may preempt in its cohort while it borrows."""

    policy: PreemptionPolicy = "Never"
    max_priority_threshold: Int32 | None = Field(
        default=None, description="Only workloads at or below this priority may be preempted."
    )


class Preemption(KueueModel):
    """Which workloads a pending workload of this queue may preempt."""

    reclaim_within_cohort: Literal["Never", "LowerPriority", "Any"] = "Never"
    borrow_within_cohort: BorrowWithinCohort = Field(default_factory=BorrowWithinCohort)
    within_cluster_queue: Literal["Never", "LowerPriority", "LowerOrNewerEqualPriority"] = "Never"


class FlavorFungibility(KueueModel):
    """When to stop at the current flavor rather than try the next one."""

    when_can_borrow: FungibilityAction = "MayStopSearch"
    when_can_preempt: FungibilityAction = "TryNextFlavor"
    preference: Literal["BorrowingOverPreemption", "PreemptionOverBorrowing"] | None = None


class AdmissionCheckRule(KueueModel):
    """An AdmissionCheck to pass, on all flavors or only the listed ones."""

    name: Annotated[StrictStr, Field(min_length=1, max_length=316)]
    on_flavors: FlavorSet | None = None


class AdmissionChecksStrategy(KueueModel):
    """The admission checks a workload of this queue must pass."""

    admission_checks: Annotated[
        list[AdmissionCheckRule], Field(min_length=1, max_length=MAX_ADMISSION_CHECKS)
    ]


class AdmissionScope(KueueModel):
    """Whether admission takes past usage into account (admission fair sharing)."""

    admission_mode: Literal["UsageBasedAdmissionFairSharing", "NoAdmissionFairSharing"]


class MigrationConstraints(KueueModel):
    """Bounds on how far a workload may move between flavors."""

    last_acceptable_flavor_name: DNSSubdomain | None = None


class Migration(KueueModel):
    """How an admitted workload moves to a preferred flavor."""

    mode: Literal["TryPreferredFlavors", "RetainFirstAdmission"]
    constraints: MigrationConstraints | None = None


class ConcurrentAdmissionPolicy(KueueModel):
    """Admitting a workload on one flavor while it also tries more preferred ones."""

    migration: Migration
