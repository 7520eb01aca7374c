"""KAI Scheduler's cluster entry in taugen.yaml (SPEC §8): tenants with a class-less gpuQuota (T7),
the pod label naming the queue (K4) and Grove's binding."""

from __future__ import annotations

from typing import Any, ClassVar, Literal, Self

from pydantic import Field, StrictBool, model_validator

from taugen.models.base import invalid
from taugen.models.project import Capabilities, Cluster, Count, LabelKey, Tenant

KAI_QUEUE_LABEL = "kai.scheduler/queue"  # K4: KAI's default; Run:ai installs use runai/queue


class KaiTenant(Tenant):
    gpuQuota: Count = Field(
        default=0,
        description="scheduler kai: the leaf Queue's deserved GPUs, class-less (K2, T7)",
    )

    @model_validator(mode="after")
    def _one_quota_form(self) -> Self:
        """T7: gpuQuota is the class-less form of a guarantee; both at once say two things."""
        if "gpuQuota" in self.model_fields_set and self.guaranteed:
            raise invalid(
                f"tenant {self.namespace} sets both gpuQuota and guaranteed",
                "keep guaranteed (per gpu-class) and remove gpuQuota",
                rule="T7",
            )
        return self


class KaiCluster(Cluster):
    capabilities: ClassVar[Capabilities] = Capabilities(
        cohorts=False,
        lending_limits=False,
        slices=False,
        multikueue=False,
        queue_health=False,
        covered_resources=False,
    )
    tenants: list[KaiTenant] = Field(min_length=1)
    scheduler: Literal["kai"] = Field(description="kai (SPEC §8)")
    queueLabelKey: LabelKey = Field(
        default=KAI_QUEUE_LABEL, description="scheduler kai: the pod label naming the queue (K4)"
    )
    grove: StrictBool = Field(
        default=False, description="scheduler kai: also emit Grove's ClusterTopologyBinding (§8)"
    )

    @model_validator(mode="before")
    @classmethod
    def _extra_resources_need_kueue(cls, data: Any) -> Any:
        """R44: extraResources become ClusterQueue quota; KAI queues count GPUs only: refuse."""
        if isinstance(data, dict) and "extraResources" in data:
            raise invalid(
                f"cluster {data.get('name')} sets extraResources, which only scheduler kueue reads",
                "remove extraResources: KAI queues hold no quota for device resources",
                rule="R44",
            )
        return data
