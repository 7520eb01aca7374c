"""The project file `taugen.yaml` (SPEC §1.1)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from taugen.models.base import API_VERSION, DNSLabel, DNSSubdomain, Duration, StrictModel, name_limit

QueueName = Annotated[DNSSubdomain, name_limit(63, "LocalQueue")]


class Tenant(StrictModel):
    namespace: DNSLabel = Field(description="Namespace that may submit work (gets a LocalQueue)")
    localQueue: QueueName = "taugrid"


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


class Project(StrictModel):
    apiVersion: Literal["taugen.tau.azure.com/v1alpha1"] = API_VERSION
    kind: Literal["Project"]
    output: str = Field(default="out", min_length=1)
    profiles: list[Annotated[str, Field(min_length=1)]] | None = Field(
        default=None, description="Profile files or folders; default: the built-in profiles"
    )
    clusters: list[Cluster] = Field(min_length=1)
