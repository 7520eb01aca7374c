"""A run (SPEC §7): a tenant's job, placed by a workload profile's policy."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal, Self

from pydantic import Field, StrictInt, StrictStr, field_validator, model_validator

from taugen.core.errors import Rule
from taugen.models.base import API_VERSION, DNSLabel, DNSSubdomain, QuantityField, StrictModel, invalid
from taugen.models.node_filters import NodeRequirement
from taugen.models.profile import GpuClasses, Topology, no_empty_list, one_or_list
from taugen.models.tiers import TierName

MAX_WORKERS = 100_000  # Kubernetes: an Indexed Job has at most 100000 completions


class Launcher(StrEnum):
    TORCHRUN = "torchrun"
    NONE = "none"


class Workload(StrEnum):
    JOB = "job"
    LEADERWORKERSET = "leaderworkerset"
    JOBSET = "jobset"


MAX_GROUP = 10_000  # pods per LeaderWorkerSet group (leader included); far above any GPU domain
MAX_JOBS = 16  # replicatedJobs of a JobSet run (K6): a launcher, workers, a few services


class RunMetadata(StrictModel):
    name: DNSLabel = Field(description="The Job's name; ranks are the pods <name>-<index>")
    namespace: DNSLabel = Field(description="A tenant namespace of the cluster")


class SliceLevel(StrEnum):
    HOST = "host"
    ACCELERATOR_DOMAIN = "accelerator-domain"
    NETWORK_DOMAIN = "network-domain"
    SITE = "site"


SLICE_ORDER = (SliceLevel.SITE, SliceLevel.NETWORK_DOMAIN, SliceLevel.ACCELERATOR_DOMAIN, SliceLevel.HOST)
MAX_SLICE_LAYERS = 3  # Kueue v0.19.2: podset-slice-required-topology-constraints takes 1 to 3


class InnerSlice(StrictModel):
    """An inner slice layer: each slice of the layer above in slices of `size`, each in one
    domain of `level` (Kueue's TASMultiLayerTopology, Beta and on in v0.19.2)."""

    level: SliceLevel = Field(description="A level below the layer above's: host, accelerator-domain, ...")
    size: Annotated[StrictInt, Field(ge=1, le=MAX_WORKERS)] = Field(
        description="Pods per slice; divides the layer above's size"
    )


class Slice(StrictModel):
    """Kueue's podset-slice-required-topology + podset-slice-size: the pods in slices of `size`,
    each slice in one domain of `level`, every slice within the topology's domain (S3); with
    `layers`, Kueue's podset-slice-required-topology-constraints."""

    level: SliceLevel = Field(description="The domain each slice keeps to: host, accelerator-domain, ...")
    size: Annotated[StrictInt, Field(ge=1, le=MAX_WORKERS)] = Field(description="Pods per slice")
    layers: tuple[InnerSlice, ...] = Field(
        default=(),
        description="Inner slice layers, outermost first: each on a level below the one above, "
        "its size dividing the one above's",
        json_schema_extra={"maxItems": MAX_SLICE_LAYERS - 1},
    )

    @field_validator("layers")
    @classmethod
    def _at_most_kueues_layers(cls, value: tuple[InnerSlice, ...]) -> tuple[InnerSlice, ...]:
        if len(value) > MAX_SLICE_LAYERS - 1:
            raise invalid(
                f"{len(value)} inner layers: Kueue takes at most {MAX_SLICE_LAYERS} slice layers "
                "(podset-slice-required-topology-constraints), "
                f"the slice and {MAX_SLICE_LAYERS - 1} inner ones",
                f"keep at most {MAX_SLICE_LAYERS - 1} layers",
                rule="S3",
            )
        return value


class RunPolicy(StrictModel):
    """Overrides of the profile's policy: a field left out keeps the profile's value."""

    priority_tier: TierName | None = Field(
        default=None, description="Changes only the priority pair: a tier of the project (R50)"
    )
    gpu_class: GpuClasses | None = Field(
        default=None, description="Hardware only (R3); a list is an order of preference (R47)"
    )
    topology: Topology | None = Field(
        default=None,
        description="A contract placement (same-network-domain, …) or a level the cluster declares "
        "(R43): {required: rack} or {preferred: rack}",
    )
    slice: Slice | None = Field(
        default=None, description="A Job's ranks in slices, each in one domain of its level (S3)"
    )
    node_affinity: list[NodeRequirement] | None = Field(
        default=None,
        min_length=1,
        description="Required node affinity: the pods go only to nodes matching every requirement",
    )

    _no_empty_list = field_validator("gpu_class", mode="before")(no_empty_list)

    @field_validator("gpu_class")
    @classmethod
    def _one_or_list(cls, value: str | list[str] | None) -> str | list[str] | None:
        return one_or_list(value)


class Leader(StrictModel):
    """A LeaderWorkerSet's leader when it asks for other resources than its workers (K5)."""

    resources: dict[str, QuantityField] = Field(min_length=1, description="Requests of the leader pod")


class Job(StrictModel):
    """One replicatedJob of a JobSet run (K6): an Indexed Job of `workers` pods, one Kueue pod
    set named after it. A field left out takes the run's value (`resources`, `image`,
    `command`) or its policy's (`topology`, `slice`)."""

    name: DNSLabel = Field(description="The replicatedJob's name, and its pod set's")
    workers: Annotated[StrictInt, Field(ge=1, le=MAX_WORKERS)] = Field(
        default=1, description="Pods of its Indexed Job (completions = parallelism)"
    )
    resources: dict[str, QuantityField] | None = Field(
        default=None, min_length=1, description="Requests per pod; replaces the run's `resources`"
    )
    image: StrictStr | None = Field(default=None, min_length=1)
    command: list[StrictStr] | None = Field(default=None, min_length=1)
    topology: Topology | None = Field(default=None, description="This pod set's placement (Kueue only)")
    slice: Slice | None = Field(default=None, description="This pod set's slices (S3, Kueue only)")


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
    jobs: Annotated[list[Job], Field(min_length=1, max_length=MAX_JOBS)] | None = Field(
        default=None, description="jobset: its replicatedJobs, in order, each one pod set (K6)"
    )

    @model_validator(mode="after")
    def _shape_fits_workload(self) -> Self:
        """workers is a Job's; replicas and size a LeaderWorkerSet's (K5); jobs a JobSet's (K6):
        never silently ignored."""
        if self.workload == Workload.JOB:
            wrong = sorted(self.model_fields_set & {"replicas", "size", "leader", "jobs"})
            hint = "set `workload: leaderworkerset`, or use workers for a Job"
            if "jobs" in wrong:
                hint = "set `workload: jobset` for a run of several jobs, or use workers for a Job"
            rule: Rule = "K5"
        elif self.workload == Workload.LEADERWORKERSET:
            wrong = sorted(self.model_fields_set & {"workers", "jobs"})
            wrong += ["launcher"] if self.launcher == Launcher.TORCHRUN else []
            hint = "a LeaderWorkerSet takes replicas and size, and launcher none (K5)"
            rule = "K5"
        else:
            wrong = sorted(self.model_fields_set & {"workers", "replicas", "size", "leader"})
            wrong += ["launcher"] if self.launcher == Launcher.TORCHRUN else []
            hint = "a JobSet takes jobs (each with its own workers) and launcher none (K6)"
            rule = "K6"
        if wrong:
            verb = "does" if len(wrong) == 1 else "do"
            raise invalid(f"{', '.join(wrong)} {verb} not apply to workload {self.workload}", hint, rule=rule)
        return self

    def job_list(self) -> list[Job]:
        """A JobSet's jobs; [] for a Job or a LeaderWorkerSet."""
        return list(self.jobs or []) if self.workload == Workload.JOBSET else []
