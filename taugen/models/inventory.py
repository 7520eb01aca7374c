"""Inventory in its two accepted forms (SPEC §1.2)."""

from __future__ import annotations

from typing import Literal

from pydantic import AwareDatetime, Field, StrictBool

from taugen.models.base import (
    API_VERSION,
    DNSSubdomain,
    LooseModel,
    Metadata,
    QuantityField,
    StrictModel,
)
from taugen.models.platform import GpuTaint


class InventoryNode(StrictModel):
    name: DNSSubdomain
    vmSize: str | None = None
    site: str | None = None
    ready: StrictBool = True
    allocatable: dict[str, QuantityField] = Field(default_factory=dict)
    capacity: dict[str, QuantityField] = Field(
        default_factory=dict, description="R40: what the node has, as status.capacity (optional)"
    )
    labels: dict[str, str] = Field(default_factory=dict)
    taints: list[GpuTaint] | None = Field(
        default=None, description="R39: the node's taints; omitted: not known, so not compared"
    )


class ClusterInventory(StrictModel):
    apiVersion: Literal["taugen.tau.azure.com/v1alpha1"] = API_VERSION
    kind: Literal["ClusterInventory"]
    metadata: Metadata
    observedAt: AwareDatetime
    site: str | None = None
    nodes: list[InventoryNode]


# `kubectl get nodes -o yaml|json`: written by the API server, so only the fields read.


class NodeCondition(LooseModel):
    type: str
    status: str
    lastHeartbeatTime: AwareDatetime | None = None


class NodeMetadata(LooseModel):
    name: DNSSubdomain
    labels: dict[str, str] = Field(default_factory=dict)


class KubeTaint(LooseModel):
    key: str
    value: str = ""
    effect: str


class NodeSpec(LooseModel):
    unschedulable: StrictBool = False
    taints: list[KubeTaint] = Field(default_factory=list)


class NodeStatus(LooseModel):
    allocatable: dict[str, QuantityField] = Field(default_factory=dict)
    capacity: dict[str, QuantityField] = Field(default_factory=dict)
    conditions: list[NodeCondition] = Field(default_factory=list)


class KubeNode(LooseModel):
    kind: Literal["Node"] = "Node"
    metadata: NodeMetadata
    spec: NodeSpec = NodeSpec()
    status: NodeStatus = NodeStatus()


class NodeList(LooseModel):
    apiVersion: str = "v1"
    kind: Literal["List", "NodeList"]
    items: list[KubeNode]
