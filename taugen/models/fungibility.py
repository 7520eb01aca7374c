"""A guaranteed tenant's flavorFungibility (SPEC R47): Kueue's FlavorFungibility on the tenant's
own ClusterQueue, which says whether a workload tries the next flavor of its resource group
before borrowing or preempting in the one being evaluated."""

from __future__ import annotations

from typing import Any, Literal, Self

from pydantic import Field, model_validator

from taugen.models.base import StrictModel, invalid

Policy = Literal["MayStopSearch", "TryNextFlavor"]


class TenantFungibility(StrictModel):
    """Kueue v0.19.2 (apis/kueue/v1beta2 FlavorFungibility): absent fields keep Kueue's defaults
    (whenCanBorrow MayStopSearch, whenCanPreempt TryNextFlavor) and are not written."""

    whenCanBorrow: Policy | None = Field(
        default=None,
        description="MayStopSearch (Kueue's default): take a flavor that fits by borrowing; "
        "TryNextFlavor: try the next flavor first",
    )
    whenCanPreempt: Policy | None = Field(
        default=None,
        description="TryNextFlavor (Kueue's default): try the next flavor before preempting; "
        "MayStopSearch: preempt in the flavor being evaluated",
    )
    preference: Literal["BorrowingOverPreemption", "PreemptionOverBorrowing"] | None = Field(
        default=None,
        description="When every flavor needs borrowing or preemption: which to prefer (only with "
        "both policies TryNextFlavor)",
    )

    @property
    def can_borrow(self) -> Policy:
        return self.whenCanBorrow or "MayStopSearch"

    @property
    def can_preempt(self) -> Policy:
        return self.whenCanPreempt or "TryNextFlavor"

    @model_validator(mode="after")
    def _kueue_accepts(self) -> Self:
        """Kueue v0.19.2's CEL rule and webhook (clusterqueue_webhook.go validateFlavorFungibility)."""
        if self.preference is not None and (self.can_borrow, self.can_preempt) != (
            "TryNextFlavor",
            "TryNextFlavor",
        ):
            raise invalid(
                f"preference {self.preference} with whenCanBorrow {self.can_borrow} and "
                f"whenCanPreempt {self.can_preempt}: Kueue requires both to be TryNextFlavor",
                "set whenCanBorrow: TryNextFlavor and whenCanPreempt: TryNextFlavor, or remove preference",
                rule="R47",
            )
        return self

    def as_spec(self) -> dict[str, Any]:
        """The ClusterQueue's spec.flavorFungibility: the fields the tenant set."""
        return self.model_dump(mode="json", exclude_none=True)
