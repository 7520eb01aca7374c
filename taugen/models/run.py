"""A run (SPEC §7): a tenant's job, placed by a workload profile's policy."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal, Self

from pydantic import Field, StrictInt, StrictStr, model_validator

from taugen.models.base import API_VERSION, DNSLabel, DNSSubdomain, QuantityField, StrictModel, invalid
from taugen.models.node_filters import NodeRequirement
from taugen.models.profile import PriorityTier, Topology

MAX_WORKERS = 100_000  # Kubernetes: an Indexed Job has at most 100000 completions


class Launcher(StrEnum):
    TORCHRUN = "torchrun"
    NONE = "none"


class Workload(StrEnum):
    JOB = "job"
    LEADERWORKERSET = "leaderworkerset"


MAX_GROUP = 10_000  # pods per LeaderWorkerSet group (leader included); far above any GPU domain


class RunMetadata(StrictModel):
    name: DNSLabel = Field(description="The Job's name; ranks are the pods <name>-<index>")
    namespace: DNSLabel = Field(description="A tenant namespace of the cluster")


class SliceLevel(StrEnum):
    HOST = "host"
    ACCELERATOR_DOMAIN = "accelerator-domain"
    NETWORK_DOMAIN = "network-domain"
    SITE = "site"


class Slice(StrictModel):
    """Kueue's podset-slice-required-topology + podset-slice-size: the pods in slices of `size`,
    each slice in one domain of `level`, every slice within the topology's domain (S3)."""

    level: SliceLevel = Field(description="The domain each slice keeps to: host, accelerator-domain, ...")
    size: Annotated[StrictInt, Field(ge=1, le=MAX_WORKERS)] = Field(description="Pods per slice")


class RunPolicy(StrictModel):
    """Overrides of the profile's policy: a field left out keeps the profile's value."""

    priority_tier: PriorityTier | None = Field(default=None, description="Changes only the priority pair")
    gpu_class: str | None = Field(default=None, description="Hardware only (R3)")
    topology: Topology | None = None
    slice: Slice | None = Field(
        default=None, description="A Job's ranks in slices, each in one domain of its level (S3)"
    )
    node_affinity: list[NodeRequirement] | None = Field(
        default=None,
        min_length=1,
        description="Required node affinity: the pods go only to nodes matching every requirement",
    )


class Leader(StrictModel):
    """A LeaderWorkerSet's leader when it asks for other resources than its workers (K5)."""

    resources: dict[str, QuantityField] = Field(min_length=1, description="Requests of the leader pod")


class Run(StrictModel):
    apiVersion: Literal["taugen.tau.azure.com/v1alpha1"] = API_VERSION
    kind: Literal["Run"]
    metadata: RunMetadata
    cluster: DNSLabel | None = Field(default=None, description="Optional when the project has one cluster")
    profile: DNSSubdomain
    policy: RunPolicy = RunPolicy()
    workers: Annotated[StrictInt, Field(ge=1, le=MAX_WORKERS)] = Field(
        default=1, description="Pods (ranks) of the Indexed Job"
    )
    resources: dict[str, QuantityField] = Field(min_length=1, description="Requests per worker")
    launcher: Launcher = Launcher.NONE
    image: StrictStr = Field(min_length=1)
    command: list[StrictStr] = Field(min_length=1)
    workload: Workload = Field(
        default=Workload.JOB, description="job: an Indexed Job; leaderworkerset: a LeaderWorkerSet (K5)"
    )
    replicas: Annotated[StrictInt, Field(ge=1, le=MAX_WORKERS)] = Field(
        default=1, description="leaderworkerset: groups, each placed on its own (K5)"
    )
    size: Annotated[StrictInt, Field(ge=1, le=MAX_GROUP)] = Field(
        default=1, description="leaderworkerset: pods per group, the leader included"
    )
    leader: Leader | None = Field(
        default=None, description="leaderworkerset: the leader's own requests (default: `resources`)"
    )

    @model_validator(mode="after")
    def _shape_fits_workload(self) -> Self:
        """workers is a Job's; replicas and size a LeaderWorkerSet's (K5): never silently ignored."""
        if self.workload == Workload.JOB:
            wrong = sorted(self.model_fields_set & {"replicas", "size", "leader"})
            hint = "set `workload: leaderworkerset`, or use workers for a Job"
        else:
            wrong = sorted(self.model_fields_set & {"workers"})
            wrong += ["launcher"] if self.launcher == Launcher.TORCHRUN else []
            hint = "a LeaderWorkerSet takes replicas and size, and launcher none (K5)"
        if wrong:
            verb = "does" if len(wrong) == 1 else "do"
            raise invalid(f"{', '.join(wrong)} {verb} not apply to workload {self.workload}", hint, rule="K5")
        return self
