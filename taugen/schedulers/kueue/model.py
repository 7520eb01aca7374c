"""Kueue's cluster entry in taugen.yaml (SPEC §1.1, §3): its tenants, and the device resources its
ClusterQueue covers (R44). The default scheduler: an entry without `scheduler:` is Kueue's."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import BeforeValidator, Field, StrictBool, ValidationInfo, field_validator, model_validator

from taugen.core.names import label_key_error
from taugen.models.base import StrictModel, invalid
from taugen.models.groups import TenantGroup
from taugen.models.project import FIXED_RESOURCES, Capabilities, Cluster, Tenant

MAX_EXTRA = 60  # Kueue: 64 covered resources per resource group, less R25's four
KAI_FIELDS = ("queueLabelKey", "grove")  # scheduler kai's own fields, refused here with a hint (K2)


def _extra_resource(value: object) -> object:
    """R44: a resource name (`vpc.amazonaws.com/efa`, `hugepages-1Gi`) or a prefix ending in `/`."""
    if not isinstance(value, str):
        return value
    name = value[:-1] if value.endswith("/") else value
    why = label_key_error(name) if name else "is empty"
    if not value.endswith("/") and why is None and value in FIXED_RESOURCES:
        why = "is covered by the ClusterQueue already (R25)"
    if why is not None:
        raise invalid(
            f"extra resource {value!r} {why}",
            "name a device-plugin resource (vpc.amazonaws.com/efa, hugepages-1Gi) or a prefix (rdma/)",
            rule="R44",
        )
    return value


ExtraResource = Annotated[str, BeforeValidator(_extra_resource)]

# R49: Kueue v0.19.2's Configuration (apis/config/v1beta1): fairSharing.preemptionStrategies
PreemptionStrategy = Literal["LessThanOrEqualToFinalShare", "LessThanInitialShare"]
# the lists pkg/config/validation.go accepts (validStrategySets), the last its default when enabled
STRATEGY_SETS: tuple[tuple[str, ...], ...] = (
    ("LessThanOrEqualToFinalShare",),
    ("LessThanInitialShare",),
    ("LessThanOrEqualToFinalShare", "LessThanInitialShare"),
)
DEFAULT_STRATEGIES = STRATEGY_SETS[-1]


class FairSharingConfig(StrictModel):
    """Kueue's `fairSharing` as the cluster's Kueue Configuration (v1beta1) sets it."""

    enable: StrictBool = Field(
        description="Whether the cluster's Kueue runs with fair sharing (its Configuration's "
        "fairSharing.enable); written here, never defaulted: it must match Kueue's own"
    )
    preemptionStrategies: list[PreemptionStrategy] = Field(
        default_factory=list,
        description="Kueue's fairSharing.preemptionStrategies: [LessThanOrEqualToFinalShare], "
        "[LessThanInitialShare], or both in that order (absent or empty: both, Kueue's default)",
    )

    @field_validator("preemptionStrategies")
    @classmethod
    def _strategy_set(cls, value: list[str], info: ValidationInfo) -> list[str]:
        """R49: with fair sharing on, Kueue refuses any other list (its configuration does not
        load; empty is defaulted to both); with it off Kueue reads no list, nor does taugen."""
        if info.data.get("enable") is True and value and tuple(value) not in STRATEGY_SETS:
            listed = " or ".join(f"[{', '.join(s)}]" for s in STRATEGY_SETS)
            raise invalid(
                f"Kueue accepts no preemptionStrategies [{', '.join(value)}]",
                f"write {listed}, as the cluster's Kueue configuration has it",
                rule="R49",
            )
        return value

    @property
    def strategies(self) -> tuple[str, ...]:
        """The strategies Kueue runs with when enabled: the list, else its default."""
        return tuple(self.preemptionStrategies) or DEFAULT_STRATEGIES


class KueueConfiguration(StrictModel):
    """R49: how the cluster's Kueue is configured. taugen writes no Kueue configuration: this
    records the cluster's, so that validate and simulate reason as that Kueue does."""

    fairSharing: FairSharingConfig | None = Field(
        default=None, description="Kueue's fairSharing; absent: Kueue's default, fair sharing off"
    )


class KueueCluster(Cluster):
    capabilities: ClassVar[Capabilities] = Capabilities(
        cohorts=True,
        lending_limits=True,
        slices=True,
        multikueue=True,
        queue_health=True,
        covered_resources=True,
        fallback_classes=True,
    )
    tenants: list[Tenant] = Field(min_length=1)
    extraResources: Annotated[list[ExtraResource], Field(max_length=MAX_EXTRA)] = Field(
        default_factory=list,
        description="R44: device-plugin resources runs may request (names, or prefixes ending in /), "
        "covered by the ClusterQueue with the GPU nodes' allocatable as quota",
    )
    groups: list[TenantGroup] = Field(
        default_factory=list,
        description="R51: groups of guaranteed tenants, each a Kueue Cohort under the cluster's cohort "
        "(T1) or its parent group's, with quota and limits of its own; absent: one flat cohort",
    )
    kueue: KueueConfiguration = Field(
        default_factory=KueueConfiguration,
        description="R49: the cluster's Kueue configuration as it runs (fair sharing); taugen writes "
        "none, and this must match Kueue's own; absent: Kueue's defaults",
    )
    scheduler: Literal["kueue"] = Field(
        default="kueue", description="kueue (SPEC §3, the default) or kai (SPEC §8)"
    )

    @property
    def extra_resources(self) -> tuple[str, ...]:
        return tuple(self.extraResources)

    @property
    def tenant_groups(self) -> tuple[TenantGroup, ...]:
        return tuple(self.groups)

    @property
    def fair_sharing(self) -> FairSharingConfig | None:
        """R49: Kueue's fair sharing when the cluster's Kueue runs with it, else None."""
        found = self.kueue.fairSharing
        return found if found is not None and found.enable else None

    @property
    def weights_apply(self) -> bool:
        """T2's fairSharing.weight counts only when Kueue runs with fair sharing (R49)."""
        return self.fair_sharing is not None

    @model_validator(mode="before")
    @classmethod
    def _kai_fields_need_kai(cls, data: Any) -> Any:
        """gpuQuota, queueLabelKey and grove mean nothing to Kueue: refuse, not ignore (K2).
        weight is a Kueue fair-sharing weight of a guaranteed tenant's ClusterQueue (T2, T7); what
        needs a guarantee is checked where the file's lines are known (compile/guarantee_checks.py)."""
        if not isinstance(data, dict):
            return data
        tenants = data.get("tenants")
        listed = tenants if isinstance(tenants, list) else []
        used = ["gpuQuota"] if any(isinstance(t, dict) and "gpuQuota" in t for t in listed) else []
        used += sorted(f for f in KAI_FIELDS if f in data)
        if used:
            raise invalid(
                f"cluster {data.get('name')} sets {', '.join(used)}, which only scheduler kai reads",
                "add `scheduler: kai` to the cluster, or remove them",
                rule="K2",
            )
        return data
