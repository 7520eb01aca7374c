"""The project file `taugen.yaml` (SPEC §1.1)."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal, Self

from pydantic import BeforeValidator, Field, StrictBool, StrictInt, model_validator

from taugen.models.base import (
    API_VERSION,
    DNSLabel,
    DNSSubdomain,
    Duration,
    StrictModel,
    invalid,
    name_limit,
)
from taugen.models.platform import DEFAULT_GPU_TAINTS, Taint, TopologyLabels, TopologyPreset
from taugen.names import label_key_error, label_value_error
from taugen.quantity import MAX_MAGNITUDE

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


class Scheduler(StrEnum):
    KUEUE = "kueue"
    KAI = "kai"


class Tenant(StrictModel):
    namespace: DNSLabel = Field(description="Namespace that may submit work (gets a LocalQueue)")
    localQueue: QueueName = "taugrid"
    gpuQuota: Count = Field(default=0, description="scheduler kai: the leaf Queue's deserved GPUs (K2)")
    weight: Count = Field(default=1, description="scheduler kai: the leaf Queue's overQuotaWeight (K2)")


class Cluster(StrictModel):
    name: DNSLabel = Field(description="Names the output folder out/<name>/")
    inventory: str = Field(min_length=1, description="ClusterInventory or kubectl NodeList file")
    rules: list[Annotated[str, Field(min_length=1)]] = Field(
        default_factory=list, description="Files holding extraNodeLabelRules"
    )
    clusterQueue: DNSSubdomain = "taugrid"
    tenants: list[Tenant] = Field(min_length=1)
    maxInventoryAge: Duration | None = Field(
        default=None, description="An older inventory observedAt fails closed (R31)"
    )
    scheduler: Scheduler = Field(default=Scheduler.KUEUE, description="kueue (SPEC §3) or kai (SPEC §8)")
    nodeLabels: Literal["node", "nfd"] = Field(
        default="node",
        description="node: partial Nodes (R29); nfd: node-feature-discovery NodeFeatureRules, same labels",
    )
    shardSize: Annotated[StrictInt, Field(ge=1, le=MAX_SHARD_SIZE)] = Field(
        default=DEFAULT_SHARD_SIZE,
        description="G1: at most this many node-label objects per shard (out/<name>/nodes/<shard>/)",
    )
    queueLabelKey: LabelKey = Field(
        default=KAI_QUEUE_LABEL, description="scheduler kai: the pod label naming the queue (K4)"
    )
    grove: StrictBool = Field(
        default=False, description="scheduler kai: also emit Grove's ClusterTopologyBinding (§8)"
    )
    site: Annotated[str, BeforeValidator(_site)] | None = Field(
        default=None, description="R41: the site of nodes neither they nor the inventory place"
    )
    topologyLabels: TopologyPreset | TopologyLabels = Field(
        default="default", description="R37: a preset (default, eks, gke, nvidia) or the label keys to read"
    )
    gpuNodeTaints: Annotated[list[Taint], Field(max_length=8)] = Field(
        default_factory=lambda: list(DEFAULT_GPU_TAINTS),
        description="R39: the taints the GPU nodes carry (default sku=gpu:NoSchedule, R24)",
    )

    @model_validator(mode="after")
    def _kai_fields_need_kai(self) -> Self:
        """gpuQuota, weight, queueLabelKey and grove mean nothing to Kueue: refuse, not ignore."""
        if self.scheduler == Scheduler.KAI:
            return self
        used = sorted({f for t in self.tenants for f in t.model_fields_set & {"gpuQuota", "weight"}})
        used += sorted(self.model_fields_set & {"queueLabelKey", "grove"})
        if used:
            raise invalid(
                f"cluster {self.name} sets {', '.join(used)}, which only scheduler kai reads",
                "add `scheduler: kai` to the cluster, or remove them",
                rule="K2",
            )
        return self


class Project(StrictModel):
    apiVersion: Literal["taugen.tau.azure.com/v1alpha1"] = API_VERSION
    kind: Literal["Project"]
    output: str = Field(default="out", min_length=1)
    profiles: list[Annotated[str, Field(min_length=1)]] | None = Field(
        default=None, description="Profile files or folders; default: the built-in profiles"
    )
    clusters: list[Cluster] = Field(min_length=1)
