"""A guaranteed tenant's preemption settings (SPEC R48): Kueue's ClusterQueuePreemption on the
tenant's own ClusterQueue, with T2's values as the defaults (Kueue's own default is Never)."""

from __future__ import annotations

from typing import Annotated, Any, Literal, Self

from pydantic import Field, StrictInt, model_validator

from taugen.models.base import StrictModel, invalid

INT32 = 2**31 - 1  # Kueue: maxPriorityThreshold is an int32, as priorities are


class TenantBorrowing(StrictModel):
    policy: Literal["Never", "LowerPriority"] = Field(
        default="LowerPriority",
        description="While borrowing, preempt lower-priority workloads of other queues in the cohort",
    )
    maxPriorityThreshold: Annotated[StrictInt, Field(ge=-INT32 - 1, le=INT32)] | None = Field(
        default=None, description="Only workloads at or below this priority may be preempted so"
    )

    @model_validator(mode="after")
    def _threshold_needs_a_policy(self) -> Self:
        if self.policy == "Never" and self.maxPriorityThreshold is not None:
            raise invalid(
                "borrowWithinCohort sets maxPriorityThreshold with policy Never: it bounds nothing",
                "set policy: LowerPriority, or remove maxPriorityThreshold",
                rule="R48",
            )
        return self


class TenantPreemption(StrictModel):
    reclaimWithinCohort: Literal["Never", "LowerPriority", "Any"] = Field(
        default="Any", description="Preempt workloads of other queues borrowing this queue's quota"
    )
    borrowWithinCohort: TenantBorrowing = Field(
        default_factory=TenantBorrowing,
        description="Preempting while borrowing (default policy LowerPriority; Never when "
        "reclaimWithinCohort is Never)",
    )
    withinClusterQueue: Literal["Never", "LowerPriority", "LowerOrNewerEqualPriority"] = Field(
        default="LowerPriority", description="Preempt the tenant's own lower-priority workloads"
    )

    @model_validator(mode="before")
    @classmethod
    def _never_reclaiming_never_borrows(cls, data: Any) -> Any:
        """A queue that never reclaims gets borrowWithinCohort Never unless it says otherwise:
        Kueue refuses the other policy beside reclaimWithinCohort Never."""
        if (
            isinstance(data, dict)
            and data.get("reclaimWithinCohort") == "Never"
            and "borrowWithinCohort" not in data
        ):
            return {**data, "borrowWithinCohort": {"policy": "Never"}}
        return data

    @model_validator(mode="after")
    def _kueue_accepts(self) -> Self:
        """Kueue v0.19.2's CEL rule and webhook (clusterqueue_webhook.go validatePreemption)."""
        if self.reclaimWithinCohort == "Never" and self.borrowWithinCohort.policy != "Never":
            raise invalid(
                "reclaimWithinCohort Never with borrowWithinCohort.policy "
                f"{self.borrowWithinCohort.policy}: Kueue refuses the pair",
                "set reclaimWithinCohort to LowerPriority or Any, or borrowWithinCohort.policy to Never",
                rule="R48",
            )
        return self

    def as_spec(self) -> dict[str, Any]:
        """The ClusterQueue's spec.preemption."""
        borrow: dict[str, Any] = {"policy": self.borrowWithinCohort.policy}
        if self.borrowWithinCohort.maxPriorityThreshold is not None:
            borrow["maxPriorityThreshold"] = self.borrowWithinCohort.maxPriorityThreshold
        return {
            "reclaimWithinCohort": self.reclaimWithinCohort,
            "borrowWithinCohort": borrow,
            "withinClusterQueue": self.withinClusterQueue,
        }
