"""The project file `taugen.yaml` (SPEC §1.1)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, ClassVar, Literal, Self

from pydantic import (
    BeforeValidator,
    Field,
    StrictInt,
    model_validator,
)

from taugen.core.names import label_key_error, label_value_error
from taugen.core.quantity import MAX_MAGNITUDE
from taugen.models.base import (
    API_VERSION,
    DNSLabel,
    DNSSubdomain,
    Duration,
    ProjectPath,
    StrictModel,
    invalid,
    name_limit,
)
from taugen.models.fungibility import TenantFungibility
from taugen.models.gitops import GitOps, repo_folder
from taugen.models.levels import ClusterTopology
from taugen.models.multikueue import MultiKueue
from taugen.models.platform import DEFAULT_GPU_TAINTS, GpuTaint, TopologyLabels, TopologyPreset
from taugen.models.preemption import TenantPreemption
from taugen.models.share import ClassKey, Share
from taugen.models.tiers import Tier, Tiers

if TYPE_CHECKING:
    from taugen.models.groups import TenantGroup

QueueName = Annotated[DNSSubdomain, name_limit(63, "LocalQueue")]
Count = Annotated[StrictInt, Field(ge=0, le=MAX_MAGNITUDE)]  # issue 17 item 7: an int64, as Kubernetes
DEFAULT_SHARD_SIZE = 2000  # SPEC G1
# A Flux inventory entry is under 100 bytes: 5,000 keep a shard's Kustomization far below 1 MiB
MAX_SHARD_SIZE = 5000


def _label_key(value: object) -> object:
    if isinstance(value, str) and (why := label_key_error(value)):
        raise invalid(f"{value!r} is not a label key: {why}", "write a label key such as runai/queue")
    return value


LabelKey = Annotated[str, BeforeValidator(_label_key)]


def _site(value: object) -> object:
    if isinstance(value, str) and (why := label_value_error(value)):
        raise invalid(
            f"site {value!r} {why}", "a site becomes the tau.azure.com/site label value", rule="R15"
        )
    return value


@dataclass(frozen=True)
class Capabilities:
    """What a cluster's scheduler supports, read where the project is checked and compiled."""

    cohorts: bool  # a guaranteed tenant gets its own queue in the cluster's cohort (T2)
    lending_limits: bool  # a tenant's lendingLimit can be expressed (T2; KAI cannot, T7)
    slices: bool  # policy.slice and a JobSet job's own topology or slice (S3, K6)
    multikueue: bool  # a MultiKueue manager or worker (M3)
    queue_health: bool  # Flux health checks on its queue kinds (G6)
    covered_resources: bool  # its queues cover named resources; a run asking another is refused (R45)
    fallback_classes: bool = False  # a run may list gpu classes, its queues choose among them (R47)


class Tenant(StrictModel):
    namespace: DNSLabel = Field(description="Namespace that may submit work (gets a LocalQueue)")
    localQueue: QueueName = "taugrid"
    weight: Count = Field(
        default=1,
        description="Fair-sharing weight: the tenant ClusterQueue's fairSharing.weight (T2), "
        "or the KAI leaf Queue's overQuotaWeight (K2, T7)",
    )
    guaranteed: dict[ClassKey, Share] = Field(
        default_factory=dict,
        description='GPUs guaranteed per gpu-class: a count (64) or a share of the class quota ("50%"); '
        "the tenant gets its own ClusterQueue in the cluster's cohort (T2, T4)",
    )
    borrowingLimit: dict[ClassKey, Count] = Field(
        default_factory=dict,
        description="Per gpu-class: at most this many GPUs borrowed from the cohort; absent: no limit (T2)",
    )
    lendingLimit: dict[ClassKey, Count] = Field(
        default_factory=dict,
        description="Per gpu-class: at most this many guaranteed GPUs lent to the cohort; "
        "absent: all of them (T2)",
    )
    preemption: TenantPreemption | None = Field(
        default=None,
        description="R48: the tenant ClusterQueue's preemption (Kueue's values); absent: T2's "
        "(reclaimWithinCohort Any, borrowWithinCohort LowerPriority, withinClusterQueue LowerPriority)",
    )
    flavorFungibility: TenantFungibility | None = Field(
        default=None,
        description="R47: the tenant ClusterQueue's flavorFungibility (Kueue's values): whether a run "
        "with fallback classes tries the next class before borrowing or preempting; absent: Kueue's defaults",
    )


class Cluster(StrictModel):
    """What every scheduler's cluster entry has. Each scheduler's package subclasses it with its
    own `scheduler: Literal[...]`, `tenants` and fields (schedulers/kueue/model.py ...); the
    registry makes `Project.clusters` the union of those, discriminated by `scheduler`."""

    capabilities: ClassVar[Capabilities]
    if TYPE_CHECKING:  # declared by every subclass, in its own field order (the schema's)
        scheduler: str
        tenants: Sequence[Tenant]

    name: DNSLabel = Field(description="Names the output folder out/<name>/")
    inventory: Annotated[ProjectPath, Field(description="ClusterInventory or kubectl NodeList file")]
    rules: list[ProjectPath] = Field(default_factory=list, description="Files holding extraNodeLabelRules")
    clusterQueue: DNSSubdomain = "taugrid"
    maxInventoryAge: Duration | None = Field(
        default=None, description="An older inventory observedAt fails closed (R31)"
    )
    nodeLabels: Literal["node", "nfd"] = Field(
        default="node",
        description="node: partial Nodes (R29); nfd: node-feature-discovery NodeFeatureRules, same labels",
    )
    shardSize: Annotated[StrictInt, Field(ge=1, le=MAX_SHARD_SIZE)] = Field(
        default=DEFAULT_SHARD_SIZE,
        description="G1: at most this many node-label objects per shard (out/<name>/nodes/<shard>/)",
    )
    site: Annotated[str, BeforeValidator(_site)] | None = Field(
        default=None, description="R41: the site of nodes neither they nor the inventory place"
    )
    topologyLabels: TopologyPreset | TopologyLabels = Field(
        default="default", description="R37: a preset (default, eks, gke, nvidia) or the label keys to read"
    )
    topology: ClusterTopology | None = Field(
        default=None, description="R42: the fleet's own topology levels, and the placements mapped onto them"
    )
    gpuNodeTaints: Annotated[list[GpuTaint], Field(max_length=8)] = Field(
        default_factory=lambda: list(DEFAULT_GPU_TAINTS),
        description="R39: the taints the GPU nodes carry (default sku=gpu:NoSchedule, R24)",
    )

    @property
    def extra_resources(self) -> tuple[str, ...]:
        """R44: the device resources the cluster's queues cover beyond R25's (none by default)."""
        return ()

    @property
    def tenant_groups(self) -> tuple[TenantGroup, ...]:
        """R51: the groups of guaranteed tenants, each a nested Kueue Cohort (none by default)."""
        return ()

    @property
    def weights_apply(self) -> bool:
        """Whether the scheduler reads tenants' `weight` (KAI's overQuotaWeight always; Kueue's
        fairSharing.weight only with fair sharing on, R49)."""
        return True


# R25's covered resources: an extra resource cannot be one of them (a resource is in one group only)
FIXED_RESOURCES = ("cpu", "memory", "nvidia.com/gpu", "tau.azure.com/torchrun-host-slot")


if TYPE_CHECKING:  # at run time the union schedulers/registry.py makes of the schedulers' entries
    ClusterEntry = Cluster


class Project(StrictModel):
    apiVersion: Literal["taugen.tau.azure.com/v1alpha1"] = API_VERSION
    kind: Literal["Project"]
    output: ProjectPath = "out"
    profiles: list[ProjectPath] | None = Field(
        default=None, description="Profile files or folders; default: the built-in profiles"
    )
    clusters: list[ClusterEntry] = Field(min_length=1)  # completed by schedulers/registry.py
    crds: list[ProjectPath] | None = Field(
        default=None,
        description="Upstream CRD files, folders or globs (relative to this file), e.g. the Kueue "
        "release manifest the repository deploys: their schemas and CEL rules validate the tree",
    )
    gitops: GitOps | None = Field(
        default=None, description="G6: generate the Argo CD ApplicationSets and Flux Kustomizations"
    )
    multikueue: MultiKueue | None = Field(
        default=None,
        description="§11: a MultiKueue manager cluster of this project in front of worker clusters",
    )
    priorityTiers: list[Tier] = Field(
        default_factory=list,
        description="R50: priority tiers beside TauGrid's default (1000) and priority (1200), each a "
        "PriorityClass and a WorkloadPriorityClass taugrid-<name> in every cluster",
    )

    @property
    def tiers(self) -> Tiers:
        """TauGrid's two priority tiers and the declared ones (R50)."""
        return Tiers.of(self.priorityTiers)

    @model_validator(mode="after")
    def _output_in_repository(self) -> Self:
        """Argo CD and Flux name folders by their path in the repository: out/ must lie in it."""
        if self.gitops is not None and repo_folder(self.gitops, self.output) is None:
            raise invalid(
                f"output {self.output!r} is not a folder inside the repository (gitops.path "
                f"{self.gitops.path!r})",
                "write `output:` relative to taugen.yaml, inside the repository",
            )
        return self
