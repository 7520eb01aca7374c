"""The project file `taugen.yaml` (SPEC §1.1)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any, ClassVar, Literal, Self

from pydantic import (
    BeforeValidator,
    Discriminator,
    Field,
    GetJsonSchemaHandler,
    StrictBool,
    StrictInt,
    Tag,
    model_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema

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
from taugen.models.gitops import GitOps, repo_folder
from taugen.models.multikueue import MultiKueue
from taugen.models.platform import DEFAULT_GPU_TAINTS, GpuTaint, TopologyLabels, TopologyPreset
from taugen.models.share import ClassKey, Share

QueueName = Annotated[DNSSubdomain, name_limit(63, "LocalQueue")]
Count = Annotated[StrictInt, Field(ge=0, le=MAX_MAGNITUDE)]  # issue 17 item 7: an int64, as Kubernetes
DEFAULT_SHARD_SIZE = 2000  # SPEC G1
# A Flux inventory entry is under 100 bytes: 5,000 keep a shard's Kustomization far below 1 MiB
MAX_SHARD_SIZE = 5000
KAI_QUEUE_LABEL = "kai.scheduler/queue"  # K4: KAI's default; Run:ai installs use runai/queue


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


class Scheduler(StrEnum):  # the closed key of taugen/schedulers/registry.py: one per package
    KUEUE = "kueue"
    KAI = "kai"


@dataclass(frozen=True)
class Capabilities:
    """What a cluster's scheduler supports, read where the project is checked and compiled."""

    cohorts: bool  # a guaranteed tenant gets its own queue in the cluster's cohort (T2)
    lending_limits: bool  # a tenant's lendingLimit can be expressed (T2; KAI cannot, T7)
    slices: bool  # policy.slice and a JobSet job's own topology or slice (S3, K6)
    multikueue: bool  # a MultiKueue manager or worker (M3)
    queue_health: bool  # Flux health checks on its queue kinds (G6)


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


class ClusterBase(StrictModel):
    """What every scheduler's cluster entry has; `KueueCluster` and `KaiCluster` add the rest."""

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
    gpuNodeTaints: Annotated[list[GpuTaint], Field(max_length=8)] = Field(
        default_factory=lambda: list(DEFAULT_GPU_TAINTS),
        description="R39: the taints the GPU nodes carry (default sku=gpu:NoSchedule, R24)",
    )


KAI_FIELDS = ("queueLabelKey", "grove")
# R25's covered resources: an extra resource cannot be one of them (a resource is in one group only)
FIXED_RESOURCES = ("cpu", "memory", "nvidia.com/gpu", "tau.azure.com/torchrun-host-slot")
MAX_EXTRA = 60  # Kueue: 64 covered resources per resource group, less R25's four


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


class KueueCluster(ClusterBase):
    capabilities: ClassVar[Capabilities] = Capabilities(
        cohorts=True, lending_limits=True, slices=True, multikueue=True, queue_health=True
    )
    tenants: list[Tenant] = Field(min_length=1)
    extraResources: Annotated[list[ExtraResource], Field(max_length=MAX_EXTRA)] = Field(
        default_factory=list,
        description="R44: device-plugin resources runs may request (names, or prefixes ending in /), "
        "covered by the ClusterQueue with the GPU nodes' allocatable as quota",
    )
    scheduler: Literal[Scheduler.KUEUE] = Field(
        default=Scheduler.KUEUE, description="kueue (SPEC §3, the default) or kai (SPEC §8)"
    )

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


class KaiCluster(ClusterBase):
    capabilities: ClassVar[Capabilities] = Capabilities(
        cohorts=False, lending_limits=False, slices=False, multikueue=False, queue_health=False
    )
    tenants: list[KaiTenant] = Field(min_length=1)
    scheduler: Literal[Scheduler.KAI] = Field(description="kai (SPEC §8)")
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


def _scheduler_of(value: Any) -> str | None:
    """The variant's tag: `scheduler`, kueue when omitted; None (an error) for an unknown one."""
    found = value.get("scheduler", "kueue") if isinstance(value, dict) else getattr(value, "scheduler", None)
    return f"[{found}]" if found in tuple(Scheduler) else None


class _SchemaByScheduler:
    """The JSON Schema of the union: if `scheduler: kai` then KAI's entry, ..., else Kueue's (the
    default). Unlike a oneOf, a validator then reports the chosen variant's own errors."""

    def __get_pydantic_json_schema__(
        self, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        default, *others = handler(schema)["oneOf"]  # in the order of the union, the default first
        found: JsonSchemaValue = default
        for key, variant in reversed(list(zip(list(Scheduler)[1:], others, strict=True))):
            choose = {"properties": {"scheduler": {"const": key.value}}, "required": ["scheduler"]}
            found = {"if": choose, "then": variant, "else": found}
        return found


_KEYS = " or ".join(repr(key.value) for key in Scheduler)

# The union lists the variants in the order of Scheduler, the default (kueue) first. The tags carry
# brackets: load/validate.py drops a union's tag from an error's path as it does pydantic's other
# markers, so a position stays the key's in taugen.yaml.
Cluster = Annotated[
    Annotated[KueueCluster, Tag("[kueue]")] | Annotated[KaiCluster, Tag("[kai]")],
    Discriminator(
        _scheduler_of,
        custom_error_type="scheduler_enum",
        custom_error_message=f"scheduler: Input should be {_KEYS}",
        custom_error_context={"expected": _KEYS},
    ),
    _SchemaByScheduler(),
]


class Project(StrictModel):
    apiVersion: Literal["taugen.tau.azure.com/v1alpha1"] = API_VERSION
    kind: Literal["Project"]
    output: ProjectPath = "out"
    profiles: list[ProjectPath] | None = Field(
        default=None, description="Profile files or folders; default: the built-in profiles"
    )
    clusters: list[Cluster] = Field(min_length=1)
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
